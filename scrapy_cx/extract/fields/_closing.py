"""Bylines after the text: a closing line ("（记者 王燕）", "Text: Anna Berg") and the
author's box ("Written by Ann Lee", "Ann Lee" over "Author"), read where the headline's
byline, the metadata and the marks named no one.
"""

from __future__ import annotations

import re

from ..page import Page
from ..parse.lines import Line
from ._bylines import BY_VERB, LATIN_STOP, MAX_LINE, capitalized, cjk_names, is_credit
from ._declared import declared_names
from ._names import CJK_ROLE, MAX_NAMES, MAX_WORDS, NAME_SPLIT, TITLE_WORDS, clean_name, names_in

TAIL_SCAN = 3  # lines at the end of the text looked at for a closing byline


_TAIL_LABEL = re.compile(
    r"^[(（\[【]\s?(?:" + CJK_ROLE + r")|^(?:" + CJK_ROLE + r")\s?[:：/／\s]"
    r"|^(?:text|texte|autor(?:in)?|author|auteure?|reporting by|written by|by|von|par)\s?[:：]?\s",
    re.I,
)


_CLAUSE = re.compile(r"[;；]")  # a closing byline's names end at its first clause


def tail_authors(
    lines: list[Line], main_end: int, sites: frozenset[str] = frozenset()
) -> list[str]:
    """A byline closing the text: "（记者 王燕 通讯员 李强）", "Text: Anna Berg"."""
    for line in lines[max(0, main_end - TAIL_SCAN) : main_end + 1]:
        text = line.text
        label = _TAIL_LABEL.search(text)
        if line.length > MAX_LINE // 2 or label is None or is_credit(text):
            continue
        if text.isascii() and not text[label.end() :].lstrip()[:1].isupper():
            continue  # "By now, you know ...": a sentence; a closing byline names a Name
        names = cjk_names(text) if not text.isascii() else []
        if not names:
            names = names_in(_CLAUSE.split(text, maxsplit=1)[0].strip("()（）[]【】"), sites)
        names = [n for n in (clean_name(n, sites) for n in names) if n]
        if names:
            return names[:MAX_NAMES]
    return []


_BOX_SCAN = 10  # lines after the text where its author's box may be
# The label of the author's box after the text: "Written by Ann Lee", "This post was
# written by Ann Lee, Head of ...", "About the Author: Ann", "Published by", "By: Ann Lee".
_BOX_LABEL = re.compile(
    r"^(?:(?:this\s(?:post|article|story|guide|piece)\s(?:was\s)?)?"
    + BY_VERB
    + r"|about\s+the\s+author|by)\s?:?\s",
    re.I,
)


def box_authors(page: Page, sites: frozenset[str]) -> tuple[list[str], int] | None:
    """The names of the author's box right after the text (:data:`_BOX_LABEL`), and its
    line: two to five capitalized words, or one the page declares as its author ("About
    the Author: Tom", the author tag "Tom")."""
    lines, end = page.lines, page.end
    declared = {name.casefold() for name in declared_names(page)}
    for i in range(max(page.start, end - TAIL_SCAN), min(len(lines), end + _BOX_SCAN)):
        text = lines[i].text
        label = _BOX_LABEL.match(text)
        if label is None or lines[i].length > MAX_LINE or is_credit(text):
            continue
        rest = text[label.end() :]
        stop = LATIN_STOP.search(rest)
        names = []
        for part in NAME_SPLIT.split(rest[: stop.start()] if stop else rest):
            words = part.split()
            if words and words[0].casefold() in TITLE_WORDS:
                break  # "Ann Lee, Head of Marketing and Sales": her role, to the end
            if 2 <= len(words) <= MAX_WORDS and capitalized(words):
                names.append(" ".join(words))
            elif len(words) == 1 and words[0].casefold() in declared:
                names.append(words[0])
        names = [n for n in (clean_name(n, sites) for n in names) if n]
        if names:
            return names[:MAX_NAMES], i
    for i in range(max(page.start, end - _BOX_IN_TEXT), min(len(lines) - 1, end + _BOX_SCAN)):
        name = _boxed_name(lines[i].text.strip(), lines[i + 1].text)
        name = clean_name(name, sites) if name else None
        if name:
            return [name], i
    return None


_BOX_IN_TEXT = 20  # lines at the end of the text where its author's box may be
_BOX_ROLE = re.compile(r"(?:author|writer|editor|contributor|reporter|journalist)s?:?", re.I)
# How a box's bio goes on after the name: "Ann Lee is a ...", "Ann, as an editor ..."
_BIO_VERB = re.compile(
    r"(?:\s(?:is|was)\s(?:a|an|the)\b|\s(?:writes|covers|joined)\b|,\s(?:a|an|as|the)\b)"
)


def _boxed_name(text: str, following: str) -> str | None:
    """The name a line of the author's box holds alone, where the next line names its role
    ("Ann Lee" / "Author") or opens the bio with it ("Ann Lee" / "Ann Lee is a writer ...")."""
    words = text.split()
    if not 1 <= len(words) <= 4 or not capitalized(words) or not text.replace(" ", "").isalpha():
        return None
    if len(words) > 1 and _BOX_ROLE.fullmatch(following.strip()):
        return text
    if following.startswith(text) and _BIO_VERB.match(following, len(text)):
        return text  # (the whole name: "Copper Pipes" / "Copper is a metal" is a section)
    return None

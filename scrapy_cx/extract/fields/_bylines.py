"""Bylines next to the headline: a labelled line ("By Ann Lee", "作者：王燕"), a poster's
handle, a bare name over a date or a role, a line showing a marked author, a team.

Each reader looks at a few short lines under the headline (or above the text) only:
a name elsewhere is a mention, a caption's credit or a heading, not the byline.
"""

from __future__ import annotations

import re

from ..page import Page
from ..parse.lines import Line
from ..parse.meta import lower_for_search
from ._names import (
    CJK_NAME,
    CJK_ROLE,
    CJK_ROLE_ONLY,
    FUNCTION_WORDS,
    MAX_NAME,
    MAX_NAMES,
    MAX_WORDS,
    NAME_SPLIT,
    NOT_NAME,
    NOT_WRITER,
    ORG_SUFFIX,
    PARTICLES,
    ROLE_TAIL,
    TITLE_WORDS,
    clean_name,
    may_end_in_role,
    names_in,
)

BYLINE_SCAN = 6  # lines under the headline (or above the text) looked at
_BARE_SCAN = 3  # lines under the headline where a bare name counts
_TEXT_SCAN = 5  # lines of the text's start where a byline may be
_CAPTION_TAGS = ("figcaption", "caption")  # a name in them is a credit
MAX_LINE = 200  # a longer line is prose, not a byline


_LATIN_LABEL = re.compile(
    r"(?:^|[|·•(（]\s?|\s)(?:(?:written|authored|posted|reported|words|reporting|text|story|recipe|"
    r"article)\s+by|thread\sstarter|topic\sstarter|started\sby|"
    r"by|von|"
    r"par|por|di|door|av)(?::\s?|\s+|(?-i:(?=[A-Z][a-z])))(?=\S)"
    r"|(?:^|[|·•(（]\s?|\s)(?:autor(?:in)?|author|auteure?|texte?|verfasser(?:in)?|contributors?)"
    r"\s?:\s?(?=\S)",
    re.I,
)
# Two to four words, each opening with a letter: the shape of a bare name.
_NAME_WORDS = r"[^\W\d_][\w.'’-]*(?:\s[^\W\d_][\w.'’-]*){1,3}"
# A bare name under the headline counts only when a date, an age or a separator follows it.
_BARE_NAME = re.compile(
    rf"^(?P<name>{_NAME_WORDS})"
    r"(?=\s?(?:[–—•·|/]|-(?!\w)|\d|,\s?\w+\s\d|,\s?@|$))"
)
# A bare name and its role, alone on the line: "Sarah Lin, Business correspondent"
# (the role read by ROLE_TAIL: a role alone is never a name).
_NAME_ROLE = re.compile(rf"^(?P<name>{_NAME_WORDS})(?=,\s)")
# The same after a date and a separator: "18/03/2019 | André Mindermann".
# (a month's word may open the date, "Dec 26, 2025 • Mahua Das"; the post's category may
# close the line, "... in Project Management")
_NAME_AFTER_DATE = re.compile(
    r"^(?:\S*\d\S*|[^\W\d_]{3,9}\.?)(?:\s\S*\d\S*){0,2}\s?[|·•]\s?"
    rf"(?P<name>{_NAME_WORDS})(?:$|(?=\sin\s[A-Z][\w&' -]*$))"
)
# A month word ends a name only before a day or a year ("Ann Lee May 5"): "Jan", "May"
# and "June" are given names too ("Door Jan de Vries").
MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTH_WORDS = MONTHS + r"(?=\.?\s?\d)|" + WEEKDAYS
# Where a Latin byline's names end: a date, a separator, a role, a time.
LATIN_STOP = re.compile(
    # (a sentence's full stop: "StarredSkies. Edited 1 time", not "Ann B. Lee", "Jr. ")
    r"\d|[|·•⋅∙●—–(（/\n;»]|\s-\s|(?-i:(?<=[a-z][a-z]))\.\s|"
    r"\b(?:on|at|for|in|updated|published|posted|photo|photos|reporter|"
    r"correspondent|editor|staff|writer|contributor|senior|analyst|follow|email|twitter|"
    r"aktualisiert|veröffentlicht|mis à jour|publié|le|am|um|vom|erstellt|geändert|zuletzt|last|"
    + _MONTH_WORDS
    + r")\b"
    # ... or such a word glued on by the markup: "Amanda FurrerUpdated Dec 19".
    + r"|(?-i:(?<=[a-z])(?:Updated|Published|Posted|Erstellt|Aktualisiert|"
    r"January|February|March|April|June|July|August|September|October|November|December))",
    re.I,
)
# (the lowercase letter of "McDonald" / "MacDonald" follows "M" / "Ma")
_INNER_CAPITAL = re.compile(r"(?<!^M)(?<!^Ma)[a-z][A-Z]")
_CJK_LABEL = re.compile(r"(?:" + CJK_ROLE + r")\s?[:：/／|●・]\s?|(?:" + CJK_ROLE + r")\s")
# Every role holds an ideograph: a line without one has no CJK label (a quick search
# first: _CJK_LABEL tries every role at every character).
_IDEOGRAPH = re.compile("[\u4e00-\u9fff]")
# Where the names after a byline label end: another field's label (a known one,
# or a word before a colon and a number or a control: "点击数：1862", "字体：[大"),
# a digit, a bracket. (A name before a colon and words is a name and its
# affiliation: "赵培：北京物资学院".)
_CJK_STOP = re.compile(
    r"来源|來源|出处|时间|時間|日期|发布|發布|责任|責任|编辑|編輯|责编|摄影|攝影|报道|報道|"
    r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,6}\s?[:：]\s?[\d\[【(（]|\d|[|（(【\[:：]"
)
# A photo credit: "记者 何俊 摄", "（图/王建国）", "Photo: Ann Lee", "Foto: dpa".
_CREDIT = re.compile(
    r"摄$|摄[）)]|攝$|[（(]?图[/／:：]|圖[/／:：]|写真[:：/／]|^(?:photo|photos|photograph|image|foto|"
    r"fotos|bild|credit|illustration|video)\b|(?:photo|image|illustration|foto)s?\s(?:by|von|par)\b|"
    r"getty|shutterstock|/\s?(?:AP|AFP|EPA|Reuters|dpa|Imago)\b|\bvia\s(?:AP|Getty)",
    re.I,
)
# What a line _CREDIT matches holds, lower-cased (meta.lower_for_search: None for a
# line whose characters the case-blind match folds otherwise): one of its words or a
# CJK credit's character. A search for them leaves out most lines before _CREDIT's
# slower case-blind search.
_CREDIT_HINT = re.compile(
    "photo|image|foto|bild|credit|illustration|video|getty|shutterstock|/|via|[摄攝图圖写]"
)


def _latin_names(text: str) -> list[str]:
    m = _LATIN_LABEL.search(text)
    if m is None:
        return []
    before = text[: m.start()].lower()
    if m.start() > 0 and text[m.start()] == " " and not before.startswith(_POSTED):
        if _AFTER_FIELD.search(before) is None:
            return []  # "by" inside a sentence ("a study by ...") is no byline
    rest = text[m.end() :]
    if m.start() == 0 and _HANDLE_LABEL.match(m.group()):
        handle = _handle(rest)
        if handle:
            return [handle]
    stop = LATIN_STOP.search(rest)
    if stop is not None:
        rest = rest[: stop.start()]
    names: list[str] = []
    posted = before.startswith(_POSTED) and not before.startswith("updated")
    for part in NAME_SPLIT.split(rest):
        words = part.split()
        if posted and len(words) == 1 and words[0].isalnum():
            names.append(words[0])  # "Posted on 2019-04-13 by doumae": a user name
            continue
        if not 2 <= len(words) <= MAX_WORDS:
            continue
        if all(w[0].isupper() or w.lower() in PARTICLES for w in words if w):
            names.append(" ".join(words).strip(" ,.;:"))
    return names


# Labels that open a line and may name a poster by one word ("by Amanda · Dec 20",
# "Thread starter lulug30", "by changingtimes » Sat Feb 24").
_HANDLE_LABEL = re.compile(r"(?:by|thread\sstarter|topic\sstarter|started\sby)\b", re.I)
# The one word after the label: "lulug30", "Amanda", "J.D.", "A".
_HANDLE_WORD = re.compile(r"[^\W_][\w.-]*[^\W_.-]|[^\W\d_]")
_MONTH_WORD = re.compile(MONTHS, re.I)
# What follows such a one-word name: the line's end, a separator, a date.
_AFTER_HANDLE = re.compile(r"\s?(?:$|[|·•⋅∙—–»]|(?:on|at|start\sdate)\s|,?\s?\d)", re.I)
# A month the markup glued to the handle: "thegrangehallFebruary 8, 2024".
_GLUED_MONTH = re.compile(
    r"(?<=[a-z])(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)$"
)


def _handle(rest: str) -> str | None:
    """The one word after a line's own label, where a field or nothing follows it: a
    poster's handle or first name. Not a sentence's word ("By continuing to use ...")
    nor a month or a weekday."""
    m = _HANDLE_WORD.match(rest)
    if m is None or _AFTER_HANDLE.match(rest, m.end()) is None:
        return None
    word = _GLUED_MONTH.sub("", m.group())
    if not HANDLE.fullmatch(word) or word.isdigit() or NOT_NAME.match(word):
        return None  # (NOT_NAME holds the weekdays, long and short)
    if _MONTH_WORD.fullmatch(word):
        return None
    return word


# What ends the field before a byline's "by" / "von" / "Author:" sharing its line: a
# separator ("Nov 26, 2026 — by"), a date or a time ("23.11.2026 02:00 Uhr – Von",
# "16:00  Author:"). A sentence's "by" follows a word.
_AFTER_FIELD = re.compile(r"(?:[—–|·•/-]|\d|\d\s?(?:uhr|h|[ap]\.?m\.?|gmt|utc|[a-z]{2,4}t))\s*$")


# What a byline line starts with before its "by" / "von" / "par" ("Veröffentlicht am Juli 9,
# 2016 von mywakenews", "Ein Artikel von Pamela Sladky"): a label, so the "by" is no
# sentence's, and a one-word user name after it is a name.
_POSTED = (
    "posted", "published", "updated", "veröffentlicht", "publiziert", "eingestellt", "erstellt",
    "verfasst", "geschrieben", "eingetragen", "ein artikel", "ein beitrag", "artikel", "beitrag",
    "publié", "posté", "écrit", "publicado", "escrito", "pubblicato", "scritto",
)  # fmt: skip


# What separates the names after a CJK label: spaces, commas, slashes, a closing bracket.
_CJK_PARTS = re.compile(r"[\s、，,/／）)\]】]+")


def cjk_names(text: str) -> list[str]:
    names: list[str] = []
    if _IDEOGRAPH.search(text) is None:
        return names
    for m in _CJK_LABEL.finditer(text):
        rest = text[m.end() :]
        stop = _CJK_STOP.search(rest)
        nxt = _CJK_LABEL.search(rest)
        cut = min(s.start() for s in (stop, nxt) if s is not None) if (stop or nxt) else len(rest)
        parts = _CJK_PARTS.split(rest[:cut].strip())[:MAX_NAMES]
        if 2 <= len(parts) <= 3 and all(len(p) == 1 and "\u4e00" <= p <= "\u9fff" for p in parts):
            parts = ["".join(parts)]  # "赵 培": a two-character name spaced out
        for part in parts:
            if part and CJK_NAME.fullmatch(part) and not CJK_ROLE_ONLY.match(part):
                if not ORG_SUFFIX.search(part) or len(part) <= 2:
                    names.append(part)
        if len(names) >= MAX_NAMES:
            break
    return names


def is_credit(text: str) -> bool:
    """Whether a line is a photo credit (:data:`_CREDIT`)."""
    lowered = lower_for_search(text)
    if lowered is not None and _CREDIT_HINT.search(lowered) is None:
        return False
    return _CREDIT.search(text) is not None


def capitalized(words: list[str]) -> bool:
    """Each word opens with a capital and glues no second one on ("FinanceOctober")."""
    return all(w[0].isupper() and not _INNER_CAPITAL.search(w) for w in words)


def _bare_name(line: Line) -> list[str]:
    """ "Dan Goodin - Apr 16, 2015", "Alex Perry 1 day ago", <address>Mike Conley</address>."""
    text = line.text
    m = _BARE_NAME.match(text) or _NAME_AFTER_DATE.match(text) or _name_role(text)
    if m is None or (line.tag != "address" and m.re is _BARE_NAME and m.end() == len(text)):
        return []
    name = m.group("name")
    words = name.split()
    if not capitalized(words):
        return []  # "Yahoo FinanceOctober": words glued by the markup, not a name
    stop = LATIN_STOP.search(text, m.start("name"))
    if stop is not None and stop.start() < m.end("name"):
        # "Mike Kappel May 18, 2016": a month before its day ends the name; a digit
        # inside a word ("Couture SS14") ends none
        name = text[m.start("name") : stop.start()].strip()
        starts_word = text[stop.start() - 1 : stop.start()].isspace()
        return [name] if starts_word and len(name.split()) > 1 else []
    return [name]


# A line that is a date alone ("December 17, 2025", "02-12-2025", "2025-12-17·",
# "Updated Oct 8, 2025") or a reading time ("9 min read"): what a byline's name
# line sits next to when the markup puts each field on a line of its own.
_DATE_LINE = re.compile(
    r"^(?:(?:updated|published|posted|on)\s)?(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|"
    + MONTHS
    + r"\.?\s?\d{1,2}(?:st|nd|rd|th)?,?\s\d{4}|"
    r"\d{1,2}\.?\s(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s\d{4}|"
    r"\d{1,3}\s?min(?:ute)?s?\s(?:read|reading))"
    r"(?:,?\s\d{1,2}[:.]\d{2}\s?(?:[ap]\.?m\.?)?)?\W{0,3}$",  # (a time: "30 Sep 2022, 11:07am")
    re.I,
)
_MAX_DATE_LINE = 40
# A name alone on its line: two to four capitalized words.
_LONE_NAME = re.compile(_NAME_WORDS)


def _name_over_date(lines: list[Line], i: int, window: range) -> list[str]:
    """A name alone on line ``i`` whose next or previous line is a date alone ("Luke
    Kim" / "December 17, 2025"): the byline's fields, each on a line of its own."""
    text = lines[i].text.strip()
    words = text.split()
    if _LONE_NAME.fullmatch(text) is None:
        return []
    if not capitalized(words):
        return []  # "Digital OrganizationOffice": menu items glued by the markup
    for j in (i + 1, i - 1):
        if j in window and lines[j].length <= _MAX_DATE_LINE:
            if _DATE_LINE.match(lines[j].text.strip()):
                return [text]
    if i + 1 < len(lines) and _role_line(lines[i + 1].text.strip()):
        return [text]  # "Harry Rabinowitz" / "Tech Reporter"
    return []


def _role_line(text: str) -> bool:
    """Whether a line is a job title alone: "Tech Reporter", "Writer", "Licensed Q Arabica
    Grader, M.A. Journalism"."""
    if not text or len(text) > MAX_NAME:
        return False
    first = text.split()[0].casefold().strip(",")
    if first in TITLE_WORDS:
        return True
    return may_end_in_role(text) and ROLE_TAIL.fullmatch(text) is not None


def _name_role(text: str) -> re.Match[str] | None:
    """A name whose line goes on with a role alone ("Sarah Lin, Business correspondent")."""
    m = _NAME_ROLE.match(text)
    if m is None or not may_end_in_role(text) or ROLE_TAIL.match(text, m.end()) is None:
        return None
    return m


def _marked(text: str, marks: list[str], sites: frozenset[str]) -> list[str]:
    """Names of the page's author-marked elements that this line shows."""
    for mark in marks:
        if mark in text:
            names = names_in(mark, sites)
            if names:
                return names
    return []


def _line_names(line: Line, marks: list[str], sites: frozenset[str]) -> list[str]:
    text = line.text
    if line.tag in _CAPTION_TAGS or is_credit(text):
        return []
    if text.isascii():
        names = _latin_names(text)
    else:
        names = cjk_names(text) or _latin_names(text)
    names = [n for n in (clean_name(n, sites) for n in names) if n]
    return names or _marked(text, marks, sites)


# A byline's label on a line of its own, the name on the next: "By" / "Chris Thompson",
# "Article by:" / "Cara Dumaplin".
_LABEL_ALONE = re.compile(
    r"(?:(?:written|authored|posted|article|recipe|story)\s)?by\s?:?|von|par|author\s?:", re.I
)


def byline_authors(
    lines: list[Line],
    headline: int | None,
    main_start: int,
    marks: list[str] | None = None,
    sites: frozenset[str] = frozenset(),
    bare: bool = True,
) -> list[str]:
    """Names from the byline next to the headline, or an empty list.

    ``marks`` are the texts of elements the page marks as its author: a line
    showing one is a byline even without a label ("Gina TrapaniCEO"). With ``bare``,
    a name alone followed by a date ("Dan Goodin - Apr 16, 2015") counts too.
    """
    marks = marks or []
    window = byline_window(lines, headline, main_start)
    for i in window:
        line = lines[i]
        if line.length > MAX_LINE:
            continue
        names = _line_names(line, marks, sites)
        if not names and _LABEL_ALONE.fullmatch(line.text.strip()) and i + 1 < window.stop:
            names = names_in(lines[i + 1].text, sites)  # "By" / "Chris Thompson" on two lines
            if not capitalized(" ".join(names).split()) and i + 2 < window.stop:
                # "By" / "Wedding ChecklistsJust Engaged" (tags glued) / "Naoise McNally"
                names = names_in(lines[i + 2].text, sites)
        if bare and not names and _bare_line(headline, i) and not not_byline(line):
            names = _bare_names(lines, i, window, sites)
        if names:
            return names[:MAX_NAMES]
    return []


def _bare_names(lines: list[Line], i: int, window: range, sites: frozenset[str]) -> list[str]:
    """The clean names of line ``i`` shown bare: before a date or a separator
    (:func:`_bare_name`) or alone over a date or a role (:func:`_name_over_date`)."""
    found = _bare_name(lines[i]) or _name_over_date(lines, i, window)
    return [n for n in (clean_name(n, sites) for n in found) if n]


def unlabelled_byline(
    lines: list[Line],
    headline: int | None,
    main_start: int,
    marks: list[str],
    sites: frozenset[str] = frozenset(),
) -> list[str]:
    """``byline_authors(lines, headline, main_start, marks, sites)``, where the same
    call with no marks and not ``bare`` found nothing: no line of the window holds a
    labelled byline (nor a "By" over a name), so only the lines showing a mark and
    the bare names are left to read; not the labels again."""
    window = byline_window(lines, headline, main_start)
    for i in window:
        line = lines[i]
        if not_byline(line):
            continue
        if NOT_WRITER.match(line.text):
            continue  # "Reviewed by: <a class=author>...": the reviewer's mark
        names = _marked(line.text, marks, sites)
        if not names and _bare_line(headline, i):
            names = _bare_names(lines, i, window, sites)
        if names:
            return names[:MAX_NAMES]
    if headline is not None:  # over the headline: "Rachel MacDonald" / "Writer" / "12/11/25"
        above = range(max(0, headline - _BARE_SCAN), headline)
        title = lines[headline].text.casefold()
        for i in above:
            if lines[i].text.strip().casefold() in title:
                continue  # the headline's copy over its date
            found = _name_over_date(lines, i, above)
            names = [n for n in (clean_name(n, sites) for n in found) if n]
            if names:
                return names
    return []


def full_name(
    names: list[str], lines: list[Line], window: range, sites: frozenset[str]
) -> list[str]:
    """A byline's lone first name ("Stefanus", the author's link) as the full name a
    line of the byline's window opens with ("Stefanus Stahl - Maschinenbauer, ...":
    the author's box under it), read as :func:`_bare_name` reads a bare name:
    capitalized words, then a separator or a date. Anything else (a sentence that
    opens with the name), and a byline of several or of full names, as it is.
    (trafilatura_dev's mtb-news page labels the box's "Stefanus Stahl"; its byline,
    og and JSON-LD say "Stefanus".)"""
    if len(names) != 1 or not names[0].isalpha() or not names[0][:1].isupper():
        return names
    opening = names[0] + " "
    for i in window:
        line = lines[i]
        if line.length > MAX_LINE or not line.text.startswith(opening):
            continue
        found = _bare_name(line)
        full = clean_name(found[0], sites) if found else None
        if full is not None and full.startswith(opening):
            return [full]
    return names


def unglued(names: list[str], declared: list[str], sites: frozenset[str]) -> list[str]:
    """The byline's names, each cut back to the declared name it opens with where the
    markup glued the next field on ("Christian Spließin Allgemeines": "Christian
    Spließ" + "in Allgemeines", the JSON-LD author "Christian Spließ")."""
    if not declared:
        return names
    known = [n for raw in declared for n in names_in(raw, sites)]
    out = []
    for name in names:
        cut = next((k for k in known if name.startswith(k) and name[len(k) :][:1].isalpha()), None)
        # ... or a space between ("Harsh Vaibhav Global Commons": his desk), after a full name
        cut = cut or next((k for k in known if " " in k and name.startswith(k + " ")), None)
        out.append(cut or name)
    return out


def byline_window(lines: list[Line], headline: int | None, main_start: int) -> range:
    """The lines a byline is looked for in: under the headline, or above the text."""
    lo = headline + 1 if headline is not None else max(0, main_start - BYLINE_SCAN)
    return range(lo, min(len(lines), max(lo, main_start) + _TEXT_SCAN, lo + 3 * BYLINE_SCAN))


def not_byline(line: Line) -> bool:
    """Whether a line can hold no byline: prose, a caption, a photo's credit."""
    return line.length > MAX_LINE or line.tag in _CAPTION_TAGS or is_credit(line.text)


def _bare_line(headline: int | None, i: int) -> bool:
    """Whether line ``i`` may show a bare name: one of the few right under the headline."""
    return headline is not None and i <= headline + _BARE_SCAN
# The verbs of a byline's label that the site, a team or a box's writer follows.
BY_VERB = r"(?:written|authored|posted|published)\s+by"
# A declared name that is a handle: letters with digits or an underscore, one word
# ("Need2KnowLion", "q_user"), as forums show them.
HANDLE = re.compile(r"(?=.*[^\W\d_].*[^\W\d_])[\w.-]{2,30}")


# A team or a desk as the byline names it ("By Workzone Team", "The Upwork Team", "Resy
# Staff", "Team SimplyThrilled"): capitalized words, then the team word; after a label
# anywhere in the byline's window, alone on its line right under the headline.
_TEAM_LABEL = re.compile(r"(?i:" + BY_VERB + r"|by|von|author)\s?:?\s")
_TEAM = re.compile(
    r"(?P<name>(?:[Tt]he\s)?(?:[A-Z0-9][\w&'’.-]*\s){1,3}"
    r"(?:Team|Staff|Editors|Editorial\sTeam|Editorial\sStaff|News\s?[Dd]esk|Webteam)"
    r"|Team\s[A-Z][\w'’-]*)"
    r"(?=\s?(?:[–—•·|/,]|-(?!\w)|\d|$)|\s(?i:on|at|updated|published)\b)"
)


DESK_WORDS = frozenset("the editorial editors news staff team desk web reports wire".split())


def team_byline(page: Page) -> tuple[list[str], int] | None:
    """A team's byline (:data:`_TEAM`) and its line: the team the page names as its author
    (all three benchmarks' labels name it so, "Smart Shopping Team", "TMZ STAFF")."""
    lines, headline = page.lines, page.headline
    above = range(max(0, headline - 2), headline) if headline is not None else range(0)
    for i in [*above, *byline_window(lines, headline, page.start)]:
        line = lines[i]
        if not_byline(line):
            continue
        text = line.text.strip()
        label = _TEAM_LABEL.match(text)
        if label is None and not (_bare_line(headline, i) or i in above):
            continue
        m = _TEAM.match(text, label.end() if label else 0)
        if m is None:
            continue
        name = m.group("name")
        words = name.split()
        if any(w.lower() in FUNCTION_WORDS for w in words[words[0].lower() == "the" :]):
            continue  # "Our Team", "Join Our Team": a link to the staff page
        if all(w.lower() in DESK_WORDS for w in words):
            continue  # "Editorial Staff", "News Desk": a role, no one's name
        return [name], i
    return None

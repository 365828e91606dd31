"""The page language: declared, else a cheap guess from the script of the text.

A declaration is trusted unless the text plainly contradicts it: old Chinese
portals ship templates saying ``lang="en"``. The guess reads the script of a few
thousand characters, and for Latin script counts a handful of function words.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import repeat

from ..page import Page

_SAMPLE = 4000  # characters of text looked at
_WORDS = re.compile(r"[a-zà-ÿ]+")
_FUNCTION_WORDS = {
    # Words Latin also has (in, et, est, qui, non) are left out: lorem ipsum is no language.
    "en": frozenset("the and of to is that with for was this".split()),
    "de": frozenset("der die und das ist nicht mit sich den von".split()),
    "fr": frozenset("le la les des une dans pour pas sur avec".split()),
    "es": frozenset("el la los las y que del por una con".split()),
    "it": frozenset("il di che la per una sono gli della nel".split()),
    "pt": frozenset("o de que e do da não uma para os".split()),
    "nl": frozenset("de het een en van is niet dat op zijn".split()),
    "id": frozenset("yang dan di ini itu dengan untuk tidak dari dalam".split()),
}
# Codes for the scripts one language owns; Latin and Cyrillic need more than the script.
_SCRIPTS = (
    ("ja", "\u3040", "\u30ff"),  # kana (checked before Han: Japanese mixes both)
    ("ko", "\uac00", "\ud7af"),
    ("zh", "\u4e00", "\u9fff"),
    ("ru", "\u0400", "\u04ff"),
    ("ar", "\u0600", "\u06ff"),
    ("he", "\u0590", "\u05ff"),
    ("el", "\u0370", "\u03ff"),
    ("th", "\u0e00", "\u0e7f"),
    ("hi", "\u0900", "\u097f"),
)


# Each script's characters as one regex class, counted with subn (in C): the
# scripts' ranges, and Latin letters beyond ASCII (up to U+024F, as str.isalpha says).
_SCRIPT_PATTERNS = tuple((code, re.compile(f"[{lo}-{hi}]")) for code, lo, hi in _SCRIPTS)
_LATIN_EXTENDED = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in range(0x80, 0x250) if chr(c).isalpha()) + "]"
)


_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))


def _script_counts(sample: str) -> dict[str, int]:
    # ASCII letters are counted on bytes (bytes.translate deletes them in C); the
    # scripts' classes only scan the non-ASCII rest, a few characters on most pages.
    ascii_part = sample.encode("ascii", "ignore")
    rest = _ASCII_RUN.sub("", sample) if len(ascii_part) < len(sample) else ""
    counts = {code: pattern.subn("", rest)[1] if rest else 0 for code, pattern in _SCRIPT_PATTERNS}
    counts["latin"] = len(ascii_part) - len(ascii_part.translate(None, _ASCII_LETTERS))
    if rest:
        counts["latin"] += _LATIN_EXTENDED.subn("", rest)[1]
    return counts


# The words as _WORDS reads them, cut in C: the lower-cased text in Latin-1 (a
# character past it becomes "?", one byte), every byte that is not one of
# _WORDS's letters (a-z, U+00E0-U+00FF) turned into a space, then split. The
# runs of letters, so the words, are _WORDS's, as Latin-1 bytes.
_LETTER_BYTES = bytes(c if 97 <= c <= 122 or 0xE0 <= c <= 0xFF else 0x20 for c in range(256))
_FUNCTION_BYTES = {
    code: frozenset(word.encode("latin-1") for word in words)
    for code, words in _FUNCTION_WORDS.items()
}
_ANY_FUNCTION_WORD = frozenset().union(*_FUNCTION_BYTES.values())


def latin_words(text: str) -> list[bytes]:
    """``_WORDS.findall(text.lower())``, each word in Latin-1 bytes."""
    return text.lower().encode("latin-1", "replace").translate(_LETTER_BYTES).split()


def _latin_scores(sample: str) -> dict[str, int]:
    # Only function words are counted, and looked up without a Python call per word.
    counts = Counter(filter(_ANY_FUNCTION_WORD.__contains__, latin_words(sample)))
    get = counts.get
    return {code: sum(map(get, stop, repeat(0))) for code, stop in _FUNCTION_BYTES.items()}


def _latin_language(sample: str) -> str | None:
    scores = _latin_scores(sample)
    best = max(scores, key=lambda code: scores[code])
    return best if scores[best] >= 3 else None


def guess_from_text(text: str) -> str | None:
    """A language code from the script (and for Latin, the function words) of ``text``."""
    sample = text[:_SAMPLE]
    counts = _script_counts(sample)
    total = sum(counts.values())
    if not total:
        return None
    # Han is shared: kana at all means Japanese.
    if counts["ja"] and counts["ja"] * 10 >= counts["zh"]:
        counts["ja"] += counts["zh"]
        counts["zh"] = 0
    best = max(counts, key=lambda code: counts[code])
    if best == "latin":
        return _latin_language(sample)
    return best


def _normalize(declared: str) -> str | None:
    code = declared.strip().replace("_", "-").split(",")[0].split(";")[0].strip().lower()
    primary = code.split("-")[0]
    if not primary.isalpha() or not 2 <= len(primary) <= 3 or primary in ("und", "mul", "zxx"):
        return None
    return primary


_SCRIPT_OF = {
    "zh": "zh", "ja": "ja", "ko": "ko", "ru": "ru", "uk": "ru", "bg": "ru", "sr": "ru",
    "ar": "ar", "fa": "ar", "ur": "ar", "he": "he", "el": "el", "th": "th", "hi": "hi",
}  # fmt: skip


def guess_language(declared: str | None, text: str) -> str | None:
    """An ISO 639 code: the declared one (primary subtag), else guessed from the text."""
    code = _normalize(declared) if declared else None
    if code is None:
        return guess_from_text(text)
    guessed = guess_from_text(text)
    if guessed is None:
        return code
    declared_script = _SCRIPT_OF.get(code, "latin")
    guessed_script = _SCRIPT_OF.get(guessed, "latin")
    if declared_script != guessed_script and len(text) >= 100:
        return guessed  # a template's lang="en" on a Chinese page
    if guessed != code and code in _FUNCTION_WORDS and guessed in _FUNCTION_WORDS:
        # Both Latin: overrule only on strong evidence (a German text under lang="en").
        scores = _latin_scores(text[:_SAMPLE])
        if scores[guessed] >= 15 and scores[guessed] >= 4 * max(1, scores[code]):
            return guessed
    return code


def find_language(page: Page) -> None:
    """Reads the metadata's language and the content; writes ``page.language``."""
    page.language = guess_language(page.meta.language, page.content)

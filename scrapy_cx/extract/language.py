"""The page language: declared, else a cheap guess from the script of the text."""

from __future__ import annotations


def guess_language(declared: str | None, text: str) -> str | None:
    """A BCP 47-ish code: the declared one normalized, else guessed from letters."""
    if declared:
        code = declared.strip().replace("_", "-").split(",")[0]
        if code and code.lower() not in ("und", "x-default"):
            return code.split("-")[0].lower() if len(code) > 1 else None
    sample = text[:4000]
    if not sample:
        return None
    cjk = sum(1 for c in sample if "\u4e00" <= c <= "\u9fff")
    kana = sum(1 for c in sample if "\u3040" <= c <= "\u30ff")
    hangul = sum(1 for c in sample if "\uac00" <= c <= "\ud7af")
    cyr = sum(1 for c in sample if "\u0400" <= c <= "\u04ff")
    latin = sum(1 for c in sample if c.isascii() and c.isalpha())
    counts = {"zh": cjk, "ja": kana * 3, "ko": hangul, "ru": cyr, "en": latin}
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else None

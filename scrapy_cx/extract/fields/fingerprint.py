"""A near-duplicate fingerprint of an article's main text (scheme ``cx1``).

Reposts carry the same story under another portal's template: other menus and
ads (the main-text extraction already left those out), another title suffix, a
paragraph added or cut, other whitespace and punctuation. So the fingerprint
reads the main text only, and only its words: the text is casefolded (NFKC
first unless ASCII) and reduced to tokens, where punctuation and whitespace
count for nothing. Tokens are words (letters and digits) in scripts that
space their words and single characters in CJK scripts, which do not.

Scheme ``cx1`` (a contract: any change to it is a breaking change and gets a
new prefix, so fingerprints from two schemes are never compared):

* text: the first :data:`MAX_CHARS` characters of the main text (bounds the
  cost; long enough that a paragraph added on top leaves most of it equal);
* tokens: ASCII text lowercased, any other NFKC-normalized and casefolded;
  words are runs of letters and digits (``_`` and punctuation split them) of
  every script but CJK; CJK characters (kana, ideographs) are taken one by
  one, in order, everything else left out of that stream;
* shingles: :data:`WORD_SHINGLE` consecutive words joined by one space, and
  :data:`CJK_SHINGLE` consecutive CJK characters, UTF-8 encoded;
* hash: CRC-32 (``zlib.crc32``, ISO-HDLC), fixed by its standard, so
  fingerprints agree across runs, machines and Python versions (Python's
  ``hash()`` is salted per process and never used);
* one-permutation MinHash: the low 6 bits of a shingle's hash pick one of
  :data:`SLOTS` slots, each slot keeps the smallest hash it gets; a slot no
  shingle fell in borrows from the next filled slot to its right (circular,
  plus its distance times :data:`_BORROW_STEP`: "rotation" densification,
  Shrivastava and Li 2014), so every slot is filled;
* the fingerprint: ``"cx1:"`` then, per slot in order, bits 6 to 21 of its
  minimum as 4 hex digits (260 characters).

The share of equal slots of two fingerprints estimates the Jaccard similarity
of their shingle sets (a repost with one paragraph of five cut: about 0.8;
two different stories on the same topic: a few percent). A text with fewer
than :data:`MIN_SHINGLES` shingles (distinct ones, for short texts) gets no
fingerprint: too short to tell a repost from a coincidence, it is never
anyone's duplicate.

Cost: linear in the text and bounded by :data:`MAX_CHARS`; every step per
token runs inside C (``re``, ``bytes`` methods, ``map``, ``zip``, ``zlib``),
about 0.11 ms of CPU per 1,000 characters (``benchmarks/dedup.py``).
"""

from __future__ import annotations

import re
import sys
import unicodedata
import zlib
from array import array
from itertools import repeat
from operator import and_, eq, rshift

from ..page import Page

__all__ = [
    "SCHEME",
    "SLOTS",
    "find_fingerprint",
    "fingerprint",
    "similarity",
    "signature",
]

#: Prefix naming the scheme; bump it on any change to what follows.
SCHEME = "cx1"
#: MinHash slots per fingerprint.
SLOTS = 64
#: Words per shingle (scripts that space their words).
WORD_SHINGLE = 4
#: Characters per shingle (CJK scripts).
CJK_SHINGLE = 4
#: Fewer shingles than this and a text gets no fingerprint.
MIN_SHINGLES = 24
#: Characters of the main text read: bounds the cost, and is long enough that
#: a paragraph added at the top of a long story still leaves most shingles equal.
MAX_CHARS = 3000

_HASH_BITS = 32
_SLOT_BITS = 6  # 2 ** 6 == SLOTS
_EXPECTED_PER_SLOT = 8  # hashes kept per slot by the first cut-off (e**-8 left empty)
_CUTOFF_STEP = 4  # bits the cut-off grows by when a slot was left empty
_VALUE_MASK = 0xFFFF  # 16 bits kept per slot
_HEX_PER_SLOT = 4
_BORROW_STEP = 0x9E37  # odd: a borrowed value differs from its source's
_CJK_WIDTH = 3  # UTF-8 bytes of every CJK character below
_CHECK_DISTINCT = 8 * MIN_SHINGLES  # below this many shingles, count the distinct ones
_PREFIX = SCHEME + ":"
_LENGTH = len(_PREFIX) + SLOTS * _HEX_PER_SLOT

# Hiragana, katakana, CJK extension A, unified ideographs, compatibility ideographs.
_CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
_CJK = "".join(f"{chr(low)}-{chr(high)}" for low, high in _CJK_RANGES)
# The first bytes of their UTF-8 forms (3 bytes, the first 0xE0 | code >> 12):
# a text whose UTF-8 form has none of them has no CJK character.
_CJK_LEADS = tuple(
    bytes([0xE0 | block])
    for block in sorted(
        {b for low, high in _CJK_RANGES for b in range(low >> 12, (high >> 12) + 1)}
    )
)
_CJK_CHARS = re.compile(f"[{_CJK}]+")
_WORDS = re.compile(f"[^\\W_{_CJK}]+")
# Fullwidth punctuation and the ellipsis, with their NFKD forms (see _nfkc).
_COMMON_COMPATIBILITY = tuple(
    (wide, unicodedata.normalize("NFKD", wide))
    for wide in "\uff0c\uff1a\uff08\uff09\uff1f\uff1b\uff01\u2026\uff05\uff0f"
)
# ASCII text takes a faster road: bytes.translate then split.
_ASCII_SPACE = bytes(c if chr(c).isalnum() else 0x20 for c in range(128)) + b" " * 128
# So does Latin text whose only other characters are punctuation and spaces
# (curly quotes, dashes, no-break spaces, guillemets), the common case: they
# become spaces first. Only characters that NFKC turns into no letter or digit
# qualify, so both roads give the same words.
_PUNCTUATION_RANGES = ((0x00A0, 0x00C0), (0x00D7, 0x00D8), (0x00F7, 0x00F8), (0x2000, 0x2070))
_PLAIN_PUNCTUATION = re.compile(
    "["
    + "".join(
        re.escape(chr(code))
        for low, high in _PUNCTUATION_RANGES
        for code in range(low, high)
        if not any(c.isalnum() for c in unicodedata.normalize("NFKC", chr(code)))
    )
    + "]"
)


def _shingle_hashes(text: str) -> list[int]:
    """The CRC-32 of every shingle of the normalized text.

    Every step runs in C (``re``, ``bytes`` methods, ``map``, ``zip``,
    ``zlib``): nothing runs per token or per shingle in Python.
    """
    if text.isascii():
        return _ascii_hashes(text)
    plain = _PLAIN_PUNCTUATION.sub(" ", text)
    return _ascii_hashes(plain) if plain.isascii() else _unicode_hashes(text)


def _ascii_hashes(text: str) -> list[int]:
    return _word_hashes(text.lower().encode("ascii").translate(_ASCII_SPACE).split())


def _unicode_hashes(text: str) -> list[int]:
    text = _nfkc(text).casefold()
    hashes = _word_hashes(" ".join(_WORDS.findall(text)).encode().split())
    if not any(map(text.encode().__contains__, _CJK_LEADS)):
        return hashes  # no CJK character: skip the slower scan for them
    chars = "".join(_CJK_CHARS.findall(text)).encode()
    count = len(chars) // _CJK_WIDTH - CJK_SHINGLE + 1
    if count > 0:
        # CJK characters are 3 bytes each: a shingle is a fixed slice of the buffer.
        slices = _CJK_SLICES[:count] if count <= MAX_CHARS else _cjk_slices(count)
        hashes += map(zlib.crc32, map(chars.__getitem__, slices))
    return hashes


def _cjk_slices(count: int) -> list[slice]:
    """Byte slices of ``count`` CJK shingles: 4 characters of 3 bytes, one character apart."""
    ends = range(_CJK_WIDTH * CJK_SHINGLE, _CJK_WIDTH * (count + CJK_SHINGLE), _CJK_WIDTH)
    return list(map(slice, range(0, _CJK_WIDTH * count, _CJK_WIDTH), ends))


# The byte slices of the CJK shingles of a text cut at MAX_CHARS, made once (NFKC
# can make more characters: "\u3300" is four katakana; those texts make theirs).
_CJK_SLICES = _cjk_slices(MAX_CHARS)


def _nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, faster on CJK text.

    A character replaced by its own NFKD form leaves the NFKD form of the
    whole text, so its NFKC form, unchanged. Doing that first for the few
    compatibility characters common in CJK text lets most texts pass NFKC's
    quick check instead of being normalized character by character.
    """
    for wide, narrow in _COMMON_COMPATIBILITY:
        if wide in text:
            text = text.replace(wide, narrow)
    return unicodedata.normalize("NFKC", text)


def _word_hashes(words: list[bytes]) -> list[int]:
    """CRC-32 of each run of :data:`WORD_SHINGLE` consecutive words joined by one space."""
    runs = zip(*(words[start:] for start in range(WORD_SHINGLE)), strict=False)  # tails differ
    return list(map(zlib.crc32, map(b" ".join, runs)))


def _slot_minima(hashes: list[int]) -> dict[int, int] | None:
    """Each slot's smallest hash, or None for a text too short to have a fingerprint.

    Only a slot's smallest hashes can be its minimum, so hashes above a cut-off
    (a few expected per slot) are filtered out in C before anything runs per
    hash in Python; a slot left empty by the cut-off retries with it raised.
    """
    count = len(hashes)
    if count < MIN_SHINGLES or (count < _CHECK_DISTINCT and len(set(hashes)) < MIN_SHINGLES):
        return None
    cutoff = _EXPECTED_PER_SLOT * SLOTS * (1 << _HASH_BITS) // count
    while True:
        # A cut-off past every hash (a text of a few hundred shingles) filters nothing.
        below = hashes if cutoff >> _HASH_BITS else filter(cutoff.__gt__, hashes)
        kept = sorted(below, reverse=True)
        # dict() keeps the last value per slot: the smallest, as ``kept`` runs downwards.
        minima = dict(zip(map(and_, kept, repeat(SLOTS - 1)), kept, strict=True))
        if len(minima) == SLOTS or cutoff >> _HASH_BITS:
            return minima
        cutoff <<= _CUTOFF_STEP


def fingerprint(text: str | None) -> str | None:
    """The ``cx1`` fingerprint of a main text, or None when it is too short to have one."""
    if not text:
        return None
    minima = _slot_minima(_shingle_hashes(text[:MAX_CHARS]))
    if minima is None:
        return None
    values = _slot_values(minima)
    if sys.byteorder == "little":
        values.byteswap()  # big-endian: each slot reads as its 4 hex digits
    return _PREFIX + values.tobytes().hex()


def _slot_values(minima: dict[int, int]) -> array[int]:
    """The 16 bits kept of every slot's minimum, with every slot filled.

    An empty slot borrows from the next filled one, plus its distance; only
    empty slots (none or a few) take a step in Python.
    """
    minimum = map(minima.get, range(SLOTS), repeat(0))
    values = array("H", map(and_, map(rshift, minimum, repeat(_SLOT_BITS)), repeat(_VALUE_MASK)))
    if len(minima) < SLOTS:
        for slot in set(range(SLOTS)).difference(minima):
            distance = 1
            while (slot + distance) % SLOTS not in minima:  # ends: minima is not empty
                distance += 1
            borrowed = values[(slot + distance) % SLOTS] + distance * _BORROW_STEP
            values[slot] = borrowed & _VALUE_MASK
    return values


def signature(fp: str) -> bytes:
    """The slots of a ``cx1`` fingerprint as bytes (2 per slot); ValueError if it is not one."""
    if len(fp) != _LENGTH or not fp.startswith(_PREFIX):
        raise ValueError(f"not a {SCHEME} fingerprint: {fp[:16]!r}...")
    return bytes.fromhex(fp[len(_PREFIX) :])


def matching_slots(a: bytes | bytearray, b: bytes | bytearray) -> int:
    """How many slots two signatures share."""
    return sum(map(eq, memoryview(a).cast("H"), memoryview(b).cast("H")))


def similarity(a: str, b: str) -> float:
    """Estimated Jaccard similarity of the shingle sets behind two fingerprints."""
    return matching_slots(signature(a), signature(b)) / SLOTS


def find_fingerprint(page: Page) -> None:
    """Reads the content; writes ``page.fingerprint``."""
    page.fingerprint = fingerprint(page.content)

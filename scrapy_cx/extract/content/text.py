"""Selected lines joined into the text: one paragraph per line, pull quotes left out."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..parse.lines import Line, PageLines

# A line set apart in one of these (or inside one, up to SET_APART_DEPTH blocks up)
# that repeats a sentence of the text is a pull quote; shorter than MIN_REPEAT
# non-space characters it may just be a common phrase.
SET_APART_TAGS = frozenset({"blockquote", "aside", "figure", "figcaption"})
SET_APART_DEPTH = 3
MIN_REPEAT = 20
# After a sentence's end mark and any closing quotes or brackets.
_SENTENCE_END = re.compile(r"(?<=[.!?。！？…])[\"'”’」』)）]*\s*")
_NOT_WORD = re.compile(r"[\W_]+")
# A picture's credit on a line of its own ("Foto: Timur", "Crédits photos : X", "© AP",
# "(Credit: X / Grist)"):
# who took the picture, not what the article says. Only this short, only so labelled
# ("Image:" is left alone: sites and Mercury's truth keep it as the picture's caption).
# One inside its figure stays with the caption it belongs to (choose.select_lead keeps
# a lead picture's caption and credit as the article's own words about it).
FIGURE_TAGS = frozenset({"figure", "figcaption"})
MAX_CREDIT = 60
_CREDIT = re.compile(
    r"\(?(?:photos?|fotos?|bild|bildquelle|kuva|cr[ée]dits?(?:\s+photos?)?)\s?:|©|\(c\)\s",
    re.IGNORECASE,
)
# A label that points away from the story ("Read also", "Lesen Sie auch:", "Czytaj też"),
# on a line of its own or opening a linked headline: a short, general list of the
# phrases sites use, matched whole (never a sentence that merely opens so).
_READ_ALSO = (
    r"(?:read (?:also|more)|related(?: articles?| stories| posts)?|"
    r"(?:lesen sie|lies) (?:auch|hier|mehr)|auch lesen|weiterlesen|mehr zum thema|"
    r"(?:das|dieses) (?:thema )?k\u00f6nnte (?:sie|dich) auch interessieren|"
    r"weiterf\u00fchrende[rn]? links?|czytaj (?:te\u017c|tak\u017ce|r\u00f3wnie\u017c)|"
    r"(?:veja|leia) tamb\u00e9m|le[ea] tambi\u00e9n|(?:\u00e0 )?lire aussi|leggi anche|lees ook|"
    # "related" in the other languages: the title of a box of other stories
    r"(?:notas|noticias|art\u00edculos) relacionad[ao]s|mat\u00e9rias relacionadas|"
    r"(?:verwandte|\u00e4hnliche|weitere) (?:themen(?:bereiche)?|artikel|beitr\u00e4ge)|"
    r"neueste (?:artikel|beitr\u00e4ge)|articles? (?:li\u00e9s|similaires)|articoli correlati)"
)
# An ad's or an affiliate link's label on a line of its own ("*Werbung", "Advertisement:").
_AD_LABEL = (
    r"(?:advertisement|anzeige|werbung|affiliate[- ]?links?|sponsored|gesponsert|publicidad)"
)
_LABEL_ALONE = re.compile(rf"[\W_]*(?:{_READ_ALSO}|{_AD_LABEL})[\W_]*", re.IGNORECASE)
_LABEL_OPENING = re.compile(rf"[\W_]*{_READ_ALSO}\s*[:|\u00bb>\u2013-]", re.IGNORECASE)
# A row of share buttons ("Facebook Twitter Link Copied Mail WhatsApp"): every word
# a network's or a button's name, at least this many of them.
_SHARE_WORDS = frozenset(
    """facebook twitter x linkedin xing pinterest reddit whatsapp telegram tumblr email
    e-mail mail print drucken teilen share link copied copy flipboard messenger threads
    bluesky mastodon sms""".split()
)
MIN_SHARE_WORDS = 3
MAX_POINTER = 100  # characters: a label, a headline or a row of buttons, no more


# A sentence's end: a full stop, "!" or "?" before a space or the line's end (after
# closing quotes or brackets: not the dots of "3.5" or "www.gov.cn"), or a CJK one.
PROSE_END = re.compile(r"[.!?][\"'”’)\]]*(?:\s|$)|[。！？]")


def is_prose(line: Line) -> bool:
    """A line that says something in sentences: it ends one. A site's name, a URL,
    a credit, a row of labels or share buttons ends none."""
    return PROSE_END.search(line.text) is not None


def main_lines(lines: Iterable[Line], page: PageLines | None = None) -> tuple[Line, ...]:
    """The selected lines that make the article text, in order.

    Boilerplate lines, a picture's credit line (:data:`_CREDIT`) and pull quotes
    (a sentence of a paragraph repeated in large type beside it, in a
    ``blockquote``, ``aside`` or figure) are left out; so are a link set between
    two paragraphs (a "read also" teaser) and headings left at the end with no
    text under them
    (:func:`_asides`). ``page`` is the ``PageLines`` the lines come from: it knows
    where each line sits.
    """
    kept = [
        line
        for line in lines
        if not line.boilerplate
        and not (
            line.length <= MAX_CREDIT
            and _CREDIT.match(line.text)
            and not (page is not None and set_apart(line, page, FIGURE_TAGS))
        )
        and not _pointer(line)
    ]
    if page is None:
        return tuple(kept)
    kept = _asides(kept, page)
    repeats = _pull_quotes(kept, page)
    if not repeats:
        return tuple(kept)
    return tuple(line for i, line in enumerate(kept) if i not in repeats)


# A line mostly link text (Line.link_density) set between two paragraphs is a teaser.
TEASER_LINK_DENSITY = 0.5
TEASER_SPACES = 2  # a phrase (a headline), not a lone linked word or a URL
# A paragraph, a lone list item or a box (not a heading: sites link their section
# headings to themselves; a linked h2/h3 teaser rule cost wceb_dev pages up to 0.19 F1
# and readability's mercurial and yahoo-1 0.01-0.04).
TEASER_TAGS = frozenset(("p", "li", "div"))
MAX_LABEL = 30  # non-space characters of a label over a teaser ("Lue myös:", "See also:")

# Headings this short (non-space characters) at the end of the text head nothing in it.
MAX_TRAILING_HEADING = 100
MIN_PARAGRAPH = 100  # ... once the text holds a paragraph this long


def _in_list(lines: list[Line], i: int) -> bool:
    """Line ``i`` is an item of a list with more items beside it (a list's own link,
    a reference), not a lone item set between paragraphs."""
    return lines[i].tag == "li" and "li" in (lines[i - 1].tag, lines[i + 1].tag)


def _label(line: Line) -> bool:
    """A short unlinked label that introduces what follows: it ends with a colon."""
    return line.length <= MAX_LABEL and not line.link_length and line.text.endswith(":")


def _asides(lines: list[Line], page: PageLines) -> list[Line]:
    """The text's lines less what is set beside the story inside its container:

    - a ``<p>``, a lone list item or a ``<div>`` mostly of links, a phrase that
      ends no sentence, between two paragraphs that end sentences ("Read also:
      <headline>", ">> <headline> <<"), with a label right above it ("See also:"):
      a teaser for another story. A sentence of links, a list of links, or links
      beside labels and cells, are left alone;
    - headings at the end of the text once it holds a paragraph: the title of a
      list of links or a box the selection left out ("Related", "Read more").
    """
    kept = lines
    teasers: set[int] = set()
    for i in range(1, len(kept) - 1):
        if not (_teaser(kept[i]) and _paragraph(kept[i + 1])) or _in_list(kept, i):
            continue
        if _paragraph(kept[i - 1]):
            teasers.add(i)
        elif i >= 2 and _label(kept[i - 1]) and _paragraph(kept[i - 2]):
            teasers.update((i - 1, i))
    if teasers:
        kept = [line for i, line in enumerate(kept) if i not in teasers]
    if any(line.length >= MIN_PARAGRAPH for line in kept):
        while kept[-1].is_heading and kept[-1].length < MAX_TRAILING_HEADING:
            kept.pop()
    return kept


def _pointer(line: Line) -> bool:
    """A line that points away from the story: a "read also" label alone or over a
    linked headline (mostly links), or a row of share buttons."""
    text = line.text
    if len(text) > MAX_POINTER:
        return False
    if _LABEL_ALONE.fullmatch(text):
        return True
    if _LABEL_OPENING.match(text) and line.link_density > TEASER_LINK_DENSITY / 2:
        return True
    words = text.lower().split()
    return len(words) >= MIN_SHARE_WORDS and all(w in _SHARE_WORDS for w in words)


def _teaser(line: Line) -> bool:
    """A headline's link (with its label): a phrase that ends no sentence."""
    return (
        line.tag in TEASER_TAGS
        and line.link_density > TEASER_LINK_DENSITY
        and line.text.count(" ") >= TEASER_SPACES
        and not is_prose(line)
    )


def _paragraph(line: Line) -> bool:
    return line.link_density <= TEASER_LINK_DENSITY and is_prose(line)


def main_text(lines: Iterable[Line], page: PageLines | None = None) -> str:
    """Join :func:`main_lines` into the article text, one paragraph per line."""
    return joined(main_lines(lines, page))


def joined(lines: Iterable[Line]) -> str:
    """Lines as text, one paragraph per line: the one way the text is made of lines."""
    return "\n".join(line.text for line in lines)


def _sentence_key(text: str) -> str:
    """Comparison form of a sentence: letters and digits only, case folded."""
    return _NOT_WORD.sub("", text).casefold()


def set_apart(line: Line, page: PageLines, tags: frozenset[str] = SET_APART_TAGS) -> bool:
    """Whether the line's block, or one of its nearest ancestors, is set apart from the text."""
    block = line.block
    for _ in range(SET_APART_DEPTH):
        if block < 0:
            return False
        if page.tags[block] in tags:
            return True
        block = page.parents[block]
    return False


def _pull_quotes(lines: Sequence[Line], page: PageLines) -> set[int]:
    """Indexes of set-apart lines (``MIN_REPEAT`` characters or more) whose whole
    text is one sentence of a paragraph of the text. Filler repeated among the
    body's own paragraphs is left alone. Linear: each line is split and hashed once."""
    apart = [line.length >= MIN_REPEAT and set_apart(line, page) for line in lines]
    if not any(apart):
        return set()  # nothing set apart: no sentence need be split and keyed
    in_paragraph: set[str] = set()  # sentences of the text's own multi-sentence paragraphs
    known = page.sentences
    for line, away in zip(lines, apart, strict=True):
        if away:
            continue
        sentences = known.get(line.text)
        if sentences is None:
            sentences = [k for k in map(_sentence_key, _SENTENCE_END.split(line.text)) if k]
            known[line.text] = sentences
        if len(sentences) > 1:
            in_paragraph.update(sentences)
    repeats = set()
    for i, line in enumerate(lines):
        if apart[i] and _sentence_key(line.text) in in_paragraph:
            repeats.add(i)
    return repeats

"""The text of a page that is not one article: its sections, in page order."""

from __future__ import annotations

from dataclasses import replace

from ..page import Page
from ..parse.lines import SECTIONS_BOILERPLATE_WORDS, Line, PageLines, remark_lines
from .posts import MAX_LABEL, MIN_LABEL_REPEATS
from .regions import CARD_LINK_DENSITY, is_headline_link, select_sections
from .text import main_lines

# A region weighing this share of the page's densest one is one of its sections (a
# product's one-paragraph promise between lists of links weighs a fifth of its
# description; 0.15 keeps it, and on wceb_dev gained product must-haves, lost no must-not).
SECTION_SHARE = 0.15
SECTION_TYPES = ("listing", "other")
# A line of a section outside the main region shorter than this (non-space
# characters) is a button, a price or a tab's name, not the section's text.
MIN_SECTION_LINE = 20


def join_sections(page: Page) -> None:
    """A page that is not one article (a product, a service's landing page, a
    listing) holds its text in several regions: a product's description above
    its specs and reviews, a landing page's sections between promos, a
    listing's intro and its cards. Its content is, in page order, the text
    lines of the main region, of every other dense run of the line pass (the
    main one before its narrowing to one container, too) and of its lead (the
    text right below its headline: a product's blurb, a landing page's hero,
    a listing's intro). Link lines (buttons, "Learn more", logos) are left out,
    except a link within a paragraph of text and a listing's linked headlines
    (its items); so are the other runs' short lines (prices, tabs' names) and
    the controls every card repeats (:func:`_card_controls`).
    The lines are marked again first, names that mark a product's or a landing
    page's content (``lines.SECTION_WORDS``) taken as content (no second walk).
    After the last page-type stage: the type says which pages have sections.
    Reads the page type and the selection; writes the selection (regions and
    content; the lines' marks in place)."""
    if page.page_type not in SECTION_TYPES or not page.regions:
        return
    listing = page.page_type == "listing"
    lines = page.lines
    remark_lines(lines, SECTIONS_BOILERPLATE_WORDS, page.options)  # read as a product's
    sections, weights = select_sections(
        lines, page.options, page.headline, SECTION_SHARE, listing=listing
    )
    main = page.regions[0]
    keep = [weights[i] > 0 and i in range(*main) for i in range(len(lines))]
    _keep_headings(lines, weights, main, keep)
    texts = {lines[i].block for i in range(*main) if keep[i]}
    for i in range(*main):
        keep[i] = keep[i] or lines[i].block in texts  # a link within a paragraph
    for start, end in sections:
        for i in range(start, end):
            line = lines[i]
            keep[i] = keep[i] or (
                weights[i] > 0
                and (line.length >= MIN_SECTION_LINE or (listing and is_headline_link(line)))
            )
    headline = page.headline
    lead = end = headline + 1 if headline is not None else len(lines)
    while end < len(lines) and (weights[end] > 0 or lines[end].boilerplate):
        keep[end] = keep[end] or weights[end] > 0  # the lead, up to its first link
        end += 1
    if end > lead:
        sections.append((lead, end))
        sections.sort()
    controls = _card_controls(lines)
    kept = [line for line, k in zip(lines, keep, strict=True) if k and line.text not in controls]
    body = main_lines(kept, lines)
    if body:
        regions = (main, *(region for region in sections if region != main))
        page.selection = replace(page.selection, regions=regions, body=body)


def _card_controls(lines: PageLines) -> set[str]:
    """The short link texts cards repeat, each time to another page: every card's
    "See all reviews", "Add to cart", "Read more" (:data:`MIN_LABEL_REPEATS`
    addresses or more). A name linked to one place (a blog's author on each of
    its teasers) is the same link shown again, not a control."""
    targets: dict[str, set[str | None]] = {}
    for line in lines:
        if line.length <= MAX_LABEL and line.link_density > CARD_LINK_DENSITY:
            targets.setdefault(line.text, set()).add(line.href)
    return {text for text, hrefs in targets.items() if len(hrefs) >= MIN_LABEL_REPEATS}


# A heading needs this many letters of its own: "2" over a step is a number, not a heading.
MIN_HEADING_LETTERS = 2


def _keep_headings(
    lines: list[Line], weights: list[float], region: tuple[int, int], keep: list[bool]
) -> None:
    """Keep the headings of ``region`` that head its text: the next line that is not
    a heading carries text. Docs link their headings (a permalink, a link back to
    the contents), so a heading's link does not make it a button; a heading over
    nothing, or over lines weighing nothing (a menu's), is left out."""
    start, end = region
    heads = False  # whether the lines below, up to the next text, are under a heading
    for i in range(end - 1, start - 1, -1):
        line = lines[i]
        if not line.is_heading:
            heads = weights[i] > 0
        elif heads and sum(c.isalpha() for c in line.text) >= MIN_HEADING_LETTERS:
            keep[i] = True

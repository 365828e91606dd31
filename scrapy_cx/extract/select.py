"""The stages that choose the main text on the walk's lines: the selection and its
headline, the headlines of a page of headlines, a listing's headline, an article's lead."""

from __future__ import annotations

from dataclasses import replace

from .lines import LineOptions
from .page import Page
from .pagetype import headline_page, story_head
from .read import MIN_VISIBLE_TEXT
from .regions import lead_caption, lead_start, select_headlines, select_main
from .text import main_text
from .title import find_headline, find_list_headline


def select_text(page: Page) -> None:
    """Select the main text, find the headline beside it (``title.find_headline``,
    the one place it is decided: a headline sits just above its text), then, when
    the headline lies inside that text, select again leaving it out (above or
    below the text, leaving it out moves nothing)."""
    _choose(page)
    find_headline(page)
    if page.start <= page.headline < page.end:
        _choose(page)


def _choose(page: Page) -> None:
    page.regions = [select_main(page.lines, page.options, page.headline)]
    page.content = main_text(page.lines[page.start : page.end], page.lines)
    page.listing = False
    if not page.content and page.options.card_share > 0:
        # A list of teaser cards (a section front, a product grid): its text is the
        # list's, and the page is a listing, not an empty article.
        select_in(page, replace(page.options, card_share=0.0))
        page.listing = bool(page.content)
    if not page.content:
        _fallback(page)


def select_lead(page: Page) -> None:
    """Start an article's text at its lead: the lead paragraph the narrowing to the
    body's container left between the headline and the body, and the lead
    picture's caption right above, even one named "caption" or "credit" (the
    article's own words about its first picture)."""
    if page.page_type != "article" or not page.content:
        return
    start, end = page.regions[0]
    first = lead_caption(page.lines, lead_start(page.lines, page.options, page.headline, start))
    if first < start:
        for line in page.lines[first:start]:
            line.boilerplate = False
        page.regions[0] = (first, end)
        page.content = main_text(page.lines[first:end], page.lines)


def select_in(page: Page, options: LineOptions) -> None:
    region = select_main(page.lines, options, headline=page.headline)
    content = main_text(page.lines[region[0] : region[1]], page.lines)
    if content:
        page.regions, page.content = [region], content


def _fallback(page: Page) -> None:
    """No main text although the page has some: select again, trusting no boilerplate mark.

    Sites name the article's own containers "widget" or "modal"; when their marks
    leave nothing, the densest run of the page, marks ignored, is the best guess.
    """
    lines = page.lines
    if sum(line.length for line in lines if line.boilerplate) < MIN_VISIBLE_TEXT:
        return
    marks = [line.boilerplate for line in lines]
    for line in lines:
        line.boilerplate = False
    select_in(page, page.options)
    if not page.content:
        for line, mark in zip(lines, marks, strict=True):
            line.boilerplate = mark



# A selection this short (characters), with no paragraph of MIN_PARAGRAPH, is a
# stray blurb (a cookie notice) when the page is one of headlines, unless it
# stands under the page's dated headline (pagetype.story_head): a short story.
TINY_CONTENT = 300
MIN_PARAGRAPH = 100


def select_headline_list(page: Page) -> None:
    """Tell a page of headlines (:func:`headline_page`, decided here once, for
    settle_page_type too); on one, a stray blurb gives way to the headlines,
    and a page whose text is a list of headlines is a listing."""
    if page.page_type == "thread":
        return
    page.headlines = headline_page(page)
    content = page.content
    if not page.headlines or len(content) >= TINY_CONTENT:
        return
    if any(line.length >= MIN_PARAGRAPH for line in page.lines[page.start : page.end]):
        return
    if story_head(page):
        return  # a story a few lines long under its dated head: no stray blurb
    start, end = select_headlines(page.lines, page.options)
    text = main_text(page.lines[start:end], page.lines)
    if len(text) > len(content):
        page.regions, page.content = [(start, end)], text
        page.listing, page.page_type = True, "listing"


def find_listing_headline(page: Page) -> None:
    """A listing's text is its list: its headline is the one above the list."""
    if page.page_type == "listing":
        find_list_headline(page)


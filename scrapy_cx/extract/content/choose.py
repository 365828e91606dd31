"""The stages that choose the main text on the walk's lines: the selection and its
headline, an article's lead, and the headlines of a page of headlines in place of
a stray blurb. Each replaces ``page.selection`` as a whole (page.Selection)."""

from __future__ import annotations

import re
from dataclasses import replace

from ..classify.pagetype import story_head
from ..fields.dateparse import scan_dates
from ..fields.title import find_headline
from ..page import Page
from ..parse.lines import Line, LineOptions
from ..parse.read import MIN_VISIBLE_TEXT
from .regions import (
    lead_caption,
    lead_deck,
    lead_start,
    lead_table,
    select_headlines,
    select_main,
    select_prose,
)
from .text import MIN_PARAGRAPH, is_prose, main_lines


def select_text(page: Page) -> None:
    """Select the main text, find the headline beside it (``title.find_headline``,
    the one place it is decided: a headline sits just above its text), then, when
    the headline lies inside that text, select again leaving it out (above or
    below the text, leaving it out moves nothing).

    Reads the lines and the options; writes the selection (regions, content,
    kind, headline and title)."""
    _choose(page)
    find_headline(page)
    headline = page.headline
    if headline is not None and page.start <= headline < page.end:
        _choose(page)
    _prose_body(page)


def _choose(page: Page) -> None:
    chosen = page.selection
    lines = chosen.lines
    start, end = region = select_main(lines, page.options, chosen.headline)
    body = main_lines(lines[start:end], lines)
    page.selection = replace(chosen, regions=(region,), body=body, kind="text")
    if not body and page.options.card_share > 0:
        # A list of teaser cards (a section front, a product grid): its text is the
        # list's, and the page is a listing, not an empty article.
        select_in(page, replace(page.options, card_share=0.0))
        if page.content:
            page.selection = replace(page.selection, kind="cards")
    if not page.content:
        _fallback(page)


def select_lead(page: Page) -> None:
    """Start an article's text at its lead: the lead paragraph the narrowing to the
    body's container left between the headline and the body, and the lead
    picture's caption right above, even one named "caption" or "credit" (the
    article's own words about its first picture) and the data table right above
    them (regions.lead_table: a fact box); then the standfirst right under
    the headline (regions.lead_deck: an h2, a "lead" div, key points), with the
    byline and date between it and the body left out.

    Reads the page type and the selection; writes the selection's first region and
    content (and unmarks the lead caption's lines)."""
    if page.page_type != "article" or not page.content:
        return
    chosen = page.selection
    lines = chosen.lines
    start, end = chosen.regions[0]
    lead = lead_start(lines, page.options, chosen.headline, start)
    caption = lead_caption(lines, lead)
    first = lead_table(lines, chosen.headline, caption)
    if first < start:
        # Only the caption is unmarked: what the walk marked between the lead and the
        # body (an author's box, a share bar) stays out.
        for line in lines[caption:lead]:
            line.boilerplate = False
        chosen = replace(
            chosen,
            regions=((first, end), *chosen.regions[1:]),
            body=main_lines(lines[first:end], lines),
        )
    if chosen.headline is not None:
        body = without_datelines(chosen.body)
        if len(body) < len(chosen.body):
            chosen = replace(chosen, body=body)
    deck = lead_deck(lines, page.options, chosen.headline, first)
    deck = [i for i in deck if not is_dateline(lines[i])]
    if deck:  # a standfirst the body repeats (a teaser's copy of its first paragraph) is no deck
        known = {line.text for line in chosen.body}
        deck = [i for i in deck if lines[i].text not in known]
    if deck:
        chosen = replace(
            chosen,
            regions=((deck[0], end), *chosen.regions[1:]),
            body=(*main_lines([lines[i] for i in deck], lines), *chosen.body),
        )
    page.selection = chosen


# A dateline: a line this short (non-space characters) that shows a date within
# DATELINE_LEAD characters of its start and ends no sentence ("January 13, 2020 at
# 08:45 AM | categories: Python", "24. März 2004, 19:49 | Genesis", "By Jane Roe
# Updated Nov 13, 2019"): the story's byline row, not its words. Only among the
# text's first MAX_DATELINES lines ("Minutes of the meeting of 12.9.2019", an agenda
# item, has its date further in).
MAX_DATELINE = 80
DATELINE_LEAD = 30
MAX_DATELINES = 2
_ENDS_SENTENCE = re.compile(r"[.!?。！？][\"'”’)\]]*$")


def is_dateline(line: Line) -> bool:
    """A short line, no heading, that opens with a date (or a label and one) and ends
    no sentence."""
    if line.length > MAX_DATELINE or line.is_heading or _ENDS_SENTENCE.search(line.text):
        return False
    found = scan_dates(line.text)
    return bool(found) and found[0][0] <= DATELINE_LEAD


def without_datelines(body: tuple[Line, ...]) -> tuple[Line, ...]:
    """``body`` less the datelines among its first lines (never all of it)."""
    drop = {i for i, line in enumerate(body[:MAX_DATELINES]) if is_dateline(line)}
    if not drop or len(drop) == len(body):
        return body
    return tuple(line for i, line in enumerate(body) if i not in drop)


def select_in(page: Page, options: LineOptions) -> None:
    """Select again on the selection's lines with ``options``: kept when it finds text."""
    chosen = page.selection
    lines = chosen.lines
    start, end = region = select_main(lines, options, headline=chosen.headline)
    body = main_lines(lines[start:end], lines)
    if body:
        page.selection = replace(chosen, regions=(region,), body=body)


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


# The last line of defence: a selection of this many characters or fewer that ends
# no sentence (a credit, a URL, a footer's row of labels) is no article's text...
MAX_CHROME = 200
# ... when the page holds prose of this many characters under its headline, beginning
# within this many lines of it (a byline, a share bar, a picture's caption between).
MIN_PROSE_BODY = 40
MAX_PROSE_GAP = 8


def _prose_body(page: Page) -> None:
    """When the selection is a line or two of chrome (:data:`MAX_CHROME` characters
    that end no sentence: a credit, the site's URL, a "recommended for you" line)
    and the page holds prose right under its headline, boilerplate-named or not,
    take the prose (regions.select_prose): sites wrap each paragraph in a
    "widget". A footer's sentences far below ("This page was last edited...") are
    no body: a page of links keeps its selection for the listing stages."""
    chosen = page.selection
    body = chosen.body
    headline = chosen.headline
    if chosen.kind != "text" or headline is None:
        return
    if sum(line.length for line in body) > MAX_CHROME or any(is_prose(line) for line in body):
        return
    lines = chosen.lines
    start, end = select_prose(lines, page.options, headline + 1)
    if start > headline + MAX_PROSE_GAP:
        return
    if sum(line.length for line in lines[start:end] if is_prose(line)) < MIN_PROSE_BODY:
        return
    for line in lines[start:end]:
        line.boilerplate = False
    page.selection = replace(
        chosen, regions=((start, end),), body=main_lines(lines[start:end], lines)
    )


# A selection this short (characters), with no paragraph of MIN_PARAGRAPH, is a
# stray blurb (a cookie notice) when the page is one of headlines, unless it
# stands under the page's dated headline (pagetype.story_head): a short story.
TINY_CONTENT = 300


def select_headline_list(page: Page) -> None:
    """On a page of headlines (``page.headline_page``), a stray blurb gives way to
    the headlines: the selection becomes their run, of kind "headlines" (which
    pagetype.type_headline_list types a listing).

    Reads the page type, ``page.headline_page`` and the selection; writes the
    selection."""
    if page.page_type == "thread" or not page.headline_page:
        return
    chosen = page.selection
    content = chosen.content
    if len(content) >= TINY_CONTENT:
        return
    lines = chosen.lines
    if any(line.length >= MIN_PARAGRAPH for line in lines[page.start : page.end]):
        return
    if story_head(page):
        return  # a story a few lines long under its dated head: no stray blurb
    start, end = select_headlines(lines, page.options)
    body = main_lines(lines[start:end], lines)
    if sum(len(line.text) + 1 for line in body) - 1 > len(content):  # the text's length
        page.selection = replace(chosen, regions=((start, end),), body=body, kind="headlines")

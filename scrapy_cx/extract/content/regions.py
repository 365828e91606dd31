"""Which lines hold the main text: the line-block selection (cx-extractor, Chen Xin, HIT 2010).

Selection keeps the published idea, a run of dense line blocks, in linear
steps: the maximum-sum run of (block weight - cost), where link text weighs
negative (Kadane, one pass); then the region is narrowed by page structure:
after the page's one <h1>, to the labelled articleBody, to the element holding
the article's paragraph groups (teasers and captions are light groups of their
own), and to nothing on a section front made of teaser cards. Every step is a
pass over lines or a walk up the ancestors of one element.
"""

from __future__ import annotations

from itertools import accumulate
from operator import sub

from ..parse.lines import BOILERPLATE_TAGS, Line, LineOptions, PageLines
from ..render.structure import is_data_table
from .text import FIGURE_TAGS, PROSE_END, is_prose, set_apart

_DEFAULT_OPTIONS = LineOptions()  # frozen: one instance serves every call
# A line this long (non-space characters) that ends a sentence less than once in
# WORDY_SPAN characters is no paragraph (prose ends one every sentence or two, a
# few hundred characters): a keyword list for search engines, a tag cloud, a data
# dump. It weighs nothing as text, however long: a 174 KB line of keywords would
# outweigh any article beside it.
MIN_WORDY_LINE = 2000
WORDY_SPAN = 1000


def _weights(
    lines: list[Line], options: LineOptions, headline: int | None = None
) -> list[float]:
    beta, most = options.link_penalty, options.max_link_density
    weights = [
        0
        if line.boilerplate or (line.length >= MIN_WORDY_LINE and wordy(line))
        else (0 if is_contents_entry(line) else -beta * line.link_length)
        # Line.link_density, inlined: several stages weigh every line of a page
        if (line.link_length / line.length if line.length else 0.0) > most
        else line.length - (1 + beta) * line.link_length
        for line in lines
    ]
    if headline is not None:
        weights[headline] = 0  # the title, not main text
    return weights


def is_contents_entry(line: Line) -> bool:
    """A line that is one link to a place on the page itself (``<a href="#History">``):
    an entry of the article's table of contents. It points into the text, not away
    from it, so it weighs nothing rather than less than nothing: a lead above the
    contents is no longer cut off from the sections under them (wikipedia-2's lead
    and contents: structure kept 0.956 -> 0.960, links 0.902 -> 0.934). A script's
    route (``#!/news``, ``#/news``) leads to another view: a menu's, not one."""
    href = line.href
    return (
        href is not None
        and len(href) > 1
        and href[0] == "#"
        and href[1] not in "!/"
        and line.link_length >= line.length
    )


def select_main(
    lines: list[Line], options: LineOptions = _DEFAULT_OPTIONS, headline: int | None = None
) -> tuple[int, int]:
    """Return ``(start, end)``: the slice of ``lines`` holding the main text.

    Block *i* is the weight of lines *i..i+K-1*; the region is the maximum-sum run
    of (block - line_cost), found in one pass (Kadane), narrowed to the article's
    container, then trimmed to lines that carry text. A page too short to pay
    for one block keeps its heaviest run of lines (line_cost 0). ``headline`` is
    the headline's line (``title.find_headline``), None for none: it never counts
    as text, and the region starts after it when it opens the text.
    """
    weights = _weights(lines, options, headline)
    k = max(1, options.block_size)
    start, end = _max_run(weights, k, options.line_cost)
    if end == start:
        start, end = _max_run(weights, 1, 0)
    if options.headline_cut and headline is not None and start <= headline < end:
        start = _after_headline(weights, headline, start, end)
    if isinstance(lines, PageLines) and lines.bodies and options.body_share > 0 and end > start:
        start, end = _body(lines, weights, start, end, options.body_share)
    if isinstance(lines, PageLines) and options.container_share > 0 and end > start:
        region_end = end
        start, end = _container(lines, weights, start, end, options)
        # A stray end tag can put the last paragraphs outside the container:
        # unlinked <p> lines of the region right after it stay with it.
        while (
            end < region_end
            and weights[end] > 0
            and lines[end].tag == "p"
            and not lines[end].link_length
        ):
            end += 1
    if isinstance(lines, PageLines) and options.card_share > 0 and end > start:
        start, end = _cards(lines, weights, start, end, options.card_share)
    start, end = _trim(weights, start, end)
    return _paragraph_start(lines, start, end), end


def _paragraph_start(lines: list[Line], start: int, end: int) -> int:
    """``start``, moved up to the first line of the paragraph it cuts: a ``<p>``
    split by ``<br>`` is one paragraph, and its first line, when a link (the
    name of what the story presents, a source), weighs nothing but opens it."""
    while (
        0 < start < end
        and lines[start].tag == "p"
        and lines[start - 1].block == lines[start].block
        and not lines[start - 1].boilerplate
    ):
        start -= 1
    return start


def _trim(weights: list[float], start: int, end: int) -> tuple[int, int]:
    """``start..end`` without the lines at either end that carry no text."""
    while start < end and weights[start] <= 0:
        start += 1
    while end > start and weights[end - 1] <= 0:
        end -= 1
    return start, end


def _after_headline(weights: list[float], headline: int, start: int, end: int) -> int:
    """Start after the headline when it precedes the region's heaviest line."""
    peak = max(range(start, end), key=weights.__getitem__)
    return headline + 1 if headline < peak else start


def _max_run(weights: list[float], k: int, cost: float) -> tuple[int, int]:
    """Lines covered by the maximum-sum run of (block of k lines - cost), or (0, 0)."""
    runs = _runs(weights, k, cost)
    if not runs:
        return 0, 0
    start, end, _ = max(runs, key=lambda run: run[2])  # the first of equal runs
    return start, _run_end(weights, k, end)


def _runs(weights: list[float], k: int, cost: float) -> list[tuple[int, int, float]]:
    """Every run of Kadane's pass: ``(start, end, sum)`` of the best prefix of each
    stretch of blocks whose running sum of (block of k lines - cost) stays positive.
    The page's maximum-sum run is the best of them; the others are the page's
    other dense regions. ``end`` counts blocks: see :func:`_run_end`."""
    n = len(weights)
    if not n:
        return []
    # Block i's weight, slid along in C: block i-1's, plus line i+k-1's (0 past the
    # end), less line i-1's (the same sums, in the same order, as one at a time).
    entering = weights[k:]
    entering += [0] * (n - 1 - len(entering))
    blocks = accumulate(map(sub, entering, weights[: n - 1]), initial=sum(weights[:k]))
    runs: list[tuple[int, int, float]] = []
    best_sum: float = 0
    best_end = -1
    run_sum: float = 0
    run_start = 0
    for i, window in enumerate(blocks):
        score = window - cost
        if run_sum <= 0:
            if best_end > run_start:
                runs.append((run_start, best_end, best_sum))
            run_sum, run_start, best_sum, best_end = score, i, 0, -1
        else:
            run_sum += score
        if run_sum > best_sum:
            best_sum, best_end = run_sum, i + 1
    if best_end > run_start:
        runs.append((run_start, best_end, best_sum))
    return runs


def _run_end(weights: list[float], k: int, end: int) -> int:
    """The last block's other lines belong to the run while they carry text."""
    stop = min(end + k - 1, len(weights))
    while end < stop and weights[end] > 0:
        end += 1
    return end


def _body(
    lines: PageLines, weights: list[float], start: int, end: int, share: float
) -> tuple[int, int]:
    """Narrow to the page's articleBody element when it holds ``share`` of the region."""
    prefix = [0.0]
    for w in weights[start:end]:
        prefix.append(prefix[-1] + (w if w > 0 else 0.0))
    best, best_weight = (start, end), 0.0
    for bid in lines.bodies:
        a, b = lines.spans[bid]
        lo, hi = max(a, start), min(b, end)
        if hi > lo and prefix[hi - start] - prefix[lo - start] > best_weight:
            best, best_weight = (lo, hi), prefix[hi - start] - prefix[lo - start]
    return best if best_weight >= share * prefix[-1] else (start, end)


def _container(
    lines: PageLines, weights: list[float], start: int, end: int, options: LineOptions
) -> tuple[int, int]:
    """Narrow ``start..end`` to the element that holds the article.

    Lines are grouped by the parent of their block element (paragraphs of one
    body share it; each teaser of a list has its own). Groups weighing less than
    ``group_ratio`` of the heaviest are not article text; the answer is the
    smallest ancestor of the heaviest group holding ``container_share`` of the
    article text of the region.
    """
    parents, spans = lines.parents, lines.spans
    groups = [parents[line.block] if line.block >= 0 else -1 for line in lines[start:end]]
    score: dict[int, float] = {}
    for group, w in zip(groups, weights[start:end], strict=True):
        if w > 0:
            score[group] = score.get(group, 0.0) + w
    if not score:
        return start, end
    top = max(score, key=score.__getitem__)
    least = options.group_ratio * score[top]
    prefix = [0.0]
    for group, w in zip(groups, weights[start:end], strict=True):
        prefix.append(prefix[-1] + (w if w > 0 and score[group] >= least else 0.0))
    need = options.container_share * prefix[-1]
    element = top
    while element >= 0:
        a, b = spans[element]
        lo, hi = max(a, start), min(b, end)
        if hi > lo and prefix[hi - start] - prefix[lo - start] >= need:
            return lo, hi
        element = parents[element]
    return start, end


# A teaser's headline link: mostly link text, and a phrase (three words, or
# as many characters as a short CJK headline), not a "more" link.
CARD_LINK_DENSITY = 0.5
CARD_HEADLINE_SPACES = 2
CARD_HEADLINE_CHARS = 12


def is_headline_link(line: Line) -> bool:
    """A teaser's linked headline, not a menu item or a "more" link."""
    links, length = line.link_length, line.length
    if not links or not length:  # most lines (several stages read every line of a page)
        return False
    return links / length > CARD_LINK_DENSITY and (  # Line.link_density, inlined
        line.text.count(" ") >= CARD_HEADLINE_SPACES or length >= CARD_HEADLINE_CHARS
    )


def _headline_weights(
    lines: list[Line], options: LineOptions, headline: int | None = None
) -> list[float]:
    """Lines as :func:`select_main` weighs them, except that a teaser's linked
    headline counts as text (menus and "more" links still weigh less than nothing)."""
    weights = _weights(lines, options, headline)
    for i, line in enumerate(lines):
        if i != headline and is_headline_link(line) and not line.boilerplate:
            weights[i] = float(line.length)
    return weights


def select_headlines(lines: list[Line], options: LineOptions) -> tuple[int, int]:
    """The densest run of linked headlines: the text of a page that is only a list."""
    weights = _headline_weights(lines, options)
    start, end = _max_run(weights, max(1, options.block_size), options.line_cost)
    return _trim(weights, start, end)


def wordy(line: Line) -> bool:
    """A long line of words that is no prose (:data:`MIN_WORDY_LINE`, :data:`WORDY_SPAN`);
    a ``<pre>`` block's code is read as it is."""
    if line.length < MIN_WORDY_LINE or line.tag == "pre":
        return False
    return len(PROSE_END.findall(line.text)) * WORDY_SPAN < line.length


def select_prose(
    lines: list[Line], options: LineOptions, first: int = 0
) -> tuple[int, int]:
    """The densest run of prose (:func:`is_prose`) from line ``first`` on, boilerplate
    marks ignored: lines that end no sentence weigh nothing, linked ones less. The
    body of a page whose boilerplate-named wrappers hide its paragraphs."""
    beta, most = options.link_penalty, options.max_link_density
    weights = [
        -beta * line.link_length
        if line.link_density > most
        else line.length - (1 + beta) * line.link_length
        if is_prose(line)
        else 0.0
        for line in lines[first:]
    ]
    start, end = _max_run(weights, max(1, options.block_size), options.line_cost)
    if end == start:
        start, end = _max_run(weights, 1, 0)
    start, end = _trim(weights, start, end)
    return first + start, first + end


def select_sections(
    lines: list[Line],
    options: LineOptions,
    headline: int | None,
    share: float,
    listing: bool = False,
) -> tuple[list[tuple[int, int]], list[float]]:
    """The dense regions of a page whose text is not one article (Wang et al.'s
    "non-continuous" bodies): a product's description and its specs, the
    sections of a landing page, a listing's intro and its cards.

    Returns the runs of :func:`select_main`'s pass weighing at least ``share`` of
    the heaviest, in page order, each trimmed to lines that carry text, with the
    line weights (``listing``: a teaser's linked headline counts as text).
    """
    weights = (
        _headline_weights(lines, options, headline)
        if listing
        else _weights(lines, options, headline)
    )
    if isinstance(lines, PageLines):
        # A menu, aside or footer forgiven for holding most of the text (a wrapper)
        # is still no section of its own.
        tagged = _in_boilerplate_tags(lines)
        for i, line in enumerate(lines):
            if line.block >= 0 and tagged[line.block]:
                weights[i] = min(weights[i], 0.0)
    k = max(1, options.block_size)
    runs = _runs(weights, k, options.line_cost)
    if not runs:
        return [], weights
    least = share * max(total for _, _, total in runs)
    regions = []
    for start, end, total in runs:
        if total >= least:
            start, end = _trim(weights, start, _run_end(weights, k, end))
            if end > start:
                regions.append((start, end))
    return regions, weights


def _in_boilerplate_tags(lines: PageLines) -> list[bool]:
    """Per block element: whether it is, or sits in, a ``nav``, ``aside``, ``footer``
    or ``menu``. One pass: a block's parent is numbered before it."""
    tagged: list[bool] = []
    for tag, parent in zip(lines.tags, lines.parents, strict=True):
        tagged.append(tag in BOILERPLATE_TAGS or (parent >= 0 and tagged[parent]))
    return tagged


def _cards(
    lines: PageLines, weights: list[float], start: int, end: int, share: float
) -> tuple[int, int]:
    """Tell a list of teaser cards (a section front) from an article.

    A card is a group (lines sharing the parent of their block) with one linked
    headline and at most two lines of text. When cards hold ``card_share`` of
    the text of the list around the region, the region narrows to its heaviest
    group, or to nothing when that group is itself a card: the page is an index.
    """
    parents, spans = lines.parents, lines.spans

    def group(i: int) -> int:
        block = lines[i].block
        return parents[block] if block >= 0 else -1

    touched = {group(i) for i in range(start, end) if weights[i] > 0}
    touched.discard(-1)
    if not touched:
        return start, end
    lo = min(spans[g][0] for g in touched)
    hi = max(spans[g][1] for g in touched)
    scope = max(touched, key=lambda g: spans[g][1] - spans[g][0])
    while scope >= 0 and not (spans[scope][0] <= lo and spans[scope][1] >= hi):
        scope = parents[scope]
    if scope >= 0:  # one level up: the list around a single card
        scope = parents[scope]
    a, b = spans[scope] if scope >= 0 else (0, len(lines))
    heads: dict[int, int] = {}
    texts: dict[int, int] = {}
    weight: dict[int, float] = {}
    for i in range(a, b):
        g = group(i)
        if is_headline_link(lines[i]):
            heads[g] = heads.get(g, 0) + 1
        elif weights[i] > 0:
            texts[g] = texts.get(g, 0) + 1
            weight[g] = weight.get(g, 0.0) + weights[i]
    cards = [g for g in weight if heads.get(g) == 1 and texts[g] <= 2]
    if len(cards) < 2 or sum(weight[g] for g in cards) < share * sum(weight.values()):
        return start, end
    top = max(touched, key=lambda g: weight.get(g, 0.0))
    if top in cards:
        return start, start
    return max(spans[top][0], start), min(spans[top][1], end)


MIN_LEAD = 100  # non-space characters of a lead paragraph (a standfirst is shorter)
MAX_LEAD_LINK = 40  # non-space characters of a lone link above it (an author's name)


def lead_start(
    lines: PageLines, options: LineOptions, headline: int | None, start: int
) -> int:
    """First line of the lead text between the headline and line ``start``.

    A standfirst or first paragraph often sits in its own container between the
    headline and the body; the narrowing to the body's container leaves it out.
    When every line from the headline down to ``start`` is text or boilerplate
    (bylines, share bars), not a list of links, the text lines there open the
    article. A lone short link (the author's name) is no list.
    """
    if headline is None or headline >= start:
        return start
    gap = lines[headline + 1 : start]
    weights = _weights(gap, options)
    after_link = False
    for w, line in zip(weights, gap, strict=True):
        if w <= 0 and not line.boilerplate:
            if after_link or line.length > MAX_LEAD_LINK:
                return start
            after_link = True
        else:
            after_link = False
    first = next(
        (
            i
            for i, (w, line) in enumerate(zip(weights, gap, strict=True))
            if w > 0 and line.tag == "p" and line.length >= MIN_LEAD
        ),
        len(gap),
    )
    return headline + 1 + first


# A standfirst (deck) right under the headline, in whatever element the site gives it
# (an h2, a "lead" div, a list of key points): a run of unlinked words this long, with
# at least this many spaces (a sentence, not a date, a name or a label), within this
# many lines of the headline (bylines, dates, a share bar, a picture between).
MIN_DECK = 60
MIN_DECK_SPACES = 7
MAX_DECK_GAP = 8
MAX_DECK_TEASERS = 3  # linked headlines in a row: a list of other stories


def lead_deck(
    lines: PageLines, options: LineOptions, headline: int | None, start: int
) -> list[int]:
    """The lines of the standfirst between the headline and line ``start``: each line
    within :data:`MAX_DECK_GAP` of the headline that reads as a sentence (text, not
    links; :data:`MIN_DECK` characters, :data:`MIN_DECK_SPACES` spaces), outside a
    figure, with the text lines of its block's list right after it (the other key
    points). None past :data:`MAX_DECK_TEASERS` linked headlines in a row (other
    stories: the line above them may be one's blurb; a share bar's short links are
    no such list). The lines between (a byline, a date, a share bar) stay out of the
    text, unlike :func:`lead_start`'s, which reads a whole gap of text as the
    article's."""
    if headline is None or headline + 1 >= start:
        return []
    stop = min(start, headline + 1 + MAX_DECK_GAP)
    weights = _weights(lines[headline + 1 : start], options)
    parents = lines.parents
    deck: list[int] = []
    group = -2
    teasers = 0  # linked headlines in a row
    for i in range(headline + 1, start):
        line = lines[i]
        if weights[i - headline - 1] <= 0:
            if not line.boilerplate and is_headline_link(line):
                teasers += 1
                if teasers >= MAX_DECK_TEASERS:  # other stories between: the body is past them
                    return []
            group = -2
            continue
        teasers = 0
        here = parents[line.block] if line.block >= 0 else -1
        if here == group:  # the next line of a deck's list
            deck.append(i)
        elif (
            i < stop
            and line.length >= MIN_DECK
            and line.text.count(" ") >= MIN_DECK_SPACES
            and not set_apart(line, lines, FIGURE_TAGS)
        ):
            deck.append(i)
            group = here
        else:
            group = -2
    return deck


# A lead picture's caption (and its credit line) right above the text belongs
# to the article: it says what the first picture shows (FIGURE_TAGS: text.py's).
MAX_LEAD_CAPTION_LINES = 2
MAX_CAPTION = 300  # non-space characters


def lead_caption(lines: PageLines, start: int) -> int:
    """First line of the figure caption right above line ``start`` (``start`` if none)."""
    first = start
    while first > 0 and start - first < MAX_LEAD_CAPTION_LINES:
        line = lines[first - 1]
        if (
            line.length > MAX_CAPTION
            or line.link_density > CARD_LINK_DENSITY
            or not set_apart(line, lines, FIGURE_TAGS)
        ):
            break
        first -= 1
    return first


def lead_table(lines: PageLines, headline: int | None, start: int) -> int:
    """First line of the data table ending right above line ``start`` beside it, in
    the element holding the text (a fact box: Wikipedia's infobox above its lead, a
    match's line-up, a product's specifications), under the headline; ``start`` if
    none. Its short, linked cells weigh less than nothing, so the selection stops
    under it; it is the article's own data (readability's expected bodies keep it:
    wikipedia-2's 26 cells and 3 pictures)."""
    if not 0 < start < len(lines):
        return start
    spans, parents = lines.spans, lines.parents
    table = -1
    block = lines[start - 1].block
    while block >= 0 and spans[block][1] == start:  # the elements ending right above
        if lines.tags[block] == "table":
            table = block
        block = parents[block]
    if table < 0 or (headline is not None and spans[table][0] <= headline):
        return start
    return spans[table][0] if is_data_table(lines.elements[table]) else start

"""The publication date: visible text near the headline, then metadata, then the URL;
on a story none of them dates, htmldate (a stage after the page typing).

Strings are read by dateparse.py; this module chooses which of the page's dates
is its own. Only bounded text is scanned: a few lines around the headline and the
first characters of each candidate, so a 20 MB page costs no more than a small one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ..page import Evidence, Page
from ..parse.lines import Line
from ..parse.meta import PageMeta, lower_for_search, script_dates
from .dateparse import (
    DMY,
    MAX_LINE,
    ONE_DAY,
    RELATIVE,
    TIME,
    WORD,
    YMD,
    Found,
    build_found,
    from_match,
    is_valid,
    month_number,
    naive_utc,
    now_of,
    parse_date,
    relative_date,
    scan_dates,
    shift,
)

_WINDOW_BEFORE = 8  # lines above the main text scanned when the headline is unknown
_WINDOW_AFTER = 6  # lines of the main text itself scanned (dates often open the text)
_WINDOW_MAX = 20
_MAX_CANDIDATES = 12  # metadata date values read
_PROSE_LINE = 80  # a longer line is prose: only a date opening it (a dateline) counts ...
_PROSE_LEAD = 30  # ... within this many characters, unless a label introduces it
_BYLINE_LINES = 3  # lines under the headline that count as its byline
_ABOVE_TITLE = 3  # lines above the headline scanned when none below carries a date
# A thread's first post opens with a header above the post's own title: its number,
# date, the author's name, role, join date and post count.
_THREAD_ABOVE = 6
_AFTER_TEXT = 3  # lines after the main text still read ("First published on ...")
_LABELLED_SCAN = 120  # lines of the text scanned for a labelled date, as a last resort

_DAY_FIRST_EN = frozenset(("gb", "au", "nz", "ie", "in", "za", "sg", "ng", "ke", "pk"))

# Labels in the text just before a date.
_LABELS = re.compile(
    r"(?P<pub>发布|發布|发表|發表|出版|刊发|刊登|时间|時間|日期|\b(?:posted|published|publi[ée]e?|"
    r"veröffentlicht|publiziert|erstellt|erschienen|publicado|pubblicato|gepubliceerd|"
    r"opublikowano|опубликовано|date)\b)"
    r"|(?P<weak>\b(?:on|am|le|el)\b|于)"
    r"|(?P<reject>(?:更新|修改|修订|成文|印发|实施|截止|生效|评论|回复|留言|访问|浏览|建立|注册|加入|成立|创立|出生|逝世)"
    r"(?:日期|时间|時間)?|"
    r"\b(?:updated?|modified|edited|revised|last|accessed|retrieved|copyright|expires?|"
    r"deadline|repl(?:y|ied)|comments?|joined|registered|since|member|founded|established|"
    r"born|died|opened|aktualisiert|geändert|bearbeitet|registriert|mitglied|mis à jour|"
    r"modifié|inscrit|actualizado|modificado|registrado|aggiornato|modificato|iscritto|"
    r"обновлено|изменено|bijgewerkt|gewijzigd|atualizado|zaktualizowano)\b|©)",
    re.I,
)


def _label(before: str) -> str | None:
    """'pub', 'reject' or None: what the words just before a date say it is.

    The nearest label decides; "on"/"于" only carry a label said before them
    ("Posted on", "发表于"), they are no label by themselves ("died on").
    """
    last: re.Match[str] | None = None
    state: str | None = None
    for m in _LABELS.finditer(before):
        last = m
        if m.group("reject"):
            state = "reject"
        elif m.group("pub"):
            state = "pub"
    if last is None:
        return None
    gap = before[last.end() :]
    if len(gap) > 12 or any(c.isdigit() for c in gap):
        return "reject" if state == "reject" else None
    return state


_URL_DATE = re.compile(
    r"(?<!\d)(?P<y>(?:19|20)\d\d)(?P<sep>[-/_]?)(?P<m>[01]\d)(?P=sep)(?P<d>[0-3]\d)(?!\d)"
    r"|/(?P<y2>(?:19|20)\d\d)/(?P<m2>[01]?\d)/(?:(?P<d2>[0-3]?\d)/)?"
)


_YEAR = re.compile(r"(?:19|20)\d\d")


@dataclass(slots=True)
class _Visible:
    found: Found
    labelled: bool
    byline: bool = False  # a short line right under the headline


_NOT_DATE_LINE = frozenset(("figcaption", "caption"))
# A sentence that opens on a date ("On 2 Dec 2024, I received ...") tells a story;
# a dateline opens on the date itself or a place ("LONDON, March 2, 2016 -").
# (Capitalised: a byline's "on 27 December" continues the "Posted" above it.)
_NARRATIVE = re.compile(r"\W*(?:On|Am|Le|El)\b[^\d]{0,12}$")
_SENTENCE = 40  # characters of a line that, ending like a sentence, is one


def _is_sentence(line: Line) -> bool:
    text = line.text.rstrip()
    return line.length > _PROSE_LINE or (line.length > _SENTENCE and text[-1:] in ".:!?…")


_SENTENCE_GOES_ON = 20  # letters after a date that a sentence goes on with (a byline ends)


def _inside_sentence(line: Line, pos: int, found: Found) -> bool:
    """Whether a date past the line's lead sits inside a sentence: a long line, or a
    sentence that goes on after the date ("... findet am 5. Februar 2020 ab 19 Uhr im
    Cafe statt."), where a byline ends on its date ("By Ann Lee on May 3, 2020.")."""
    if line.length > _PROSE_LINE:
        return True
    if not _is_sentence(line):
        return False
    rest = line.text[pos + len(found.raw) : MAX_LINE]
    return sum(c.isalpha() for c in rest) >= _SENTENCE_GOES_ON


def _visible(
    lines: list[Line],
    lo: int,
    hi: int,
    month_first: bool,
    now: datetime,
    hints: tuple[str, ...] | None = None,
    byline_lines: int = 0,
) -> list[_Visible]:
    """Publication-like dates in lines[lo:hi], in reading order (captions and
    dates labelled as updated, commented, ... left out)."""
    out: list[_Visible] = []
    for i, line in enumerate(lines[lo:hi]):
        if line.tag in _NOT_DATE_LINE or (line.boilerplate and line.length > 100):
            continue
        text = line.text[:MAX_LINE]
        byline = i < byline_lines and line.length <= 80
        if line.length <= _WIDGET_LINE and lo + i + 1 < len(lines):
            widget = _calendar_widget(text, lines[lo + i + 1], month_first)
            if widget is not None and is_valid(widget, now):
                out.append(_Visible(widget, False, byline))
                continue
        for pos, found in scan_dates(text, month_first, hints):
            label = _label(text[max(0, pos - 24) : pos])
            if label is None and pos > _PROSE_LEAD and _inside_sentence(line, pos, found):
                continue  # a date inside a sentence is what the story is about
            if label is None and _NARRATIVE.match(text, 0, pos) and _is_sentence(line):
                continue
            if label != "reject" and is_valid(found, now):
                out.append(_Visible(found, label == "pub", byline))
    return out


_WIDGET_LINE = 20  # lines this short may be one part of a calendar widget
_TIME_ONLY = re.compile(TIME)
_MONTH_DAY = re.compile(WORD + r"\s(?P<d>[0-3]?\d)(?:st|nd|rd|th)?(?!\d)(?:" + TIME + r")?")
# What every _MONTH_DAY match holds: a space, then the first digit of its day.
# Searched first: one test per character, where _MONTH_DAY reads a word from
# every letter (a twelfth of the cost on a line of prose).
_SPACE_DIGIT = re.compile(r"\s\d")


def _month_days(text: str) -> Iterator[re.Match[str]]:
    """``_MONTH_DAY.finditer(text)``, with no scan of a text that has no day."""
    return iter(()) if _SPACE_DIGIT.search(text) is None else _MONTH_DAY.finditer(text)


# A day number right before a month word: "27 Mar 20" is day, month and a two-digit
# year, never March 20.
_DAY_BEFORE = re.compile(r"(?<!\d)[0-3]?\d\.?\s$")


def _no_year(
    lines: list[Line], lo: int, hi: int, declared: Found, month_first: bool
) -> list[_Visible]:
    """Dates shown without a year ("Posted Nov 18, 8:19 PM"), in the metadata's year
    (not the "Mar 20" of a "27 Mar 20": a day, a month and a two-digit year)."""
    out: list[_Visible] = []
    for line in lines[lo:hi]:
        if line.tag in _NOT_DATE_LINE or line.length > 100:
            continue
        for m in _month_days(line.text[:MAX_LINE]):
            month = month_number(m.group("mon"), year_less=True)
            before = line.text[max(0, m.start() - 24) : m.start()]
            if month is None or _label(before) == "reject" or _DAY_BEFORE.search(before):
                continue
            found = build_found(declared.when.year, month, int(m.group("d")), m, m.group(0))
            if found is not None:
                out.append(_Visible(found, False))
    return out


def shows_day(lines: list[Line], day: date) -> bool:
    """Whether a line writes ``day``, or a day next to it (a UTC stamp may fall on the
    local day before or after): with its year, in either numeric order, without it
    ("Posted Dec 17", "3 May", "3. Mai", "5/3/24"), or as an age ("3 hours ago").
    Tells a date the page shows from a stamp in its metadata alone
    (pagetype.settle_page_type), so it errs on the side of "shown"."""
    near = {d for d in (shift(day, -ONE_DAY), day, shift(day, ONE_DAY)) if d is not None}
    month_days = {(d.month, d.day) for d in near}
    for line in lines:
        text = line.text[:MAX_LINE]
        for month_first in (True, False):
            if any(_day(found) in near for _pos, found in scan_dates(text, month_first)):
                return True
        for matches in (_month_days(text), _DAY_MONTH.finditer(text)):
            for m in matches:
                if (month_number(m.group("mon"), year_less=True), int(m.group("d"))) in month_days:
                    return True
        if _shows_age(text):
            return True  # "3 hours ago": an age, of some day (a word, "today", may be prose)
        for m in _SHORT_YEAR.finditer(text):
            a, b, yy = (int(g) for g in m.groups())
            if any(yy == d.year % 100 and {a, b} == {d.month, d.day} for d in near):
                return True
    return False


def _shows_age(text: str) -> bool:
    """Whether ``text`` writes an age ("3 hours ago", "2天前"): a RELATIVE match with
    a number. Each ends on "ago" (case-blind: no character but A, G and O lower-cases
    to its letters, none but those the regex matches) or 前: a text with neither is
    not searched (the case-blind regex tries every character)."""
    if "前" not in text and "ago" not in text.lower():
        return False
    return any(m.group("n") for m in RELATIVE.finditer(text))


# Year-less and two-digit-year forms shows_day also reads: "3 May", "3. Mai", "5/3/24".
_DAY_MONTH = re.compile(r"(?<!\d)(?P<d>[0-3]?\d)(?:st|nd|rd|th|\.)?\s(?:de\s|of\s)?" + WORD)
_SHORT_YEAR = re.compile(r"(?<![\d/.-])([0-3]?\d)[/.-]([0-3]?\d)[/.-](\d\d)(?![\d/.-])")

# Platform forms without a four-digit year: "10-08 08:30", "10月08日 08:30", "06月24日
# 11時30分" (a time of day is required: "10-08" alone is a score or a range), and
# "19-10-08 08:30" (YY-MM-DD).
_MD_TIME = re.compile(
    r"(?<![\d/.:-])(?:(?P<yy>\d\d)-)?(?P<m>[01]?\d)(?:-|\s?月\s?)(?P<d>[0-3]?\d)(?:\s?日)?"
    r"(?:\s?(?P<h>[01]?\d|2[0-3])\s?[:：時时]\s?(?P<mi>[0-5]\d)(?:[:：](?P<s>[0-5]\d))?分?)?"
    r"(?![\d:-])"
    r"(?P<ap>(?!))?(?P<tz>(?!))?"  # never match: the groups build_found reads
)
_YEARLESS_LINE = 80  # a longer line is prose: its "10-08" is not the page's date
_ZONE_SLACK = timedelta(hours=14)  # the widest UTC offset: a local time this far ahead is now


def short_form_dates(
    text: str, reference: datetime, year_less: bool = True
) -> list[tuple[int, Found]]:
    """Dates written without a four-digit year, as platforms show them.

    "10-08 08:30" takes the reference time's year, or the year before when that
    would put it in the future; "19-10-08" is 2019-10-08. Year-less forms need a
    time of day; all are refused when they lie ahead of ``reference`` (in UTC: by
    more than the widest zone's offset, the page writes its own local time).
    """
    out: list[tuple[int, Found]] = []
    limit = shift(reference, _ZONE_SLACK) or reference
    for m in _MD_TIME.finditer(text[:_YEARLESS_LINE]):
        yy = m.group("yy")
        if yy is None and (m.group("h") is None or not year_less):
            continue
        if yy is None and "月" not in m.group(0) and m.group(0).count("-") != 1:
            continue
        year = 2000 + int(yy) if yy is not None else reference.year
        found = build_found(year, int(m.group("m")), int(m.group("d")), m, m.group(0))
        if found is not None and yy is None and found.when > limit:
            found = build_found(year - 1, int(m.group("m")), int(m.group("d")), m, m.group(0))
        if found is not None and found.when <= limit:
            out.append((m.start(), found))
    return out


def _short_forms(
    lines: list[Line], lo: int, hi: int, reference: datetime, year_less: bool
) -> Found | None:
    """The first YY-MM-DD (or, with ``year_less``, year-less) date in short lines near
    the headline."""
    for line in lines[lo:hi]:
        if line.tag in _NOT_DATE_LINE or line.length > _YEARLESS_LINE:
            continue
        for pos, found in short_form_dates(line.text, reference, year_less):
            if _label(line.text[max(0, pos - 24) : pos]) != "reject":
                return found
    return None


_STORY_TYPES = frozenset(("article", "thread"))  # page types whose weak date evidence is read


def _from_scripts(values: list[str], now: datetime) -> Found | None:
    """The first valid publication time an inline script or data attribute gave."""
    for raw in values:
        found = parse_date(raw)
        if found is not None and is_valid(found, now):
            return found
    return None


def _from_uploads(urls: list[str], now: datetime) -> Found | None:
    """A day in an upload path ("/uploads/2019/10/08/", "/20191008/x.jpg"): weak evidence,
    the file may be older than the story, so it is read last."""
    for url in urls[:5]:
        found = _from_url(url, now)
        if found is not None:
            return Found(found.when, url, False)
    return None


def _calendar_widget(text: str, following: Line, month_first: bool) -> Found | None:
    """A date a calendar widget splits over two lines: "November 20" / "15:23 2019"."""
    if following.length > _WIDGET_LINE or _YEAR.search(text):
        return None
    m = _MONTH_DAY.fullmatch(text.strip())
    year = _YEAR.search(following.text)
    if m is None or year is None or m.group("h") is not None:
        return None
    month = month_number(m.group("mon"), year_less=True)
    if month is None:
        return None
    time_of_day = _TIME_ONLY.search(following.text)
    found = build_found(int(year.group(0)), month, int(m.group("d")), time_of_day, text)
    if found is None:
        return None
    return Found(found.when, f"{text} {following.text}", found.has_time)


def _is_utc(found: Found) -> bool:
    return found.when.tzinfo is not None and found.when.utcoffset() == timedelta(0)


_LABEL_WORDS = (
    r"发布|發布|发表|發表|posted|published|publié|veröffentlicht|publiziert|erstellt|erschienen|"
    r"publicado|pubblicato|gepubliceerd|opublikowano"
)
_LABEL_WORD = re.compile(_LABEL_WORDS, re.I)
_LABEL_WORD_LOWER = re.compile(_LABEL_WORDS)  # searched in lower_for_search's text


def _has_label_word(text: str) -> bool:
    """``_LABEL_WORD.search(text)``, in the lower-cased text where that finds the same
    (:func:`.meta.lower_for_search`): a sixth of the cost on a line of prose."""
    lowered = lower_for_search(text)
    if lowered is None:
        return _LABEL_WORD.search(text) is not None
    return _LABEL_WORD_LOWER.search(lowered) is not None


def _labelled(
    lines: list[Line], lo: int, hi: int, month_first: bool, now: datetime
) -> Found | None:
    """The first date in lines[lo:hi] that a publication label introduces.

    Most pages write no label there: one search of the lines joined (no label
    word holds a line break) rules them all out at once."""
    texts = [line.text[:MAX_LINE] for line in lines[lo:hi] if not line.boilerplate]
    if not _has_label_word("\n".join(texts)):
        return None
    for line in lines[lo:hi]:
        text = line.text[:MAX_LINE]
        if line.boilerplate or not _has_label_word(text):
            continue  # comment threads are boilerplate: their dates are not the story's
        for pos, found in scan_dates(text, month_first):
            before = text[max(0, pos - 24) : pos]
            if _label(before) == "pub" and is_valid(found, now):
                return found
    return None


# A year and a month in a URL's path: /2022/08/, /2022-08/, 2022_08, /20220814.
_URL_MONTH = re.compile(
    r"(?<!\d)(?P<y>(?:19|20)\d\d)[-/_]?(?P<m>0[1-9]|1[0-2])(?=\D|\d\d(?!\d)|$)"
)


def _url_backs(url: str | None, declared: Found, shown: Found, now: datetime) -> bool:
    """Whether the URL's day (else its year and month) is the declared date's and
    not the shown one's: the path a story was filed under at its publication backs the metadata
    against an earlier day shown near the headline (a related story's, an
    embedded post's)."""
    if not url:
        return False
    day = _from_url(url, now)
    if day is not None:
        return _day(day) == _day(declared) != _day(shown)
    path = url.split("?", 1)[0].split("#", 1)[0][:500]
    months = {(int(m.group("y")), int(m.group("m"))) for m in _URL_MONTH.finditer(path)}
    return _year_month(declared) in months and _year_month(shown) not in months


def _year_month(found: Found) -> tuple[int, int]:
    return found.when.year, found.when.month


def _from_url(url: str | None, now: datetime) -> Found | None:
    if not url:
        return None
    path = url.split("?", 1)[0].split("#", 1)[0][:500]
    for m in _URL_DATE.finditer(path):
        if m.group("y"):
            year, month, day = int(m.group("y")), int(m.group("m")), int(m.group("d"))
        elif m.group("d2"):
            year, month, day = int(m.group("y2")), int(m.group("m2")), int(m.group("d2"))
        else:
            continue  # /2019/11/ alone gives no day
        try:
            found = Found(datetime(year, month, day), m.group(0).strip("/"), False)
        except ValueError:
            continue
        if is_valid(found, now):
            return found
    return None


def _day(found: Found) -> date:
    return found.when.date()


def find_published(page: Page) -> None:
    """Fill ``page.published``, ``page.published_raw`` and the date's evidence.

    Reads the metadata, the lines, the headline's line (``headline``), the
    main region, the URL, the language and the caller's reference time.
    """
    iso, raw = _published(page)
    page.published, page.published_raw = iso, raw
    if raw is not None and "published" not in page.evidence:
        page.evidence["published"] = _evidence(page, raw)


def _evidence(page: Page, raw: str) -> Evidence:
    """Where ``raw`` was read: a metadata value, a line of the page, or the URL."""
    source = next((s for value, s in page.meta.published if value == raw), None)
    if source is not None:
        return Evidence(source, None, raw)
    index = page.line_with(raw, page.headline or 0)
    if index is None:
        index = page.line_with(raw)
    if index is not None:
        return Evidence("line", index, raw)
    return Evidence("url" if page.url and raw in page.url else "", None, raw)


def _published(page: Page) -> tuple[str | None, str | None]:
    """Return ``(iso8601, raw)`` or ``(None, None)``.

    Order: a date shown between the headline and the text (the page's own local
    day), checked against the metadata's published time; then the metadata (where
    its values disagree, the one the page shows labelled "Published"); then the
    URL; on a thread, the first post's header above its title; then a relative
    date ("3 hours ago", 昨天) against ``reference_time``; last the weak evidence
    of platform pages: a publication time (a timestamp or an ISO date under a
    publication-date name) in an inline script or data attribute (read only when
    needed: a pass over the scripts), a year-less "10-08 08:30" under the
    headline, a day in an image's upload path; scripts and upload paths only on
    articles and threads.
    """
    meta, lines, title_index, url = page.meta, page.lines, page.headline, page.url
    reference_time = page.reference_time
    now = now_of(reference_time)
    month_first, hints = _date_order(page)
    lo, hi = _date_window(page)
    under_title = title_index is not None and lo == title_index + 1
    shown = _visible(lines, lo, hi, month_first, now, hints, _BYLINE_LINES if under_title else 0)
    first_below = shown[:1]
    if title_index is not None and lo == title_index + 1:
        # Bylines sit above the headline on some sites (and forums): a few lines only,
        # so the page header's "today" stays out; the nearest line first (farther up
        # ends the list of posts before this one).
        # The line right above it is the headline's byline as much as the one below
        # ("05.02.2020 - Redaktion: ..." over the title).
        for i in range(title_index - 1, max(0, title_index - _ABOVE_TITLE) - 1, -1):
            byline = 1 if i == title_index - 1 else 0
            shown += _visible(lines, i, i + 1, month_first, now, hints, byline)

    declared = _declared(meta, url, month_first, hints, now)
    if declared is not None:
        return _shown_or_declared(page, declared, shown, lo, hi, month_first, hints, now)
    if page.page_type == "thread" and under_title and title_index is not None:
        # A post's header (number, date, author, role, join date) sits above the
        # post's title: when the first post's title is the headline, the first date
        # below it is the next post's, a later one. Posts follow each other in
        # time; a header's date no later than that is the first post's.
        header = _visible(lines, max(0, title_index - _THREAD_ABOVE), title_index, month_first, now)
        opening = header[-1:]
        if opening and (not first_below or _earlier(opening[0], first_below[0])):
            return opening[0].found.iso(), opening[0].found.raw
    if shown:
        best = next((c for c in shown if c.labelled), shown[0])
        return best.found.iso(), best.found.raw
    # Forums and blogs label the post's date below it ("发布时间 2005/05/17 22:11").
    # Only inside the main text and just after it: below start the comments.
    later = _labelled(lines, hi, _after_text(page, hi), month_first, now)
    if later is not None:
        return later.iso(), later.raw
    if reference_time is not None:
        for line in lines[lo:hi]:
            found = relative_date(line.text, reference_time)
            if found is not None and is_valid(found, now):
                return found.iso(), found.raw
    return _weak_date(page, lo, hi, now, reference_time is not None)


def _date_order(page: Page) -> tuple[bool, tuple[str, ...] | None]:
    """Whether the page writes numeric dates month first, and the languages to read
    month names in: from the declared languages, the metadata's and the text's."""
    meta, languages, page_language = page.meta, page.date_languages, page.language
    # The declared tag keeps the region (en-GB writes 2/3/2016 for 2 March).
    lang = (languages[0] if languages else meta.language or page_language or "").lower()
    lang = lang.replace("_", "-").split(",")[0].strip()
    month_first = not lang or (lang.startswith("en") and lang[3:5] not in _DAY_FIRST_EN)
    month_first = _numeric_order(meta.published, month_first)
    primary = lang.split("-")[0]
    hints = tuple(languages) if languages else ((primary,) if primary.isalpha() else None)
    return month_first, hints


def _date_window(page: Page) -> tuple[int, int]:
    """The lines a shown date is looked for in: between the headline and the text."""
    lines, title_index, main_start, main_end = page.lines, page.headline, page.start, page.end
    if title_index is not None and title_index < main_start + _WINDOW_MAX:
        lo = title_index + 1  # the text may have been found to start above the headline
    else:
        lo = max(0, main_start - _WINDOW_BEFORE)
    hi = min(len(lines), max(main_start, lo) + _WINDOW_AFTER, lo + _WINDOW_MAX)
    if main_end is not None and main_end > lo:
        hi = min(hi, main_end)  # below the text start the comments
    return lo, hi


_EAST_MOST = 14  # hours: the widest offsets east and west of UTC
_WEST_MOST = 12


def _local_day(declared: Found, shown: Found, modified: set[date]) -> bool:
    """Whether ``shown``, a day off ``declared``, is the page's local day of it.

    A UTC instant falls on the day before or after in some zone only at some hours
    (23:00Z is the next day from UTC+1 on; 02:54Z is never the day after): that
    settles it, a last update that day or not. Without a UTC time, a shown day that
    is the declared last modification's is more likely that update's."""
    if declared.has_time and _is_utc(declared):
        hour = declared.when.hour + declared.when.minute / 60
        if _day(shown) > _day(declared):
            return hour >= 24 - _EAST_MOST
        return hour < _WEST_MOST
    return _day(shown) not in modified


def _shown_or_declared(
    page: Page,
    declared: Found,
    shown: list[_Visible],
    lo: int,
    hi: int,
    month_first: bool,
    hints: tuple[str, ...] | None,
    now: datetime,
) -> tuple[str, str]:
    """The metadata's date, or the shown one when the page shows the same day in its
    own zone, or an earlier day in its byline, or stands by another declared value."""
    meta, lines = page.meta, page.lines
    modified = _modified_days(meta, month_first)
    shown += _no_year(lines, lo, hi, declared, month_first)
    other_order = _other_order(declared)
    for candidate in shown:
        if _day(candidate.found) in other_order:
            return candidate.found.iso(), candidate.found.raw  # the page's own order
        if _day(declared) in _other_order(candidate.found):
            return declared.iso(), declared.raw  # the same day, shown in the other order
    by_gap = sorted(shown, key=lambda c: abs((_day(c.found) - _day(declared)).days))
    for candidate in by_gap:
        gap = abs((_day(candidate.found) - _day(declared)).days)
        if gap == 0:
            shown_time = candidate.found.when.time().replace(second=0)
            same_time = shown_time == declared.when.time().replace(second=0, microsecond=0)
            if declared.has_time and (not candidate.found.has_time or same_time):
                return declared.iso(), declared.raw  # the same moment, with its offset
            return candidate.found.iso(), candidate.found.raw
        if gap == 1 and _local_day(declared, candidate.found, modified):
            return candidate.found.iso(), candidate.found.raw  # the page's local day
    first = shown[0] if shown else None
    # A published value equal to the modified one, character for character, is a
    # CMS stamping its last save in both: it says nothing of the first day.
    stamped = _stamped(declared, meta, month_first)
    if (
        first
        and (first.byline or stamped)
        and _day(first.found) < _day(declared)
        and not _url_backs(page.url, declared, first.found, now)
    ):
        # An earlier date in the byline under the headline beats metadata that
        # disagrees (a re-published copy, a CMS migration); a later one is more
        # likely an update or the page header's "today".
        return first.found.iso(), first.found.raw
    if first and first.byline and _day(first.found) > _day(declared):
        # A later day in the byline that another published value of the metadata
        # states, or a <time> element: the day the page gives its reader, the
        # first value a draft's. (Not its last modification's day: an update's,
        # the page's first day is the published one.)
        values = _published_values(meta, month_first, hints, now)
        declared_only = _published_values(meta, month_first, hints, now, declared_only=True)
        stated = {_day(found) for found in values} - modified
        if _day(first.found) in stated | {_day(found) for found in declared_only}:
            return first.found.iso(), first.found.raw
    shown_later = _labelled(lines, hi, _after_text(page, hi), month_first, now)
    if shown_later is not None and _day(shown_later) != _day(declared):
        # Metadata that disagrees with itself: the declared value the page also
        # shows labelled "Published" is the one it stands by (a bare <time>
        # is only the shown date again, no declaration).
        days = _published_values(meta, month_first, hints, now, declared_only=True)
        read = {_day(found) for found in days} | other_order
        if _day(shown_later) in read:
            return shown_later.iso(), shown_later.raw
    return declared.iso(), declared.raw


def _other_order(found: Found) -> set[date]:
    """The day an ambiguous numeric value ("11/01/2023") is in the other order: a
    page whose metadata writes US order in a day-first language shows which."""
    m = DMY.fullmatch(found.raw.strip())
    if m is None or m.group("sep") == ".":
        return set()
    a, b, year = int(m.group("a")), int(m.group("b")), int(m.group("y"))
    if a == b or a > 12 or b > 12:
        return set()
    try:
        return {date(year, a, b), date(year, b, a)} - {_day(found)}
    except ValueError:
        return set()


def _weak_date(
    page: Page, lo: int, hi: int, now: datetime, fetched: bool
) -> tuple[str | None, str | None]:
    """The weak evidence of platform pages, its own evidence recorded: a script's
    publication time, a year-less "10-08 08:30" in the lines, an image's upload path.
    ``fetched``: the moment the page was fetched is known."""
    meta, lines = page.meta, page.lines
    # A product's or a listing's scripts and images date the catalogue, not a story.
    story = page.page_type in _STORY_TYPES
    weak = _from_scripts(script_dates(meta, page.root, page.markup), now) if story else None
    source = "script"
    if weak is None:
        # Without the moment the page was fetched, "10-08 08:30" has no year worth guessing.
        weak, source = _short_forms(lines, lo, hi, now, fetched), "line"
    if weak is None and story:
        weak, source = _from_uploads(meta.images, now), "upload_path"
    if weak is None:
        return None, None
    index = page.line_with(weak.raw, lo) if source == "line" else None
    page.evidence["published"] = Evidence(source, index, weak.raw)
    return weak.iso(), weak.raw


_HTMLDATE_MARKUP = 1_000_000  # characters of the page handed to htmldate: a bounded cost


def date_by_htmldate(page: Page) -> None:
    """Fill ``page.published`` from htmldate where none of our readings gave a date
    and the page, its type settled, is a story (an article or a thread).

    A stage after the page typing, not a part of ``find_published``: a date found
    by a guess of its own must not turn a product page or a docs page into an
    article (``settle_page_type`` reads the dates), and a catalogue's dates are not
    a story's.
    """
    if page.published is not None or page.page_type not in _STORY_TYPES:
        return
    month_first, _hints = _date_order(page)
    page.published, page.published_raw = _htmldate(page, month_first, now_of(page.reference_time))


class _NoDubiousHtml(logging.Filter):
    """htmldate logs at ERROR every page it calls "not valid HTML" (a fragment, no
    ``<html>`` in its first bytes): for us that is a page it gives no date, no error
    (a crawl counted them in log_count/ERROR). Its other records pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("parsed tree length")


_HTMLDATE_FILTER = _NoDubiousHtml()


def _quiet_htmldate() -> None:
    htmldate_log = logging.getLogger("htmldate.utils")
    if _HTMLDATE_FILTER not in htmldate_log.filters:
        htmldate_log.addFilter(_HTMLDATE_FILTER)


def _htmldate(page: Page, month_first: bool, now: datetime) -> tuple[str | None, str | None]:
    """htmldate's publication day, when none of our own readings gave one.

    A fallback, never a voter: where both give a day and they differ, ours is
    right about ten times as often (the bench's date sets). First its reading of
    the markup (date-named elements and attributes, more meta names); then its
    scan of the text at large, for a day no line of ours shows: a shape we cannot
    read ("02.12.19"), never a date our rules saw and refused (a founding date, a
    date in the story, the header's "today", a comment's), nor one in a script
    (cut out before, JSON-LD kept). ``original_date``: the first publication.
    It parses the markup again (it needs lxml.html's elements, ours are
    lxml.etree's): about 3 ms a call, paid only by undated stories. A first of
    the month is its padding of a month or a bare year ("November 2026", a
    copyright line) unless a line writes that day. A day under a refusing label
    ("Founded", "Joined") stays refused, and so does the declared last modification (a machine's
    stamp of its last save); a visible "Updated"/"Aktualisiert" day does not: on
    a story that shows no other date it is the day its reader is given (the
    bench's human labels take it too).
    """
    try:
        from htmldate import find_date

        _quiet_htmldate()
    except ImportError:  # an install without it: our own readings only
        return None, None
    markup = page.markup
    if markup is None:
        return None, None
    text = markup.decode("utf-8", "replace") if isinstance(markup, bytes) else markup
    text = text[:_HTMLDATE_MARKUP]
    if " " not in text.lstrip()[:200]:
        return None, None  # htmldate would take a bare "http..." string for a URL to fetch
    modified = {d.isoformat() for d in _modified_days(page.meta, month_first)}
    for extensive in (False, True):
        try:
            day = find_date(
                _SCRIPTS.sub("", text) if extensive else text,
                url=page.url,
                extensive_search=extensive,
                original_date=True,
                max_date=now.date().isoformat(),
            )
        except Exception:  # htmldate raises many kinds on odd pages: no date, not no article
            return None, None
        if day is None or day in modified or (day.endswith("-01") and not _writes(page, day)):
            continue
        if _refused(page.lines, day, month_first, shown=extensive):
            continue
        page.evidence["published"] = Evidence("htmldate", None, day)
        return day, day
    return None, None


def _writes(page: Page, day: str) -> bool:
    """Whether a line of the page writes ``day`` (YYYY-MM-DD) as a day, in either
    numeric order: htmldate pads a month or a bare year to its first day, a page
    that shows "1 November 2026" means the day."""
    for line in page.lines:
        for order in (True, False):
            if any(_day(found).isoformat() == day for _pos, found in scan_dates(line.text, order)):
                return True
    return False


# A script (not JSON-LD): its dates are a program's ("expires", "created_at" of anything).
_SCRIPTS = re.compile(r"<script(?![^>]*ld\+json)[^>]*>.*?</script\s*>", re.S | re.I)


def _refused(lines: list[Line], day: str, month_first: bool, shown: bool = False) -> bool:
    """Whether a line shows ``day`` (YYYY-MM-DD) under a label that refuses it
    (``shown``: at all, in either numeric order), a last update's label aside."""
    for line in lines:
        text = line.text[:MAX_LINE]
        orders = (True, False) if shown else (month_first,)
        for order in orders:
            for pos, found in scan_dates(text, order):
                if _day(found).isoformat() != day:
                    continue
                before = text[max(0, pos - 24) : pos]
                if _updated(before):
                    continue  # a last update: the day a story showing no other is given
                if shown or _label(before) == "reject":
                    return True
    return False


_UPDATE_WORDS = re.compile(
    r"(?:更新|修改|修订|\b(?:updated?|modified|edited|revised|aktualisiert|geändert|"
    r"bearbeitet|mis à jour|modifié|actualizado|modificado|aggiornato|modificato|обновлено|"
    r"изменено|bijgewerkt|gewijzigd|atualizado|zaktualizowano)\b)[^\d]{0,12}$",
    re.I,
)


def _updated(before: str) -> bool:
    """Whether the label just before a date says the page was updated then."""
    return _UPDATE_WORDS.search(before) is not None


_BARE_TIME = "time"  # PageMeta's source name of a <time datetime> without pubdate
_TIME_ELEMENTS = frozenset((_BARE_TIME, "time:pubdate"))  # ... and of one with pubdate


def _earlier(a: _Visible, b: _Visible) -> bool:
    first, second = naive_utc(a.found.when), naive_utc(b.found.when)
    return first is None or second is None or first <= second


def _after_text(page: Page, hi: int) -> int:
    """Where the scan for a labelled date below the byline stops: just after the
    main text (below start the comments), and never far."""
    lines, main_end = page.lines, page.end
    limit = min(len(lines), hi + _LABELLED_SCAN)
    if main_end is None:
        return limit
    # A box between the text and its footer (a newsletter form) is boilerplate: it
    # does not count as lines after the text.
    stop, kept = main_end, 0
    while stop < limit and kept < _AFTER_TEXT:
        kept += not lines[stop].boilerplate
        stop += 1
    return stop


def _stamped(declared: Found, meta: PageMeta, month_first: bool) -> bool:
    """Whether the published value is the CMS's last save, stamped in the modified
    field too: the same clock reading to the second ("14:20:08Z" beside
    "14:20:08-04:00" is one save written with two zones). It says nothing of
    the first day."""
    if declared.raw in meta.modified[:5]:
        return True
    if not declared.has_time:
        return False
    clock = declared.when.replace(tzinfo=None, microsecond=0)
    for raw in meta.modified[:5]:
        found = parse_date(raw, month_first)
        if found is not None and found.when.replace(tzinfo=None, microsecond=0) == clock:
            return True
    return False


def _published_values(
    meta: PageMeta,
    month_first: bool,
    hints: tuple[str, ...] | None,
    now: datetime,
    declared_only: bool = False,
) -> list[Found]:
    """Every valid published value of the metadata, best first (``declared_only``:
    leave out the bare ``<time>`` elements, which are the visible dates)."""
    values = []
    for raw, source in meta.published[:_MAX_CANDIDATES]:
        if declared_only and source == _BARE_TIME:
            continue
        found = parse_date(raw, month_first, hints)
        if found is not None and is_valid(found, now):
            values.append(found)
    return values


def _numeric_order(values: list[tuple[str, str]], month_first: bool) -> bool:
    """Whether the page writes 02-12-2025 month first, as its own metadata shows: an
    ambiguous numeric date there and a year-first one of the same day settle it."""
    ambiguous: list[tuple[int, int, int]] = []
    year_first: list[re.Match[str]] = []
    for raw, _source in values[:_MAX_CANDIDATES]:
        m = DMY.fullmatch(raw.strip())
        if m is not None:
            a, b = int(m.group("a")), int(m.group("b"))
            if 1 <= a <= 12 and 1 <= b <= 12 and a != b:
                ambiguous.append((int(m.group("y")), a, b))
        elif (ymd := YMD.match(raw.strip())) is not None:
            year_first.append(ymd)
    if not ambiguous:  # (most pages: no year-first day need be read)
        return month_first
    days: set[date] = set()
    for ymd in year_first:
        found = from_match("ymd", ymd, True)
        if found is not None:
            days.add(_day(found))
    for year, a, b in ambiguous:
        if date(year, a, b) in days:
            return True
        if date(year, b, a) in days:
            return False
    return month_first


def _declared(
    meta: PageMeta,
    url: str | None,
    month_first: bool,
    hints: tuple[str, ...] | None,
    now: datetime,
) -> Found | None:
    """The metadata's published date, else the URL's; a UTC timestamp a day off a
    local one (another tag, the URL) gives way to it."""
    candidates = _published_values(meta, month_first, hints, now)
    from_url = _from_url(url, now)
    if from_url is not None:
        candidates.append(from_url)
    if not candidates:
        return None
    first = candidates[0]
    if from_url is not None and abs((_day(from_url) - _day(first)).days) > 1:
        source = next((src for raw, src in meta.published if first.raw in raw), None)
        if source in _TIME_ELEMENTS:
            # A <time> element is a date the page shows, not a declaration: it may be
            # a sidebar's or an older story's. The day the URL was filed under wins.
            return from_url
    if _is_utc(first):
        near = [c for c in candidates[1:] if abs((_day(c) - _day(first)).days) <= 1]
        # A local offset given by the page itself beats a naive value or the URL.
        local = [c for c in near if c.when.tzinfo is not None and not _is_utc(c)]
        if local:
            return local[0]
        for other in near:
            if other.when.tzinfo is None and _day(other) != _day(first):
                return other
    return first


def _modified_days(meta: PageMeta, month_first: bool) -> set[date]:
    days = set()
    for raw in meta.modified[:5]:
        found = parse_date(raw, month_first)
        if found is not None:
            days.add(_day(found))
    return days


def find_modified(page: Page) -> None:
    """Fill ``page.modified``: the declared last-modified date (ISO 8601), kept apart
    from ``published``; without one, the page's own visible "Updated ..." line."""
    now = now_of(page.reference_time)
    for raw in page.meta.modified[:5]:
        found = parse_date(raw)
        if found is not None and is_valid(found, now):
            page.modified = found.iso()
            page.evidence["modified"] = Evidence("meta", None, raw)
            return
    shown = _shown_update(page, now)
    if shown is not None:
        index, found = shown
        page.modified = found.iso()
        page.evidence["modified"] = Evidence("line", index, found.raw)


_UPDATE_GATE = re.compile(
    r"更新|修改|修订|updat|modifi|edited|revised|aktualisiert|geändert|bearbeitet|mis à jour|"
    r"actualizado|aggiornato|обновлено|изменено|bijgewerkt|gewijzigd|atualizado|zaktualizowano",
    re.I,
)


def _shown_update(page: Page, now: datetime) -> tuple[int, Found] | None:
    """The first date an update label introduces ("Updated May 6, 2019", "Aktualisiert:
    11.04.2020", "Mis à jour le 3 mars 2021") in the byline's lines, the text and just
    after it; never before the published day (an update comes after). Lines of
    comments (boilerplate below the byline) are not the page's."""
    lines = page.lines
    month_first, hints = _date_order(page)
    lo, hi = _date_window(page)
    if page.headline is not None and lo == page.headline + 1:
        lo = max(0, page.headline - _ABOVE_TITLE)
    published = parse_date(page.published) if page.published else None
    for i in range(lo, _after_text(page, hi)):
        line = lines[i]
        comments = line.boilerplate and i >= hi
        if line.tag in _NOT_DATE_LINE or line.length > _PROSE_LINE or comments:
            continue
        text = line.text[:MAX_LINE]
        if _UPDATE_GATE.search(text) is None:
            continue
        for pos, found in scan_dates(text, month_first, hints):
            if not _updated(text[max(0, pos - 24) : pos]) or not is_valid(found, now):
                continue
            if published is None or _day(found) >= _day(published):
                return i, found
    return None

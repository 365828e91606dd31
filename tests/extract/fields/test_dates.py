"""The publication date: shapes, orders, labels, metadata, URL, relative dates, bounds."""

from __future__ import annotations

import logging
import random
import re
import sys
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_cx import extract_article
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.fields import dateparse, dates
from scrapy_cx.extract.fields.dateparse import scan_dates
from scrapy_cx.extract.fields.dates import find_published, shows_day
from scrapy_cx.extract.parse.lines import Line
from tests.extract.fields.test_dateparse import date_like
from tests.extract.prose import EN_SENTENCES, PARAGRAPHS, ZH_PARAGRAPHS

NOW = datetime(2022, 2, 14, 12, 0, 0)


def page(byline: str = "", head: str = "", lang: str = "en", paragraphs: str = PARAGRAPHS) -> str:
    return (
        f"<html lang='{lang}'><head><title>Night buses approved | Daily Example</title>{head}"
        "</head><body><nav><a href='/'>Home</a> <a href='/city'>City</a></nav>"
        f"<h1>Night buses approved</h1><div class='byline'>{byline}</div>{paragraphs}"
        "</body></html>"
    )


def published(html: str, url: str | None = None, **kwargs: object) -> str | None:
    return extract_article(html, url, **kwargs).published  # type: ignore[arg-type]


def test_page_language_decides_ambiguous_numeric_dates() -> None:
    assert published(page("Posted 02/03/2016", lang="en-US")) == "2016-02-03"
    assert published(page("Posted 02/03/2016", lang="en-GB")) == "2016-03-02"
    assert published(page("Publié le 02/03/2016", lang="fr")) == "2016-03-02"


def test_the_pages_own_year_first_date_settles_an_ambiguous_numeric_one() -> None:
    # lang=en guesses month first; the page's ISO <time> of the same day says day first.
    shown = "<time datetime='02-12-2025'>02-12-2025</time>"
    other = "<div><time datetime='2025-12-02'>December 02, 2025</time></div>"
    assert published(page(shown, paragraphs=PARAGRAPHS + other)) == "2025-12-02"
    assert published(page(shown)) == "2025-02-12"
    one_digit = "<time datetime='3-2-2016'>3-2-2016</time>"
    agrees = "<div><time datetime='2016-03-02'>March 2</time></div>"
    assert published(page(one_digit, paragraphs=PARAGRAPHS + agrees)) == "2016-03-02"


def test_visible_date_between_title_and_text() -> None:
    assert published(page("By Ann Lee · March 2, 2016 10:20 AM")) == "2016-03-02T10:20:00"


def test_chinese_visible_date_with_label() -> None:
    html = page("来源：示例网 发布时间：2016年03月02日 10:20", lang="zh", paragraphs=ZH_PARAGRAPHS)
    assert published(html) == "2016-03-02T10:20:00"


def test_modified_date_beside_published_one() -> None:
    html = page("Updated: March 9, 2016 08:00 AM | Published: March 2, 2016 10:20 AM")
    assert published(html) == "2016-03-02T10:20:00"


def test_issued_date_is_not_the_publication_date() -> None:
    byline = "成文日期：2022年01月27日 发布日期：2022年01月28日"
    assert published(page(byline, lang="zh", paragraphs=ZH_PARAGRAPHS)) == "2022-01-28"


def test_dates_of_other_events_are_not_publication_dates() -> None:
    assert published(page("<table><tr><td>Founded February 28, 1998</td></tr></table>")) is None
    zh = page("<p>该公司成立于2001年3月2日</p>", lang="zh", paragraphs=ZH_PARAGRAPHS)
    assert published(zh) is None


def test_no_date_gives_none() -> None:
    assert published(page("By Ann Lee")) is None
    assert extract_article(page("By Ann Lee")).published_raw is None


def test_a_date_the_story_is_about_is_not_its_publication_date() -> None:
    story = (
        "<p>The council first discussed night buses at a long meeting on March 2, 2016, "
        "when members asked the transport office for a plan and a budget.</p>"
    )
    assert published(page("By Ann Lee", paragraphs=story + PARAGRAPHS)) is None
    dateline = "<p>LONDON, March 2, 2016 - The council first discussed night buses today.</p>"
    assert published(page("By Ann Lee", paragraphs=dateline + PARAGRAPHS)) == "2016-03-02"
    opening = (
        "<p>On 2 March 2016, I received a letter from the transport office about the "
        "night buses:</p>"
    )
    assert published(page("By Ann Lee", paragraphs=opening + PARAGRAPHS)) is None
    # A byline that goes on from "Posted by ..." is no sentence.
    byline = "on March 2, 2016 at 12:06 PM, updated March 2, 2016 at 12:10 PM"
    assert published(page(byline)) == "2016-03-02T12:06:00"


def test_meta_published_time_keeps_time_and_offset_and_modified_apart() -> None:
    head = (
        "<meta property='article:modified_time' content='2016-03-05T09:00:00+01:00'>"
        "<meta property='article:published_time' content='2016-03-02T10:20:00+01:00'>"
    )
    article = extract_article(page(head=head))
    assert article.published == "2016-03-02T10:20:00+01:00"
    assert article.published_raw == "2016-03-02T10:20:00+01:00"
    assert article.modified == "2016-03-05T09:00:00+01:00"
    assert extract_article(page()).modified is None


def test_json_ld_and_itemprop() -> None:
    head = (
        '<script type="application/ld+json">'
        '{"@type": "NewsArticle", "datePublished": "2016-03-02"}</script>'
    )
    assert published(page(head=head)) == "2016-03-02"
    html = page("<time itemprop='datePublished' datetime='2016-03-04'>4 March</time>")
    assert published(html) == "2016-03-04"


def test_visible_time_equal_to_metadata_gets_its_offset() -> None:
    head = "<meta property='article:published_time' content='2016-03-02T10:20:00+08:00'>"
    html = page("发布时间：2016-03-02 10:20", head=head, lang="zh", paragraphs=ZH_PARAGRAPHS)
    article = extract_article(html)
    assert article.published == "2016-03-02T10:20:00+08:00"


def test_local_visible_day_beats_utc_timestamp() -> None:
    head = "<meta property='article:published_time' content='2019-11-19T04:31:00Z'>"
    html = page("Nov 18, 2019, 10:31 pm CST", head=head)
    assert published(html) == "2019-11-18T22:31:00-06:00"


def test_byline_under_the_headline_beats_disagreeing_metadata() -> None:
    head = "<meta property='article:published_time' content='2015-12-11T14:28:34Z'>"
    assert published(page("Oct 15, 2015 · 18 min read", head=head)) == "2015-10-15"
    # A later date there is an update or "today", not the publication.
    assert published(page("Friday 25 December 2015", head=head)) == "2015-12-11T14:28:34+00:00"


def test_a_url_filed_under_the_declared_day_backs_it_against_an_earlier_shown_one() -> None:
    head = "<meta property='article:published_time' content='2015-12-11T14:28:34Z'>"
    # Under the headline: the teaser of a related story from a year before.
    byline = "<div>Read also</div><div>11 Dec 2014</div>"
    html = page(byline, head=head)
    assert published(html) == "2014-12-11"  # no URL: the byline's earlier day wins
    for path in ("news/2015-12/buses.html", "2015/12/11/buses"):
        url = f"https://example.com/{path}"
        assert published(html, url) == "2015-12-11T14:28:34+00:00"
    # A URL of the shown day's month backs neither.
    assert published(html, "https://example.com/news/2014-12/buses.html") == "2014-12-11"


def test_metadata_stamped_as_published_and_modified_gives_way_to_the_shown_day() -> None:
    byline = (
        "<div>Written by</div><div>Ann Lee</div><div>Transport desk</div><div>Oct 15, 2015</div>"
    )

    def head(modified: str) -> str:
        return (
            "<meta property='article:published_time' content='2015-12-11T14:28:34Z'>"
            f"<meta property='article:modified_time' content='{modified}'>"
        )

    # The same value in both: the CMS's last save, not the first day.
    assert published(page(byline, head("2015-12-11T14:28:34Z"))) == "2015-10-15"
    # Two values: the metadata knows its publication day.
    assert published(page(byline, head("2015-12-12T09:00:00Z"))) == "2015-12-11T14:28:34+00:00"
    # One save written with two zones is still one save.
    assert published(page(byline, head("2015-12-11T14:28:34-04:00"))) == "2015-10-15"
    # Another clock reading that day is another moment: the metadata stands.
    later = head("2015-12-11T18:28:34-04:00")
    assert published(page(byline, later)) == "2015-12-11T14:28:34+00:00"


def test_day_month_and_two_digit_year_is_no_year_less_date() -> None:
    # "27 Mar 20" is 27 March 2020, not a year-less "Mar 20" that would beat the
    # metadata's day (stamped as modified too, so an earlier shown day would win).
    stamp = "2020-03-27T09:21:53+01:00"
    head = (
        f"<meta property='article:published_time' content='{stamp}'>"
        f"<meta property='article:modified_time' content='{stamp}'>"
    )
    assert published(page("Publié le 27 Mar 20 à 9:21", head, lang="fr")) == stamp
    # A year-less date shown alone still reads in the metadata's year.
    assert published(page("Posted Mar 20 à 9:21", head)) == "2020-03-20T09:21:00"


def test_above_the_headline_the_nearest_date_is_the_byline() -> None:
    # A blog shows the previous post's date, then this post's byline, above its title.
    html = (
        "<html lang='en'><head><title>Night buses approved</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/city'>City</a></nav>"
        "<div class='prev'><a href='/older'>Older post</a></div><div>March 1, 2019</div>"
        "<div>August 8, 2017 by Ann Lee</div>"
        f"<h1>Night buses approved</h1>{PARAGRAPHS}</body></html>"
    )
    assert published(html) == "2017-08-08"
    # Within one line, reading order still holds.
    one_line = html.replace("<div>March 1, 2019</div>", "").replace(
        "August 8, 2017 by", "August 8, 2017 (older: March 1, 2019) by"
    )
    assert published(one_line) == "2017-08-08"


@pytest.mark.parametrize(
    ("lang", "refused", "kept", "expected"),
    [
        ("de", "Registriert: 18.09.2008, 05:56", "21.01.2009, 05:42", "2009-01-21T05:42:00"),
        ("fr", "Mis à jour le 7 janvier 2020", "30 septembre 2018", "2018-09-30"),
        ("es", "Actualizado el 7 de enero de 2020", "30 de septiembre de 2018", "2018-09-30"),
        ("it", "Aggiornato il 7 gennaio 2020", "30 settembre 2018", "2018-09-30"),
    ],
)
def test_labels_that_refuse_a_date_in_other_languages(
    lang: str, refused: str, kept: str, expected: str
) -> None:
    # A member's registration or the last update is not the publication, in any language.
    byline = f"<div>Ann Lee</div><div>{refused}</div><div>{kept}</div>"
    assert published(page(byline, lang=lang)) == expected


def test_a_date_inside_a_short_sentence_is_the_storys_subject() -> None:
    sentence = "The next meeting is held on Wed. 5 February 2020 in the town hall, all welcome."
    assert published(page(paragraphs=f"<p>{sentence}</p>{PARAGRAPHS}")) is None
    # A byline ends on its date, even one that ends like a sentence.
    byline = "By Ann Lee and Bob Stone on Monday, November 18th, 2019 at 11:08 a.m."
    assert published(page(byline)) == "2019-11-18T11:08:00"


def test_date_split_by_a_calendar_widget() -> None:
    widget = "<div class='cal'><div>November 20</div><div>15:23 2019</div></div>"
    assert published(page(widget)) == "2019-11-20T15:23:00"


def test_dates_in_the_url() -> None:
    base = "https://example.com/news/"
    assert published(page(), base + "2009-11-09/buses.html") == "2009-11-09"
    assert published(page(), base + "20091109/buses.html") == "2009-11-09"
    assert published(page(), base + "2009/11/09/buses.html") == "2009-11-09"
    assert published(page(), base + "2009/11/buses.html") is None  # no day, no guess


@pytest.mark.parametrize("attrs", ["", " pubdate"])
def test_the_urls_day_beats_a_time_element_far_from_it(attrs: str) -> None:
    # A <time> is a date the page shows (here an older story's in the sidebar), not a
    # declaration: the day the URL was filed under wins.
    sidebar = (
        f"<aside><a href='/old'>Older story</a> <time datetime='2009-04-11T18:06:36'{attrs}>"
        "11 April 2009</time></aside>"
    )
    html = page(paragraphs=PARAGRAPHS + sidebar)
    assert published(html, "https://example.com/2019/10/22/buses/") == "2019-10-22"
    assert published(html, "https://example.com/news/buses/") == "2009-04-11T18:06:36"
    # A day next to it is the same story's (a local day against a UTC one).
    assert published(html, "https://example.com/2009/04/12/buses/") == "2009-04-11T18:06:36"


def test_header_today_date_is_not_the_publication_date() -> None:
    html = (
        "<html><body><div class='top'>Monday, February 14, 2022</div>"
        + "".join(f"<div><a href='/s{i}'>Section {i}</a></div>" for i in range(12))
        + f"<h1>Night buses approved</h1><div>By Ann Lee</div>{PARAGRAPHS}</body></html>"
    )
    assert published(html) is None


def test_relative_dates_against_the_reference_time() -> None:
    assert published(page("Ann Lee · 3 hours ago"), reference_time=NOW) == "2022-02-14T09:00:00"
    zh = page("昨天 10:20 来源：示例网", lang="zh", paragraphs=ZH_PARAGRAPHS)
    assert published(zh, reference_time=NOW) == "2022-02-13T10:20:00"
    assert published(page("刚刚 来源：示例网"), reference_time=NOW) == "2022-02-14T12:00:00"
    aware = NOW.replace(tzinfo=timezone(timedelta(hours=8)))
    assert published(page("3小时前"), reference_time=aware) == "2022-02-14T09:00:00+08:00"
    # Without a reference time a relative date is not turned into a guess.
    assert published(page("Ann Lee · 3 hours ago")) is None


def test_the_reference_time_may_be_its_iso_string() -> None:
    # How the crawl's middleware sends it to a worker (it pickles faster).
    for moment in (
        NOW,
        NOW.replace(tzinfo=timezone(timedelta(hours=8))),
        NOW.replace(microsecond=7),
    ):
        for html in (page("Ann Lee · 3 hours ago"), page("3小时前")):
            assert published(html, reference_time=moment.isoformat()) == published(
                html, reference_time=moment
            )
    with pytest.raises(ValueError):
        extract_article(page("3 hours ago"), reference_time="three o'clock")


def test_extreme_reference_times_do_not_overflow() -> None:
    assert published(page("Ann Lee · 3 hours ago"), reference_time=datetime.max) is not None
    # Before the web every date is in the future: none is given, nothing raises.
    assert published(page("Ann Lee · 3 hours ago"), reference_time=datetime.min) is None


def test_future_dates_are_refused() -> None:
    assert published(page("March 2, 2030"), reference_time=NOW) is None
    tomorrow = (datetime.now(timezone.utc) + timedelta(days=3)).strftime("%Y-%m-%d")
    assert published(page(tomorrow)) is None


def test_month_names_in_other_languages_via_dateparser() -> None:
    html = page("19 Kasım 2019", lang="tr")
    assert published(html, date_languages=["tr"]) == "2019-11-19"


def test_forum_post_date_labelled_below_the_text() -> None:
    html = page(
        paragraphs=ZH_PARAGRAPHS + "<p>〓 示例论坛 发布时间 2005/05/17 22:11:42 by 某人 〓</p>",
        lang="zh",
    )
    assert published(html) == "2005-05-17T22:11:42"


def test_comment_dates_are_not_publication_dates() -> None:
    comments = (
        "<div class='comments'><h3>Comments</h3>"
        + "".join(
            f"<div><p>Posted by reader{i} on March {i + 3}, 2016</p><p>Great news!</p></div>"
            for i in range(5)
        )
        + "</div>"
    )
    assert published(page("By Ann Lee", paragraphs=PARAGRAPHS + comments)) is None


def platform_page(byline: str = "", scripts: str = "", head: str = "") -> str:
    """A platform article: no date in the metadata, only what the page shows or scripts hold."""
    return (
        f"<html lang='zh'><head><title>夜间公交获批</title>{head}</head><body>"
        f"<h1>夜间公交获批</h1><div class='info'>{byline}</div>{ZH_PARAGRAPHS}{scripts}"
        "</body></html>"
    )


REF = datetime(2019, 10, 9, 3, 0, tzinfo=timezone.utc)


def test_year_less_date_takes_the_reference_year() -> None:
    html = platform_page("<span>青河日报</span><span>10-08 08:30</span>")
    assert published(html, reference_time=REF) == "2019-10-08T08:30:00"
    html = platform_page("<span>10月08日 08:30</span>")
    assert published(html, reference_time=REF) == "2019-10-08T08:30:00"


@pytest.mark.parametrize("shown", ["[10月08日 08時30分]", "10月08日 08时30分", "10月08日 8時30分"])
def test_year_less_date_with_the_time_in_words(shown: str) -> None:
    """NHK's "[06月24日 11時30分]" under the headline: hours and minutes written
    時/分, the page's only date."""
    html = platform_page(f"<span>{shown}</span>")
    assert published(html, reference_time=REF) == "2019-10-08T08:30:00"
    assert published(html) is None  # no reference: no year to give it


def test_year_less_date_is_never_in_the_future() -> None:
    # Shown on 5 January: "12-30" was last year's December, not this year's.
    html = platform_page("<span>12-30 10:00</span>")
    ref = datetime(2020, 1, 5, tzinfo=timezone.utc)
    assert published(html, reference_time=ref) == "2019-12-30T10:00:00"


def test_year_less_date_needs_a_time_of_day() -> None:
    # "10-08" alone is as likely a score or a range as a date.
    assert published(platform_page("<span>比分 10-08</span>"), reference_time=REF) is None


def test_two_digit_year_first() -> None:
    assert published(platform_page("<span>19-10-08 08:30</span>"), reference_time=REF) == (
        "2019-10-08T08:30:00"
    )


@pytest.mark.parametrize(
    "script",
    [
        'var ct = "1570496400";',  # 10 digits, WeChat style
        'window.DATA = {"title": "x", "publish_time": 1570496400000};',  # 13 digits
        'var article = {publishTime: "1570496400"};',
    ],
)
def test_unix_timestamp_in_an_inline_script(script: str) -> None:
    html = platform_page("<span id='publish_time'></span>", f"<script>{script}</script>")
    assert published(html, reference_time=REF) == "2019-10-08T01:00:00+00:00"


@pytest.mark.parametrize(
    "script",
    [
        "var pubDate = '2019-10-08';",
        'window.__DATA__ = {"article": {"datePublished": "2019-10-08T09:00:00+08:00"}};',
        'self.__next_f.push([1, "{\\"published_at\\":\\"2019-10-08T01:00:00Z\\"}"]);',
    ],
)
def test_iso_date_under_a_publication_name_in_an_inline_script(script: str) -> None:
    html = platform_page("<span id='publish_time'></span>", f"<script>{script}</script>")
    assert (published(html, reference_time=REF) or "").startswith("2019-10-08")


def test_script_dates_under_other_names_are_not_read() -> None:
    scripts = (
        "<script>var ct = '2019-10-08'; dataLayer.push({'date': '2019-10-08'});"
        ' var cfg = {"expires": "2019-10-08", "created_at": "2019-10-08"};</script>'
    )
    assert published(platform_page("", scripts), reference_time=REF) is None


@pytest.mark.parametrize("page_type", ["listing", "other"])
def test_weak_evidence_is_not_read_on_catalogue_pages(page_type: str) -> None:
    # A shop's product JSON has a "published_at" too: it dates the catalogue entry.
    head = "<meta property='og:image' content='https://img.example/uploads/2019/10/08/a.jpg'>"
    script = '<script>var product = {"published_at": "2019-10-08T01:00:00Z"};</script>'
    for html in (platform_page("", script), platform_page(head=head)):
        page = extract_page(html, reference_time=REF)
        assert page.published is not None  # read while the page is an article ...
        page.page_type, page.published, page.evidence = page_type, None, {}
        find_published(page)
        assert page.published is None  # ... and not once it is a listing or a product


@pytest.mark.parametrize("name", ["data-publish-time", "DATA-Publish-Time", "data-timestamp"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_timestamp_in_a_data_attribute(name: str, as_bytes: bool) -> None:
    html = platform_page(f"<span class='time' {name}='1570496400'></span>")
    page = html.encode() if as_bytes else html
    assert published(page, reference_time=REF) == "2019-10-08T01:00:00+00:00"  # type: ignore[arg-type]


def test_comment_and_update_timestamps_are_not_the_publication_date() -> None:
    scripts = '<script>var c = {"comment_time": 1570496400, "update_time": 1570496400};</script>'
    assert published(platform_page("", scripts), reference_time=REF) is None
    comments = "<div class='comments'><span data-timestamp='1570496400'></span></div>"
    assert published(platform_page("", comments), reference_time=REF) is None


def test_a_shown_date_beats_a_script_timestamp() -> None:
    html = platform_page("<span>2019-10-07 20:00</span>", "<script>var ct = '1570496400';</script>")
    assert published(html, reference_time=REF) == "2019-10-07T20:00:00"


def test_upload_path_is_the_last_resort() -> None:
    head = "<meta property='og:image' content='https://img.example/uploads/2019/10/08/a.jpg'>"
    assert published(platform_page(head=head), reference_time=REF) == "2019-10-08"
    in_url = published(platform_page(head=head), "https://x.example/2019/10/07/a.html")
    assert in_url == "2019-10-07"  # the page's own URL is stronger evidence


def test_year_less_date_never_lands_after_the_reference_time() -> None:
    """A year-less "09-30 22:46" read at midnight UTC on 30 September is ahead of the reference in
    every zone (at most UTC+14): last year's. Read that morning, it is the same day's."""
    html = platform_page("<span>09-30 22:46</span>")
    at_midnight = datetime(2019, 9, 30, 0, 0, tzinfo=timezone.utc)
    assert published(html, reference_time=at_midnight) == "2018-09-30T22:46:00"
    morning = datetime(2019, 9, 30, 10, 0, tzinfo=timezone.utc)
    assert published(html, reference_time=morning) == "2019-09-30T22:46:00"


def test_the_day_before_yesterday_counts_from_the_reference_time() -> None:
    html = platform_page("<span>前天 22:46</span>")
    assert published(html, reference_time=REF) == "2019-10-07T22:46:00+00:00"
    assert published(html) is None  # no reference: no guess from the clock


def test_a_page_whose_only_date_is_year_less() -> None:
    html = platform_page("<span>来源：青河日报</span><span>09-30 22:46</span>")
    assert published(html, reference_time=REF) == "2019-09-30T22:46:00"
    evidence = extract_page(html, reference_time=REF).evidence["published"]
    assert (evidence.source, evidence.raw) == ("line", "09-30 22:46")


def test_htmldate_dates_what_our_own_readings_miss() -> None:
    """A microformat's <abbr class="published" title=...> far below the text: htmldate
    reads it, and the evidence says so."""
    footer = "<footer><abbr class='published' title='2019-10-08'>Oct 8</abbr></footer>"
    result = extract_page(page("By Ann Lee", paragraphs=PARAGRAPHS + footer))
    assert result.published == "2019-10-08"
    assert result.evidence["published"] == dates.Evidence("htmldate", None, "2019-10-08")


@pytest.mark.parametrize("page_type", ["listing", "other"])
def test_htmldate_dates_no_catalogue_and_types_no_page(page_type: str) -> None:
    """htmldate runs once the page type is settled, on stories only: its guess can
    neither date a product or a listing nor make one an article."""
    from scrapy_cx.extract import STAGES
    from scrapy_cx.extract.classify.pagetype import settle_page_type

    assert STAGES.index(dates.date_by_htmldate) > STAGES.index(settle_page_type)
    footer = "<footer><abbr class='published' title='2019-10-08'>Oct 8</abbr></footer>"
    result = extract_page(page("By Ann Lee", paragraphs=PARAGRAPHS + footer))
    result.page_type, result.published, result.evidence = page_type, None, {}
    dates.date_by_htmldate(result)
    assert result.published is None and result.page_type == page_type


def test_htmldate_gives_no_padded_day_nor_a_modified_one() -> None:
    # "November 2019" alone: htmldate pads it to the 1st, which no page said.
    assert published(page("By Ann Lee · November 2019")) is None
    # Only a last-modified time: htmldate would take it for the publication.
    head = "<meta property='og:updated_time' content='2019-10-08'>"
    article = extract_article(page("By Ann Lee", head=head))
    assert article.published is None and article.modified == "2019-10-08"


@pytest.mark.parametrize(
    ("lang", "footer"),
    [("de", "Aktualisiert: 30.12.2016"), ("en", "Last updated: December 30, 2016")],
)
def test_a_visible_update_day_dates_a_story_that_shows_no_other(lang: str, footer: str) -> None:
    # The only day the reader is given is the last update's: htmldate's reading of it
    # stands (a join date, a comment's, stays refused).
    html = page("By Ann Lee", lang=lang, paragraphs=PARAGRAPHS * 3 + f"<p>{footer}</p>")
    result = extract_page(html)
    assert result.published == "2016-12-30"
    assert result.evidence["published"] == dates.Evidence("htmldate", None, "2016-12-30")
    joined = page("By Ann Lee", paragraphs=PARAGRAPHS * 3 + "<p>Member since: 30.12.2016</p>")
    assert published(joined) is None


def test_year_less_date_needs_a_reference_time() -> None:
    # Read today, a page from years ago would get this year's date: better none.
    assert published(platform_page("<span>10-08 08:30</span>")) is None
    assert published(platform_page("<span>19-10-08 08:30</span>")) == "2019-10-08T08:30:00"


def test_hyphenated_day_month_year_in_a_byline() -> None:
    assert published(page("By: Transport desk on 04-ago-2021 5:11:10")) == "2021-08-04T05:11:10"
    assert scan_dates("ticket 12-B-2021 and 3-mar-20215") == []


def test_ago_is_a_month_only_beside_a_year() -> None:
    # Metadata stamped as modified too gives way to an earlier day shown in the byline:
    # "2 hours ago 3 replies" is no "Aug 3".
    stamp = "2015-12-11T14:28:34Z"
    head = (
        f"<meta property='article:published_time' content='{stamp}'>"
        f"<meta property='article:modified_time' content='{stamp}'>"
    )
    assert published(page("Ann Lee · 2 hours ago 3 replies", head)) == "2015-12-11T14:28:34+00:00"


def forum_post(number: int, when: str, who: str, text: str, title: str = "") -> str:
    """One post as classic forum software lays it out: a header with the post's number
    and date, the author's box (role, join date, post count), then the post's title."""
    heading = f"<h3>{title}</h3>" if title else ""
    return (
        f"<div class='post'><h2>#{number} {when}</h2><dl><dt>{who}</dt><dd>Member</dd>"
        f"<dd>Registered: 2016-07-02</dd><dd>Posts: 7{number}</dd></dl>"
        f"{heading}<div class='postmsg'><p>{text}</p></div><p>Offline</p></div>"
    )


FORUM_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "DiscussionForumPosting"}</script>'
)


def test_a_threads_date_is_its_first_posts() -> None:
    first = forum_post(1, "2024-05-01 15:14:37", "alice", " ".join(EN_SENTENCES), "Night buses")
    reply = forum_post(2, "2024-05-02 06:23:21", "bob", EN_SENTENCES[1], "Re: Night buses")
    html = (
        f"<html lang='en'><head><title>Night buses / City forum</title>{FORUM_LD}</head>"
        f"<body><nav><a href='/'>Index</a></nav><p>Pages: 1</p>{first}{reply}</body></html>"
    )
    result = extract_page(html)
    assert result.page_type == "thread"
    assert result.published == "2024-05-01T15:14:37"


def test_a_later_date_above_a_threads_headline_is_not_its_first_posts() -> None:
    # The page header's "today" above the thread's title is later than the first
    # post's date below it: not a post's header.
    posts = forum_post(1, "2024-05-01 15:14:37", "alice", " ".join(EN_SENTENCES))
    posts += forum_post(2, "2024-05-02 06:23:21", "bob", EN_SENTENCES[1])
    html = (
        f"<html lang='en'><head><title>Night buses / City forum</title>{FORUM_LD}</head>"
        "<body><div class='top'>Tuesday, May 14, 2024</div><nav><a href='/'>Index</a></nav>"
        f"<h1>Night buses</h1>{posts}</body></html>"
    )
    result = extract_page(html)
    assert result.page_type == "thread"
    assert result.published == "2024-05-01T15:14:37"


def test_a_date_labelled_published_below_a_newsletter_box_settles_disagreeing_metadata() -> None:
    one = "<meta property='article:published_time' content='2025-08-08T00:00:00-04:00'>"
    two = one + (
        '<script type=\'application/ld+json\'>{"@type": "NewsArticle", '
        '"datePublished": "2025-11-29T12:28:31-05:00"}</script>'
    )

    def footer(pubdate: str) -> str:
        return PARAGRAPHS + (
            "<form class='newsletter'><h2>Subscribe to our newsletter</h2><p>Weekly advice.</p>"
            "<input name='email'></form>"
            f"<div>Published <time {pubdate} datetime='2025-08-13'>August 13, 2025</time></div>"
        )

    # Three declared values, two days: the one the page shows labelled "Published".
    assert published(page("", two, paragraphs=footer("pubdate"))) == "2025-08-13"
    # A date below the text that no declared value gives does not overrule them.
    declared = "2025-08-08T00:00:00-04:00"
    assert published(page("", one, paragraphs=footer(""))) == declared
    assert published(page("", two, paragraphs=footer(""))) == declared


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Published 3 May 2024", True),
        ("2024-05-03 10:12", True),
        ("05/03/2024", True),  # month first
        ("03/05/2024", True),  # day first
        ("Posted May 3, 8:19 PM", True),  # no year
        ("3 May", True),
        ("3. Mai, 10:12 Uhr", True),
        ("5/3/24", True),  # a two-digit year
        ("03.05.24", True),
        ("Updated 3 hours ago", True),  # an age: shown, whatever day it names
        ("5小时前", True),
        ("Sign up today", False),  # a word alone may be prose
        ("4 May 2024", True),  # a UTC stamp may be the local day after
        ("2024-05-09", False),
        ("May 9", False),
        ("9 May", False),
        ("5/3/23", False),
        ("Prices from $50 per month", False),
    ],
)
def test_shows_day_tells_a_shown_date_from_a_metadata_stamp(text: str, shown: bool) -> None:
    lines = [Line("Bridge to be rebuilt", 18, 0, "h1", False), Line(text, len(text), 0, "p", False)]
    assert shows_day(lines, date(2024, 5, 3)) is shown


def test_month_days_finds_what_the_month_day_regex_finds() -> None:
    rng = random.Random(12)
    texts = [date_like(rng) for _ in range(2000)] + ["Posted Nov 18, 8:19 PM", "Nov\u300018", "x"]
    found = [[m.span() for m in dates._month_days(text)] for text in texts]
    assert found == [[m.span() for m in dates._MONTH_DAY.finditer(text)] for text in texts]
    assert sum(map(bool, found)) > 200


@pytest.mark.parametrize(
    "text",
    [
        "Published on 3 March 2019",
        "PUBLISHED 2019-03-03",
        "PUBLİSHED 2019-03-03",
        "poſted 2019-03-03",
        "VERÖFFENTLICHT: 3. März 2019",
        "发布时间：2019-03-03",
        "Updated 2019-03-03",
        "",
    ],
)
def test_label_word_search_in_lower_case_finds_what_the_case_blind_one_finds(text: str) -> None:
    assert dates._has_label_word(text) == (dates._LABEL_WORD.search(text) is not None)


def test_a_labelled_date_below_the_text_is_read_outside_boilerplate_only() -> None:
    def line(text: str, boilerplate: bool = False) -> Line:
        return Line(text, len("".join(text.split())), 0, "p", boilerplate)

    comment = line("Posted 4 March 2019 by a reader", boilerplate=True)
    assert dates._labelled([line("The end of the story."), comment], 0, 2, True, NOW) is None
    shown = [line("The end of the story."), comment, line("VERÖFFENTLICHT: 3. März 2019")]
    found = dates._labelled(shown, 0, 3, True, NOW)
    assert found is not None and found.iso() == "2019-03-03"


_AGE_PARTS = ("3", "an", "One", " ", "hours", "MIN", "days", "小时", "天", "ago", "AGO", "前", "x")


def test_shows_age_finds_what_the_relative_regex_finds() -> None:
    rng = random.Random(14)
    texts = ["".join(rng.choice(_AGE_PARTS) for _ in range(rng.randint(1, 8))) for _ in range(3000)]
    texts += ["Posted 3 HOURS AGO", "2天前", "yesterday", "saGO 5 days aGo", "agony"]
    found = [dates._shows_age(text) for text in texts]
    assert found == [any(m.group("n") for m in dateparse.RELATIVE.finditer(t)) for t in texts]
    assert sum(found) > 100  # ages of every kind are among them


def test_only_a_g_and_o_read_as_the_letters_of_ago() -> None:
    """What _shows_age relies on, over every code point: no other character
    lower-cases to a letter of "ago" or matches one case-blind."""
    letters = re.compile("[ago]", re.IGNORECASE)
    others = [
        code
        for code in range(sys.maxunicode + 1)
        if chr(code) not in "agoAGO"
        and (letters.fullmatch(chr(code)) or any(x in "ago" for x in chr(code).lower()))
    ]
    assert others == []


# --- dates at the ends of the calendar (years 1 and 9999, offsets up to 23:59) ---------


def _zone(minutes: int) -> timezone:
    return timezone(timedelta(minutes=minutes))


# A server's clock may say anything: the last second of 9999 west of UTC is past the
# calendar in UTC, the first second of year 1 east of it before it.
LAST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=_zone(-12 * 60))
FIRST = datetime(1, 1, 1, tzinfo=_zone(14 * 60))
EXTREMES = [
    LAST,
    FIRST,
    datetime(9999, 12, 31, 23, 59, 59, tzinfo=_zone(-1439)),
    datetime(1, 1, 1, tzinfo=_zone(1439)),
    datetime.max,
    datetime.min,
]


@pytest.mark.parametrize("reference", EXTREMES)
def test_an_extreme_reference_time_never_loses_the_article(reference: datetime) -> None:
    article = extract_article(page("By Ann Lee · March 2, 2016"), reference_time=reference)
    assert article.title == "Night buses approved" and article.content
    # Seen from 9999 the date is in the past; from year 1 every date is in the future.
    assert article.published == ("2016-03-02" if reference.year == 9999 else None)
    assert article.modified is None


def test_relative_dates_against_the_last_moment_of_the_calendar() -> None:
    """Counted back from the reference time in its own zone, exactly (no clamping);
    a moment that is past the calendar in UTC is no date."""
    assert published(page("Ann Lee · 3 days ago"), reference_time=LAST) == "9999-12-28"
    assert published(page("前天 10:30"), reference_time=LAST) == "9999-12-29T10:30:00-12:00"
    assert published(page("Ann Lee · 3 hours ago"), reference_time=LAST) is None  # UTC: 10000
    assert published(page("刚刚"), reference_time=LAST) is None
    naive = LAST.replace(tzinfo=None)
    assert published(page("Ann Lee · 3 hours ago"), reference_time=naive) == "9999-12-31T20:59:59"
    html = platform_page("<span>10-08 08:30</span>")
    assert published(html, reference_time=LAST) == "9999-10-08T08:30:00"


@pytest.mark.parametrize("reference", [FIRST, datetime(1, 1, 1, tzinfo=_zone(1439))])
@pytest.mark.parametrize(
    "html",
    [
        page("Ann Lee · 3 hours ago"),
        page("Ann Lee · 3 days ago"),
        page("前天 10:30"),
        page("yesterday"),
        page("刚刚"),
        platform_page("<span>10-08 08:30</span>"),  # the year before year 1 is none
    ],
)
def test_relative_dates_before_the_first_moment_are_no_date(reference: datetime, html: str) -> None:
    assert published(html, reference_time=reference) is None


_CLAIMS_9999 = (
    "<meta property='article:published_time' content='9999-12-31T23:59:59-12:00'>"
    "<meta property='article:modified_time' content='9999-12-31T23:59:59-12:00'>"
    "<meta name='date' content='Dec 31, 9999 11:59 PM -1200'>"
)
_CLAIMS_0001 = (
    "<meta property='article:published_time' content='0001-01-01T00:00:00+14:00'>"
    "<meta property='article:modified_time' content='0001-01-01T00:00:00+14:00'>"
    "<meta name='date' content='January 1, 0001 00:00 +1400'>"
)


@pytest.mark.parametrize("reference", [None, *EXTREMES])
@pytest.mark.parametrize(
    ("head", "byline"),
    [
        (_CLAIMS_9999, "Posted December 31, 9999 23:59 -12:00 · 31.12.9999"),
        (_CLAIMS_0001, "Posted January 1, 0001 00:00 +14:00 · 01.01.0001"),
    ],
)
def test_a_page_claiming_year_9999_or_1_gives_an_article_without_that_date(
    head: str, byline: str, reference: datetime | None
) -> None:
    article = extract_article(page(byline, head), reference_time=reference)
    assert article.title == "Night buses approved" and article.content
    # Only a reference time in 9999 itself makes the last minute of 9999 a past date.
    late = head == _CLAIMS_9999 and reference is not None and reference.year == 9999
    assert article.published == ("9999-12-31T23:59:00" if late else None)
    assert article.modified is None


def test_shows_day_at_the_ends_of_the_calendar() -> None:
    lines = [Line("Posted Dec 31", 11, 0, "p", False), Line("Jan 1", 4, 0, "p", False)]
    assert shows_day(lines, date.max)  # "Dec 31"; no day after it to look for
    assert shows_day(lines, date.min)  # "Jan 1"; no day before it
    assert not shows_day(lines[:1], date(5000, 6, 15))


def test_shift_is_total() -> None:
    assert dateparse.shift(datetime.max, timedelta(seconds=1)) is None
    assert dateparse.shift(date.min, -timedelta(days=1)) is None
    assert dateparse.shift(date(2020, 2, 28), timedelta(days=1)) == date(2020, 2, 29)
    assert dateparse.naive_utc(LAST) is None and dateparse.naive_utc(FIRST) is None
    assert dateparse.naive_utc(REF) == datetime(2019, 10, 9, 3, 0)


_OFFSETS = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(_zone)
_REFERENCES = st.one_of(
    st.none(),
    st.sampled_from(EXTREMES),
    st.datetimes(min_value=datetime(9999, 12, 29), timezones=_OFFSETS),
    st.datetimes(max_value=datetime(1, 1, 3), timezones=_OFFSETS),
    st.datetimes(timezones=st.one_of(st.none(), _OFFSETS)),
)
_BYLINES = st.sampled_from(
    [
        "",
        "Ann Lee · 3 hours ago",
        "5 days ago",
        "999 weeks ago",
        "前天 10:30",
        "昨天",
        "刚刚",
        "10-08 08:30",
        "99-12-31 23:59",
        "March 2, 2016",
        "Posted Dec 31 11:59 PM",
        "December 31, 9999 23:59 -12:00",
        "January 1, 0001 00:00 +14:00",
    ]
)
_HEADS = st.sampled_from(["", _CLAIMS_9999, _CLAIMS_0001])


@settings(max_examples=150, deadline=None)
@given(reference=_REFERENCES, byline=_BYLINES, head=_HEADS)
def test_extract_article_never_raises_on_extreme_dates(
    reference: datetime | None, byline: str, head: str
) -> None:
    """Any reference time in the calendar, with any offset under a day, beside any
    date a page may claim: an article, its dates ISO 8601 or None."""
    article = extract_article(page(byline, head), reference_time=reference)
    assert article.content
    for value in (article.published, article.modified):
        assert value is None or datetime.fromisoformat(value)


def test_a_fragment_handed_to_htmldate_logs_no_error(caplog: pytest.LogCaptureFixture) -> None:
    """htmldate called a one-paragraph page "not valid HTML" at ERROR, once per call: in a
    crawl, an error in the log for an undated page that is fine."""
    page = "<p>" + "The council met on the tram line and chose to extend it. " * 6 + "</p>"
    with caplog.at_level(logging.DEBUG):
        article = extract_article(page, "http://news.test/a")
    assert article.page_type == "article" and article.published is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_first_of_the_month_is_a_day_where_the_page_writes_it() -> None:
    """htmldate's "-01" is its padding of a month ("November 2019") unless a line of
    the page writes that very day: a story published on the first keeps its date."""
    footer = "<footer><abbr class='published' title='2019-11-01'>1 November 2019</abbr></footer>"
    result = extract_page(page("By Ann Lee", paragraphs=PARAGRAPHS + footer))
    assert result.published == "2019-11-01"
    assert result.evidence["published"] == dates.Evidence("htmldate", None, "2019-11-01")
    # The month alone stays no day (htmldate pads it to the 1st).
    assert published(page("By Ann Lee · November 2019")) is None


def test_a_spaced_german_date_is_day_first() -> None:
    assert published(page("Von Deutscher Tennis Bund 4. 2. 2022.", lang="de")) == "2022-02-04"
    assert published(page("Von Anna Berg 04. 02. 2022", lang="en-US")) == "2022-02-04"


@pytest.mark.parametrize(
    ("stamp", "shown", "expected"),
    [
        # 23:00 UTC is the next day east of UTC: the page shows its own local day.
        ("2021-11-04T23:00Z", "5. November 2021", "2021-11-05"),
        # 02:54 UTC is the next day nowhere: the shown day is another story's.
        ("2021-11-04T02:54Z", "5. November 2021", "2021-11-04"),
        # ... and 02:54 UTC is the day before west of UTC.
        ("2021-11-05T02:54Z", "4. November 2021", "2021-11-04"),
    ],
)
def test_a_utc_stamp_gives_way_to_a_shown_day_only_a_zone_can_reach(
    stamp: str, shown: str, expected: str
) -> None:
    head = (
        f"<meta property='article:published_time' content='{stamp}'>"
        "<meta property='article:modified_time' content='2021-11-05T12:42Z'>"
    )
    assert (published(page(shown, head=head, lang="de")) or "")[:10] == expected


def test_the_line_right_above_the_headline_is_a_byline() -> None:
    html = (
        "<html lang='de'><head><title>Faire Lieferketten</title>"
        "<meta name='date' content='2020-02-12'></head><body><nav><a href='/'>Start</a></nav>"
        "<div>05.02.2020 - Redaktion: Eva Berg</div><h1>Faire Lieferketten</h1>"
        f"{PARAGRAPHS}</body></html>"
    )
    assert published(html) == "2020-02-05"


def test_an_ambiguous_numeric_stamp_is_read_in_the_order_the_page_shows() -> None:
    """A de page's metadata writes "11/01/2023" (US order); the page shows 01.11.2023."""
    head = "<meta name='date' content='11/01/2023 12:43:42'>"
    shown = page("Erstellt am: 01.11.2023", head=head, lang="de")
    assert (published(shown) or "")[:10] == "2023-11-01"
    # The other way round: a day-first page showing its metadata's day in US order.
    head = "<meta property='article:published_time' content='2021-11-01T04:00:14Z'>"
    assert (published(page("11/01/2021", head=head, lang="de")) or "")[:10] == "2021-11-01"


@pytest.mark.parametrize(
    ("lang", "byline", "modified"),
    [
        ("en", "By Ann Lee · Published May 2, 2019 · Updated May 6, 2019", "2019-05-06"),
        (
            "de",
            "Von Hans Müller, 23.11.2025 · Aktualisiert: 24.11.2025, 10:27",
            "2025-11-24T10:27:00",
        ),
        ("fr", "Par Marie Dubois, le 2 mars 2021 · Mis à jour le 3 mars 2021", "2021-03-03"),
    ],
)
def test_modified_from_the_pages_visible_updated_line(
    lang: str, byline: str, modified: str
) -> None:
    """Without a declared last modification, the page's own "Updated ..." line gives
    it, with the line as evidence; the published date stays the first day."""
    result = extract_page(page(byline, lang=lang))
    assert result.modified == modified
    evidence = result.evidence["modified"]
    assert evidence.source == "line" and evidence.line is not None
    assert result.lines[evidence.line].text == byline
    assert result.published is not None and result.published < modified


def test_no_visible_update_before_the_publication_nor_without_a_label() -> None:
    # An "updated" day before the published one is no update of this story.
    assert extract_article(page("Published May 6, 2019 · Updated May 2, 2019")).modified is None
    # A date with no update label is no modification.
    assert extract_article(page("By Ann Lee · May 6, 2019")).modified is None
    # The declared value comes first.
    head = "<meta property='article:modified_time' content='2019-05-09T08:00:00Z'>"
    article = extract_article(page("Published May 2, 2019 · Updated May 6, 2019", head=head))
    assert article.modified == "2019-05-09T08:00:00+00:00"

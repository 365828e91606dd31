"""Authors and source: bylines in five languages, structured names, cleaning, agencies."""

from __future__ import annotations

import pytest

from scrapy_cx import extract_article
from scrapy_cx.extract import STAGES
from scrapy_cx.extract.fields._names import clean_name
from scrapy_cx.extract.page import Page
from scrapy_cx.extract.parse.dom import parse_html
from tests.extract.fields.test_source import source_of
from tests.extract.prose import PARAGRAPHS, ZH_PARAGRAPHS


def authors(byline: str, head: str = "", paragraphs: str = PARAGRAPHS) -> tuple[str, ...]:
    html = (
        f"<html><head><title>Night buses approved | Daily Example</title>{head}</head><body>"
        f"<nav><a href='/'>Home</a></nav><h1>Night buses approved</h1>{byline}{paragraphs}"
        "</body></html>"
    )
    return extract_article(html).authors


def test_english_byline_with_two_names_and_a_date() -> None:
    assert authors("<div>By Ann Lee and Bo Chen | March 2, 2016</div>") == ("Ann Lee", "Bo Chen")
    # The markup glues the next field's label to the name.
    byline = "<div>By Ann <span>Lee</span><span>Updated Mar 2, 2016</span></div>"
    assert authors(byline) == ("Ann Lee",)


def test_byline_beats_metadata_naming_the_site() -> None:
    head = "<meta name='author' content='Daily Example Staff'>"
    assert authors("<p>By Ann Lee, Transport Correspondent</p>", head) == ("Ann Lee",)
    # The site's desk is no person: nothing rather than "Daily Example Staff".
    assert authors("", head) == ()


def test_bare_name_followed_by_a_date() -> None:
    assert authors("<div>Dan Goodin - Apr 16, 2015 8:02 pm UTC</div>") == ("Dan Goodin",)
    assert authors("<address>Mike Conley</address>") == ("Mike Conley",)
    # A short line alone is a kicker or a section as often as a name.
    assert authors("<div>Breaking News</div>") == ()


def test_chinese_bylines() -> None:
    assert authors("<p>光明日报记者 王建宏 张文攀</p>", paragraphs=ZH_PARAGRAPHS) == (
        "王建宏",
        "张文攀",
    )
    byline = "<p>时间：2004年10月21日14:18 作者：郭励弘 我来说两句(0)</p>"
    assert authors(byline, paragraphs=ZH_PARAGRAPHS) == ("郭励弘",)
    # The next field's label ends the names, whatever the label: a hit counter.
    byline = "<p>来源：江州日报 作者：记者 林晓 通讯员 周敏 点击数：1862 字体：[大 中 小]</p>"
    assert authors(byline, paragraphs=ZH_PARAGRAPHS) == ("林晓", "周敏")
    # "记者从市交通局获悉" is a sentence, not a byline.
    assert authors("<p>记者从市交通局获悉</p>", paragraphs=ZH_PARAGRAPHS) == ()


def test_a_sentence_with_by_is_not_a_byline() -> None:
    line = "<p>A study by Stanford University found that night buses pay for themselves.</p>"
    assert authors(line) == ()


def test_a_word_starting_like_a_label_is_no_byline() -> None:
    # "Party" starts with the French label "par"; only a capital glued to the label
    # ("ParJean Dupont") makes one.
    assert authors("<ul><li>Party &amp; Event Rentals</li></ul>") == ()
    assert authors("<p>ParJean Dupont</p>") == ("Jean Dupont",)


def test_a_phrase_beside_the_headline_is_no_name() -> None:
    # A price line's label and an author box's heading: capitalised phrases.
    assert authors("<div>With Rental Package - $20.00</div>") == ()
    box = (
        "<div class='post-author'><h4 class='post-author-heading'>Insights from</h4>"
        "<div class='post-author-name'>Liza Burke</div></div>"
    )
    assert authors(box) == ("Liza Burke",)


DE_PARAGRAPHS = (
    "<p>Der Stadtrat hat am Dienstag beschlossen, die Nachtbusse bis zum Flughafen zu "
    "verlängern, nachdem Schichtarbeiter sich ein Jahr lang beschwert hatten.</p>"
    "<p>Die neuen Linien fahren ab März alle zwanzig Minuten zwischen Mitternacht und fünf "
    "Uhr morgens, teilte das Verkehrsamt in einer Erklärung mit.</p>"
)
FR_PARAGRAPHS = (
    "<p>Le conseil municipal a voté mardi le prolongement des bus de nuit jusqu'à "
    "l'aéroport, après un an de plaintes des salariés des équipes du matin.</p>"
    "<p>Les nouvelles lignes circuleront dès mars toutes les vingt minutes entre minuit "
    "et cinq heures du matin, a indiqué le service des transports.</p>"
)
JA_PARAGRAPHS = (
    "<p>市議会は火曜日、早朝勤務の労働者から一年にわたって苦情が寄せられていた深夜バスを"
    "空港まで延長することを決めた。新しい路線は三月から運行を始める。</p>"
    "<p>交通局によると、深夜零時から午前五時まで二十分おきに運行し、運賃は日中と同じに"
    "なるという。主な停留所には照明付きの待合所も設ける。</p>"
)


@pytest.mark.parametrize(
    ("byline", "paragraphs", "expected"),
    [
        ("<div>By: Ann Lee & Bo Chen</div>", PARAGRAPHS, ("Ann Lee", "Bo Chen")),
        ("<div>ByAnn Lee Mar 2, 2016</div>", PARAGRAPHS, ("Ann Lee",)),  # "By" glued by markup
        (
            "<div>Von Anna Berg und Jonas Keller, 2. März 2016</div>",
            DE_PARAGRAPHS,
            ("Anna Berg", "Jonas Keller"),
        ),
        (
            "<div>Par Marie Dupont et Luc Martin, le 2 mars 2016</div>",
            FR_PARAGRAPHS,
            ("Marie Dupont", "Luc Martin"),
        ),
        ("<p>来源：青河日报　作者：记者 林晓峰 通讯员 周敏</p>", ZH_PARAGRAPHS, ("林晓峰", "周敏")),
        ("<p>文/王燕、李强</p>", ZH_PARAGRAPHS, ("王燕", "李强")),
        ("<p>記者：佐藤花子　2016年3月2日</p>", JA_PARAGRAPHS, ("佐藤花子",)),
        ("<p>文●こばやしゆうこ</p>", JA_PARAGRAPHS, ("こばやしゆうこ",)),
    ],
)
def test_bylines_per_language(byline: str, paragraphs: str, expected: tuple[str, ...]) -> None:
    assert authors(byline, paragraphs=paragraphs) == expected


def test_role_words_and_organisations_are_not_names() -> None:
    # "作者：县粮食局 黄志明": the office is not a person, "记者" / "通讯员" are roles.
    assert authors("<p>作者：县粮食局 黄志明　来源：本站原创</p>", paragraphs=ZH_PARAGRAPHS) == (
        "黄志明",
    )
    assert authors("<p>By Graham Hollis, Staff Writer</p>") == ("Graham Hollis",)


def test_a_caption_credit_is_not_an_author() -> None:
    caption = (
        "<figure><img src='/a.jpg' width='800' height='500'>"
        "<figcaption>Photo: Ann Lee</figcaption></figure>"
    )
    assert authors(caption) == ()
    zh = "<p>4月23日，读者在城市书房内阅读。记者 何俊 摄</p><p>记者：苏雨桐</p>"
    assert authors(zh, paragraphs=ZH_PARAGRAPHS) == ("苏雨桐",)
    assert authors("<p>Spencer Platt/Getty Images</p>") == ()


def test_meta_author_only_when_it_holds_a_name() -> None:
    assert authors("", "<meta name='author' content='1234567'>") == ()
    assert authors("", "<meta name='author' content='https://x.example/u/9'>") == ()
    assert authors("", "<meta name='author' content='Ann Lee (ann@x.example)'>") == ("Ann Lee",)


def test_json_ld_graph_persons_in_order_and_organisations_left_out() -> None:
    head = """<script type="application/ld+json">{"@graph": [
      {"@type": "NewsArticle", "headline": "Night buses approved",
       "author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"},
                  {"@type": "Organization", "name": "Daily Example"}]}]}</script>"""
    assert authors("", head) == ("Ann Lee", "Bo Chen")


def test_marked_author_elements() -> None:
    rel = "<div><a rel='author' href='/u/ann'>Ann Lee</a>Transport Correspondent</div>"
    assert authors(rel) == ("Ann Lee",)
    item = "<div class='meta'><span itemprop='author'>Bo Chen</span>Mar 2, 2016</div>"
    assert authors(item) == ("Bo Chen",)
    # A commenter marked as an author is not the article's author.
    comments = "<div class='comments'><span class='comment-author'>Carl Ode</span></div>"
    assert (
        extract_article(
            "<html><body><h1>Night buses approved</h1>" + PARAGRAPHS + comments + "</body></html>"
        ).authors
        == ()
    )


def test_evidence_says_where_each_field_was_found() -> None:
    html = (
        "<html><head><title>Night buses approved | Daily Example</title>"
        "<meta property='og:image' content='/media/bus.jpg'>"
        "<meta property='article:modified_time' content='2016-03-05'></head><body>"
        "<h1>Night buses approved</h1><p>By Ann Lee (Reuters)</p>" + PARAGRAPHS + "</body></html>"
    )
    page = Page(parse_html(html), "https://news.example/a")
    for stage in STAGES:
        stage(page)
    evidence = page.evidence
    assert evidence["authors"].source == "byline"
    assert evidence["authors"].raw == "By Ann Lee (Reuters)"
    assert page.source == "Reuters" and evidence["source"].source == "line"
    assert evidence["image"].source == "meta:image"
    assert page.image == "https://news.example/media/bus.jpg"
    assert evidence["site_name"].source == "title_tag"
    assert page.modified == "2016-03-05" and evidence["modified"].raw == "2016-03-05"


def test_chinese_byline_with_affiliation_and_spaced_name() -> None:
    byline = "<p>作者: 赵 培：北京物资学院，北京</p>"
    assert authors(byline, paragraphs=ZH_PARAGRAPHS) == ("赵培",)
    assert source_of("<p>来源：转载文章</p>") is None


# --- junk that is no person (issue 24): one test per kind, in each language met ----------


def _meta(name: str) -> str:
    return f"<meta name='author' content='{name}'>"


def test_the_site_name_in_the_author_tag_is_no_person() -> None:
    # "网易" names 163.com in <meta name="author">, and is the site part of <title>.
    html = (
        "<html><head><title>夜间公交获批_网易新闻</title>" + _meta("网易") + "</head><body>"
        "<h1>夜间公交获批</h1>" + ZH_PARAGRAPHS + "</body></html>"
    )
    assert extract_article(html, "https://www.163.com/news/a.html").authors == ()
    # Each part of the site's name counts, and a club or desk holding it ("EFC ...").
    head = "<meta property='og:site_name' content='HSS - Beispiel-Stiftung e.V.'>"
    assert authors("", head + _meta("Beispiel-Stiftung e.V.")) == ()
    html = (
        "<html><head><title>Night buses</title>" + _meta("EFC Bayrische Bembel") + "</head><body>"
        "<h1>Night buses approved</h1>" + PARAGRAPHS + "</body></html>"
    )
    assert extract_article(html, "https://bayrische-bembel.example/504").authors == ()


def test_the_publisher_named_as_the_author_is_no_person() -> None:
    ld = (
        '<meta property="og:site_name" content="Daily Example"><script type="application/ld+json">'
        '{"@type": "NewsArticle", "author": {"@type": "Person", "name": "Example Holdings"}, '
        '"publisher": {"@type": "Organization", "name": "Example Holdings"}}</script>'
    )
    assert authors("", ld) == ()


def test_a_person_named_in_the_site_name_is_still_a_person() -> None:
    # "Jürgen Heitmann" on "… - Jürgen Heitmann Fotografie": his site, his name.
    html = (
        "<html><head><title>Aggression - Jürgen Heitmann Fotografie</title>"
        + _meta("Jürgen Heitmann")
        + "</head><body><h1>Aggression</h1>"
        + PARAGRAPHS
        + "</body></html>"
    )
    assert extract_article(html).authors == ("Jürgen Heitmann",)


@pytest.mark.parametrize(
    ("byline", "head", "paragraphs"),
    [
        ("", _meta("No Author"), PARAGRAPHS),
        ("<p>Posted by Anonymous on March 2, 2016</p>", "", PARAGRAPHS),
        ("", _meta("未知"), ZH_PARAGRAPHS),
        ("<p>作者：未知 来源：本站</p>", "", ZH_PARAGRAPHS),
        ("<p>作者：我已授权</p>", "", ZH_PARAGRAPHS),
        ("<p>作者：网络整理</p>", "", ZH_PARAGRAPHS),
        ("<div class='post-author'>Publié par Unknown</div>", "", FR_PARAGRAPHS),
        ("<div class='author'>veröffentlicht von</div>", "", DE_PARAGRAPHS),
        ("<div class='author'>Publiziert am</div>", "", DE_PARAGRAPHS),
    ],
)
def test_placeholders_are_no_names(byline: str, head: str, paragraphs: str) -> None:
    assert authors(byline, head, paragraphs) == ()


def test_a_label_before_the_name_is_cut_off() -> None:
    assert authors("<div class='post-author'>Publié par Jean Dupont</div>", "", FR_PARAGRAPHS) == (
        "Jean Dupont",
    )
    for byline in (
        "<div class='byline'>Eingestellt von Anna Berg</div>",
        "<div class='byline'>Erstellt von Anna Berg</div>",
        "<div class='byline'>Post author By Anna Berg</div>",
        "<p>Autor: Rechtsanwalt Anna Berg</p>",
        "<p>Von Anna Berg Vom 3. Februar 2022</p>",
        "<p>von Anna Berg Erstellt am 01.01.23 um 08:35</p>",
        "<div class='byline'>Text und Interview: Anna Berg</div>",
    ):
        assert authors(byline, "", DE_PARAGRAPHS) == ("Anna Berg",), byline
    assert authors("<p>By Ann Lee Last updated Nov 8, 2023</p>") == ("Ann Lee",)
    # A blog engine's label before a user name ("Veröffentlicht am ... von mywakenews").
    byline = "<p>Veröffentlicht am Juli 9, 2016 von bloggerin</p>"
    assert authors(byline, "", DE_PARAGRAPHS) == ("bloggerin",)
    assert authors("<p>Ein Artikel von Anna Berg | 27.01.2022</p>", "", DE_PARAGRAPHS) == (
        "Anna Berg",
    )


@pytest.mark.parametrize(
    ("byline", "head", "paragraphs"),
    [
        ("", _meta("name"), PARAGRAPHS),
        ("<span class='author'>name</span>", "", PARAGRAPHS),
        ("<span class='author'>股市行情</span>", "", ZH_PARAGRAPHS),
        ("<div class='author-info'>总篇数</div>", "", ZH_PARAGRAPHS),
        ("<div class='author-desc'>暂无简介</div>", "", ZH_PARAGRAPHS),
        ("<span class='author'>Datum</span>", "", DE_PARAGRAPHS),
        ("<span class='byline'>Mehr</span>", "", DE_PARAGRAPHS),
    ],
)
def test_field_labels_are_no_names(byline: str, head: str, paragraphs: str) -> None:
    assert authors(byline, head, paragraphs) == ()


def test_weekdays_months_dates_and_numbers_are_no_names() -> None:
    assert authors("<span class='byline'>Donnerstag</span>", "", DE_PARAGRAPHS) == ()
    assert authors("<span class='author'>12.03.2020</span>", "", DE_PARAGRAPHS) == ()
    assert authors("<p>By 12345 | March 2, 2016</p>") == ()
    assert clean_name("Dezember") is None
    assert clean_name("Thursday") is None


def test_a_place_is_no_name() -> None:
    assert authors("<span class='author'>Hamburg</span>", "", DE_PARAGRAPHS) == ()
    assert authors("<p>Von Redaktion Hamburg | 12.03.2020</p>", "", DE_PARAGRAPHS) == ()
    # A site's address in the author tag: the domain, its city and country.
    assert authors("", _meta("beispiel.de, Frankfurt, Germany"), DE_PARAGRAPHS) == ()


def test_a_domain_or_a_user_id_is_no_name() -> None:
    assert authors("", _meta("symple.ch"), DE_PARAGRAPHS) == ()
    assert authors("<p>Von symple.ch | 12.03.2020</p>", "", DE_PARAGRAPHS) == ()
    ld = '<script type="application/ld+json">{"@type": "Article", "author": "anna.berg"}</script>'
    assert authors("", ld) == ()
    assert authors("", _meta("cipha[at]cipha.net")) == ()


def test_a_role_alone_is_no_name() -> None:
    assert authors("<p>Von Redaktion | 12.03.2020</p>", "", DE_PARAGRAPHS) == ()
    assert authors("<p>By editor | March 2, 2016</p>") == ()
    assert authors("<span class='author'>Online-Redaktion</span>", "", DE_PARAGRAPHS) == ()


def test_a_fragment_of_the_title_is_no_name() -> None:
    # "A Stallman" cut out of "A Stallman-esque short story" while the tag names the author.
    dek = "<p class='subtitle'>A Stallman-esque short story about offline tracking</p>"
    assert authors(dek, _meta("Matthew Davis")) == ("Matthew Davis",)
    line = "<p>Die Opernball-Grande-Dame ist im Alter von 93 Jahren gestorben.</p>"
    assert authors(line, "", DE_PARAGRAPHS) == ()


def test_a_phrase_in_the_author_tag_is_no_name() -> None:
    assert authors("", _meta("deinen Hochzeitsbloggern"), DE_PARAGRAPHS) == ()


def test_a_one_word_nickname_only_the_metadata_gives_is_unsure() -> None:
    assert authors("", _meta("Nils"), DE_PARAGRAPHS) == ()
    # Shown in a byline, a one-word user name is the author's.
    assert authors("<p>Posted on 2015-04-05 by marc</p>") == ("marc",)


def test_a_cited_papers_authors_are_not_the_pages() -> None:
    cited = (
        "<ol><li itemprop='citation' itemscope itemtype='http://schema.org/ScholarlyArticle'>"
        "<meta itemprop='author' content='NH. Shear, SP. Spielberg'>Anticonvulsant ...</li></ol>"
    )
    assert authors("", "", PARAGRAPHS + cited) == ()


def test_a_pictures_licence_credit_is_no_author() -> None:
    credit = (
        "<div><span class='author-name'><a class='license-author' href='https://commons."
        "wikimedia.org/wiki/File:X.jpg'>Nenad Stojkovic</a></span></div>"
    )
    assert authors(credit) == ()


def test_a_platforms_username_is_the_poster() -> None:
    # A paste, a video or a post names its poster by the platform's markup, with no label.
    html = (
        "<html><head><title>atg 1700 - Pastebin</title></head><body><h1>atg 1700</h1>"
        "<div class='username'><a href='/u/EvilSpark'>EvilSpark</a></div>"
        + PARAGRAPHS
        + "</body></html>"
    )
    assert extract_article(html).authors == ("EvilSpark",)


def test_a_login_forms_labels_are_no_names() -> None:
    form = "<form><label class='username'>Username</label><input name='u'></form>"
    assert authors(form) == ()
    assert clean_name("Letzte Aktualisierung: 28.01.2022") is None
    # The site's header marks its sign-in "Username" before the story's byline.
    html = (
        "<html><head><title>Night buses approved</title></head><body><header>"
        "<span class='username'>Username</span></header><h1>Night buses approved</h1>"
        + PARAGRAPHS
        + "<div class='byline'>By Erin Cunningham</div></body></html>"
    )
    assert extract_article(html).authors == ("Erin Cunningham",)


def test_a_first_name_byline_is_completed_by_the_author_box_beside_it() -> None:
    # The byline shows a first name (the author's link); the author's box under it
    # opens with the full name.
    box = (
        "<div class='author-box'><div>Ann Lee - reporter and cyclist, writes about "
        "the city's transport.</div></div>"
    )
    byline = "<div><a rel='author' href='/author/ann'>Ann</a></div>"
    assert authors(byline + box) == ("Ann Lee",)
    # A sentence that opens with the name, or another name's box, completes nothing.
    assert authors(byline + "<div>Ann wrote this in the morning.</div>") == ("Ann",)
    assert authors(byline.replace("Ann", "Bob") + box) == ("Bob",)
    # A byline of a full name is read as it is.
    assert authors(byline.replace("Ann", "Ann Berg") + box) == ("Ann Berg",)


@pytest.mark.parametrize(
    ("byline", "names"),
    [
        # A byline sharing the date's line, after a separator, a role after the name.
        ("Nov 26, 2025 — by Alice Smith | Staff Writer", ("Alice Smith",)),
        ("23.11.2025 02:00 Uhr – Von Hans Müller", ("Hans Müller",)),
        ("Published: 26 November 2025, 16:00  Author: Mark O'Brien", ("Mark O'Brien",)),
        ("26 novembre 2025 — par Marie Dubois, journaliste", ("Marie Dubois",)),
        ("26 de noviembre de 2025 | Por Ana García, corresponsal", ("Ana García",)),
        ("26 novembre 2025 – di Marco Rossi, giornalista", ("Marco Rossi",)),
        ("26 november 2025 · Door Jan de Vries, verslaggever", ("Jan de Vries",)),
        ("26 de novembro de 2025 — Por João Silva, repórter", ("João Silva",)),
        ("26 listopada 2025 | Autor: Jan Kowalski, dziennikarz", ("Jan Kowalski",)),
        ("2025年11月26日 10:00 记者 王燕平", ("王燕平",)),
        ("2025年11月26日 文・山田太郎", ("山田太郎",)),
        # A name and its role alone on the line.
        ("Sarah Lin, Business correspondent", ("Sarah Lin",)),
        ("Hans Müller, Redakteur", ("Hans Müller",)),
    ],
)
def test_a_byline_inside_a_date_line_after_a_separator_or_before_a_role(
    byline: str, names: tuple[str, ...]
) -> None:
    assert authors(f"<div>{byline}</div>") == names


@pytest.mark.parametrize(
    "line",
    [
        "Staff Writer",  # a role alone is never a name
        "Business correspondent",
        "Nov 26, 2025 — Staff Writer",
        # A "by" in a sentence, after a date and a comma: a painting's caption.
        "Signing of the Protocol, August 12, 1898, by Theobald Chartran.",
    ],
)
def test_a_role_or_a_sentence_after_a_date_gives_no_name(line: str) -> None:
    assert authors(f"<div>{line}</div>") == ()


def test_a_month_word_ends_a_name_only_before_its_day() -> None:
    assert authors("<div>Mike Kappel May 18, 2016</div>") == ("Mike Kappel",)
    assert authors("<div>By Ann Lee March 2, 2016</div>") == ("Ann Lee",)
    # "Jan", "May", "June" are given names too.
    assert authors("<div>Door Jan de Vries</div>") == ("Jan de Vries",)


def test_a_sentences_full_stop_ends_a_name() -> None:
    line = "<div>2019-02-23, 09:14 PM by Starred Skies. Edited 1 time in total.</div>"
    assert authors(line) == ("Starred Skies",)


def test_a_field_the_markup_glued_to_a_name_is_cut_back_to_the_marked_name() -> None:
    byline = (
        "<div>am 23. Januar 2020 von <span class='author'>Christian Spließ</span>"
        "in <a href='/c'>Allgemeines</a></div>"
    )
    assert authors(byline) == ("Christian Spließ",)


@pytest.mark.parametrize("control", ["Sign In", "Terms &amp; Conditions Privacy Policy"])
def test_a_sites_control_in_an_author_marked_element_is_no_name(control: str) -> None:
    assert authors(f"<div class='author-box'>{control}</div>") == ()
    assert clean_name(control.replace("&amp;", "&")) is None


def test_a_label_that_opens_a_name_keeps_its_letters() -> None:
    """"By", "Par", "Von" are labels only as words of their own."""
    for name in ("Byron Smith", "Paris Hilton", "Vondra Klein", "Porter Adams"):
        assert clean_name(name) == name
    assert clean_name("Authored by Nicole Hatcher") == "Nicole Hatcher"
    assert clean_name("Authored by") is None


def _own_site(byline: str, site: str, url: str, person: str = "") -> tuple[str, ...]:
    html = (
        f"<html><head><title>Night buses approved | {site}</title>"
        f"<meta property='og:site_name' content='{site}'>"
        '<script type="application/ld+json">{"@type": "BlogPosting", "author": '
        f'{{"@type": "Person", "name": "{person or site}"}}}}</script></head><body>'
        f"<h1>Night buses approved</h1>{byline}{PARAGRAPHS}</body></html>"
    )
    return extract_article(html, url).authors


def test_a_person_named_site_is_its_authors_own() -> None:
    # A personal blog is named after its author: there the name is the author's.
    url = "https://ann-lee.example/posts/buses"
    assert _own_site("<div>By Ann Lee</div>", "Ann Lee", url) == ("Ann Lee",)
    assert _own_site("", "Ann Lee", url) == ("Ann Lee",)  # the JSON-LD Person alone
    # ... the host's first name part ("ann.example") names it too
    own = _own_site("<div>By Ann Lee</div>", "Notes", "https://ann.example/b", "Ann Lee")
    assert own == ("Ann Lee",)
    # A business's name declared as its "Person" stays the site, never an author ...
    assert _own_site("", "Camphouse Team", url) == ()
    assert _own_site("", "El Colombiano", "https://elcolombiano.example/a") == ()
    assert _own_site("", "IT Finanzmagazin", "https://it-finanzmagazin.example/a") == ()
    # ... unless its byline shows it too: then the page says, twice, that the business wrote it
    assert _own_site("<div>By Camphouse Team</div>", "Camphouse Team", url) == ("Camphouse Team",)


def test_a_job_title_after_a_name_without_a_comma_is_cut_off() -> None:
    byline = "<div>Written By: Ann Lee Executive Digital Editor and Master Gardener</div>"
    assert authors(byline) == ("Ann Lee",)
    assert authors("<div>By Bo Chen, Chief Marketing Officer, Example Corp</div>") == ("Bo Chen",)
    assert clean_name("Matt Check Head Winemaker") == "Matt Check"
    assert clean_name("Lead Reviewer") is None  # a title alone is no name
    assert clean_name("Ann Lee") == "Ann Lee"
    # A month glued on by the markup ends the name: "by Ann LeeNovember 20, 2007".
    assert authors("<div>by Ann Lee<span>November 20, 2007</span></div>") == ("Ann Lee",)


def test_a_site_named_in_the_author_tag_alone_stays_the_site() -> None:
    # (drk.de's "Deutsches Rotes Kreuz"): a meta tag is too weak to make it a person
    head = "<meta property='og:site_name' content='Deutsches Rotes Kreuz'>" + _meta(
        "Deutsches Rotes Kreuz"
    )
    assert authors("", head) == ()


def test_a_name_alone_on_its_line_beside_a_date_line() -> None:
    assert authors("<p>Luke Kim</p><div>December 17, 2025</div>") == ("Luke Kim",)
    assert authors("<div>2025-12-17·</div><div>Trond Teigen</div>") == ("Trond Teigen",)
    assert authors("<div>Trevor Jackins</div><div>9 min read</div>") == ("Trevor Jackins",)
    # menu words glued by the markup, or a kicker with no date beside it, are no name
    assert authors("<div>Digital OrganizationOffice</div><div>May 3, 2024</div>") == ()
    assert authors("<div>Breaking News</div><p>Read the story below.</p>") == ()


def test_a_dot_operator_separates_a_bylines_fields() -> None:
    byline = "<div>By Ann Lee ⋅ Review Editor ⋅ Updated November 18, 2025</div>"
    assert authors(byline) == ("Ann Lee",)
    assert authors("<div>By Bo Chen ∙ 5 min read</div>") == ("Bo Chen",)


def test_a_german_site_named_like_a_person_stays_the_site() -> None:
    # German capitalizes every noun: "Deutscher Tennis Bund" is shaped as a name.
    html = (
        "<html lang='de'><head><title>Kader nominiert | Deutscher Tennis Bund</title>"
        "<meta property='og:site_name' content='Deutscher Tennis Bund'>"
        + _meta("Deutscher Tennis Bund")
        + "</head><body><h1>Kader nominiert</h1>"
        + DE_PARAGRAPHS
        + "</body></html>"
    )
    assert extract_article(html, "https://tennis.example/a").authors == ()
    # Its byline, declared in the author tag, names it though: the association wrote it.
    byline = "<div>Von Deutscher Tennis Bund 4. 2. 2022</div>"
    html = html.replace("<h1>Kader nominiert</h1>", "<h1>Kader nominiert</h1>" + byline)
    assert extract_article(html, "https://tennis.example/a").authors == ("Deutscher Tennis Bund",)


def test_marked_byline_read_where_the_json_ld_author_is_only_the_site() -> None:
    head = (
        "<meta property='og:site_name' content='Daily Example'>"
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"author": ", Daily Example"}</script>'
    )
    byline = "<div><span class='author'>Ann Lee</span> Daily Example</div>"
    assert authors(byline, head) == ("Ann Lee",)
    # an agency as the JSON-LD author still keeps a section's marked name out
    head = head.replace(", Daily Example", "AP")
    assert authors("<div><span class='author'>Internacional</span></div>", head) == ()


@pytest.mark.parametrize(
    ("byline", "team"),
    [
        ("<p>By Workzone Team• 4 mins read</p>", "Workzone Team"),
        ("<div>By the Lavazza Team 2–3 minutes</div>", "the Lavazza Team"),
        ("<p>Podium Staff</p><p>May 3, 2024</p>", "Podium Staff"),
        ("<div>The Upwork Team</div>", "The Upwork Team"),
        ("<div>Team SimplyThrilled</div>", "Team SimplyThrilled"),
    ],
)
def test_a_team_the_byline_names_is_the_author(byline: str, team: str) -> None:
    assert authors(byline) == (team,)


def test_a_link_to_the_staff_is_no_team_byline() -> None:
    assert authors("<div>Our Team</div>") == ()
    assert authors("<div>Join Our Team</div>") == ()
    assert authors("<div>Staff</div>") == ()
    # far under the headline, a team's name alone is a heading, not the byline
    far = "<p>Night buses run from May.</p>" * 4 + "<div>The Upwork Team</div>"
    assert authors(far) == ()


def test_a_label_alone_on_its_line_names_the_next_line() -> None:
    assert authors("<p>Article by:</p><div>Cara Dumaplin</div><p>RN, BSN</p>") == ("Cara Dumaplin",)
    # ... but another label there is no name
    assert authors("<div>Written by</div><div>Researched by</div><div>May 3, 2024</div>") == ()
    assert authors("<div>Recipe by Ann Lee</div>") == ("Ann Lee",)


def test_a_byline_below_a_credit_and_a_standfirst() -> None:
    lines = "".join(f"<div>The night buses run from May, part {n}.</div>" for n in range(3))
    byline = "<div>By Ann Lee ⋅ Review Editor ⋅ Updated November 18, 2025</div>"
    assert authors(lines + byline) == ("Ann Lee",)


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("<p>by Amanda · Dec 20, 2025 at 3:00 am</p>", ("Amanda",)),
        ("<p>by changingtimes » Sat Feb 24, 2024 12:41 pm</p>", ("changingtimes",)),
        ("<ul><li>Thread starter lulug30</li><li>Start date Apr 12, 2024</li></ul>", ("lulug30",)),
        ("<p>Started by Biology Forums, June 04, 2024</p>", ("Biology Forums",)),
        ("<p>by Ann Lee-Armatonisdaristan » Tue Aug 27, 2019</p>", ("Ann Lee-Armatonisdaristan",)),
    ],
)
def test_a_posters_handle_after_the_lines_own_label(byline: str, expected: tuple[str, ...]) -> None:
    assert authors(byline) == expected


def test_one_word_after_by_that_is_no_handle() -> None:
    assert authors("<p>By continuing to use this site you agree to our cookies.</p>") == ()
    assert authors("<p>by Jan2024 · 5 min</p>") == ()
    # credentials after a comma are no names of their own
    assert authors("<p>By Ann Lee, MS, RDN, LD</p>") == ("Ann Lee",)


def test_a_bullet_separates_a_bylines_fields() -> None:
    byline = "<div>by Ann Lee ● December 23, 2025 ● 6 min read</div>"
    assert authors(byline) == ("Ann Lee",)


def test_a_name_alone_over_its_role_or_a_dated_time() -> None:
    assert authors("<p>Harry Rabinowitz</p><p>Tech Reporter</p>") == ("Harry Rabinowitz",)
    assert authors("<p>Ann Lee</p><div>Licensed Q Arabica Grader, M.A. Journalism</div>") == (
        "Ann Lee",
    )
    assert authors("<p>Chris Carroll</p><p>30 Sep 2022, 11:07am</p>") == ("Chris Carroll",)
    # a heading over a paragraph is no name
    assert authors("<p>Breaking News</p><p>The council met on Tuesday.</p>") == ()


def _first_heading(above: str, below: str = "") -> str:
    """A page with no navigation: ``above`` over the headline, ``below`` under it, then
    the text."""
    return (
        "<html><head><title>Night buses approved | Daily Example</title></head><body>"
        f"{above}<h1>Night buses approved</h1>{below}{PARAGRAPHS}</body></html>"
    )


def test_a_name_over_its_role_above_the_headline() -> None:
    html = _first_heading("<div>Rachel MacDonald</div><div>Writer</div><div>12/11/25</div>")
    assert extract_article(html).authors == ("Rachel MacDonald",)
    # the headline's own copy over its date is no name
    copy = "<div>Night buses approved</div>"
    html = html.replace("<div>Rachel MacDonald</div><div>Writer</div>", copy)
    assert extract_article(html).authors == ()


def test_the_reviewers_marked_name_is_not_the_author() -> None:
    byline = "<ul><li>Reviewed by: <span class='author'>Brian Stone</span></li></ul>"
    assert authors(byline, _meta("Erica Needham")) == ("Erica Needham",)
    assert authors(byline) == ()


def test_the_reviewer_under_a_headline_on_the_pages_first_line() -> None:
    # The headline is line 0 (no navigation above it): the reviewer's line, three lines
    # above the text, is still inside the window read for reviewers.
    html = _first_heading(
        "",
        "<ul><li>Reviewed by: <span class='author'>Brian Stone</span></li></ul>"
        "<div>May 3, 2024</div><div>5 min read</div><div>Share this</div>",
    )
    assert extract_article(html).authors == ()


def test_contributors_label_and_a_name_after_a_worded_date() -> None:
    assert authors("<div>Contributors: Janet Lough</div>") == ("Janet Lough",)
    assert authors("<p>Dec 26, 2025 • Ann Lee in Project Management</p>") == ("Ann Lee",)
    assert authors("<p>Dec 26, 2025 • Ann Lee</p>") == ("Ann Lee",)


def test_the_declared_name_cuts_a_bylines_desk_off() -> None:
    byline = "<div>by Harsh Vaibhav Global Commons May 2nd 2025 11 mins</div>"
    assert authors(byline, _meta("Harsh Vaibhav")) == ("Harsh Vaibhav",)


def test_by_over_glued_tags_then_the_name() -> None:
    byline = "<div>By</div><div>Wedding ChecklistsJust Engaged</div><div>Naoise McNally</div>"
    assert authors(byline) == ("Naoise McNally",)


def test_a_team_over_its_date_above_the_headline() -> None:
    html = _first_heading("<div>Team SimplyThrilled</div><div>September 4, 2025</div>")
    assert extract_article(html).authors == ("Team SimplyThrilled",)


def test_a_weekdays_short_name_is_no_name() -> None:
    assert authors("<div>Sat, 20 Dec, 2025 - 06:36</div>") == ()


def test_a_byline_under_a_long_list_of_topics() -> None:
    # the text (its byline the first line) starts under fourteen topic links
    menu = "<ul>" + "".join(f"<li><a href='/t{n}'>Topic {n}</a></li>" for n in range(14)) + "</ul>"
    assert authors(menu + "<p>By Ann Lee April 12, 2024</p>") == ("Ann Lee",)


def test_a_desks_words_alone_are_no_team_or_declared_name() -> None:
    assert authors("<div>By Editorial Staff | May 3, 2024</div>") == ()
    assert authors("<div>Staff Reports</div><div>May 3, 2024</div>", _meta("Staff Reports")) == ()

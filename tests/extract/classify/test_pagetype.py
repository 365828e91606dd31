"""Page types, thread posts and related links, on small pages written for these tests."""

from __future__ import annotations

from scrapy_cx import extract_article
from scrapy_cx.extract.classify.pagetype import (
    MIN_DOC_CODE_BLOCKS,
    MIN_TREE_LINKS,
    SCAN_CHARS_PER_BLOCK,
    scan_first,
)
from scrapy_cx.extract.content.posts import MAX_UNITS
from tests.extract.prose import BRIDGE_STORY, EN_SENTENCES, ZH_SENTENCES

STORY = BRIDGE_STORY
MENU = "".join(
    f'<li><a href="/{name.lower()}">{name}</a></li>'
    for name in ("Home", "News", "Sport", "Business", "Culture", "Weather", "Opinion")
)


def page(body: str, title: str = "Bridge to be rebuilt", head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Town News</title>{head}</head><body>"
        f"<header><ul class='menu'>{MENU}</ul></header>{body}"
        "<footer><p>Copyright Town News. All rights reserved.</p></footer></body></html>"
    )


REPLIES = [
    ("bob", "2024-05-03 11:40", STORY[1], "&gt; Is it true the bridge closes in March?"),
    ("carol", "2024-05-03 12:05", STORY[2], ""),
    ("dave", "2024-05-04 08:15", STORY[3], ""),
]


def forum_thread() -> str:
    first = (
        "<div class='post'><div class='post-head'><a href='/u/alice'>alice</a> · "
        f"2024-05-03 10:12</div><div class='post-body'><p>{STORY[0]}</p></div>"
        "<div class='signature'>-- alice, river watcher since 1998</div></div>"
    )
    replies = "".join(
        f"<div class='post'><div class='post-head'><a href='/u/{who}'>{who}</a> · {when}</div>"
        f"<div class='post-body'>"
        + (f"<blockquote>{quote}</blockquote>" if quote else "")
        + f"<p>{text}</p></div></div>"
        for who, when, text, quote in REPLIES
    )
    return page(f"<h1>Bridge to be rebuilt</h1><div class='thread'>{first}{replies}</div>")


def test_a_forum_thread_is_a_thread_with_its_posts_in_order() -> None:
    article = extract_article(forum_thread(), "http://forum.test/t/1")
    assert article.page_type == "thread"
    assert [post.author for post in article.posts] == ["alice", "bob", "carol", "dave"]
    assert [post.published for post in article.posts] == [
        "2024-05-03T10:12:00",
        "2024-05-03T11:40:00",
        "2024-05-03T12:05:00",
        "2024-05-04T08:15:00",
    ]
    assert STORY[0] in article.posts[0].text and STORY[3] in article.posts[3].text
    assert "Is it true the bridge closes" in article.posts[1].text  # the quote block
    for paragraph in STORY[:4]:
        assert paragraph in article.content
    assert "2024-05-03 11:40" not in article.posts[1].text  # the header is not the text


def test_a_q_and_a_page_declaring_qapage_is_a_thread() -> None:
    ld = (
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "QAPage", "mainEntity": {"@type": "Question", "name": "Bridge?"}}</script>'
    )
    body = (
        "<h1>When will the old river bridge be rebuilt?</h1>"
        f"<div class='question'><p>{STORY[0]}</p></div>"
        f"<div class='answer'><p>{STORY[1]}</p><p>{STORY[2]}</p></div>"
    )
    article = extract_article(page(body, "When will the old river bridge be rebuilt?", ld))
    assert article.page_type == "thread"
    assert STORY[1] in article.content


def test_a_tieba_style_thread_in_gbk_is_a_thread() -> None:
    posts = "".join(
        f"<div class='l_post'><div class='d_author'>用户{i}</div>"
        f"<div class='d_post_content'>{ZH_SENTENCES[i % len(ZH_SENTENCES)]}</div>"
        f"<div class='post-tail'>{i + 1}楼 2024-03-0{i + 1} 10:0{i}</div></div>"
        for i in range(4)
    )
    html = (
        "<html><head><meta charset='gbk'><title>夜间公交开通了_交通吧_百度贴吧</title></head>"
        f"<body><h1>夜间公交开通了</h1><div id='j_p_postlist'>{posts}</div></body></html>"
    )
    article = extract_article(html.encode("gbk"), "http://tieba.test/p/1")
    assert article.page_type == "thread"
    assert ZH_SENTENCES[0][:20] in article.content


def product_grid() -> str:
    cards = "".join(
        f"<li class='product'><a href='/p/{i}'><h3>Oak garden bench model {i}, two seats</h3></a>"
        f"<p>Solid oak, oiled finish, {100 + i} cm wide.</p><span>£{199 + i}</span></li>"
        for i in range(12)
    )
    return page(f"<h1>Garden benches</h1><p>Benches for every garden.</p><ul>{cards}</ul>")


def test_a_product_grid_is_a_listing_with_its_own_text() -> None:
    article = extract_article(product_grid(), "http://shop.test/benches")
    assert article.page_type == "listing"
    assert "Solid oak" in article.content


def test_a_site_front_page_is_a_listing() -> None:
    teasers = "".join(
        f"<div class='teaser'><h2><a href='/news/{i}'>Council votes on the river bridge, "
        f"part {i}</a></h2><p>{STORY[i % len(STORY)][:90]}</p></div>"
        for i in range(10)
    )
    article = extract_article(page(f"<main>{teasers}</main>", "Town News"), "http://town.test/")
    assert article.page_type == "listing"
    assert article.content  # never empty by accident


def test_an_article_followed_by_related_links() -> None:
    related = "".join(
        f"<li><a href='/news/{i}'>Another story readers also clicked, number {i}</a></li>"
        for i in range(5)
    )
    body = (
        f"<article><h1>Bridge to be rebuilt</h1>{''.join(f'<p>{p}</p>' for p in STORY)}</article>"
        f"<aside class='related'><h2>Related</h2><ul>{related}</ul></aside>"
    )
    article = extract_article(page(body), "http://town.test/news/bridge")
    assert article.page_type == "article"
    assert article.content == "\n".join(STORY)
    assert article.related == tuple(
        (f"Another story readers also clicked, number {i}", f"http://town.test/news/{i}")
        for i in range(5)
    )
    assert article.posts == ()


def test_a_120_character_chinese_news_item_is_an_article() -> None:
    text = "".join(ZH_SENTENCES)[:120]
    html = page(f"<h1>夜间公交开通</h1><div class='content'><p>{text}</p></div>", "夜间公交开通")
    article = extract_article(html)
    assert article.page_type == "article"
    assert article.content == text


DOCS_NAV = "".join(
    f"<li><a href='/docs/{name}'>{name.title()} guide for the bridge toolkit</a></li>"
    for name in ("install", "config", "deploy", "upgrade", "plugins", "testing")
)


def docs_page(byline: str = "") -> str:
    """A documentation page: a side tree of same-site links, prose and code blocks."""
    code = "".join(
        f"<p>{STORY[i]}</p><pre><code>bridge build --span {i} --load 40t</code></pre>"
        for i in range(4)
    )
    return page(
        f"<div class='sidebar'><ul>{DOCS_NAV}</ul></div>"
        f"<div class='doc'><h1>Building a span</h1>{byline}{code}</div>",
        "Building a span",
    )


def test_a_documentation_page_is_other() -> None:
    article = extract_article(docs_page(), "http://docs.test/guide/spans")
    assert article.page_type == "other"
    assert STORY[0] in article.content  # re-typed, the text is still read


def test_the_same_page_with_a_dated_byline_is_an_article() -> None:
    byline = "<p class='byline'>By Ann Lee · 3 May 2024</p>"
    article = extract_article(docs_page(byline), "http://blog.test/2024/05/spans")
    assert article.published == "2024-05-03"
    assert article.page_type == "article"


def generated_chapter(generator: str, byline: str = "", head: str = "") -> str:
    """A chapter of prose, no code and no docs path, as a site generator writes it."""
    body = "".join(f"<p>{STORY[i]}</p>" for i in range(4))
    meta = f'<meta name="generator" content="{generator}">'
    return page(f"<h1>Why spans fail</h1>{byline}{body}", "Why spans fail", meta + head)


def test_a_chapter_a_book_or_docs_generator_built_is_other() -> None:
    """Its generator says it is a manual's or a book's page, bylined or not."""
    byline = "<p class='byline'>By Ann Lee · 3 May 2024</p>"
    for generator, by in (
        ("GitBook (aa87699)", ""),
        ("bookdown 0.37 and GitBook 2.6.7", byline),  # a book names its authors
        ("mkdocs-1.6.1, mkdocs-material-9.5.3", ""),
    ):
        article = extract_article(generated_chapter(generator, by), "http://span.test/why")
        assert article.page_type == "other", generator


def test_a_chapter_a_blog_or_site_builder_built_stays_an_article() -> None:
    """Blog builders name themselves too; and a post that declares itself one stays one."""
    for generator in ("Hugo 0.120.4", "WordPress 6.4.2", "Jekyll v4.3.2", "Docusaurus v3.1"):
        article = extract_article(generated_chapter(generator), "http://span.test/why")
        assert article.page_type == "article", generator
    post = '<script type="application/ld+json">{"@type": "BlogPosting"}</script>'
    article = extract_article(generated_chapter("GitBook", head=post), "http://span.test/why")
    assert article.page_type == "article"


def test_a_service_page_with_plans_and_prices_is_other() -> None:
    plans = "".join(
        f"<div class='plan'><h3>{name}</h3><p>${price} / month</p>"
        f"<p>{STORY[i]}</p><button>Start free trial</button></div>"
        for i, (name, price) in enumerate((("Starter", 9), ("Team", 29), ("Business", 99)))
    )
    body = (
        "<h1>Bridge monitoring for every town</h1>"
        f"<p>{STORY[3]}</p><button>Book a demo</button><section>{plans}</section>"
    )
    article = extract_article(page(body, "Bridge monitoring"), "http://span.test/pricing")
    assert article.page_type == "other"


def test_a_product_page_declaring_a_product_is_other_despite_og_article() -> None:
    head = (
        "<meta property='og:type' content='article'>"
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        '"@type": "Product", "name": "Oak bench", "offers": {"@type": "Offer", '
        '"price": "199"}}</script>'
    )
    body = f"<h1>Oak garden bench</h1><p>{STORY[1]}</p><p>{STORY[2]}</p>"
    article = extract_article(page(body, "Oak garden bench", head), "http://shop.test/p/1")
    assert article.page_type == "other"


def test_a_product_declared_in_microdata_is_other() -> None:
    body = (
        "<div itemscope ITEMTYPE='https://schema.org/Product'><h1>Oak garden bench</h1>"
        f"<p>{STORY[1]}</p><p>{STORY[2]}</p></div>"
    )
    article = extract_article(page(body, "Oak garden bench"), "http://shop.test/p/1")
    assert article.page_type == "other"
    assert (
        extract_article(
            page(body.replace("ITEMTYPE", "data-x"), "Oak garden bench"), "http://shop.test/p/1"
        ).page_type
        == "article"
    )


def test_microdata_is_read_whether_the_markup_is_scanned_first_or_not() -> None:
    """Long markup over few elements (a big inline script) skips the scan for
    "itemtype" and makes the pass over the attributes at once: same type."""
    body = (
        "<div itemscope itemType='https://schema.org/Product'><h1>Oak garden bench</h1>"
        f"<p>{STORY[1]}</p><p>{STORY[2]}</p></div>"
    )
    script = "<script>var catalog = '" + "x" * 200 * SCAN_CHARS_PER_BLOCK + "';</script>"
    for head in ("", script):
        article = extract_article(page(body, "Oak garden bench", head), "http://shop.test/p/1")
        assert article.page_type == "other"


def test_the_markup_is_scanned_first_up_to_its_chars_per_block() -> None:
    assert scan_first(10 * SCAN_CHARS_PER_BLOCK, 10)
    assert not scan_first(10 * SCAN_CHARS_PER_BLOCK + 1, 10)
    assert not scan_first(1, 0)


def test_an_undated_category_page_of_teasers_is_a_listing() -> None:
    teasers = "".join(
        f"<div><h3><a href='/news/{i}'>Council debates the river bridge again, part {i}</a>"
        f"</h3><p>Read more</p></div>"
        for i in range(12)
    )
    body = f"<h1>Transport</h1><p>{STORY[0]}</p>{teasers}"
    article = extract_article(page(body, "Transport"), "http://town.test/category/transport")
    assert article.page_type == "listing"


def test_a_dated_article_without_metadata_is_an_article() -> None:
    share = "".join(f"<button>Share {i}</button>" for i in range(25))  # many buttons
    body = (
        "<h1>Bridge to be rebuilt</h1><p>By Ann Lee, 3 May 2024</p>"
        f"{''.join(f'<p>{p}</p>' for p in STORY)}<div class='share'>{share}</div>"
    )
    article = extract_article(page(body), "http://town.test/news/bridge")
    assert article.published == "2024-05-03"
    assert article.page_type == "article"


def test_an_undated_article_without_chrome_stays_an_article() -> None:
    html = f"<html><body><h1>Bridge</h1>{''.join(f'<p>{p}</p>' for p in STORY)}</body></html>"
    assert extract_article(html).page_type == "article"


def test_a_service_front_page_is_other() -> None:
    sections = "".join(
        f"<section><h2>Feature {i}</h2><p>{STORY[i]}</p></section>" for i in range(4)
    )
    body = f"<h1>Spans, monitored</h1>{sections}"
    assert extract_article(page(body, "Span"), "https://span.test/").page_type == "other"


def test_a_malformed_url_is_no_front_page() -> None:
    article = extract_article(docs_page(), "http://[broken/")
    assert article.page_type == "other"  # typed by its code blocks; the URL is ignored


def docs_tree_page(
    under_title: str = "", sections: int = 40, menu: str = "nav", blocks: int = 4
) -> str:
    """A manual's page: a side tree of chapters and sections, prose, ``blocks`` code blocks."""
    tree = "".join(
        f"<li><a href='/docs/{c}'>Chapter {c}</a><ul>"
        + "".join(
            f"<li><a href='/docs/{c}/{s}'>Section {c}.{s}</a></li>"
            for s in range(8)
            if 8 * c + s < sections
        )
        + "</ul></li>"
        for c in range(5)
    )
    code = "".join(
        f"<p>{STORY[i]}</p>"
        + (f"<pre><code>bridge build --span {i}</code></pre>" if i < blocks else "")
        for i in range(4)
    )
    return page(
        f"<{menu} class='docs-tree'><ul>{tree}</ul></{menu}>"
        f"<main><h1>Building a span</h1>{under_title}{code}</main>",
        "Building a span",
    )


def test_a_dated_documentation_page_with_a_side_tree_and_code_is_other() -> None:
    edited = "<p>Updated <time datetime='2024-05-03'>May 3, 2024</time></p>"
    article = extract_article(docs_tree_page(edited), "http://docs.test/guide/spans")
    assert article.published == "2024-05-03"  # a date, but the last edit's
    assert article.page_type == "other"
    assert STORY[0] in article.content


def test_a_documentation_tree_holds_enough_nested_links() -> None:
    """MIN_TREE_LINKS links in lists nested in lists of a nav or an aside, no fewer."""
    edited = "<p>Updated <time datetime='2024-05-03'>May 3, 2024</time></p>"
    for menu in ("nav", "aside"):
        for sections, kind in ((MIN_TREE_LINKS, "other"), (MIN_TREE_LINKS - 1, "article")):
            html = docs_tree_page(edited, sections, menu)
            # (a host that names no manual: docs_path would tell by itself)
            assert extract_article(html, "http://spans.test/guide/spans").page_type == kind


def test_two_code_blocks_beside_a_documentation_tree_make_a_manual() -> None:
    """A tutorial's chapter shows a command or two beside its tree; one block does not tell."""
    for blocks, kind in ((MIN_DOC_CODE_BLOCKS, "other"), (MIN_DOC_CODE_BLOCKS - 1, "article")):
        html = docs_tree_page(blocks=blocks)
        assert extract_article(html, "http://spans.test/guide/spans").page_type == kind


def test_a_dated_bylined_post_with_code_and_a_side_tree_stays_an_article() -> None:
    byline = "<p class='byline'>By Ann Lee · 3 May 2024</p>"
    article = extract_article(docs_tree_page(byline), "http://blog.test/2024/05/spans")
    assert article.page_type == "article"


def test_a_service_landing_page_of_blurbs_is_other() -> None:
    blurbs = "".join(
        f"<section><h2>{name}</h2><p>{text}</p><a class='btn' href='/signup'>Get started</a>"
        "</section>"
        for name, text in (
            ("Live load sensors", "Know the weight on every span, every minute of the day."),
            ("Crack alerts", "Our cameras spot new cracks in piers before they spread."),
            ("Reports for councils", "Monthly reports your engineers and your voters can read."),
            ("Fast set-up", "Our crews fit the sensors in one night, with no closures."),
            ("Fair pricing", "One price per bridge, whatever its length or its age."),
        )
    )
    body = f"<h1>Bridge monitoring that never sleeps</h1>{blurbs}"
    article = extract_article(page(body, "Span monitoring"), "http://span.test/monitoring")
    assert article.page_type == "other"


def test_an_undated_news_item_of_short_paragraphs_stays_an_article() -> None:
    """Short paragraphs alone are no landing page: the blurbs must stand under headings.

    The date of such an item often sits in a script the extractor cannot read;
    typing it "other" would drop real news.
    """
    zh = "".join(f"<p>{s}</p>" for s in ZH_SENTENCES[:4])
    article = extract_article(page(f"<h1>夜间公交开通</h1>{zh}", "夜间公交开通"))
    assert article.page_type == "article"
    short = [sentence.split(",")[0] + "." for sentence in STORY[:4]]
    body = "<h1>Council backs bridge</h1>" + "".join(f"<p>{p}</p>" for p in short)
    article = extract_article(page(body, "Council backs bridge"), "http://town.test/bridge")
    assert article.page_type == "article"


def test_a_long_undated_guide_stays_an_article() -> None:
    body = "<h1>How bridges are rebuilt</h1>" + "".join(f"<p>{p}</p>" for p in STORY)
    article = extract_article(page(body, "How bridges are rebuilt"), "http://town.test/guide")
    assert article.page_type == "article"


def declared_page(kind: str = "WebPage", under_title: str = "", og: str = "website") -> str:
    """A page of plain paragraphs (no prices, code, buttons or blurbs) whose
    JSON-LD declares ``kind`` (nothing when empty) and whose og:type is ``og``."""
    head = f'<meta property="og:type" content="{og}">'
    if kind:
        head += (
            f'<script type="application/ld+json">{{"@context": "https://schema.org", '
            f'"@graph": [{{"@type": "{kind}", "name": "Bridge inspections"}}, '
            '{"@type": "Organization", "name": "Span"}]}</script>'
        )
    body = f"<h1>Bridge inspections</h1>{under_title}" + "".join(f"<p>{p}</p>" for p in STORY)
    return page(body, "Bridge inspections", head)


def test_an_undated_unbylined_page_declaring_a_web_page_is_other() -> None:
    """Its structured data names no article: a service's page, not a story."""
    for kind in ("WebPage", "LocalBusiness", "Service"):
        article = extract_article(declared_page(kind), "http://span.test/inspections")
        assert article.published is None and not article.authors
        assert article.page_type == "other", kind


def test_the_declared_web_page_with_a_dated_byline_is_an_article() -> None:
    byline = "<p class='byline'>By Ann Lee · 3 May 2024</p>"
    article = extract_article(declared_page(under_title=byline), "http://town.test/inspections")
    assert article.published == "2024-05-03" and article.authors
    assert article.page_type == "article"


def test_a_page_declaring_an_article_or_nothing_stays_an_article() -> None:
    """Declared as an article, or no structured data at all (og:type is a
    builder's stamp and does not count): the undated text stays an article."""
    for kind in ("Article", "NewsArticle", ""):
        article = extract_article(declared_page(kind), "http://town.test/inspections")
        assert article.page_type == "article", kind


def stamped(kind: str = "WebPage", day: str = "2024-05-03T09:00:00Z") -> str:
    """JSON-LD as a site builder writes it on every page: a type and the last save."""
    return (
        f'<script type="application/ld+json">{{"@type": "{kind}", "name": "Span", '
        f'"datePublished": "{day}", "dateModified": "{day}"}}</script>'
    )


def pricing_page(under_title: str = "", head: str = "") -> str:
    """A service's page of plans and prices, with the date its CMS stamps in the metadata."""
    plans = "".join(
        f"<div class='plan'><h3>{name}</h3><p>${price} / month</p><p>{STORY[i]}</p></div>"
        for i, (name, price) in enumerate((("Starter", 9), ("Team", 29), ("Business", 99)))
    )
    body = f"<h1>Bridge monitoring for every town</h1>{under_title}<p>{STORY[3]}</p>{plans}"
    return page(body, "Bridge monitoring", stamped() + head)


def test_a_date_only_the_metadata_gives_does_not_make_a_service_page_an_article() -> None:
    article = extract_article(pricing_page(), "http://span.test/pricing")
    assert article.published is not None  # read, but shown nowhere: the CMS's stamp
    assert article.page_type == "other"
    for day in (
        "3 May 2024",  # a day it shows, with or without its year, or as an age
        "Posted May 3",
        "<time datetime='2024-05-03T09:00:00Z'>3 hours ago</time>",
    ):
        shown = extract_article(pricing_page(f"<p>{day}</p>"), "http://span.test/pricing")
        assert shown.published is not None and shown.page_type == "article"


def promo_plans_page(plans_in_text_region: bool = True) -> str:
    """A stamped service page whose plans table is marked (a promo): under its lead,
    between the lead and the blurbs, or after the text in a side box."""
    plans = "".join(
        f"<div class='plan'><h3>{name}</h3><p>${price} / month</p><p>Try it free</p></div>"
        for name, price in (("Starter", 9), ("Team", 29), ("Business", 99))
    )
    promo = f"<div class='promo'><h2>Pick a plan</h2>{plans}</div>"
    body = "".join(f"<p>{STORY[i]}</p>" for i in range(1, 5))
    inside = promo if plans_in_text_region else ""
    main = f"<main><h1>Bridge monitoring for every town</h1><p>{STORY[0]}</p>{inside}{body}</main>"
    aside = "" if plans_in_text_region else f"<aside>{promo}</aside>"
    return page(main + aside, "Bridge monitoring", stamped())


def test_a_marked_plans_table_in_the_text_region_makes_a_service_page() -> None:
    """The text leaves the marked table out; its prices still mark the page."""
    article = extract_article(promo_plans_page(), "http://span.test/monitoring")
    assert "$29" not in article.content
    assert article.page_type == "other"


def test_the_same_plans_in_a_side_box_after_the_text_leave_an_article() -> None:
    """Prices marked outside the text's region are the site's, not the page's."""
    article = extract_article(promo_plans_page(False), "http://span.test/monitoring")
    assert article.page_type == "article"


def test_a_page_declaring_an_article_keeps_its_stamped_date() -> None:
    html = pricing_page(head=stamped("Article"))
    assert extract_article(html, "http://span.test/pricing").page_type == "article"


def stamped_list_page(under_title: str = "") -> str:
    """A list page (a wiki's "List of ..."): a short lead, many linked headlines, and
    the JSON-LD every page of its site carries, a generic Article with a date."""
    links = "".join(
        f"<li><h3><a href='/wiki/bridge_{i}'>The river bridge built over the valley in {1990 + i}"
        "</a></h3></li>"
        for i in range(30)
    )
    body = f"<h1>List of river bridges</h1>{under_title}<p>{STORY[0]}</p><ul>{links}</ul>"
    return page(body, "List of river bridges", stamped("Article"))


def test_a_stamped_list_page_declaring_a_generic_article_is_a_listing() -> None:
    """Its headlines outweigh its text; a date it shows nowhere is no story's mark,
    and a generic Article type is what the site stamps on every page."""
    article = extract_article(stamped_list_page(), "http://wiki.test/wiki/List_of_bridges")
    assert article.published is not None
    assert article.page_type == "listing"


def test_the_list_page_showing_its_date_or_a_byline_stays_an_article() -> None:
    for under_title in ("<p>3 May 2024</p>", "<p class='byline'>By Ann Lee</p>"):
        html = stamped_list_page(under_title)
        article = extract_article(html, "http://wiki.test/wiki/List_of_bridges")
        assert article.page_type == "article", under_title


def test_a_stamped_post_with_code_blocks_stays_an_article() -> None:
    """Code blocks mark an undated page as documentation, not a dated post."""
    code = "".join(
        f"<p>{STORY[i]}</p><pre><code>bridge build --span {i}</code></pre>" for i in range(4)
    )
    html = page(f"<h1>Building a span</h1>{code}", "Building a span", stamped())
    article = extract_article(html, "http://blog.test/spans")
    assert article.published is not None
    assert article.page_type == "article"


def test_a_dated_product_grid_is_a_listing() -> None:
    """A shop shows a date too (a sale's); its grid of priced items is no article."""
    cards = "".join(
        f"<li class='product'><a href='/p/{i}'><h3>Oak garden bench model {i}, two seats</h3>"
        f"</a><span>£{199 + i}</span></li>"
        for i in range(24)
    )
    body = (
        f"<h1>Garden benches</h1><p>Spring sale, 3 May 2024</p><div class='intro'><p>{STORY[0]}"
        f"</p></div><ul>{cards}</ul>"
    )
    article = extract_article(page(body, "Garden benches"), "http://shop.test/benches")
    assert article.published == "2024-05-03"
    assert article.page_type == "listing"


def test_an_og_type_written_with_its_namespace_is_read() -> None:
    head = "<meta property='og:type' content='og:product'>"
    body = f"<h1>Oak garden bench</h1><p>{STORY[1]}</p><p>{STORY[2]}</p>"
    article = extract_article(page(body, "Oak garden bench", head), "http://shop.test/p/1")
    assert article.page_type == "other"


def test_a_blogs_front_page_declaring_its_latest_post_is_a_listing() -> None:
    head = stamped("BlogPosting")
    body = f"<h1>Bridge to be rebuilt</h1>{''.join(f'<p>{p}</p>' for p in STORY)}"
    assert extract_article(page(body, head=head), "https://blog.test/").page_type == "listing"
    article = extract_article(page(body, head=head), "https://blog.test/2024/bridge")
    assert article.page_type == "article"


def comment_thread(head: str = "") -> str:
    """A thread whose software names every post a "comment", first post included."""
    posts = [("alice", "May 3, 2024", STORY[0]), *((w, "May 3, 2024", t) for w, _, t, _ in REPLIES)]
    units = "".join(
        f"<div class='comment' id='c{i}'><div class='comment-meta'><a href='/u/{who}'>{who}</a>"
        f" <span>{when}</span></div><div class='comment-text'><p>{text}</p></div></div>"
        for i, (who, when, text) in enumerate(posts)
    )
    return page(f"<h1>Bridge to be rebuilt</h1><div class='comments'>{units}</div>", head=head)


def test_a_thread_whose_posts_are_marked_as_comments_is_a_thread() -> None:
    head = "<meta property='og:type' content='article'>"  # forum software stamps it too
    article = extract_article(comment_thread(head), "http://forum.test/t/2")
    assert article.page_type == "thread"
    for paragraph in STORY[:4]:
        assert paragraph in article.content


def test_posts_shown_with_their_age_are_posts() -> None:
    html = comment_thread().replace("May 3, 2024", "3 hours ago")
    assert extract_article(html, "http://forum.test/t/3").page_type == "thread"


def test_a_dated_news_article_with_related_links_and_comments_stays_an_article() -> None:
    related = "".join(
        f"<li><a href='/news/{i}'>Council debates the river bridge again, part {i}</a></li>"
        for i in range(15)
    )
    comments = "".join(
        f"<li class='comment'><p class='comment-meta'>{who} · May 4, 2024</p>"
        f"<p>I agree, about time.</p></li>"
        for who in ("bob", "carol", "dave", "erin")
    )
    body = (
        "<article><h1>Bridge to be rebuilt</h1><p>By Ann Lee, 3 May 2024</p>"
        f"{''.join(f'<p>{p}</p>' for p in STORY)}</article>"
        f"<h2>Related</h2><ul class='related'>{related}</ul>"
        f"<ol class='comments'>{comments}</ol>"
    )
    article = extract_article(page(body), "http://town.test/news/2024/05/bridge")
    assert article.page_type == "article"
    assert STORY[0] in article.content and "I agree" not in article.content


def test_a_declared_list_of_products_is_a_listing_and_a_declared_review_an_article() -> None:
    items = ", ".join(
        f'{{"@type": "ListItem", "position": {i}, "item": {{"@type": "Product", '
        f'"name": "Bench {i}", "offers": {{"@type": "Offer", "price": "{100 + i}"}}}}}}'
        for i in range(3)
    )
    grid = f'{{"@type": "ItemList", "itemListElement": [{items}]}}'
    body = f"<h1>Garden benches</h1><p>{STORY[1]}</p><p>{STORY[2]}</p>"
    head = f'<script type="application/ld+json">{grid}</script>'
    shop = extract_article(page(body, "Garden benches", head), "http://shop.test/c/benches")
    assert shop.page_type == "listing"
    review = head + (
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"headline": "The three best garden benches"}</script>'
    )
    article = extract_article(page(body, "Garden benches", review), "http://news.test/benches")
    assert article.page_type == "article"


def test_a_page_declaring_a_social_media_posting_is_a_thread() -> None:
    head = (
        '<script type="application/ld+json">{"@type": "SocialMediaPosting", '
        '"headline": "Bridge to be rebuilt"}</script>'
    )
    body = f"<h1>Bridge to be rebuilt</h1><p>{STORY[0]}</p><p>{STORY[1]}</p>"
    assert extract_article(page(body, head=head), "http://social.test/p/9").page_type == "thread"


# Discussion pages: a submitted link (a title, a line or two) and a tree of replies.
VOICES = ("bob", "carol", "dave", "erin", "frank", "grace")
SAYINGS = (*STORY, *EN_SENTENCES)


def reply(who: str, text: str, children: str = "") -> str:
    """A reply as link aggregators show it: a dated header with the author's
    linked name and points, the text, its controls, then the replies to it."""
    return (
        f"<div class='comment'><p class='tagline'><a href='/u/{who}'>{who}</a> 12 points "
        f"3 hours ago</p><div class='md'><p>{text}</p></div><ul class='buttons'>"
        "<li><a href='#p'>permalink</a></li><li><a href='#r'>reply</a></li></ul>"
        f"{children}</div>"
    )


def reply_tree(nested: bool, count: int = 8) -> str:
    if not nested:
        return "".join(reply(VOICES[i % 6], SAYINGS[i % len(SAYINGS)]) for i in range(count))
    return "".join(
        reply(VOICES[i % 6], SAYINGS[i], reply(VOICES[(i + 1) % 6], SAYINGS[i + 1]))
        for i in range(0, count, 2)
    )


def submitted_link() -> str:
    body = (
        "<div class='link'><h1><a href='http://town.test/news/bridge'>Council votes to rebuild "
        "the river bridge</a></h1><p class='tagline'>submitted 5 hours ago by "
        f"<a href='/u/alice'>alice</a></p></div><div class='commentarea'>{reply_tree(True)}</div>"
    )
    return page(body, "Council votes to rebuild the river bridge")


def test_a_discussion_of_a_submitted_link_is_a_thread_of_its_replies() -> None:
    article = extract_article(submitted_link(), "http://board.test/r/town/comments/1/bridge")
    assert article.page_type == "thread"
    for saying in SAYINGS[:8]:
        assert saying in article.content  # the replies, nested ones too
    assert "permalink" not in article.content  # their controls are not
    # One post per reply, in page order, each with its own text only (not its replies').
    assert [post.text for post in article.posts] == list(SAYINGS[:8])


def vote_comment(i: int, depth: int, when: str, children: str = "") -> str:
    """A comment as today's link aggregators serve it: an element named for no post
    (a custom tag), its author's linked name over its age or date, its points
    between vote buttons, its replies nested in it."""
    who = VOICES[i % 6]
    return (
        f"<x-comment depth='{depth}'><div><a href='/user/{who}/'>{who}</a> • <time>{when}</time>"
        f"</div><div><p>{SAYINGS[i]}</p></div><div><button>Upvote</button><span>{12 + i}</span>"
        "<button>Downvote</button><button>Reply</button><button>Award</button>"
        f"<button>Share</button></div>{children}</x-comment>"
    )


def comment_page(when: str) -> str:
    """A submitted link and a tree of 8 comments, each shown with ``when``."""
    tree = "".join(vote_comment(i, 0, when, vote_comment(i + 1, 1, when)) for i in range(0, 8, 2))
    body = (
        "<main><div><a href='/r/town/'>r/town</a> • <time>5 hr. ago</time> "
        "<a href='/user/alice/'>alice</a></div><h1>Council votes to rebuild the river bridge</h1>"
        "<a href='https://town.test/news/bridge'>town.test/news/bridge</a><button>Upvote</button>"
        "<span>88</span><button>Downvote</button><button>34 comments</button>"
        f"<button>Share</button><div class='tree'>{tree}</div></main>"
    )
    return page(body, "Council votes to rebuild the river bridge")


def test_a_comment_page_whose_comments_show_their_age_is_a_thread() -> None:
    """A comment page that shows its comments' ages, not dates, and five buttons
    each, is a thread of the comments (it was taken for an app's page and dropped)."""
    for when in ("3h ago", "1 year ago", "May 3, 2024"):
        html = comment_page(when)
        article = extract_article(html, "http://board.test/r/town/comments/1/bridge/")
        assert article.page_type == "thread", when
        assert [post.author for post in article.posts] == [VOICES[i % 6] for i in range(8)]
        assert [post.text for post in article.posts] == list(SAYINGS[:8])
        dated = when[0].isalpha()
        assert all((post.published is not None) == dated for post in article.posts)


def news_item(sayings: list[str]) -> str:
    """A discussion whose replies' dated headers are the elements before the ones
    named "comment" (Hacker News's layout); the replies do not nest."""
    rows = "".join(
        f"<tr class='athing'><td class='default'><div><span class='comhead'>"
        f"<a href='/u/{VOICES[i % 6]}'>{VOICES[i % 6]}</a> <a href='/item/{i}'>on May 3, 2024</a>"
        f" | <a href='#'>next</a></span></div><div class='comment'><div class='commtext'>"
        f"{saying}</div></div></td></tr>"
        for i, saying in enumerate(sayings)
    )
    body = (
        "<table><tr><td class='title'><a href='http://town.test/news/bridge'>Council votes to "
        "rebuild the river bridge</a></td></tr><tr><td class='subtext'>88 points by "
        f"<a href='/u/alice'>alice</a> 5 hours ago | {len(sayings)} comments</td></tr></table>"
        f"<table class='comment-tree'>{rows}</table>"
    )
    return page(body, "Council votes to rebuild the river bridge")


def test_a_discussion_whose_reply_headers_stand_above_the_replies_is_a_thread() -> None:
    sayings = [SAYINGS[i % len(SAYINGS)] for i in range(15)]
    article = extract_article(news_item(sayings), "http://board.test/item?id=1")
    assert article.page_type == "thread"
    for saying in SAYINGS:
        assert saying in article.content
    assert len(article.posts) == 15
    first = article.posts[0]
    assert (first.author, first.published, first.text) == ("bob", "2024-05-03", SAYINGS[0])


def test_a_long_discussion_keeps_its_replies_past_those_read_for_a_date() -> None:
    sayings = [f"Reply {i}: {SAYINGS[i % len(SAYINGS)]}" for i in range(MAX_UNITS + 20)]
    article = extract_article(news_item(sayings), "http://board.test/item?id=2")
    assert article.page_type == "thread"
    assert sayings[-1] in article.content


def test_a_news_brief_under_its_readers_comments_stays_an_article() -> None:
    """Two short paragraphs can draw several times their length in comments, in
    a list or in a tree: the comments are still not the content."""
    for nested in (False, True):
        body = (
            "<article><h1>Night buses to the airport</h1><p>By Ann Lee, 3 May 2024</p>"
            f"<p>{EN_SENTENCES[0]}</p><p>{EN_SENTENCES[1]}</p></article>"
            f"<div class='comments'>{reply_tree(nested, count=9 if not nested else 8)}</div>"
        )
        html = page(body, "Night buses to the airport")
        article = extract_article(html, "http://town.test/news/2024/05/buses")
        assert article.page_type == "article", nested
        assert EN_SENTENCES[0] in article.content and STORY[0] not in article.content


def test_a_blog_index_of_dated_linked_titles_is_no_thread() -> None:
    """Each entry's date stands beside its linked title: a teaser's, not a post's header."""
    entries = "".join(
        f"<div class='entry'><h2><a href='/2024/05/{i}'>Notes from the river bridge works, "
        f"week {i}</a></h2><p class='date'>May {i + 1}, 2024</p>"
        f"<p>{STORY[i]}</p><p>{STORY[i + 1]}</p><p>{STORY[i - 1]}</p></div>"
        for i in range(5)
    )
    html = page(f"<h1>River notes</h1><main>{entries}</main>", "River notes")
    assert extract_article(html, "http://river.test/blog/").page_type != "thread"


def test_a_site_home_of_dated_entries_is_no_thread() -> None:
    entries = "".join(
        f"<div class='entry'><p class='date'>Posted May {i + 1}, 2024 by ann</p>"
        f"<p>{STORY[i]}</p><p>{STORY[i + 1]}</p></div>"
        for i in range(4)
    )
    html = page(f"<h1>River notes</h1><main>{entries}</main>", "River notes")
    assert extract_article(html, "http://river.test/").page_type != "thread"
    assert extract_article(html, "http://river.test/notes/week-1").page_type == "thread"


def test_an_article_of_short_dated_sentences_is_no_thread() -> None:
    """Short paragraphs that name a date are sentences, not posts' headers."""
    dated = (
        "The new fares take effect on January 1, 2026.",
        "The night lines open on March 2, 2026.",
        "A review of the service is due on June 30, 2026.",
    )
    body = "<h1>Night buses to the airport</h1>" + "".join(
        f"<p>{text}</p><p>{EN_SENTENCES[i]}</p>" for i, text in enumerate(dated)
    )
    html = page(body, "Night buses to the airport")
    assert extract_article(html, "http://town.test/news/buses").page_type == "article"


def teasers(count: int, paragraphs: int = 1) -> str:
    """``count`` dated entries, each under its linked title, with ``paragraphs`` of
    text (an excerpt, or the whole post) and a link to its comments."""
    return "".join(
        f"<article class='entry'><h2><a href='/2024/05/{i}'>Notes from the river bridge "
        f"works, week {i}</a></h2><p class='date'>May {i + 1}, 2024</p>"
        + "".join(f"<p>{STORY[(i + k) % len(STORY)]}</p>" for k in range(paragraphs))
        + f"<p><a href='/2024/05/{i}#comments'>Comments</a></p></article>"
        for i in range(count)
    )


def blog_index(paragraphs: int, count: int = 12) -> str:
    """A blog's index: ``count`` dated entries of ``paragraphs`` each."""
    return page(f"<h1>River notes</h1><main>{teasers(count, paragraphs)}</main>", "River notes")


def test_a_blog_index_of_dated_teasers_is_a_listing() -> None:
    """Sibling entries, each a linked title, a date and an excerpt, hold the selected text."""
    article = extract_article(blog_index(2), "http://river.test/blog/")
    assert article.page_type == "listing"


def test_dated_entries_each_a_whole_text_are_no_teasers() -> None:
    """Items dated under linked titles but each several paragraphs long (a review
    of new books, a page of whole posts) are no list of teasers."""
    article = extract_article(blog_index(2 * len(STORY)), "http://river.test/blog/")
    assert article.page_type == "article"


def ranking(above: str = "", rows: int = 40, row: str = "row", note: str = "") -> str:
    """A ranking: ``rows`` rows (class ``row``) of a rank, a linked name of a word or
    two and a score (and ``note``), under a one-line intro."""
    names = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne", "Tyrell")
    grid = "".join(
        f"<div class='{row}'><div class='rank'>{i + 1}.</div><div class='name'>"
        f"<a href='/p/{i}'>{names[i % len(names)]} {i // len(names) + 1}</a></div>"
        f"<div class='score'>Score {9 - i / 10:.1f} of 10 from our readers{note}</div></div>"
        for i in range(rows)
    )
    return page(
        f"<h1>Top analytics software</h1>{above}<p>See how the top analytics products "
        f"rank by their users' scores this year.</p><div class='ranking'>{grid}</div>",
        "Top analytics software",
    )


def test_an_undated_grid_of_named_items_is_a_listing() -> None:
    """Items named in a word or two are no linked headlines, but forty rows of a
    link and text, outweighing the selected intro, make a listing."""
    assert extract_article(ranking(), "http://rank.test/analytics").page_type == "listing"


def test_the_same_grid_under_a_dated_byline_stays_an_article() -> None:
    byline = "<p class='byline'>By Ann Smith, May 3, 2024</p>"
    article = extract_article(ranking(byline), "http://rank.test/analytics")
    assert article.page_type == "article"


def test_a_grid_of_cards_named_as_widgets_is_a_listing() -> None:
    """Shops and catalogues name their cards "widget": still the page's grid."""
    html = ranking(row="product-widget")
    assert extract_article(html, "http://rank.test/analytics").page_type == "listing"


def test_a_few_feature_cards_make_no_grid() -> None:
    """A landing page's handful of features, each a link and a line, is no catalogue,
    though their text outweighs the intro."""
    note = ", who rate it on its speed, its price and its support"
    html = ranking(rows=6, row="feature-widget", note=note)
    assert extract_article(html, "http://rank.test/analytics").page_type != "listing"


def test_a_short_story_over_its_sites_latest_posts_stays_an_article() -> None:
    """A box of four dated teasers under a short story, both selected, outweighs the
    story but is no index: an index repeats its teasers a dozen times."""
    body = (
        f"<h1>Night buses to the airport</h1><main><p>{EN_SENTENCES[0]}</p>"
        f"<p>{EN_SENTENCES[1]}</p><h2>Latest news</h2>{teasers(4)}</main>"
    )
    html = page(body, "Night buses to the airport")
    assert extract_article(html, "http://town.test/news/buses").page_type == "article"


def test_a_long_story_over_a_dozen_dated_teasers_stays_an_article() -> None:
    """The teasers, selected with the story, hold less than half of its text."""
    story = "".join(f"<p>{text}</p>" for text in STORY * 4)
    body = f"<h1>Bridge to be rebuilt</h1><main>{story}<h2>More news</h2>{teasers(12)}</main>"
    html = page(body)
    assert extract_article(html, "http://town.test/news/bridge").page_type == "article"


def test_an_undated_text_over_a_small_grid_stays_an_article() -> None:
    """The grid must outweigh the selected text: a guide's paragraphs over a table
    of a dozen named items are the page's text."""
    guide = "".join(f"<p>{text}</p>" for text in STORY)
    html = ranking(above=guide, rows=12)
    assert extract_article(html, "http://rank.test/analytics").page_type == "article"


def linked_titles(count: int, date_under: str = "") -> str:
    """``count`` items, each a linked title (``date_under`` below it, when given)
    and a paragraph: a newsletter's roundup of links, or a section's teasers."""
    return "".join(
        f"<h2><a href='https://elsewhere.test/{i}'>Notes from the river "
        f"bridge works, week {i}</a></h2>"
        + (f"<p class='date'>{date_under.format(day=i + 1)}</p>" if date_under else "")
        + f"<p>{STORY[i % len(STORY)]}</p>"
        for i in range(count)
    )


def test_a_roundup_of_links_under_its_dated_head_is_an_article() -> None:
    """A newsletter's issue: a run of linked titles, each with a comment, under the
    issue's headline and its own dated byline. The run looks like a grid of
    teasers; the date line under the headline, beside no linked title, is a story's."""
    body = (
        "<main><h1>This week on the river: the bridge, the buses and the ferry</h1>"
        f"<p class='byline'>By Ann Lee, May 3, 2024</p><p>{STORY[0]}</p>"
        f"{linked_titles(8)}</main>"
    )
    html = page(body, "This week on the river")
    assert extract_article(html, "http://river.test/2024/05/roundup").page_type == "article"


def test_a_story_whose_text_holds_a_read_more_list_is_an_article() -> None:
    """Linked titles in the middle of a story ("READ MORE:" and four links) make a
    quarter of its lines; its byline and date under the headline, above a share
    bar's row of links, keep it a story."""
    reads = "".join(
        f"<p><a href='https://other.test/{i}'>Other paper: the bridge debate, part {i}</a></p>"
        for i in range(4)
    )
    body = (
        "<main><h1>Bridge to be rebuilt</h1><p class='byline'>By Ann Lee</p>"
        "<p>Published May 3, 2024 at 8:31am</p>"
        "<div class='share'><a href='#'>Share on Facebook Tweet Share Email</a></div>"
        + "".join(f"<p>{text}</p>" for text in STORY[:3])
        + f"<p>READ MORE:</p>{reads}"
        + "".join(f"<p>{text}</p>" for text in STORY[3:])
        + "</main>"
    )
    article = extract_article(page(body), "http://town.test/news/bridge")
    assert article.page_type == "article"
    assert STORY[0] in article.content


def test_a_section_front_whose_first_teaser_is_dated_stays_a_listing() -> None:
    """Under a section's title ("News") the first dated line is a teaser's, beside
    its linked title: no story's head."""
    body = f"<main><h1>News</h1>{linked_titles(8, '05/{day:02d}/2024 | River Post')}</main>"
    assert extract_article(page(body, "News"), "http://river.test/news").page_type == "listing"


def test_the_roundup_without_a_date_line_is_typed_by_its_links() -> None:
    """No date under the headline, no story head: the run of linked titles decides."""
    body = (
        "<main><h1>This week on the river: the bridge, the buses and the ferry</h1>"
        f"<p>{STORY[0]}</p>{linked_titles(8)}</main>"
    )
    html = page(body, "This week on the river")
    assert extract_article(html, "http://river.test/2024/05/roundup").page_type == "listing"


def test_a_press_notice_with_dated_label_lines_is_no_thread() -> None:
    """A customs press notice: its date labelled once ("Datum: 18.10.2021"), a list of
    dated steps, a dated link to a letter. Typed a thread, it had posts by "Datum",
    "ab" and "Informationsschreiben vom"."""
    html = (
        "<html lang='de'><head><title>Änderungen bei der Tabaksteuer - Zoll</title></head><body>"
        "<nav><a href='/'>Startseite</a> <a href='/presse'>Presse</a></nav><main>"
        "<h1>Änderungen bei der Tabaksteuer</h1><p>Datum: 18.10.2021</p>"
        "<p>Mit dem Tabaksteuermodernisierungsgesetz werden die Steuertarife für Tabakwaren in "
        "mehreren Schritten angehoben. Zugleich werden neue Produkte einbezogen.</p>"
        "<p>Die Erhöhungen gelten in mehreren Stufen:</p>"
        "<ul><li>ab 1. Januar 2022 für Zigaretten und Feinschnitt,</li>"
        "<li>ab 1. Januar 2022 für Zigarren, Zigarillos und Pfeifentabak, wobei die Sätze für "
        "Feinschnitt stärker steigen als die für Zigaretten,</li>"
        "<li>ab 1. Januar 2023 für Wasserpfeifentabak und erhitzten Tabak,</li>"
        "<li>ab 1. Juli 2022 für Substanzen zur Verwendung in E-Zigaretten.</li></ul>"
        "<p>Die Hersteller und Importeure müssen die neuen Steuerzeichen rechtzeitig bestellen. "
        "Die Hauptzollämter beantworten Fragen zu den Übergangsregeln.</p>"
        "<p>Informationsschreiben vom 14. Oktober 2021 <a href='/info.pdf'>PDF</a></p>"
        "<p>Weitere Informationen enthält das Informationsschreiben an die Wirtschaft, das "
        "auch die Übergangsregeln für die alten Steuerzeichen erklärt.</p>"
        "</main><footer>© Generalzolldirektion</footer></body></html>"
    )
    article = extract_article(html, "https://zoll.test/presse/2021/tabaksteuer")
    assert article.page_type == "article"
    assert article.posts == ()
    assert "Mit dem Tabaksteuermodernisierungsgesetz" in article.content


def test_a_chinese_list_of_dated_linked_titles_is_a_listing() -> None:
    """A local news section: a dated linked title per item, then the pager. Its titles
    are short of four space-separated words (Chinese writes none), yet each is a
    teaser's: the page is a listing, not an article whose text is the pager."""
    titles = (
        "青河三桥今日正式通车 市区南北往来缩短二十分钟",
        "我市启动冬季供暖准备工作 十一月十五日起正式供暖",
        "青河公园菊花展开幕 展出品种三百余个",
        "我市出租车起步价调整听证会召开",
        "市区新增三处公共自行车租赁点",
        "滨江北路夜市整治初见成效",
        "青河湿地迎来首批越冬候鸟",
        "市中心医院新门诊大楼投入使用",
        "全市中小学冬季作息时间调整",
        "我市开展消防安全大检查",
    )
    items = "".join(
        f"<li><span>2009-11-{9 - i // 2:02d}</span><a href='/news/{i}.html'>{title}</a></li>"
        for i, title in enumerate(titles)
    )
    html = (
        "<html lang='zh'><head><title>本地新闻_青河新闻网</title></head><body>"
        "<div class='top'><a href='/'>首页</a> | <a href='/news/'>新闻中心</a></div>"
        f"<div class='title'>本地新闻</div><ul>{items}</ul>"
        "<div class='page'>共 1286 条记录 页次：1/86 每页：15 条 <a href='?p=2'>下一页</a></div>"
        "</body></html>"
    )
    article = extract_article(html, "http://www.qinghe.test/news/local/")
    assert article.page_type == "listing"
    assert all(title in article.content for title in titles)


def test_every_page_type_comes_with_its_reason() -> None:
    """The page type's evidence (explain shows it): no type is written without why."""
    from pathlib import Path

    from scrapy_cx.extract import extract_page
    from tests.sample_pages import article_html, listing_html

    pages = [p.read_bytes() for p in (Path(__file__).parents[1] / "pages").glob("*.html")]
    pages += [article_html("Tram line").encode(), listing_html().encode(), b"", b"<p>"]
    for body in pages:
        page = extract_page(body, "http://news.test/2024/a")
        evidence = page.evidence.get("page_type")
        assert page.page_type is not None and evidence is not None, page.page_type
        assert evidence.raw and evidence.source == "page_type"


def test_a_page_of_headlines_dated_in_its_metadata_alone_is_a_listing() -> None:
    """A category page whose builder stamps og:article and a publication time on it,
    shown nowhere on the page, is a listing like an undated one; the same page
    showing its date under its title stays an article (a short story beside many
    headlines)."""
    heads = "".join(
        f"<li><a href='/news/{i}'>Council debates the river bridge again, part {i}</a></li>"
        for i in range(20)
    )
    head = (
        "<meta property='og:type' content='article'>"
        "<meta property='article:published_time' content='2022-01-26T14:44:18Z'>"
    )
    body = f"<h1>Transport</h1><p>{STORY[0]}</p><ul class='stories'>{heads}</ul>"
    url = "http://town.test/genre/transport/"
    assert extract_article(page(body, "Transport", head), url).page_type == "listing"
    shown = body.replace("</h1>", "</h1><p>January 26, 2022</p>")
    assert extract_article(page(shown, "Transport", head), url).page_type == "article"


def test_an_unbylined_page_under_a_documentation_path_is_other() -> None:
    """A manual's page reads like an article (prose under headings, the date of its
    last edit in a <time>); its URL files it under the site's docs. Bylined, or
    elsewhere, the same page stays an article."""
    steps = "".join(f"<h2>Step {i}</h2><p>{text}</p>" for i, text in enumerate(STORY))
    body = (
        "<main><h1>Using the bridge API</h1><p>Last modified: <time datetime='2025-08-20'>"
        f"Aug 20, 2025</time></p>{steps}</main>"
    )
    html = page(body, "Using the bridge API")
    for url in ("http://dev.test/en-US/docs/Web/API/Bridge", "http://docs.dev.test/bridge.html"):
        assert extract_article(html, url).page_type == "other", url
    assert extract_article(html, "http://dev.test/blog/using-the-bridge-api").page_type == "article"
    bylined = html.replace("<p>Last modified:", "<p class='byline'>By Ann Lee</p><p>Last modified:")
    url = "http://dev.test/docs/bridge"
    assert extract_article(bylined, url).page_type == "article"


def test_a_news_sites_front_of_dated_whole_stories_is_a_listing() -> None:
    """A front page that prints its latest stories whole, each under a dated header,
    lists stories; a service's front page, no dated stories on it, is other."""
    stories = "".join(
        f"<div class='story'><h2>River works, week {i}</h2><p class='date'>Posted May {i + 1},"
        f" 2024 by ann</p><p>{STORY[i]}</p><p>{STORY[i + 1]}</p></div>"
        for i in range(4)
    )
    html = page(f"<main>{stories}</main>", "River news")
    assert extract_article(html, "http://river.test/").page_type == "listing"
    undated = html.replace("Posted May", "Posted in May")
    for i in range(4):
        undated = undated.replace(f" {i + 1}, 2024 by ann", " by ann")
    assert extract_article(undated, "http://river.test/").page_type == "other"


LANDING_SECTIONS = (
    (
        "Live load sensors",
        "Our sensors weigh every lorry that crosses your bridge and send the figures to "
        "your engineers' phones within a minute, day and night, in any weather.",
    ),
    (
        "Crack alerts",
        "Cameras under each span compare the piers with last week's pictures and raise an "
        "alert the moment a new crack appears, long before a person could see it.",
    ),
    (
        "Reports for councils",
        "Every month your council receives a plain report of the bridge's health that "
        "engineers, councillors and the voters who pay for the bridge can all read.",
    ),
)
FEATURES = (
    "Set up in one night",
    "No road closures",
    "Works on old stone spans",
    "Alerts by text message",
    "Data kept in Europe",
)


def landing_page(chrome_columns: int) -> str:
    """A service's page: headed sections, each a paragraph of prose and a short list
    of features with a call to action, then ``chrome_columns`` columns of the site's
    links and blurbs beside it (a plans table, a customers' wall, a long footer)."""
    sections = "".join(
        f"<section><h2>{name}</h2><p>{text}</p><ul>"
        + "".join(f"<li>{feature}</li>" for feature in FEATURES)
        + "</ul><a class='btn' href='/demo'>Book a demo</a></section>"
        for name, text in LANDING_SECTIONS
    )
    chrome = "".join(
        f"<div class='footer-col'><h4>Column {i}</h4><ul>"
        + "".join(
            f"<li><a href='/c{i}/{j}'>Bridge monitoring resources for councils {i}.{j}</a></li>"
            for j in range(8)
        )
        + "</ul></div>"
        for i in range(chrome_columns)
    )
    body = f"<h1>Bridge monitoring that never sleeps</h1><main>{sections}</main>"
    return page(f"{body}<div class='site-footer'>{chrome}</div>", "Span monitoring")


def test_a_landing_page_of_longer_blurbs_amid_much_chrome_is_other() -> None:
    """Blurbs with a paragraph of prose each: a landing page still, when its body is
    a minor part of a page of calls to action, plans and footer links."""
    article = extract_article(landing_page(6), "http://span.test/monitoring")
    assert article.page_type == "other"


def test_headed_sections_that_are_most_of_their_page_stay_an_article() -> None:
    """The same sections on a page with little else: no landing page's frame."""
    article = extract_article(landing_page(0), "http://span.test/monitoring")
    assert article.page_type == "article"


def answers_page(age: str) -> str:
    """A Q&A page whose answers are dated by a bare compact age ("· 3y") only."""
    answers = "".join(
        f"<div class='q-box'><div><a href='/profile/{who}'>{who}</a></div>"
        f"<div>Bridge engineer for twenty years · {count} answers</div>"
        f"<div><a href='/answer/{i}'>{age.format(i + 1)}</a></div><p>{text}</p></div>"
        for i, (who, count, text) in enumerate(
            (
                ("Ann Lee", 120, STORY[0]),
                ("Bo Chen", 45, STORY[1]),
                ("Cy Ray", 9, STORY[2]),
                ("Di Fox", 3, STORY[3]),
            )
        )
    )
    return page(f"<h1>Should the old bridge be rebuilt?</h1>{answers}")


def test_answers_dated_by_a_bare_compact_age_are_a_thread() -> None:
    """Q&A sites date each answer "· 3y" (no "ago"): the answers are posts."""
    article = extract_article(answers_page("· {}y"), "http://qa.test/Should-the-bridge-be-rebuilt")
    assert article.page_type == "thread"


def test_a_bare_number_of_minutes_dates_no_answer() -> None:
    """ "· 5m" may be a length: no age read, no posts, so one run of text."""
    article = extract_article(answers_page("· {}m"), "http://qa.test/Should-the-bridge-be-rebuilt")
    assert article.page_type == "article"


def numbered_thread(comments_below: bool = False) -> str:
    """Two posts under dated headers numbered #1 and #2 (an author's panel beside
    each); or, ``comments_below``, an article with two numbered comments under it."""
    posts = "".join(
        f"<table class='tborder'><tr><td>{when} #{n} | <a href='/p{n}'>Link</a></td></tr>"
        f"<tr><td>{who} Registered User Join Date: Mar 2016 Posts: {n * 7}</td>"
        f"<td><div>{STORY[n - 1]}</div><div>{STORY[n + 1]}</div></td></tr></table>"
        for n, who, when in (
            (1, "alice", "30th March 2025, 16:26"),
            (2, "bob", "2nd April 2025, 13:59"),
        )
    )
    if comments_below:
        story = "".join(f"<p>{text}</p>" for text in STORY)
        byline = "<p>By Ann Lee, May 3, 2024</p>"
        body = f"<article><h1>Bridge to be rebuilt</h1>{byline}{story}</article>"
        return page(f"{body}<div class='comments'>{posts}</div>")
    return page(f"<h1>Bridge to be rebuilt</h1>{posts}")


def test_two_posts_numbered_one_and_two_are_a_thread() -> None:
    """Too few posts for the repeated units, but their numbers tell."""
    assert extract_article(numbered_thread(), "http://forum.test/t/7").page_type == "thread"


def test_an_article_over_two_numbered_comments_stays_an_article() -> None:
    """Its selection opens above comment #1: the story is the content."""
    html = numbered_thread(comments_below=True)
    assert extract_article(html, "http://news.test/bridge-to-be-rebuilt").page_type == "article"


def undated_posts(related: bool = False) -> str:
    """A thread whose post units show no date (a script writes them): six posts of
    one element each under its author's name; or, ``related``, one article in a
    "post" element above five teasers of related posts named alike."""
    if related:
        story = "".join(f"<p>{text}</p>" for text in STORY * 2)
        teasers = "".join(
            f"<div class='Post'><h3><a href='/p/{i}'>Another story about the old bridge {i}</a>"
            f"</h3><p>{STORY[i][:90]}</p></div>"
            for i in range(5)
        )
        return page(f"<h1>Bridge to be rebuilt</h1><div class='Post'>{story}</div>{teasers}")
    posts = "".join(
        f"<div class='Post'><h3 class='PostUser'>{who}</h3><div class='Post-body'><p>{text}</p>"
        "</div></div>"
        for who, text in zip(("ann", "bo", "cy", "di", "ed", "flo"), STORY, strict=True)
    )
    return page(f"<h1>Bridge to be rebuilt</h1><div class='PostStream'>{posts}</div>")


def test_a_thread_of_undated_post_units_is_a_thread() -> None:
    assert extract_article(undated_posts(), "http://forum.test/d/8-bridge").page_type == "thread"


def test_an_article_in_a_post_element_above_related_posts_stays_an_article() -> None:
    """Its own "post" element holds most of the text: one article."""
    html = undated_posts(related=True)
    assert extract_article(html, "http://blog.test/bridge-to-be-rebuilt").page_type == "article"


def test_a_saved_error_page_is_other() -> None:
    """A shop's "404 Page Not Found" keeps its menus, a sign-up box and links: no article."""
    body = (
        "<h1>404 Page Not Found</h1><p>The page you requested is either temporarily "
        "unavailable or no longer exists.</p><h2>Try one of these</h2><ul>"
        "<li>Check your spelling and try again</li><li><a href='/brands'>Shop by brand</a></li>"
        f"</ul><div class='signup'><p>{STORY[5]}</p></div>"
    )
    article = extract_article(page(body, "Item Not Found"), "http://shop.test/item-123.html")
    assert article.page_type == "other"


def test_a_story_reporting_something_not_found_stays_an_article() -> None:
    story = "".join(f"<p>{text}</p>" for text in STORY)
    body = f"<h1>Missing barge not found after a week of searching</h1><p>May 3, 2024</p>{story}"
    html = page(body, "Missing barge not found")
    assert extract_article(html, "http://news.test/missing-barge").page_type == "article"


def reference_page() -> str:
    """A manual's reference page: a short definition, then its members' links."""
    members = "".join(
        f"<dt><a href='/docs/ref/Span/{name}'>Span.prototype.{name}()</a></dt>"
        f"<dd>Returns a promise to {name} the span.</dd>"
        for name in ("open", "close", "load", "inspect", "repair", "paint", "light", "count")
    )
    body = f"<h1>Span</h1><h2>Instance methods</h2><dl>{members}</dl>"
    return page(body, "Span - Reference")


def test_a_list_of_links_under_a_documentation_path_is_other() -> None:
    article = extract_article(reference_page(), "http://dev.test/en/docs/ref/Span")
    assert article.page_type == "other"


def test_the_same_list_of_links_elsewhere_is_a_listing() -> None:
    article = extract_article(reference_page(), "http://dev.test/en/topics/Span")
    assert article.page_type == "listing"

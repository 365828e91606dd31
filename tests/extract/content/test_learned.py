"""The learned line labeller (content/learned.py): the mechanism on a model written
here, then the shipped model on pages written for these tests (a thread, a
listing, a product page, a Chinese article, an article cut by an ad block, and a
kind of page no training set holds)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_cx.explain import explain_page
from scrapy_cx.explain._html import render_html
from scrapy_cx.explain._text import render_text
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.content._features import MATRIX_NAMES, line_matrix, page_features
from scrapy_cx.extract.content._trees import tree_of
from scrapy_cx.extract.content.learned import Labeller, label_lines, labeller

from .test_posts import FORUM, REPLIES, WHO, forum_page, framed_post
from .test_sections import CARDS, CATEGORY, DESCRIPTION, INTRO, PRODUCT, REVIEWS

LINK_DENSITY = MATRIX_NAMES.index("link_density")


def stump(threshold: float = 0.5, low: float = 3.0, high: float = -3.0) -> Labeller:
    """A one-split model: lines at most ``threshold`` linked are main (P 0.95), the
    rest are not (P 0.05); used on listings only."""
    return Labeller((tree_of([LINK_DENSITY, threshold, low, high]),), {"listing": (0.5, 0.0)})


def test_a_model_of_other_features_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"features": ["x"], "cutoffs": {}, "trees": []}))
    with pytest.raises(ValueError, match="other features"):
        labeller.__wrapped__(path)


def test_the_shipped_model_loads_and_leaves_articles_to_the_rules() -> None:
    model = labeller()
    assert model.trees
    assert "article" not in model.cutoffs
    assert set(model.cutoffs) <= {"thread", "listing", "other"}
    for threshold, margin in model.cutoffs.values():
        assert 0 < threshold - margin <= threshold + margin < 1.01


MENU = "".join(f'<li><a href="/{w}">{w.title()}</a></li>' for w in ("news", "shop", "help"))


def teaser(i: int) -> str:
    return (
        f'<article class="card"><h2><a href="/stories/{i}">Story number {i} of the week '
        f"about the harbour</a></h2><p>The council met again on day {i} and heard the "
        f"fishermen's case for a longer quay, which the port board opposes.</p></article>"
    )


def listing_page() -> str:
    return (
        "<html><head><title>Harbour news</title></head><body>"
        f"<nav><ul>{MENU}</ul></nav><main><h1>Harbour news</h1>"
        + "".join(teaser(i) for i in range(1, 9))
        + "</main><footer><p>Harbour Gazette, 1 Quay Street. All rights reserved.</p>"
        "<ul><li><a href='/privacy'>Privacy</a></li><li><a href='/terms'>Terms</a></li></ul>"
        "</footer></body></html>"
    )


def test_label_lines_keeps_what_the_model_keeps_on_the_page_types_it_has_cutoffs_for() -> None:
    page = extract_page(listing_page(), "https://gazette.example/harbour", learned=False)
    assert page.page_type == "listing"
    rows = list(line_matrix(page_features(page)))
    chosen = {id(line) for line in page.selection.body}
    # A line the rules chose stays when unlinked; another joins unless the walk marked
    # it boilerplate (the footer's address: unlinked, P 0.95, left out).
    expected = [
        line.text
        for line, row in zip(page.lines, rows, strict=True)
        if row[LINK_DENSITY] <= 0.5 and (id(line) in chosen or not line.boilerplate)
    ]
    label_lines(page, stump())
    kept = [line.text for line in page.selection.body]
    assert "Harbour Gazette, 1 Quay Street. All rights reserved." not in kept
    assert kept == expected
    assert len(page.line_scores) == len(page.lines)
    assert {round(p, 2) for p in page.line_scores} == {0.05, 0.95}
    assert page.regions and all(b > a for a, b in page.regions)
    assert "learned labeller (listing" in page.evidence["content"].raw


def test_label_lines_leaves_a_page_type_without_cutoffs_alone() -> None:
    page = extract_page(listing_page(), "https://gazette.example/harbour", learned=False)
    before = page.selection
    label_lines(page, Labeller(stump().trees, {"thread": (0.5, 0.0)}))
    assert page.selection is before
    assert page.line_scores == ()


def test_a_rules_line_stays_unless_the_model_is_sure_by_the_margin() -> None:
    page = extract_page(listing_page(), "https://gazette.example/harbour", learned=False)
    rules = [line.text for line in page.selection.body]
    # P is 0.05 or 0.95: a margin of 0.46 keeps every rules line (0.05 >= 0.04) and
    # takes no other (0.95 < 0.96).
    label_lines(page, Labeller(stump().trees, {"listing": (0.5, 0.46)}))
    assert [line.text for line in page.selection.body] == rules


# --- the shipped model on pages written for these tests ------------------------------------


def rules_content(html: str, url: str) -> str:
    return extract_page(html, url, learned=False).content


def test_a_thread_is_left_to_the_rules_and_their_posts() -> None:
    posts = "".join(
        framed_post(n, name, f"Jul {17 + n}, 2024", text)
        for n, (name, text) in enumerate(zip(WHO, REPLIES, strict=True), 1)
    )
    html = forum_page("Application thread 2025", posts)
    page = extract_page(html, FORUM)
    assert page.page_type == "thread"
    assert page.line_scores == ()  # the model never ran
    assert page.content == rules_content(html, FORUM)
    assert [post.text for post in page.article().posts] == list(REPLIES)


def test_a_listing_is_its_intro_and_its_cards_by_the_model() -> None:
    url = "https://shop.example/c/hiking-packs"
    page = extract_page(CATEGORY, url)
    assert page.page_type == "listing"
    assert len(page.line_scores) == len(page.lines)  # the model chose the text
    content = page.content
    assert INTRO in content
    for name, teaser, _price in CARDS:
        assert name in content and teaser in content
    for chrome in ("Filter", "Careers", "Tents", "Privacy"):
        assert chrome not in content
    score = dict(zip((line.text for line in page.lines), page.line_scores, strict=True))
    assert min(score[teaser] for _n, teaser, _p in CARDS) > max(score["Tents"], score["Careers"])


def test_a_product_page_keeps_its_description_specs_and_reviews_by_the_model() -> None:
    page = extract_page(PRODUCT, "https://shop.example/p/trailblazer-40")
    assert page.page_type == "other" and page.line_scores
    content = page.content
    for text in (*DESCRIPTION, REVIEWS[0], "Capacity 40 litres", "Weight 1.2 kilograms"):
        assert text in content
    for chrome in ("Add to cart", "Careers", "Packs", "© Summit Supply Co."):
        assert chrome not in content
    assert content.index(DESCRIPTION[0]) < content.index("Capacity") < content.index(REVIEWS[0])


ZH_PARAGRAPHS = [
    "本报讯 昨日上午，市政府召开新闻发布会，介绍今年城市公共交通建设的最新进展和下一步工作安排。",
    "据介绍，今年以来全市新开通公交线路十二条，优化调整线路二十余条，地铁三号线二期工程进展顺利。",
    "市交通局负责人表示，下一步将继续加大投入，力争年底前实现中心城区公交站点五百米全覆盖的目标。",
    "发布会上，有关部门还回答了记者关于停车难、出租车服务质量等市民关心问题的提问，并作出回应。",
]


def chinese_article() -> str:
    nav = "".join(f'<li><a href="/{i}">栏目{i}</a></li>' for i in range(8))
    return (
        "<html><head><title>城市交通建设取得新进展_新闻中心</title></head><body>"
        f"<ul class='nav'>{nav}</ul><div class='article'><h1>城市交通建设取得新进展</h1>"
        "<div class='info'>2024-03-05 09:30 来源：本报</div>"
        + "".join(f"<p>{p}</p>" for p in ZH_PARAGRAPHS)
        + "</div><div class='footer'>版权所有 本报社</div></body></html>"
    )


ZH_URL = "https://news.example.cn/2024/03/05/traffic.html"


def test_a_chinese_article_is_left_to_the_rules() -> None:
    html, url = chinese_article(), ZH_URL
    page = extract_page(html, url)
    assert page.page_type == "article" and page.line_scores == ()
    assert page.content == rules_content(html, url)
    assert all(p in page.content for p in ZH_PARAGRAPHS)


def test_an_article_cut_by_an_ad_block_is_left_to_the_rules_and_whole() -> None:
    before = [f"The tram's first half, paragraph {i}, ran through the old town." for i in range(4)]
    after = [f"The second half, paragraph {i}, crosses the river to the stadium." for i in range(4)]
    ad = (
        "<div class='ad-slot'><p>Advertisement</p><p><a href='https://ads.example/x'>"
        "Cheap flights to anywhere this weekend only</a></p></div>"
    )
    html = (
        "<html><head><title>The new tram line</title></head><body><article>"
        "<h1>The new tram line</h1><p class='byline'>By Ann Lee, March 3, 2024</p>"
        + "".join(f"<p>{p} The council approved the plan in a late vote.</p>" for p in before)
        + ad
        + "".join(f"<p>{p} Work starts in the spring of next year.</p>" for p in after)
        + "</article></body></html>"
    )
    url = "https://city.example/2024/03/03/tram"
    page = extract_page(html, url)
    assert page.page_type == "article" and page.line_scores == ()
    assert all(p in page.content for p in before + after)
    assert "Cheap flights" not in page.content and "Advertisement" not in page.content


def test_a_kind_of_page_no_training_set_holds_keeps_its_entries() -> None:
    """A glossary of terms (dl/dt/dd), no page type declared: the model has seen no
    such page; its entries stay, the site's menus do not."""
    terms = [
        ("Anchor", "A heavy device dropped to the sea bed to hold a boat in place."),
        ("Bollard", "A short post on a quay to which a boat's mooring lines are tied."),
        ("Cleat", "A fitting with two horns around which a rope is made fast on deck."),
        ("Fender", "A cushion hung over the side to keep a hull off the quay wall."),
        ("Mooring", "A place where a boat is tied up, or the lines that hold it there."),
        ("Slipway", "A ramp running into the water, for launching and hauling boats."),
    ]
    entries = "".join(f"<dt>{t}</dt><dd>{d}</dd>" for t, d in terms)
    html = (
        "<html><head><title>Harbour words</title></head><body>"
        f"<nav><ul>{MENU}</ul></nav><div class='glossary'><h1>Harbour words</h1>"
        f"<dl>{entries}</dl></div><footer><p>Harbour Gazette</p></footer></body></html>"
    )
    page = extract_page(html, "https://gazette.example/words")
    content = page.content
    for term, definition in terms:
        assert term in content and definition in content
    assert "Shop" not in content and "Harbour Gazette" not in content


def test_explain_shows_each_lines_p_main_and_the_cutoffs_where_the_model_chose() -> None:
    expl = explain_page(CATEGORY, "https://shop.example/c/hiking-packs")
    assert expl.chosen_by and "listing" in expl.chosen_by
    scores = [line.score for line in expl.lines]
    assert all(s is not None and 0.0 <= s <= 1.0 for s in scores)
    html = render_html(expl)
    assert "<th>P(main)</th>" in html and "chosen by the learned labeller" in html
    assert "chosen by the learned labeller" in render_text(expl)
    article = explain_page(chinese_article(), ZH_URL)  # the rules chose: no column
    assert article.chosen_by is None and all(line.score is None for line in article.lines)
    assert "<th>P(main)</th>" not in render_html(article)

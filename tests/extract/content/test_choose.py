"""choose.py: the main text chosen, end to end on small pages written for these tests."""

from __future__ import annotations

import pytest

from scrapy_cx import extract_article
from scrapy_cx.extract import STAGES, extract_page
from scrapy_cx.extract.classify.pagetype import type_headline_list
from scrapy_cx.extract.page import Page
from scrapy_cx.extract.parse.dom import parse_html
from tests.extract.prose import BRIDGE_STORY

STORY = BRIDGE_STORY

MENU = "".join(
    f'<li><a href="/{name.lower()}">{name}</a></li>'
    for name in ("Home", "News", "Sport", "Business", "Culture", "Weather", "Opinion", "Video")
)
RELATED = "".join(
    f'<li><a href="/story/{i}">Another headline that readers also clicked, number {i}</a></li>'
    for i in range(12)
)


def page(body: str, title: str = "Bridge to be rebuilt") -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Town News</title></head><body>"
        f"<header><ul class='menu'>{MENU}</ul></header>{body}"
        f"<footer><p>Copyright Town News. All rights reserved.</p></footer></body></html>"
    )


def paragraphs(items: list[str]) -> str:
    return "".join(f"<p>{p}</p>" for p in items)


def test_minified_one_line_page() -> None:
    html = page(
        f"<div class='wrap'><ul>{MENU}</ul><div class='story'><h1>Bridge to be rebuilt</h1>"
        f"{paragraphs(STORY)}</div><ul>{RELATED}</ul></div>"
    )
    assert "\n" not in html
    assert extract_article(html).content == "\n".join(STORY)


def test_article_split_by_an_ad_block_keeps_both_sides_and_drops_the_ad() -> None:
    ad = (
        '<div class="ad-container"><p>Advertisement</p><p><a href="https://ads.example/x">'
        "Save forty percent on garden furniture this weekend only</a></p>"
        "<p>Limited offer, terms apply to all purchases in participating stores</p></div>"
    )
    html = page(
        f"<article><h1>Bridge</h1>{paragraphs(STORY[:3])}{ad}{paragraphs(STORY[3:])}</article>"
    )
    content = extract_article(html).content
    assert content == "\n".join(STORY)
    assert "Advertisement" not in content and "garden furniture" not in content


def test_a_page_of_link_lists_is_a_listing_of_its_headlines_not_its_menu() -> None:
    lists = "".join(f"<h2>Section {s}</h2><ul>{RELATED}</ul>" for s in range(6))
    article = extract_article(page(lists))
    assert article.page_type == "listing"
    assert "Another headline that readers also clicked, number 11" in article.content
    assert "Weather" not in article.content


def test_short_article_next_to_long_navigation() -> None:
    html = page(f"<nav><ul>{MENU * 6}</ul></nav><div class='text'>{paragraphs(STORY[:2])}</div>")
    assert extract_article(html).content == "\n".join(STORY[:2])


def test_related_links_after_the_article_are_left_out() -> None:
    html = page(
        f"<div class='main'><div class='article'>{paragraphs(STORY)}</div>"
        f"<h3>Read more</h3><ul>{RELATED}</ul></div>"
    )
    content = extract_article(html).content
    assert content == "\n".join(STORY)


def test_a_data_table_inside_the_article_is_kept() -> None:
    table = (
        "<table><tr><th>Option</th><th>Cost</th><th>Years</th></tr>"
        "<tr><td>Repair</td><td>4m</td><td>1</td></tr>"
        "<tr><td>Rebuild</td><td>11m</td><td>2</td></tr></table>"
    )
    html = page(f"<div class='story'>{paragraphs(STORY[:3])}{table}{paragraphs(STORY[3:])}</div>")
    content = extract_article(html).content.split("\n")
    assert "Rebuild 11m 2" in content
    assert content[0] == STORY[0] and content[-1] == STORY[-1]


def test_chinese_portal_layout_table() -> None:
    nav = "".join(f'<a href="/{i}">频道{i}</a> | ' for i in range(15))
    story = [
        "本报讯 昨天上午，市政府召开新闻发布会，宣布今年将新建和改建城市道路一百二十公里，"
        "重点解决城区交通拥堵问题。",
        "据介绍，今年的道路建设项目共有三十六个，其中新建道路二十一条，改建道路十五条，"
        "总投资约四十亿元。",
        "市交通部门负责人表示，工程施工期间将采取分段施工、错峰作业等措施，尽量减少对市民出行的影响。",
    ]
    related = "".join(f'<li><a href="/n/{i}">相关新闻标题第{i}条</a></li>' for i in range(10))
    html = (
        "<html><head><title>我市今年新建道路百余公里_新闻中心</title></head><body>"
        f"<table><tr><td>{nav}</td></tr></table>"
        "<table><tr><td width='70%'><div id='artibody'>"
        + "".join(f"<p>\u3000\u3000{p}</p>" for p in story)
        + f"</div></td><td><ul>{related}</ul></td></tr></table></body></html>"
    )
    content = extract_article(html).content
    assert content == "\n".join(story)


def test_line_options_reach_the_selection() -> None:
    photo = (
        "<div class='lead-art'><img src='bridge.jpg'><p>The old river bridge seen from the "
        "market side on Monday, a day before the vote, with the lights on.</p></div>"
    )
    html = page(photo + f"<div class='story'>{paragraphs(STORY)}</div>")
    assert extract_article(html).content == "\n".join(STORY)
    assert extract_article(html, container_share=0).content.startswith("The old river bridge")
    with pytest.raises(TypeError):
        extract_article(html, no_such_option=1)


def test_teasers_with_summaries_beside_the_article_are_left_out() -> None:
    teaser = (
        '<div class="teaser"><h3><a href="/story/{i}">Headline of another story {i}</a></h3>'
        "<div>A summary of another story, long enough to look like a paragraph of prose "
        "when it is read on its own, number {i}.</div></div>"
    )
    teasers = "".join(teaser.format(i=i) for i in range(4))
    html = page(f"<div class='main'><div class='article'>{paragraphs(STORY)}</div>{teasers}</div>")
    assert extract_article(html).content == "\n".join(STORY)
    # Without the grouping of lines by parent the summaries join the article.
    assert "number 0." in extract_article(html, group_ratio=0.0).content


def test_the_article_body_the_page_labels_is_preferred() -> None:
    aside = "".join(
        f"<p>Also this week: a long note on another subject, item {i}, written in full "
        "sentences so that it weighs like prose in the region.</p>"
        for i in range(3)
    )
    html = page(
        f"<div class='wrap'><div itemprop='articleBody'>{paragraphs(STORY[:3])}</div>"
        f"<div class='more'>{aside}</div></div>"
    )
    assert extract_article(html).content == "\n".join(STORY[:3])
    assert "item 2" in extract_article(html, body_share=0).content


def card(i: int) -> str:
    return (
        f'<li class="card"><a href="/story/{i}"><h3>Headline of story number {i} this week</h3>'
        f"</a><p>The first lines of story {i}, a teaser long enough to be read as a "
        "sentence of prose, which then ends in the middle of a…</p></li>"
    )


def test_a_section_front_of_teaser_cards_keeps_the_list_text() -> None:
    html = page(
        f"<main><h1>News</h1><ul class='list'>{''.join(card(i) for i in range(8))}</ul></main>"
    )
    content = extract_article(html).content
    assert content == extract_article(html, card_share=0).content != ""


def test_an_article_followed_by_cards_keeps_its_text() -> None:
    cards = "".join(card(i) for i in range(4))
    html = page(f"<div><div class='text'>{paragraphs(STORY[:3])}</div><ul>{cards}</ul></div>")
    assert extract_article(html).content == "\n".join(STORY[:3])


def test_a_headline_without_h1_is_found_by_the_title_and_left_out() -> None:
    html = page(
        "<table><tr><td><p class='kicker'>NEWS &gt; LOCAL</p>"
        "<p><font size='5'><b>Bridge to be rebuilt after ten years of debate</b></font></p>"
        f"{paragraphs(STORY)}</td></tr></table>",
        title="Bridge to be rebuilt after ten years of debate",
    )
    assert extract_article(html).content == "\n".join(STORY)


def test_paragraphs_wrapped_one_by_one_or_in_sections_stay_whole() -> None:
    wrapped = "".join(f"<div class='para'><p>{p}</p></div>" for p in STORY)
    html = page(f"<div class='body'>{wrapped}</div><ul>{RELATED}</ul>")
    assert extract_article(html).content == "\n".join(STORY)
    sections = "".join(
        f"<section><h2>Part {i}</h2>{paragraphs(STORY[2 * i : 2 * i + 2])}</section>"
        for i in range(3)
    )
    parts = [f"Part {i}\n" + "\n".join(STORY[2 * i : 2 * i + 2]) for i in range(3)]
    html = page(f"<article>{sections}</article><ul>{RELATED}</ul>")
    assert extract_article(html).content == "\n".join(parts)


def test_a_logo_h1_loses_to_the_line_that_matches_the_title() -> None:
    ticker = "".join(
        f"<li><a href='/t/{i}'>Breaking item {i} about another matter</a> A line of "
        f"teaser text that follows the ticker headline number {i}.</li>"
        for i in range(6)
    )
    html = page(
        f"<h1 class='logo'>Town News</h1><ul class='ticker'>{ticker}</ul>"
        f"<h2>Bridge to be rebuilt</h2>{paragraphs(STORY)}"
    )
    assert extract_article(html).content == "\n".join(STORY)


def test_an_article_split_over_boilerplate_named_containers_is_not_lost() -> None:
    # Each third of the story sits in its own "widget": every mark holds too little
    # text to be forgiven as a wrapper, so the marks alone would leave nothing.
    thirds = [STORY[0:2], STORY[2:4], STORY[4:6]]
    widgets = "".join(f"<div class='widget-area'>{paragraphs(part)}</div>" for part in thirds)
    content = extract_article(page(f"<h1>Bridge to be rebuilt</h1>{widgets}")).content
    assert "\n".join(STORY) in content  # (the footer's line may come along: marks are off)
    assert "Home" not in content  # the linked menu still weighs less than nothing


FORUM_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "DiscussionForumPosting", "headline": "Bridge to be rebuilt"}</script>'
)
COMMENTS_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "Comment", "text": "Nice"}</script>'
)


def comment(who: str, when: str, text: str) -> str:
    """One post as forum software writes it: an element named "comment"."""
    return (
        f"<article class='post comment'><div class='comment-head'><a href='/u/{who}'>{who}</a>"
        f" · {when}</div><div class='comment-content'><p>{text}</p></div>"
        f"<div class='tools'><a href='/u/{who}'>{who}</a> <a href='#reply'>Reply</a></div>"
        "</article>"
    )


def figure(caption: str, credit: str = "") -> str:
    credit_line = f"<p class='credit'>{credit}</p>" if credit else ""
    return (
        f"<figure><img src='/bridge.jpg'><figcaption class='caption'>{caption}</figcaption>"
        f"{credit_line}</figure>"
    )


def test_the_lead_pictures_caption_right_above_the_text_opens_it() -> None:
    caption = "The old river bridge at dawn, two days before it closed to lorries."
    body = (
        "<h1>Bridge to be rebuilt</h1><p class='byline'>By Ann Lee</p>"
        f"{figure(caption, 'Photo: Ann Lee')}<div class='story'>{paragraphs(STORY)}</div>"
    )
    content = extract_article(page(body)).content
    assert content.startswith(f"{caption}\nPhoto: Ann Lee\n{STORY[0]}")


def test_a_linked_figure_or_one_away_from_the_text_does_not_open_it() -> None:
    teaser = "<figure><a href='/story/9'>Another story readers also clicked today</a></figure>"
    away = figure("A map of the detours through the market square.")
    body = (
        f"{away}<h1>Bridge to be rebuilt</h1><p class='byline'>By Ann Lee</p>"
        f"{teaser}<div class='story'>{paragraphs(STORY)}</div>"
    )
    content = extract_article(page(body)).content
    assert content.startswith(STORY[0])
    assert "map of the detours" not in content


LEAD = (
    "After ten years of debate, the town will replace the bridge that carries most of its "
    "traffic, and the detours start in March."
)


def test_a_lead_paragraph_in_its_own_box_between_headline_and_body_opens_the_text() -> None:
    body = (
        "<h1>Bridge to be rebuilt</h1><p class='byline'>By Ann Lee</p>"
        f"<div class='intro'><p>{LEAD}</p></div>"
        f"<div class='story'><div class='part'>{paragraphs(STORY[:3])}</div>"
        f"<div class='part'>{paragraphs(STORY[3:])}</div></div>"
    )
    content = extract_article(page(body)).content
    assert content.startswith(f"{LEAD}\n{STORY[0]}")


def test_a_paragraph_above_the_text_past_a_list_of_links_stays_out() -> None:
    body = (
        f"<h1>Bridge to be rebuilt</h1><div class='intro'><p>{LEAD}</p></div>"
        f"<ul class='more'>{RELATED}</ul><div class='story'>{paragraphs(STORY)}</div>"
    )
    content = extract_article(page(body)).content
    assert content.startswith(STORY[0])


def test_a_lead_paragraph_below_a_linked_author_name_opens_the_text() -> None:
    body = (
        "<h1>Bridge to be rebuilt</h1><div class='who'><a href='/ann'>Ann Lee</a></div>"
        f"<div class='when'>May 3, 2024</div><div class='intro'><p>{LEAD}</p></div>"
        f"<div class='story'><div class='part'>{paragraphs(STORY[:3])}</div>"
        f"<div class='part'>{paragraphs(STORY[3:])}</div></div>"
    )
    assert extract_article(page(body)).content.startswith(f"{LEAD}\n{STORY[0]}")


HEADLINES = [f"How the town plans to pay for the new bridge, part {i}" for i in range(12)]


def headline_list() -> str:
    return "".join(
        f"<div class='card'><h2><a href='/story/{i}'>{text}</a></h2><span>May {i + 1}</span></div>"
        for i, text in enumerate(HEADLINES)
    )


def test_a_page_that_is_only_a_list_of_headlines_gives_the_headlines() -> None:
    cookies = "<div class='consent'>We use data to run this site. By using it you agree.</div>"
    article = extract_article(page(f"{headline_list()}{cookies}", "Latest stories"))
    assert article.page_type == "listing"
    for text in HEADLINES:
        assert text in article.content


def test_the_headlines_replace_the_blurb_as_a_selection_the_page_typing_stage_types() -> None:
    """select_headline_list records its finding in the selection's kind and writes no
    page type; type_headline_list, a page-typing stage, turns it into a listing."""
    cookies = "<div class='consent'>We use data to run this site. By using it you agree.</div>"
    html = page(f"{headline_list()}{cookies}", "Latest stories")
    assert extract_page(html).selection.kind == "headlines"
    page_under_test = Page(parse_html(html))
    for stage in STAGES[: STAGES.index(type_headline_list)]:
        stage(page_under_test)
    assert page_under_test.selection.kind == "headlines"
    assert page_under_test.page_type == "article"  # not typed by the selecting stage
    type_headline_list(page_under_test)
    assert page_under_test.page_type == "listing"


def test_a_short_news_item_beside_many_headlines_keeps_its_paragraph() -> None:
    # Dated, as news is: an undated page that is mostly headlines is a listing
    # (pagetype.settle_page_type), which is not what this test is about.
    body = (
        f"<h1>Bridge to be rebuilt</h1><p>{STORY[0]}</p><div class='more'>{headline_list()}</div>"
    )
    dated = "<meta property='article:published_time' content='2024-05-01'></head>"
    article = extract_article(page(body).replace("</head>", dated))
    assert (article.page_type, article.content) == ("article", STORY[0])


def test_a_few_lines_under_a_dated_headline_beside_many_headlines_are_the_story() -> None:
    """A short post (a few lines under 100 characters each, as a Japanese news
    brief's are) beside a long list of headlines is no stray blurb: its date
    line, under its headline, makes it a story."""
    lines = ["Bridgeview: a map of the river bridge works.", "It shows each week's closures."]
    body = (
        "<h1>Bridgeview shows the bridge works on a map</h1><h4>2024-05-03</h4>"
        f"<div class='entry'><p><a href='https://x.test/'>Bridgeview</a><br>{lines[0]}"
        f"<br>{lines[1]}</p></div><div class='more'>{headline_list()}</div>"
    )
    article = extract_article(page(body))
    assert article.page_type == "article"
    assert article.content == "\n".join(["Bridgeview", *lines])


def test_the_same_lines_under_an_undated_headline_give_way_to_the_headlines() -> None:
    body = (
        "<h1>Bridgeview shows the bridge works on a map</h1>"
        "<p>Bridgeview: a map of the river bridge works.</p>"
        f"<div class='more'>{headline_list()}</div>"
    )
    assert extract_article(page(body)).page_type == "listing"


def test_a_story_shown_in_a_modal_over_a_stream_of_teasers_is_the_text() -> None:
    """Some portals open a story in a "modal" over their stream of teasers: the
    page's one <article> is the story, not the stream behind it."""
    stream = "".join(
        f"<li><h3><a href='/s/{i}'>Teaser headline number {i} about the day</a></h3>"
        f"<p>Blurb {i}: a short summary of another story in the stream, written to make a "
        "reader click through to the whole piece on its own page.</p>"
        f"<a href='/src/{i}'>Source</a></li>"
        for i in range(14)
    )
    story = (
        "<div class='story-modal' role='dialog'><article><h1>Bridge to be rebuilt</h1>"
        f"<div class='share-bar'><a href='/share'>Share</a> <span>Send it to a friend</span></div>"
        f"{paragraphs(STORY)}</article></div>"
    )
    article = extract_article(page(f"<main><ul>{stream}</ul></main>{story}"))
    assert article.page_type == "article"
    assert article.content == "\n".join(STORY)


# The last line of defence (choose._prose_body): a selection that is a line of chrome
# gives way to the prose right under the headline, boilerplate-named or not.
CLUB_PARAGRAPHS = [
    "Der Skateclub Nordstadt hat am Wochenende zum ersten Mal den Landespokal gewonnen. "
    "Sieben Fahrerinnen und Fahrer traten in der neuen Halle am Hafen an.",
    "Besonders stark zeigte sich die Jugend: Lena Hoff sicherte sich mit einem sauberen "
    "Lauf über die große Rampe den Sieg in ihrer Altersklasse.",
    "Trainer Mats Ebert lobte den Zusammenhalt der Gruppe, die seit dem Frühjahr dreimal "
    "in der Woche trainiert. Die Halle hat der Verein selbst umgebaut.",
    "Im Herbst will der Club erstmals einen eigenen Wettbewerb ausrichten. Zuschauer sind "
    "wie immer willkommen, der Eintritt ist frei.",
]


def test_a_report_whose_paragraphs_sit_in_widgets_is_not_its_credit_line() -> None:
    """A club report whose every paragraph is wrapped in a "widget": the selection
    took the page's last line ("production") and the crawl dropped the article."""
    widgets = "".join(f"<div class='widget-text'><p>{p}</p></div>" for p in CLUB_PARAGRAPHS)
    html = (
        "<html lang='de'><head><title>Skateclub holt den Landespokal - Anzeiger</title></head>"
        "<body><nav><a href='/'>Start</a> <a href='/lokales'>Lokales</a></nav>"
        f"<div class='page'><h1>Skateclub holt den Landespokal</h1>{widgets}</div>"
        "<div class='credits'><span>production</span></div></body></html>"
    )
    article = extract_article(html, "https://anzeiger.test/lokales/skateclub-landespokal")
    assert article.content == "\n".join(CLUB_PARAGRAPHS)
    assert article.title == "Skateclub holt den Landespokal"


NOTICE = (
    "根据年度工作安排，现决定于6月至8月开展统计执法检查。"
    "请各单位对照检查内容认真开展自查，并于7月15日前报送自查报告。"
)


def test_a_short_notice_is_not_the_sites_url_above_it() -> None:
    """A short Chinese notice in a "share" wrapper, beside a sidebar: the only line
    left unmarked was the header's, the site's URL first, and the crawl dropped it."""
    html = (
        "<html lang='zh'><head><title>关于开展统计执法检查的通知</title></head><body>"
        "<div class='header'><a href='https://www.gov.cn/'><img src='/logo.png' alt=''></a>"
        "<span>https://www.gov.cn/</span> <a href='/'>首页</a> <a href='/zwgk/'>政务公开</a></div>"
        "<h1>关于开展统计执法检查的通知</h1>"
        f"<div class='share-content'><p>各区县统计局：</p><p>{NOTICE}</p><p>特此通知。</p></div>"
        "<div class='sidebar'><p>政务服务热线为群众提供政策咨询、投诉举报、意见建议等服务，"
        "工作时间为每个工作日上午九点至下午五点，节假日另行通知，欢迎广大市民通过热线反映问题，"
        "我们将及时转交有关部门办理并反馈结果</p></div></body></html>"
    )
    article = extract_article(html, "https://www.gov.cn/zhengce/2024/notice.htm")
    assert "gov.cn" not in article.content
    assert NOTICE in article.content and "特此通知。" in article.content
    assert "热线" not in article.content


def test_an_articles_standfirst_under_its_headline_is_its_text() -> None:
    """A standfirst in an <h2> or a "lead" div right under the headline, apart from
    the body's container, opens the text; the byline and date between it and the
    body stay out."""
    deck = (
        "After ten years of debate the town will finally replace its crumbling river "
        "bridge, at a cost of eleven million pounds"
    )
    for element in ("h2", "div class='lead'"):
        tag = element.split()[0]
        html = page(
            f"<article><header><h1>Bridge to be rebuilt</h1><{element}>{deck}</{tag}>"
            "<div class='byline'>By Jane Smith</div><div class='when'>12 March 2024</div>"
            f"</header><div class='story-body'>{paragraphs(STORY)}</div></article>"
        )
        article = extract_article(html, "https://news.example/bridge")
        assert article.content.startswith(deck + "\n" + STORY[0]), element
        assert "Jane Smith" not in article.content and "12 March" not in article.content


@pytest.mark.parametrize(
    "row",
    [
        "<div class='when'>January 13, 2024 at 08:45 AM | categories: Town, Roads</div>",
        "<p>12. März 2024, 19:49 | Ann Lee</p>",
    ],
)
def test_a_date_row_opening_an_article_under_its_headline_is_left_out(row: str) -> None:
    body = f"<article><h1>Bridge to be rebuilt</h1>{row}{paragraphs(STORY)}</article>"
    assert extract_article(page(body)).content == "\n".join(STORY)


def test_a_first_line_with_a_date_further_in_or_a_sentence_stays() -> None:
    # An agenda item, and a sentence that opens with a date: the article's own words.
    item = "Minutes of the council meeting of 12.09.2024"
    said = "On May 3, 2024 the council met."
    body = (
        f"<article><h1>Council minutes</h1><p>{item}</p><p>{said}</p>{paragraphs(STORY)}</article>"
    )
    content = extract_article(page(body, "Council minutes")).content
    assert content.startswith(f"{item}\n{said}\n{STORY[0]}")


def test_an_authors_box_between_the_lead_and_the_body_stays_out() -> None:
    bio = "Ann Lee covers the town hall and its roads for Town News, and has done so since 2015."
    body = (
        f"<h1>Bridge to be rebuilt</h1><div class='intro'><p>{LEAD}</p></div>"
        f"<div class='author-box'><p>{bio}</p></div>"
        f"<div class='story'><div class='part'>{paragraphs(STORY[:3])}</div>"
        f"<div class='part'>{paragraphs(STORY[3:])}</div></div>"
    )
    content = extract_article(page(body)).content
    assert content.startswith(f"{LEAD}\n{STORY[0]}")
    assert "covers the town hall" not in content


def _fact_box(header: str = "th") -> str:
    rows = (("Opened", "1890"), ("Length", "120 m"), ("River", "Wey"), ("Owner", "Council"))
    cells = "".join(
        f"<tr><{header}><a href='/w/{k}'>{k}</a></{header}><td><a href='/w/{v}'>{v}</a></td></tr>"
        for k, v in rows
    )
    return f"<table class='facts'>{cells}</table>"


def test_a_fact_box_right_above_the_lead_is_the_articles() -> None:
    # Its short linked cells weigh less than nothing: the selection starts under it,
    # and the lead takes the data table standing right above the text back.
    body = paragraphs(STORY)
    head = "<h1>Bridge to be rebuilt</h1>"
    html = page(f"<article>{head}<div>{_fact_box()}{body}</div></article>")
    article = extract_article(html, formats={"html"})
    content = article.content.split("\n")
    assert content[:5] == ["Opened 1890", "Length 120 m", "River Wey", "Owner Council", STORY[0]]
    assert article.content_html.startswith("<table>")  # kept as the table it is
    # A layout table (no header cell, a few rows) is not, nor one holding the headline.
    html = page(f"<article>{head}<div>{_fact_box('td')}{body}</div></article>")
    assert extract_article(html).content == "\n".join(STORY)
    headed = _fact_box().replace("<tr>", f"<tr><th>{head}</th></tr><tr>", 1)
    assert extract_article(page(f"<article>{headed}{body}</article>")).content == "\n".join(STORY)

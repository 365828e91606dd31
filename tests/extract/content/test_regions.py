"""regions.py: the line-block selection over a page's lines (select_main, its runs)."""

from __future__ import annotations

import pytest

from scrapy_cx.extract.content.regions import select_main, wordy
from scrapy_cx.extract.content.text import main_text
from scrapy_cx.extract.parse.dom import parse_html
from scrapy_cx.extract.parse.lines import Line, LineOptions, page_lines
from tests.extract.prose import BRIDGE_STORY

PROSE = BRIDGE_STORY[:4]


def lines_of(html: str, **options: object) -> list[Line]:
    return page_lines(parse_html(html), LineOptions(**options))  # type: ignore[arg-type]


def selected(html: str) -> str:
    lines = page_lines(parse_html(html))
    start, end = select_main(lines)
    return main_text(lines[start:end], lines)


def paragraphs(items: list[str]) -> str:
    return "".join(f"<p>{p}</p>" for p in items)


def test_selection_takes_the_dense_run_and_leaves_menus_out() -> None:
    menu = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(20))
    html = f"<body><ul>{menu}</ul><div>{paragraphs(PROSE)}</div><ul>{menu}</ul></body>"
    assert selected(html) == "\n".join(PROSE)


def test_selection_is_empty_on_a_page_of_links() -> None:
    items = "".join(
        f'<li><a href="/{i}">A headline about item {i} today</a></li>' for i in range(60)
    )
    assert selected(f"<body><ul>{items}</ul></body>") == ""


def test_the_headline_line_is_not_main_text_and_the_text_starts_after_it() -> None:
    kicker = "Filed from the town hall on Tuesday evening by our local government reporter"
    headline = "Bridge to be rebuilt after ten years of debate in the town"
    html = f"<body><div><p>{kicker}</p><h1>{headline}</h1>{paragraphs(PROSE)}</div></body>"
    lines = lines_of(html)
    start, end = select_main(lines, LineOptions(block_size=1), headline=1)
    assert main_text(lines[start:end]) == "\n".join(PROSE)
    start, end = select_main(lines, LineOptions(block_size=1))  # no headline: all text
    assert main_text(lines[start:end]) == "\n".join([kicker, headline, *PROSE])


def test_region_narrows_to_the_article_container() -> None:
    # A long photo caption just before the article lives outside the article's element.
    caption = (
        "A lorry crosses the old river bridge on Monday morning, a day before the council "
        "vote, while pedestrians wait at the lights on the market side."
    )
    html = (
        f'<body><div class="lead"><img src="x.jpg"><div>{caption}</div></div>'
        f'<div class="body">{paragraphs(PROSE * 2)}</div></body>'
    )
    assert caption not in selected(html)
    lines = lines_of(html)
    start, end = select_main(lines, LineOptions(container_share=0.0))
    assert caption in main_text(lines[start:end])


def test_block_size_and_line_cost_are_honoured() -> None:
    menu = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(8))
    lines = lines_of(f"<body><p>Short note.</p><ul>{menu}</ul>{paragraphs(PROSE)}</body>")
    assert select_main(lines) == (9, 9 + len(PROSE))
    # Free lines and free links: one run from the note to the end.
    free = LineOptions(block_size=1, line_cost=0, link_penalty=0)
    assert select_main(lines, free) == (0, 9 + len(PROSE))


def test_a_page_too_short_for_one_block_keeps_its_heaviest_run() -> None:
    lines = lines_of("<body><h2>Test case</h2><p>Tiny page.</p><p><a href='/'>Home</a></p></body>")
    assert select_main(lines) == (0, 2)
    assert select_main(lines, LineOptions(line_cost=10**6)) == (0, 2)


def test_selection_of_no_lines_is_empty() -> None:
    assert select_main([]) == (0, 0)
    assert main_text([]) == ""


def test_a_stray_end_tag_does_not_cut_the_last_paragraph() -> None:
    last = "The mayor is expected to sign the order next week, officials said."
    html = (
        "<body><div id='content'><article>" + paragraphs(PROSE * 2) + "</div>"
        f"<p>{last}</p></article><footer><p>Copyright</p></footer></body>"
    )
    assert selected(html) == "\n".join([*PROSE, *PROSE, last])


def test_a_paragraph_is_not_cut_after_its_linked_first_line() -> None:
    """A <p> split by <br>, opening with a link (the name of what the story
    presents): the link weighs nothing, but the selection keeps the paragraph whole."""
    menu = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(8))
    html = (
        f"<body><ul>{menu}</ul><div class='entry'><p><a href='https://x.test/'>Bridgeview</a>"
        f"<br>{PROSE[0]}<br>{PROSE[1]}</p>{paragraphs(PROSE[2:])}</div></body>"
    )
    assert selected(html) == "\n".join(["Bridgeview", *PROSE])


@pytest.mark.parametrize(
    ("weights", "k", "cost", "runs"),
    [
        ([50, 50, 50, 0, 0, 0, 0, 0, 50, 50], 1, 10, [(0, 10, 150)]),
        ([50, 50, 50, 0, 0, 0, 0, 0, 50, 50], 1, 30, [(0, 3, 60), (8, 10, 40)]),
        ([10, 20], 3, 5, [(0, 2, 40)]),  # blocks longer than the page: its lines end them
        ([], 3, 40, []),
    ],
)
def test_kadanes_runs_over_sliding_blocks(
    weights: list[float], k: int, cost: float, runs: list[tuple[int, int, float]]
) -> None:
    from scrapy_cx.extract.content.regions import _runs

    assert _runs(weights, k, cost) == runs


def test_a_line_of_keywords_weighs_nothing_however_long() -> None:
    """A Chinese news page carrying a 174 KB keyword-spam line: its text was the spam.
    A line that long ending no sentence is no paragraph (regions.wordy)."""
    story = (
        "<p>5月20日上午，市政府召开全市防汛工作会议，分析当前防汛形势，部署今年汛期各项工作。</p>"
        "<p>会议要求，各地各部门要压实防汛责任，加强隐患排查，做好人员转移和物资储备，确保安全度汛。</p>"
        "<p>会议还对城区排涝、水库巡查和山洪灾害防御等工作作了具体安排。</p>"
    )
    spam = " ".join(["热门 新闻 资讯 头条 视频 图片 体育 娱乐 财经 科技 汽车 房产"] * 400)
    html = (
        "<html><body><div class='top'><a href='/'>首页</a> <a href='/news/'>新闻</a></div>"
        f"<h1>市政府召开防汛工作会议</h1><div class='text'>{story}</div>"
        f"<div class='tags'>{spam}</div></body></html>"
    )
    lines = page_lines(parse_html(html))
    start, end = select_main(lines)
    text = main_text(lines[start:end])
    assert "热门" not in text
    assert text.startswith("5月20日上午") and text.endswith("具体安排。")
    # Prose as long, or code, is read as it is.
    long_prose = "。".join(["会议还对城区排涝、水库巡查和山洪灾害防御等工作作了具体安排"] * 100)
    assert not wordy(Line(long_prose, len(long_prose), 0, "p", False))
    assert not wordy(Line(spam, len(spam), 0, "pre", False))
    assert wordy(Line(spam, len(spam), 0, "div", False))


def _page_with_contents(href: str) -> str:
    """A lead, a table of contents of ``href`` links, the sections it lists."""
    lead = paragraphs(BRIDGE_STORY[:3])
    titles = [f"Part {n} of the story" for n in range(1, 11)]
    contents = "".join(f'<li><a href="{href}{n}">{t}</a></li>' for n, t in enumerate(titles))
    sections = "".join(
        f'<h2 id="s{n}">{t}</h2>{paragraphs(BRIDGE_STORY[3:])}' for n, t in enumerate(titles)
    )
    return f"<body><div>{lead}<div><ul>{contents}</ul></div>{sections}</div></body>"


def test_a_table_of_contents_does_not_cut_the_lead_off_the_sections() -> None:
    # Links to places on the page itself point into the text: they weigh nothing,
    # and the lead above them joins the sections under them.
    text = selected(_page_with_contents("#s"))
    assert text.startswith(BRIDGE_STORY[0]) and text.endswith(BRIDGE_STORY[-1])
    assert "Part 10 of the story\nPart 1 of the story" in text  # the contents, then part 1
    # The same list leading to other pages, or to a script's views, is a menu: the
    # lead stays cut off.
    for menu in ("/section/", "#!/section/", "#/section/"):
        text = selected(_page_with_contents(menu))
        assert text.startswith("Part 1 of the story") and text.endswith(BRIDGE_STORY[-1])

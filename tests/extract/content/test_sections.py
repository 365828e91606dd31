"""Pages that are not one article hold their text in several regions (sections.join_sections):
a product's description and its specs, a landing page's sections, a listing's intro
and its cards. Pages written for these tests.

These pin the rules' choice, read with the learned labeller off (``RULES``): on such
pages it is one of the labeller's features, which decides; what the labeller makes
of them is tests/extract/content/test_learned.py's."""

from __future__ import annotations

from scrapy_cx import extract_article
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.content.regions import select_sections
from scrapy_cx.extract.content.sections import SECTION_SHARE
from scrapy_cx.extract.parse.lines import Line, LineOptions

RULES = {"learned": False}
MENU = "".join(
    f'<li><a href="/{name.lower()}">{name}</a></li>'
    for name in ("Shop", "Packs", "Tents", "Stoves", "Clothing", "Sale", "Stores", "Help")
)
FOOTER = (
    "<footer><ul><li><a href='/about'>About us</a></li><li><a href='/jobs'>Careers</a></li>"
    "<li><a href='/privacy'>Privacy</a></li></ul><p>© Summit Supply Co.</p></footer>"
)


def shop_page(title: str, body: str, declared: str = "") -> str:
    script = (
        f'<script type="application/ld+json">{{"@context": "https://schema.org", '
        f'"@type": "{declared}", "name": "{title}"}}</script>'
        if declared
        else ""
    )
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Summit Supply</title>{script}</head>"
        f"<body><header><nav><ul>{MENU}</ul></nav></header><main>{body}</main>{FOOTER}"
        "</body></html>"
    )


DESCRIPTION = [
    "The Trailblazer carries a weekend of gear on a frame that moves with you, so the load "
    "stays close to your back on steep and uneven ground.",
    "Its roll-top main bag opens wide for packing at camp, and the side pockets take a one "
    "litre bottle each without bulging into your arms.",
]
SPECS = [
    ("Capacity", "40 litres"),
    ("Weight", "1.2 kilograms"),
    ("Back length", "adjustable, 44 to 52 cm"),
    ("Main fabric", "recycled ripstop nylon"),
]
REVIEWS = [
    "I took this pack on a four day crossing of the ridge and it never rubbed once, even with "
    "the hip belt cinched tight for the long descents at the end of each day.",
    "The pockets are deep enough for snacks, a map and a phone, and the rain cover folded into "
    "the lid is a small detail that saved my sleeping bag in a storm above the lake.",
    "After two seasons of use the fabric shows no wear at all, and the buckles still click shut "
    "as firmly as on the first day, which I cannot say of my previous two packs.",
]

ALSO_BOUGHT = [
    "Ridgeline 25 L day pack in slate grey",
    "Waterproof pack liner, 40 litres",
    "Trekking poles with cork grips, pair",
    "Insulated one litre bottle, olive",
    "Rain cover for packs of 30 to 45 litres",
    "Merino hiking socks, two pairs",
]

PRODUCT = shop_page(
    "Trailblazer 40 L hiking pack",
    "<div class='product'><div class='product-info'><h1>Trailblazer 40 L hiking pack</h1>"
    "<div class='price'>$129.00</div><div class='description'>"
    + "".join(f"<p>{p}</p>" for p in DESCRIPTION)
    + "</div><div><a class='button' href='/cart/add'>Add to cart</a></div></div></div>"
    "<div class='also-bought'><h2>Customers also bought</h2><ul>"
    + "".join(f"<li><a href='/p/{i}'>{name}</a></li>" for i, name in enumerate(ALSO_BOUGHT))
    + "</ul></div>"
    "<section class='specs'><h2>Specifications</h2><table>"
    + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in SPECS)
    + "</table></section><section class='reviews'><h2>Customer reviews</h2>"
    + "".join(f"<div class='review'><p>{r}</p></div>" for r in REVIEWS)
    + "</section>",
    declared="Product",
)

HERO = (
    "Plan every trip with your whole group in one shared place, from the first idea to the "
    "last receipt, on any phone or laptop you already own."
)
FEATURES = [
    (
        "Shared itineraries",
        "Everyone sees the same plan, and every change shows up for the "
        "whole group at once, with who made it and when.",
    ),
    (
        "Split costs fairly",
        "Log a bill in seconds and the app works out who owes whom, in any "
        "currency, so nobody has to chase a friend for money after the trip.",
    ),
    (
        "Offline maps",
        "Download the maps of your route before you leave and find your way even "
        "where the mountains cut off every signal for days.",
    ),
]
STORIES = [
    "Our club of twelve planned a three week tour of the islands without a single spreadsheet, "
    "and for once nobody argued about money on the ferry home.",
    "I used to spend evenings reconciling receipts after every trip; now the totals are done "
    "before we even unpack, and the whole group can check them.",
]


def _cta() -> str:
    return (
        "<div class='cta'><a href='/signup'>Start free</a> <a href='/demo'>Book a demo</a></div>"
        "<div class='logos'><p><a href='/customers/a'>Alpine Club</a></p>"
        "<p><a href='/customers/b'>River Runners</a></p>"
        "<p><a href='/customers/c'>City Walkers</a></p></div>"
    )


LANDING = shop_page(
    "Tripmate: plan trips together",
    f"<section class='hero'><h1>Plan trips together</h1><p>{HERO}</p></section>{_cta()}"
    "<section class='features'><h2>Everything your group needs</h2>"
    + "".join(f"<div class='feature'><h3>{h}</h3><p>{p}</p></div>" for h, p in FEATURES)
    + f"</section>{_cta()}<section class='stories'><h2>Loved by travellers</h2>"
    + "".join(f"<blockquote><p>{s}</p></blockquote>" for s in STORIES)
    + "</section>",
    declared="SoftwareApplication",
)

INTRO = (
    "Our hiking packs are tested on real trails by our own staff, from light day packs for a "
    "summit walk to large frames that carry a week of food and a tent."
)
CARDS = [
    ("Trailblazer 40 L hiking pack", "Roll-top weekend pack on a flexible frame", "$129.00"),
    ("Ridgeline 25 L day pack", "Light and ventilated for long summer days", "$79.00"),
    ("Expedition 65 L trekking pack", "Carries a week of food and a tent in comfort", "$219.00"),
    ("Summit 18 L running vest", "Bottles on the chest, nothing bouncing behind", "$99.00"),
    ("Canyon 30 L travel pack", "Opens like a suitcase, carries like a pack", "$149.00"),
    ("Alpine 45 L climbing pack", "Ice axe loops and a rope strap on a slim body", "$189.00"),
]

CATEGORY = shop_page(
    "Hiking packs",
    f"<div class='category-header'><h1>Hiking packs</h1><p>{INTRO}</p></div>"
    "<aside class='filters'><h2>Filter</h2><ul><li>Capacity</li><li>Price</li></ul></aside>"
    "<ul class='product-grid'>"
    + "".join(
        f"<li class='card'><h3><a href='/p/{i}'>{name}</a></h3><p>{teaser}</p>"
        f"<span class='price'>{price}</span></li>"
        for i, (name, teaser, price) in enumerate(CARDS)
    )
    + "</ul>",
    declared="CollectionPage",
)


def test_a_product_page_keeps_its_description_and_its_specs_beside_its_reviews() -> None:
    article = extract_article(PRODUCT, "https://shop.example/p/trailblazer-40", **RULES)
    assert article.page_type == "other"
    content = article.content
    for paragraph in DESCRIPTION:
        assert paragraph in content
    for name, value in SPECS:
        assert name in content and value in content
    assert REVIEWS[0] in content
    for chrome in ("Add to cart", "Customers also bought", *ALSO_BOUGHT, "Careers", "Packs"):
        assert chrome not in content
    assert content.index(DESCRIPTION[0]) < content.index("Capacity") < content.index(REVIEWS[0])


def test_a_landing_page_keeps_every_section_and_leaves_its_buttons_out() -> None:
    article = extract_article(LANDING, "https://tripmate.example/", **RULES)
    assert article.page_type == "other"
    content = article.content
    assert HERO in content
    for heading, text in FEATURES:
        assert heading in content and text in content
    for story in STORIES:
        assert story in content
    for chrome in ("Start free", "Book a demo", "Alpine Club", "Privacy"):
        assert chrome not in content
    # the lead (the hero below the headline) is one of the page's regions
    page = extract_page(LANDING, "https://tripmate.example/", **RULES)
    hero = next(i for i, line in enumerate(page.lines) if line.text == HERO)
    assert any(start <= hero < end for start, end in page.regions)


def _assert_intro_and_cards_without(html: str, chrome: tuple[str, ...]) -> None:
    """The category page ``html`` is a listing: its intro and its cards, no ``chrome``."""
    article = extract_article(html, "https://shop.example/c/hiking-packs", **RULES)
    assert article.page_type == "listing"
    content = article.content
    assert INTRO in content
    for name, teaser, _price in CARDS:
        assert name in content and teaser in content
    for text in chrome:
        assert text not in content


def test_a_category_listing_is_its_intro_and_its_cards() -> None:
    _assert_intro_and_cards_without(CATEGORY, ("Filter", "Careers", "Tents"))


POPUP = (
    "<div class='overlay' role='dialog' aria-modal='true'><h2>Join the Summit club</h2>"
    "<p>Sign up for our letters and take ten percent off your first order of gear.</p>"
    "<div class='cart-drawer' aria-modal='true'><p>Loading...</p>"
    "<p>Your basket is being fetched from our shop, one moment please.</p></div></div>"
)


def _with_cards_ending(extra: str) -> str:
    """CATEGORY with ``extra`` (formatted with the card's number) closing each card."""
    html = CATEGORY
    for i in range(len(CARDS)):
        price = f"<span class='price'>{CARDS[i][2]}</span></li>"
        html = html.replace(price, price[: -len("</li>")] + extra.format(i) + "</li>")
    return html


def test_a_listings_dialogs_and_card_controls_are_not_its_text() -> None:
    """A pop-up (role=dialog, aria-modal) and the control every card repeats, each
    to its own product ("Quick view"), are the shop's interface; the intro and
    the cards' own names and teasers stay."""
    quick = "<p class='quick'><a href='/p/{}/quick'>Quick view now</a></p>"
    html = _with_cards_ending(quick).replace("</main>", POPUP + "</main>")
    chrome = ("Join the Summit club", "ten percent off", "Loading...", "basket", "Quick view")
    _assert_intro_and_cards_without(html, chrome)


def test_a_link_every_card_repeats_to_one_place_is_no_control() -> None:
    """A name each card links to the same page (a blog's author on every teaser)
    is the same link shown again, not a card's control: it stays."""
    html = _with_cards_ending("<p class='by'><a href='/authors/staff'>Summit test team</a></p>")
    content = extract_article(html, "https://shop.example/c/hiking-packs", **RULES).content
    assert "Summit test team" in content
    quick = _with_cards_ending("<p class='by'><a href='/p/{}/staff'>Summit test team</a></p>")
    content = extract_article(quick, "https://shop.example/c/h", **RULES).content
    assert "Summit test team" not in content


PROMISE = (
    "Every pack we sell is repaired free for life at any of our stores, whatever the damage "
    "and wherever it happened. Bring it in with or without a receipt."
)


def test_a_short_section_between_link_lists_is_kept() -> None:
    """A product's one-paragraph section between lists of links weighs a fifth of
    its densest section, more than SECTION_SHARE of it: it is part of the text."""
    links = "".join(f"<li><a href='/x/{i}'>Link number {i}</a></li>" for i in range(8))
    html = PRODUCT.replace(
        "<section class='specs'>",
        f"<div class='promise'><h2>Our promise</h2><p>{PROMISE}</p></div>"
        f"<ul class='links'>{links}</ul><section class='specs'>",
    )
    page = extract_page(html, "https://shop.example/p/trailblazer-40", **RULES)
    assert page.page_type == "other"
    assert PROMISE in page.content and DESCRIPTION[0] in page.content
    promise = next(i for i, line in enumerate(page.lines) if line.text == PROMISE)

    def sections_hold_promise(share: float) -> bool:
        regions, _ = select_sections(page.lines, page.options, page.headline, share)
        return any(start <= promise < end for start, end in regions)

    assert sections_hold_promise(SECTION_SHARE)
    assert not sections_hold_promise(0.25)  # a quarter of the densest run would leave it out


def test_an_article_is_still_one_region() -> None:
    """Sections are for pages that are not one article: a news story laid out as the
    product page is keeps its one text (the specs and reviews after the list of links)."""
    html = PRODUCT.replace('"@type": "Product"', '"@type": "NewsArticle"')
    page = extract_page(html, "https://news.example/2024/03/03/pack", **RULES)
    assert page.page_type == "article"
    assert len(page.regions) == 1
    assert DESCRIPTION[0] not in page.content
    assert len(extract_page(PRODUCT, "https://shop.example/p/trailblazer-40", **RULES).regions) > 1


def _line(length: int, link: int = 0) -> Line:
    return Line("x" * length, length, link, "p", False)


def test_select_sections_returns_every_run_as_heavy_as_a_share_of_the_heaviest() -> None:
    options = LineOptions(block_size=1, line_cost=10)
    menu = [_line(8, 8)] * 20
    lines = [*menu, _line(200), _line(150), *menu, _line(100), *menu, _line(15), *menu]
    sections, weights = select_sections(lines, options, headline=-1, share=0.25)
    # 330 (two lines) and 90 are runs; the stray 15-character line (5) is too light
    assert sections == [(20, 22), (42, 43)]
    assert weights[0] < 0 < weights[20]
    assert select_sections(lines, options, headline=-1, share=0.5)[0] == [(20, 22)]
    assert select_sections([_line(5, 5)], options, headline=-1, share=0.25)[0] == []


def test_select_sections_counts_a_listings_linked_headlines_as_text() -> None:
    options = LineOptions(block_size=1, line_cost=10)
    headline = Line("A teaser headline of five words", 27, 27, "h3", False)
    lines = [_line(8, 8), headline, headline, headline, _line(8, 8)]
    assert select_sections(lines, options, headline=-1, share=0.25)[0] == []
    assert select_sections(lines, options, -1, 0.25, listing=True)[0] == [(1, 4)]


def test_an_aside_forgiven_as_a_wrapper_is_no_section() -> None:
    """An aside holding most of the page's text is not boilerplate (it may wrap the
    article), but its teasers are no section of the page either."""
    teasers = "".join(
        f"<div class='teaser'><a href='/t/{i}'>Another trail report number {i} from the hills</a>"
        f"<span>read by hikers {i} times this week</span></div>"
        for i in range(60)
    )
    html = CATEGORY.replace("</main>", f"</main><aside>{teasers}</aside>")
    article = extract_article(html, "https://shop.example/c/hiking-packs", **RULES)
    assert article.page_type == "listing"
    assert INTRO in article.content and CARDS[0][0] in article.content
    assert "Another trail report" not in article.content


def test_a_products_gallery_of_feature_panels_is_its_text_but_an_articles_is_not() -> None:
    """Class names that mark an article's boilerplate (a photo "gallery", a promo
    "banner") mark a product's or a landing page's content."""
    panels = (
        "<div class='feature-gallery'>"
        + "".join(f"<div class='panel'><h3>{h}</h3><p>{p}</p></div>" for h, p in FEATURES)
        + "</div>"
    )
    html = PRODUCT.replace("<section class='specs'>", panels + "<section class='specs'>")
    content = extract_article(html, "https://shop.example/p/trailblazer-40", **RULES).content
    for _heading, text in FEATURES:
        assert text in content
    story = html.replace('"@type": "Product"', '"@type": "NewsArticle"')
    assert FEATURES[0][1] not in extract_article(story, "https://news.example/a", **RULES).content


DOC_SECTIONS = [
    (
        "Sharing with a single developer",
        "Once you have mastered rewriting history in one repository, you can move up to the "
        "next level and share drafts between several machines and several people at once.",
    ),
    (
        "Setting up the repositories",
        "We will work through an example with three local repositories, although in the real "
        "world they would most likely sit on three different computers in different places.",
    ),
    (
        "Example one: amend a shared change",
        "Everything you learned in the user guide applies to work done in the development "
        "clone: you can commit, amend, uncommit and evolve just as you did before.",
    ),
    (
        "Getting into trouble",
        "When an obsolete change has two successors, those successors are divergent, and the "
        "tool asks you to pick one of them or to merge them into one change by hand.",
    ),
]


def test_a_manuals_linked_headings_head_its_sections() -> None:
    """Docs link their headings (a permalink, a link back to the contents): a heading
    over the text of the main region is kept, a step number over it is not."""
    body = "".join(
        f"<div class='section' id='s{i}'><h2><a class='toc-backref' href='#toc{i}'>{heading}"
        f"</a></h2><h3><a href='#step{i}'>{i + 2}</a></h3><p>{text}</p>"
        f"<pre>$ hg clone repo-{i} work-{i}</pre></div>"
        for i, (heading, text) in enumerate(DOC_SECTIONS)
    )
    html = shop_page("Shared history", f"<h1>Shared history</h1>{body}", "SoftwareApplication")
    article = extract_article(html, "https://docs.example/sharing.html", **RULES)
    assert article.page_type == "other"
    lines = article.content.split("\n")
    for heading, text in DOC_SECTIONS[1:]:
        assert lines.index(heading) + 1 == lines.index(text)
    assert not {"3", "4", "5"} & set(lines)

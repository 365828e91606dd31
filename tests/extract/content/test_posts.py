"""posts.py: the search that leaves out class strings naming no post unit; post units."""

from __future__ import annotations

from scrapy_cx.extract import extract_page
from scrapy_cx.extract.content.posts import (
    POST_UNIT_WORDS,
    PostUnits,
    _unit_key,
    post_units,
    unit_names,
)
from tests.extract.classify.test_pagetype import SAYINGS, news_item

NAMES = [
    None,
    "",
    "message message--post js-post",
    "postBody",
    "POST_WRAPPER",
    "comment-123",
    "comments\nlist",  # a newline inside a class attribute ("comments" is no unit word)
    "nav main-menu",
    "article-body",
    "answer",
    "reply-link",
    "repl y",
    "Ünïcode-comment",  # not ASCII: the slower road
    "İnfo post",  # lower() lengthens "İ"
    "compost-heap",  # spells a word, names no unit: kept by the search, keyed None
    "nav main-menu",
]


def _spells_a_word(name: str) -> bool:
    return any(word in name.lower() for word in POST_UNIT_WORDS)


def test_unit_names_are_the_distinct_names_spelling_a_post_word() -> None:
    expected = {name for name in NAMES if name and _spells_a_word(name)}
    assert unit_names(NAMES) == expected
    ascii_only = [name for name in NAMES if name is None or name.isascii()]
    assert unit_names(ascii_only) == {name for name in expected if name.isascii()}


def test_unit_names_keep_every_name_a_unit_key_keys() -> None:
    keyed = {name for name in NAMES if name and _unit_key(name) is not None}
    assert keyed <= unit_names(NAMES)
    assert keyed == {"message message--post js-post", "postBody", "POST_WRAPPER",
                     "comment-123", "answer", "reply-link",
                     "Ünïcode-comment", "İnfo post"}  # fmt: skip


def test_no_name_spelling_a_post_word_gives_nothing() -> None:
    assert unit_names([None, "nav", "article-body", "footer"]) == set()
    assert unit_names([]) == set()


def test_post_units_read_once_give_both_readings_in_either_order() -> None:
    """Hacker News's layout: each reply's dated header is the element above it, so
    only the reading that takes the line above finds the units."""
    page = extract_page(news_item([SAYINGS[i % len(SAYINGS)] for i in range(15)]))
    below, above = post_units(page), post_units(page, above=True)
    assert below == [] and len(above) == 15
    for order in ((False, True), (True, False)):
        page.unit_groups, page.unit_dated = None, {}  # read afresh
        units = PostUnits(page)
        assert {reading: units.units(above=reading) for reading in order} == {
            False: below,
            True: above,
        }


FORUM = "https://forum.example.org/threads/application.15/"


def forum_page(title: str, posts: str) -> str:
    menu = "".join(
        f"<li><a href='/{n}'>{n.title()}</a></li>" for n in ("forums", "members", "help")
    )
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Example Forum</title></head><body>"
        f"<header><ul class='menu'>{menu}</ul></header><h1>{title}</h1>"
        f"<div class='block-body'>{posts}</div>"
        "<footer><p>Forum software by Example.</p></footer></body></html>"
    )


def framed_post(number: int, who: str, when: str, text: str) -> str:
    """One post as XenForo-style software writes it: the author's panel (name,
    rank, four labelled figures, one of them a date) outweighs a short reply."""
    figures = "".join(
        f"<dt>{label}</dt><dd>{value}</dd>"
        for label, value in (
            ("Joined", f"Jun {number}, 2016"),
            ("Messages", str(11 * number)),
            ("Reaction score", str(3 * number)),
            ("Points", f"4,7{number}6"),
        )
    )
    return (
        f"<article class='message message--post'><div class='message-user'>"
        f"<h4 class='message-name'><a href='/members/{who}'>{who}</a></h4>"
        f"<h5 class='message-userTitle'>Full Member</h5><dl class='pairs'>{figures}</dl></div>"
        f"<ul class='message-attribution'><li><a href='/posts/{number}'>{when}</a></li>"
        f"<li><a href='/posts/{number}'>#{number}</a></li></ul>"
        f"<div class='message-body'><div class='bbWrapper'>{text}</div></div></article>"
    )


REPLIES = (
    "Interviews have started, so I figured we should get this going.",
    "Invited to the first one on the 18th.",
    "That's amazing, congrats!",
    "Thanks! I was surprised there were in-person options.",
    "Found the list of programmes in the other thread.",
)
WHO = ("boobaloo", "pnomes", "fieldt", "boobaloo", "celia")


def test_short_replies_in_big_frames_are_every_post_with_its_own_date() -> None:
    """Author panels of a dozen lines around replies of a line each: the line-block
    selection keeps one post; the posts it opens in, first to last, are the
    content, each post cut by its frame, dated by its header (not by the date its
    author joined) and said by the name linked to the author's profile."""
    posts = "".join(
        framed_post(n, name, f"Jul {17 + n}, 2024", text)
        for n, (name, text) in enumerate(zip(WHO, REPLIES, strict=True), 1)
    )
    article = extract_page(forum_page("Application thread 2025", posts), FORUM).article()
    assert article.page_type == "thread"
    lines = article.content.split("\n")
    for text in REPLIES:
        assert text in lines
    assert "Joined" not in lines
    assert [post.text for post in article.posts] == list(REPLIES)
    assert [post.author for post in article.posts] == list(WHO)
    assert [post.published for post in article.posts] == [f"2024-07-{17 + n}" for n in range(1, 6)]


ANSWERS = (
    "Check everything twice, then check it again before the guests arrive at the door.",
    "Write the menu down for the client and have them sign it before you buy anything.",
    "Rent the plates and the glasses: washing them yourself takes the whole night after.",
)


# Together longer than the answer they are under: read as a post's text, they win.
COMMENTS = (
    "which city is this in? The rules for serving food at parties differ a lot.",
    "did they pay in advance, or do you send the bill after the party is over?",
)


def signed_answer(n: int, who: str, text: str, edited: bool, comments: int = 0) -> str:
    """An answer as Q&A software writes it: the text, then the signature cards at its
    foot (an editor's card first when it was edited), each a date, a linked name
    and the member's badges."""

    def card(action: str, when: str, name: str) -> str:
        return (
            f"<div class='post-signature'><div class='user-action-time'>{action} {when}</div>"
            f"<div class='user-details'><a href='/users/{name}'>{name}</a>"
            f"<div class='user-awards'>{n}5.4k{n} gold badges{n}97 silver badges</div></div></div>"
        )

    cards = card("edited", f"Mar {n}, 2012 at 9:1{n}", "moderator") if edited else ""
    replies = "".join(
        f"<li class='comment'><div class='comment-copy'>{who}, {said}</div>"
        f"<div class='comment-user'><a href='/users/c{k}'>Commenter{'ABC'[k]}</a></div>"
        f"<div class='comment-date'>Feb 2{k}, 2011 at 8:0{k}</div></li>"
        for k, said in enumerate(COMMENTS[:comments])
    )
    return (
        f"<div class='answer'><div class='post-text'><p>{text}</p></div>"
        f"<div class='post-menu'><a href='/a/{n}'>Share</a></div>"
        f"{cards}{card('answered', f'Feb 1{n}, 2011 at 1:0{n}', who)}"
        f"<ul class='comments-list'>{replies}</ul></div>"
    )


def test_posts_signed_at_their_foot_take_the_text_above_the_signature() -> None:
    """The date at a post's foot: its text is above the header, its author the name
    linked below it, its date the first the post shows (not the later edit's).
    The comments under an answer (several in one post, dated) are no part of it."""
    answers = "".join(
        signed_answer(n, who, text, edited=n == 2, comments=2 if n == 1 else n - 1)
        for n, (who, text) in enumerate(zip(("Michael", "Joe", "Ann"), ANSWERS, strict=True), 1)
    )
    page = forum_page("Catering my first party", answers).replace(
        "</title>",
        '</title><script type=\'application/ld+json\'>{"@type": "QAPage"}</script>',
    )
    article = extract_page(page, "https://qa.example.org/q/7").article()
    assert article.page_type == "thread"
    assert [post.text for post in article.posts] == list(ANSWERS)
    assert [post.author for post in article.posts] == ["Michael", "Joe", "Ann"]
    assert [post.published for post in article.posts] == [
        "2011-02-11T01:01:00",
        "2011-02-12T01:02:00",
        "2011-02-13T01:03:00",
    ]


def test_a_headers_by_and_weekday_are_not_the_authors_name() -> None:
    """phpBB's header: "by Minoa » Tue Aug 27, 2019 4:08 am"."""
    posts = "".join(
        f"<div class='post'><p class='author'>by <a href='/u/{who}'>{who}</a> » "
        f"{day} Aug 2{n}, 2019 4:0{n} am</p><div class='content'>{text}</div></div>"
        for n, (who, day, text) in enumerate(
            zip(("Minoa", "Ayytaly", "Bombadil"), ("Tue", "Wed", "Thursday"), ANSWERS, strict=True),
            1,
        )
    )
    article = extract_page(forum_page("Football in the region", posts), FORUM).article()
    assert article.page_type == "thread"
    assert [post.author for post in article.posts] == ["Minoa", "Ayytaly", "Bombadil"]


def test_posts_dated_by_this_weeks_day_are_cut_too() -> None:
    """Recent posts show a day of this week, not a date ("Tuesday at 10:07 AM"):
    a post's header still, with no date to give."""
    days = (
        "Monday at 9:15 AM",
        "Tuesday at 10:07 AM",
        "Yesterday at 3:12 PM",
        "Today, 08:01",
        "Today at 9:30 AM",
    )
    posts = "".join(
        framed_post(n, name, day, text)
        for n, (name, day, text) in enumerate(zip(WHO, days, REPLIES, strict=True), 1)
    )
    article = extract_page(forum_page("Application thread 2025", posts), FORUM).article()
    assert [post.text for post in article.posts] == list(REPLIES)
    assert [post.author for post in article.posts] == list(WHO)
    assert {post.published for post in article.posts} == {None}


FERRY = (
    "Has anyone tried the new ferry timetable? The early boat seems to leave ten minutes sooner.",
    "Yes, it changed in March. The harbour office posted the new times on its board by the gate.",
    "I missed it twice last week because of that. A notice on the boat itself would have helped.",
    "They also added a late boat on Fridays, which is good news for anyone working in town.",
)
FERRY_WHO = (None, "harbourfan", "mila_k", "tobias")


def ferry_thread(label: str = "") -> str:
    """A board's thread cut by its dated headers (no post-named elements), the first
    post's author not shown, a long blurb about the board above the headline (so the
    selection opens above it), each header opening with ``label``."""
    entries = "".join(
        (f"<div class='entry'><p class='user'>{who}</p>" if who else "<div class='entry'>")
        + f"<p class='when'>{label}1{n}.03.2024, 10:1{n}</p><p>{text}</p></div>"
        for n, (who, text) in enumerate(zip(FERRY_WHO, FERRY, strict=True))
    )
    return (
        "<html><head><title>Ferry timetable changed</title></head><body>"
        "<nav><a href='/'>Forum</a> <a href='/travel'>Travel</a></nav><div class='about'><p>"
        "This board is where the people of the islands swap news about boats, buses, roads "
        "and weather, ask one another for advice and arrange lifts into town, every day of "
        "the year, whatever the season brings to the harbour.</p></div>"
        f"<h1>Ferry timetable changed</h1>{entries}</body></html>"
    )


def test_a_posts_author_is_never_the_headline_above_it() -> None:
    article = extract_page(ferry_thread(), "https://board.test/travel/ferry").article()
    assert article.page_type == "thread"
    assert [post.author for post in article.posts] == list(FERRY_WHO)
    assert [post.text for post in article.posts] == list(FERRY)


def test_a_posts_author_is_never_the_label_of_its_date() -> None:
    """Headers labelled alike in every post ("Datum: 12.03.2024"): the label is the
    software's, the name is on the line above."""
    html = ferry_thread("Datum: ")
    article = extract_page(html, "https://board.test/travel/ferry").article()
    assert article.page_type == "thread"
    assert [post.author for post in article.posts] == list(FERRY_WHO)


def test_a_members_one_word_lower_case_name_before_the_date_is_the_author() -> None:
    """ "longshot · 03/03/2026 19:44": many boards' names are one lower-case word, which
    is the author's, unlike a label or a joining word ("ab", "am")."""
    who = ("longshot", "keepingsanity", "folioquarto", "harbourfan")
    entries = "".join(
        f"<div class='entry'><p class='when'>{name} · 1{n}.03.2024 10:1{n}</p><p>{text}</p></div>"
        for n, (name, text) in enumerate(zip(who, FERRY, strict=True))
    )
    html = (
        "<html><head><title>Ferry timetable changed</title></head><body>"
        f"<h1>Ferry timetable changed</h1>{entries}</body></html>"
    )
    article = extract_page(html, "https://board.test/travel/ferry").article()
    assert article.page_type == "thread"
    assert [post.author for post in article.posts] == list(who)

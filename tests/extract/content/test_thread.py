"""thread.py: a thread's text, its posts selected again."""

from __future__ import annotations

from scrapy_cx import extract_article
from tests.extract.content.test_choose import (
    COMMENTS_LD,
    FORUM_LD,
    RELATED,
    STORY,
    comment,
    page,
    paragraphs,
)
from tests.extract.prose import EN_SENTENCES


def test_a_thread_whose_posts_are_named_comments_keeps_every_post() -> None:
    authors = ("alice", "bob", "carol", "dave")
    posts = "".join(
        comment(who, f"2024-05-0{day} 10:1{day}", text)
        for day, (who, text) in enumerate(zip(authors, STORY[:4], strict=True), 1)
    )
    # A short note outside the posts is all a walk that reads "comment" as a
    # comment section would select.
    note = "<p>Create an account or sign in to reply. Only members can leave a reply.</p>"
    html = page(f"<h1>Bridge to be rebuilt</h1><div class='topic'>{posts}</div>{note}")
    article = extract_article(html.replace("</title>", "</title>" + FORUM_LD))
    assert article.page_type == "thread"
    for text in STORY[:4]:
        assert text in article.content
    assert "Reply" not in article.content  # a post's links are chrome, not its text


def test_an_article_outweighed_by_its_comment_section_stays_the_article() -> None:
    # Declared comments make the page a thread; its long comment section, past a
    # long list of links, alone would win a selection that reads comments as posts.
    long_comments = "".join(
        comment(who, f"2024-05-0{day} 09:0{day}", " ".join(EN_SENTENCES))
        for day, who in enumerate(("erin", "frank", "gina", "hal", "ivan", "jo", "kim"), 1)
    )
    html = page(
        f"<h1>Bridge to be rebuilt</h1><div class='story'>{paragraphs(STORY)}</div>"
        f"<ul class='more'>{RELATED * 3}</ul><div class='comments'>{long_comments}</div>"
    )
    article = extract_article(html.replace("</title>", "</title>" + COMMENTS_LD))
    assert article.page_type == "thread"
    assert "\n".join(STORY) in article.content
    assert EN_SENTENCES[0] not in article.content


def test_a_threads_author_panels_labels_are_not_its_text() -> None:
    """Forum software frames every post with its author's panel ("Joined", "Messages"
    and their values); the labels, shown in the same element in every post, are left
    out; a short line said once stays, even quoted in every reply."""
    said = "Closed until March."  # said once, quoted in each reply: not a label
    quote = f"<blockquote>{said}</blockquote><p>"
    texts = [
        STORY[0] + f"</p><p>{said}",
        quote + STORY[1],
        quote + STORY[2],
        quote + STORY[3] + "</p><p>Thanks, good to know!",
    ]
    panels = "".join(
        comment(who, f"2024-05-0{day} 10:1{day}", text).replace(
            "<div class='comment-content'>",
            f"<dl class='pairs'><dt>Joined</dt><dd>Mar {day}, 2019</dd><dt>Messages</dt>"
            f"<dd>{day * 37}</dd></dl><div class='comment-content'>",
        )
        for day, (who, text) in enumerate(
            zip(("alice", "bob", "carol", "dave"), texts, strict=True), 1
        )
    )
    html = page(f"<h1>Bridge to be rebuilt</h1><div class='topic'>{panels}</div>")
    article = extract_article(html.replace("</title>", "</title>" + FORUM_LD))
    assert article.page_type == "thread"
    lines = article.content.split("\n")
    assert "Joined" not in lines and "Messages" not in lines
    assert "Mar 2, 2019" in lines  # a value differs from post to post
    for text in (*STORY[:4], "Thanks, good to know!", said):
        assert text in lines

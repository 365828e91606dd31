"""The posts of a thread (Wang et al. 2016, "non-continuous" bodies): author, date, text.

A forum thread, a Q&A page or a blog page of several posts repeats one unit: a
short header line holding the post's date (often its author too), then the
post's text. The headers found inside the main region cut it into posts, in
page order. The content stays the region's text, headers included: measured on
wceb_dev, dropping the headers lost more of the posts' text than it saved.
"""

from __future__ import annotations

from ..article import Post
from ._page import Page
from .dates import scan_dates
from .lines import main_text

__all__ = ["find_posts", "post_headers"]

MAX_POST_HEADER = 80  # characters of a post's header line
MAX_AUTHOR = 40  # characters of an author's name on its own line above the header
MIN_POSTS = 3  # headers that make a region a series of posts
_SEPARATORS = " ·|-–—,:@"


def post_headers(page: Page) -> list[int]:
    """Indexes of the short dated lines inside the main region."""
    lines = page.lines
    return [
        i
        for i in range(page.start, page.end)
        if lines[i].length <= MAX_POST_HEADER
        and not lines[i].boilerplate
        and scan_dates(lines[i].text)
    ]


def find_posts(page: Page) -> None:
    """Fill ``page.posts`` for a thread."""
    if page.page_type != "thread":
        return
    headers = post_headers(page)
    if len(headers) < MIN_POSTS:
        return
    lines = page.lines
    posts: list[Post] = []
    bounds = [*headers, page.end]
    for k, header in enumerate(headers):
        stop = bounds[k + 1]
        if k + 1 < len(headers) and _author_line(page, stop - 1):
            stop -= 1  # the next post's author, on its own line above its header
        line = lines[header]
        pos, found = scan_dates(line.text)[0]
        author = line.text[:pos].strip(_SEPARATORS) or None
        if author is None and _author_line(page, header - 1):
            author = lines[header - 1].text
        text = main_text(lines[header + 1 : stop])
        if text:
            posts.append(Post(author, found.iso(), text))
    if len(posts) >= MIN_POSTS:
        page.posts = posts


def _author_line(page: Page, i: int) -> bool:
    """A short line without a date or a sentence's end: a name."""
    if i < page.start or i >= len(page.lines):
        return False
    line = page.lines[i]
    text = line.text
    return (
        line.length <= MAX_AUTHOR
        and not text.endswith((".", "。", "!", "?", ":", "："))
        and not scan_dates(text)
    )

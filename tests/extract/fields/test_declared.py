"""A declared author (JSON-LD, meta tag) is the author, of any kind, where the byline shows it."""

from __future__ import annotations

import pytest

from tests.extract.fields.test_authors import _meta, authors


def _declared(byline: str, author: str, kind: str = "BlogPosting") -> tuple[str, ...]:
    ld = (
        f'<script type="application/ld+json">{{"@type": "{kind}", "author": {{"@type": '
        f'"Organization", "name": "{author}"}}}}</script>'
    )
    return authors(byline, ld)


def test_a_declared_author_the_byline_shows_is_the_author_of_any_kind() -> None:
    # the site itself, declared as an Organization and shown alone over the date
    assert _declared("<div>Daily Example</div><div>May 3, 2024</div>", "Daily Example") == (
        "Daily Example",
    )
    assert _declared("<p>Posted by Daily Example on Tuesday, May 3</p>", "Daily Example") == (
        "Daily Example",
    )
    # a forum thread's starter: a handle, declared by the opening post
    byline = "<div>By Need2KnowLion</div>"
    assert _declared(byline, "Need2KnowLion", "DiscussionForumPosting") == ("Need2KnowLion",)
    # a first name the meta tag gives and the byline shows
    assert authors("<div>Susan December 9, 2024 0 Comments</div>", _meta("Susan")) == ("Susan",)


def test_a_declared_author_needs_the_byline_to_show_it() -> None:
    assert _declared("<div>May 3, 2024</div>", "Daily Example") == ()
    # a longer word starting with it is not it ("Arcade", not "Arc")
    assert _declared("<div>Arcade</div><div>May 3, 2024</div>", "Arc") == ()
    # the site's name before another field credits someone of the site's (initials)
    assert _declared("<div>Daily Example /PP 20. Juni 2019</div>", "Daily Example") == ()


@pytest.mark.parametrize("name", ["Community Editor", "Staff", "Our Editors", "admin", "Anonymous"])
def test_a_declared_role_or_placeholder_shown_is_still_no_name(name: str) -> None:
    assert _declared(f"<div>{name}</div><div>May 3, 2024</div>", name) == ()


def test_the_sites_own_name_after_by_is_the_author() -> None:
    # "By Daily Example": the page names its site as the writer, as a business's blog does
    assert authors("<p>May 3, 2017 By Daily Example 4 Comments</p>") == ("Daily Example",)
    assert authors("<p>by Daily Example | Apr 21, 2025</p>") == ("Daily Example",)
    # without "By", or before another field, it is the site's header or a desk's credit
    assert authors("<p>Daily Example | Apr 21, 2025</p>") == ()
    assert authors("<p>By Daily Example /PP 20. Juni 2019</p>") == ()


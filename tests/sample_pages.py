"""Small article and non-article pages written for the bulk-extraction tests."""

from __future__ import annotations

PARAGRAPHS = [
    "The city council voted on Tuesday to extend the northern tram line by four kilometres, "
    "ending a debate that has divided residents of the harbour district for almost a decade.",
    "Supporters of the plan argued that the extension would cut commuting times in half for "
    "the thirty thousand people who live beyond the old railway bridge and work downtown.",
    "Opponents warned that construction would close the market street for two summers and "
    "that the budget, already revised twice, did not include the cost of new depots.",
    "The mayor said the first trams could run on the new section before the end of 2027, "
    "provided that the regional government confirms its share of the funding this spring.",
]


def article_html(title: str, *, body: list[str] | None = None, charset: str = "utf-8") -> str:
    """A news page with navigation, one article and a footer."""
    paragraphs = "".join(f"<p>{p}</p>" for p in (body or PARAGRAPHS))
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="{charset}">'
        f"<title>{title} | Harbour Gazette</title>"
        f'<meta property="og:title" content="{title}">'
        '<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">'
        "</head><body><nav><a href='/'>Home</a> <a href='/city'>City</a> "
        "<a href='/sport'>Sport</a></nav>"
        f"<article><h1>{title}</h1><time datetime='2024-03-05'>5 March 2024</time>"
        f"{paragraphs}</article>"
        "<footer>Copyright Harbour Gazette. All rights reserved.</footer></body></html>"
    )


def listing_html() -> str:
    """A page with links only: not an article."""
    links = "".join(f"<li><a href='/a{i}'>Story {i}</a></li>" for i in range(20))
    return f"<html><head><title>Index</title></head><body><ul>{links}</ul></body></html>"

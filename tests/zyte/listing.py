"""A small news listing page: four teaser cards and a next page, for the zyte tests."""

from __future__ import annotations

TEASERS = [
    ("Bus route restored after four months", "/news/2024/bus-route"),
    ("Flood barrier work closes riverside path", "/news/2024/flood-barrier"),
    ("School adds places as estate fills up", "/news/2024/school-places"),
    ("Town promoted after unbeaten run", "/news/2024/promotion"),
]
NEXT = "/news/?page=2"


def listing_html() -> str:
    cards = "".join(
        f"<li><h2><a href='{url}'>{title}</a></h2><p>The first lines of the story about "
        f"{title.lower()}, as the card shows them…</p></li>"
        for title, url in TEASERS
    )
    return (
        "<!DOCTYPE html><html lang='en'><head><title>News | Harbour Gazette</title>"
        f"<link rel='next' href='{NEXT}'></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news/'>News</a> <a href='/sport/'>Sport</a></nav>"
        f"<main><h1>News</h1><ul>{cards}</ul></main>"
        "<footer>Copyright Harbour Gazette.</footer></body></html>"
    )

"""Small article and non-article pages written for the bulk-extraction tests."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

Record = tuple[str, str, list[tuple[str, str]] | None, bytes]

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


STRUCTURED_TITLE = "Council backs the northern tram extension"
CAPTION = "The depot at the end of the line, photographed in March."


def structured_html() -> str:
    """An article whose body has structure: two subheadings, a list of three items, a
    table (a header row and three rows), a figure with its caption and a relative link."""
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{STRUCTURED_TITLE} | Harbour Gazette</title>
<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">
</head><body>
<nav><a href="/">Home</a> <a href="/city">City</a> <a href="/sport">Sport</a></nav>
<article><h1>{STRUCTURED_TITLE}</h1>
<p>The city council voted on Tuesday to extend the northern tram line by four kilometres,
ending a debate that has divided residents of the harbour district for almost a decade.
The full text of <a href="/documents/plan-2024">the approved plan</a> is public.</p>
<figure><img src="/images/depot.jpg" width="800" height="450" alt="The tram depot">
<figcaption>{CAPTION}</figcaption></figure>
<h3>What the extension brings</h3>
<p>Supporters argued that the extension would cut commuting times in half for the thirty
thousand people who live beyond the old railway bridge and work downtown.</p>
<ul><li>Four kilometres of new double track along the market street</li>
<li>Six new stops, two of them beside the schools of the harbour district</li>
<li>A second depot for the twelve trams ordered last year</li></ul>
<h3>The costs, year by year</h3>
<table><thead><tr><th>Year</th><th>Cost (million euros)</th></tr></thead>
<tbody><tr><td>2025</td><td>48</td></tr><tr><td>2026</td><td>61</td></tr>
<tr><td>2027</td><td>35</td></tr></tbody></table>
<p>The mayor said the first trams could run on the new section before the end of 2027,
provided that the regional government confirms its share of the funding this spring.</p>
</article>
<footer>Copyright Harbour Gazette. All rights reserved.</footer></body></html>"""


def listing_html() -> str:
    """A page with links only: not an article."""
    links = "".join(f"<li><a href='/a{i}'>Story {i}</a></li>" for i in range(20))
    return f"<html><head><title>Index</title></head><body><ul>{links}</ul></body></html>"


def write_warc(
    path: Path,
    records: list[Record],
    *,
    compress: bool = True,
) -> None:
    """records: (url, WARC type, HTTP headers or None, payload)."""
    with path.open("wb") as fh:
        writer = WARCWriter(fh, gzip=compress)
        for url, rec_type, headers, payload in records:
            if rec_type == "response":
                status = dict(headers or []).pop("Status", "200 OK")
                http = StatusAndHeaders(
                    status, [h for h in headers or [] if h[0] != "Status"], protocol="HTTP/1.1"
                )
                record = writer.create_warc_record(
                    url,
                    "response",
                    payload=BytesIO(payload),
                    length=len(payload),
                    http_headers=http,
                )
            elif rec_type == "resource":
                ctype = dict(headers or []).get("Content-Type")
                record = writer.create_warc_record(
                    url,
                    "resource",
                    payload=BytesIO(payload),
                    length=len(payload),
                    warc_content_type=ctype,
                )
            else:
                record = writer.create_warc_record(
                    url, rec_type, payload=BytesIO(payload), length=len(payload)
                )
            writer.write_record(record)


def chunked(data: bytes) -> bytes:
    return (
        b"".join(
            b"%x\r\n%s\r\n" % (len(data[i : i + 50]), data[i : i + 50])
            for i in range(0, len(data), 50)
        )
        + b"0\r\n\r\n"
    )

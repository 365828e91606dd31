"""text.py: selected lines joined into the text, pull quotes left out."""

from __future__ import annotations

from scrapy_cx.extract.content.text import main_text
from scrapy_cx.extract.parse.dom import parse_html
from scrapy_cx.extract.parse.lines import page_lines
from tests.extract.content.test_regions import PROSE, selected


def text_of(html: str) -> str:
    """The main text of a page whose lines are all its region (``main_text``'s two
    arguments the same lines)."""
    lines = page_lines(parse_html(html))
    return main_text(lines, lines)


def test_a_pull_quote_repeating_a_sentence_of_the_text_is_left_out() -> None:
    quoted = "The bank has stood empty for eleven years and now everyone can share it."
    aside = "The new library opens in May and will keep longer hours than the old one."
    html = (
        "<html><body><article><h1>Library moves into the old bank</h1>"
        f"<p>{PROSE[0]}</p>"
        f"<p>Councillors approved the plan on Tuesday. {quoted} The work starts soon.</p>"
        f"<blockquote class='pullquote'><p>\u201c{quoted}\u201d</p></blockquote>"
        f"<p>{PROSE[1]}</p><aside>{aside}</aside><p>{PROSE[2]} {aside}</p>"
        "<p>Part two</p><p>Part two</p>"  # short lines may repeat
        "</article></body></html>"
    )
    text = selected(html)
    assert text.count(quoted) == 1 and text.count(aside) == 1
    assert f"Tuesday. {quoted} The work" in text and f"{PROSE[2]} {aside}" in text
    assert text.count("Part two") == 2


def test_a_sentence_repeated_among_sibling_paragraphs_stays() -> None:
    """A refrain repeated in the body's own paragraphs is text, not a pull quote."""
    refrain = "The river keeps its own counsel and the town keeps its own."
    html = (
        f"<html><body><article><p>{PROSE[0]}</p><p>{refrain}</p>"
        f"<p>{PROSE[1]} {refrain}</p><p>{PROSE[2]}</p></article></body></html>"
    )
    assert selected(html).count(refrain) == 2


def test_a_pictures_credit_line_is_not_the_articles_text() -> None:
    """ "Foto: Christof Stache" under a picture, in a plain <p>: who took it, not what
    the article says. A sentence that opens so, or a long line, stays."""
    body = (
        "<p>Die Stadt hat am Montag den neuen Radweg entlang des Flusses eröffnet, nach zwei "
        "Jahren Bauzeit und einem langen Streit um die Bäume am Ufer.</p>"
        "<p>Foto: Christof Stache</p><p>Crédits photos : Bestimage</p><p>© Stadtarchiv</p>"
        "<p>(Credit: Ann Lee / Grist)</p>"
        "<p>Der Weg ist vier Kilometer lang und verbindet die Altstadt mit dem Hafen, wo im "
        "Sommer ein zweiter Abschnitt folgen soll.</p>"
    )
    html = f"<html><body><article><h1>Neuer Radweg eröffnet</h1>{body}</article></body></html>"
    text = text_of(html)
    assert "Stache" not in text and "Bestimage" not in text and "Stadtarchiv" not in text
    assert "Grist" not in text
    assert "vier Kilometer" in text and "Radweg entlang" in text


def test_a_linked_teaser_between_two_paragraphs_is_left_out() -> None:
    """ "Read also: <a>another story</a>" set between the story's paragraphs is a
    teaser for another page; links inside a sentence, and a list of links, stay."""
    teaser = "<p>Read also: <a href='/s/1'>Ferry service to resume after the storm</a></p>"
    linked = (
        "<p>The plan was first put forward by <a href='/c'>the county engineers</a> "
        "in a report to the council last year.</p>"
    )
    sources = "".join(
        f"<p><a href='/d/{i}'>Council minutes for meeting {i}</a></p>" for i in (1, 2)
    )
    html = (
        "<html><body><article><h1>Bridge to be rebuilt</h1>"
        f"<p>{PROSE[0]}</p>{teaser}<p>{PROSE[1]}</p>{linked}<p>{PROSE[2]}</p>{sources}"
        f"<p>{PROSE[3]}</p></article></body></html>"
    )
    text = text_of(html)
    assert "Ferry service" not in text
    assert "the county engineers" in text and text.count("Council minutes for meeting") == 2


def test_a_lone_linked_item_or_box_between_paragraphs_is_a_teaser_with_its_label() -> None:
    """A list of one linked headline, or a box under a "See also:" label, set between
    two paragraphs points to another story; a list of several links, and a linked
    heading (a section's own anchor), stay."""
    html = (
        "<html><body><article><h1>Bridge to be rebuilt</h1>"
        f"<p>{PROSE[0]}</p><ul><li><a href='/s/1'>Ferry service to resume after the storm</a>"
        f"</li></ul><p>{PROSE[1]}</p><p>See also:</p><div class='box'><a href='/s/2'>"
        f"Market square to close for the detours</a></div><p>{PROSE[2]}</p><ul>"
        "<li><a href='/d/1'>Council minutes for meeting one</a></li>"
        "<li><a href='/d/2'>Council minutes for meeting two</a></li></ul>"
        f"<p>{PROSE[3]}</p><h2><a href='#next'>What happens next in town</a></h2>"
        f"<p>{PROSE[0]} Again.</p></article></body></html>"
    )
    text = text_of(html)
    assert "Ferry service" not in text and "Market square" not in text
    assert "See also" not in text
    assert text.count("Council minutes for meeting") == 2
    assert "What happens next in town" in text


def test_headings_left_at_the_end_of_the_text_are_left_out() -> None:
    """A "Related stories" heading whose list of links the selection left out heads
    nothing in the text; a heading over a paragraph stays."""
    html = (
        "<html><body><article><h1>Bridge to be rebuilt</h1>"
        f"<p>{PROSE[0]}</p><h2>What happens next</h2><p>{PROSE[1]}</p>"
        "<h2>Related stories</h2><h3>More from the town</h3></article></body></html>"
    )
    text = text_of(html)
    assert "What happens next" in text and text.endswith(PROSE[1])


def test_read_also_labels_and_share_rows_are_not_the_articles_text() -> None:
    """ "Auch lesen:" on a line of its own, "Czytaj też: <a>headline</a>" and a row of
    share buttons point away from the story, wherever they sit (here between lines that
    end no sentence, where the teaser rule does not look); a sentence that opens with
    such words stays."""
    body = (
        "<p>Der Verein hat am Samstag die neue Halle eröffnet, nach drei Jahren Planung "
        "und einem langen Streit um das Grundstück am Hafen.</p>"
        "<p>Auch lesen:</p><p><a href='/a/1'>Neue Skateanlage im Stadtpark geplant</a></p>"
        "<p>Czytaj też: <a href='/a/2'>Nowy most na Wiśle otwarty dla ruchu</a></p>"
        "<p>Die Halle bietet Platz für zweihundert Sportler</p>"
        "<p>Facebook Twitter Link Copied Mail WhatsApp</p><p>*Werbung</p><p>Advertisement:</p>"
        "<p>Read more about the plan in the council's report, which the club published.</p>"
        "<p>Lesen Sie dazu auch die Pressemitteilungen:</p>"
    )
    html = f"<html><body><article><h1>Neue Halle eröffnet</h1>{body}</article></body></html>"
    text = text_of(html)
    assert "Auch lesen" not in text and "Czytaj" not in text and "WhatsApp" not in text
    assert "Werbung" not in text and "Advertisement" not in text
    assert "zweihundert Sportler" in text and "Read more about the plan" in text
    assert "Lesen Sie dazu auch die Pressemitteilungen:" in text


def test_related_box_titles_in_other_languages_are_not_the_articles_text() -> None:
    """ "Notas relacionadas", "Verwandte Themen" on a line of its own title a box of
    other stories; a sentence that opens with such words stays."""
    body = (
        "<p>Der Verein hat am Samstag die neue Halle eröffnet, nach drei Jahren Planung "
        "und einem langen Streit um das Grundstück am Hafen.</p>"
        "<p>NOTAS RELACIONADAS</p><p>Verwandte Themen</p><p>Neueste Artikel</p>"
        "<p>Weitere Artikel über die Halle folgen in der nächsten Ausgabe, sagte der Verein.</p>"
    )
    html = f"<html><body><article><h1>Neue Halle eröffnet</h1>{body}</article></body></html>"
    text = text_of(html)
    assert "NOTAS" not in text and "Verwandte" not in text and "Neueste" not in text
    assert "Weitere Artikel über die Halle folgen" in text

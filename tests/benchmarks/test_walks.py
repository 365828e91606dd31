from lxml import etree

from benchmarks.walks import lxml_walk

PAGE = "<html><body><div class='a'>One <b>two</b> three</div><p>four<br>five</p></body></html>"
TEXT = len("One two threefourfive")  # texts and tails, spaces kept


def test_the_lxml_walk_reads_every_text_and_tail() -> None:
    root = etree.fromstring(PAGE, etree.HTMLParser())
    assert lxml_walk(root) == TEXT


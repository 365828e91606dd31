"""What a parse and a bare tree walk cost, lxml against selectolax's lexbor (issue 12 spike).

Counted, as in :mod:`benchmarks.parses`, in plain lxml parses of the same page
(median over the pages, best of ``--repeat`` CPU times each):

- ``lexbor_parse_bytes`` / ``lexbor_parse_str``: ``LexborHTMLParser`` on the raw
  bytes / on the decoded text (selectolax, if installed);
- ``lxml_walk``: ``etree.iterwalk`` start/end events reading what the line walk
  reads (tag, attributes when there are any, text, tail): the floor of any line
  walk written in Python (or compiled by mypyc) over lxml;
- ``lexbor_walk``: the same events over lexbor nodes (first_child/next/parent;
  text nodes stand for text and tail), with and without reading attributes;
  ``lexbor_traverse``: its C pre-order iterator, no end events (a lower bound);
- ``page_lines``: the core's line walk on the same tree, whichever build
  (pure or mypyc-compiled) is imported.

    python -m benchmarks.walks [--sets aeb] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from functools import partial
from typing import Any

from lxml import etree

from benchmarks.parses import best_time, load
from scrapy_cx.extract.parse import lines as lines_module
from scrapy_cx.extract.parse.decode import decode_page
from scrapy_cx.extract.parse.dom import parse_document


def _lxml_parse(data: bytes) -> object:
    return etree.fromstring(data, etree.HTMLParser())


def lxml_walk(root: Any) -> int:
    """Start/end events reading tag, attributes, text and tail; returns the text size."""
    size = 0
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            el.tag  # noqa: B018 (read, as the line walk does)
            if el.keys():
                el.items()
            text = el.text
        else:
            text = el.tail
        if text:
            size += len(text)
    return size


def lexbor_walk(root: Any, attributes: bool = True) -> int:
    """The same events over lexbor nodes: down by first_child, on by next, up by parent."""
    size = 0
    top = root.mem_id
    node = root
    while node is not None:
        if node.is_element_node:
            node.tag  # noqa: B018
            if attributes:
                node.attributes  # noqa: B018
        elif node.is_text_node:
            size += len(node.text_content or "")
        child = node.first_child
        if child is not None:
            node = child
            continue
        while node is not None:  # end events, climbing to the next sibling
            if node.mem_id == top:
                return size
            following = node.next
            if following is not None:
                node = following
                break
            node = node.parent
    return size


def lexbor_traverse(root: Any) -> int:
    size = 0
    for node in root.traverse(include_text=True):
        if node.is_text_node:
            size += len(node.text_content or "")
        else:
            node.tag  # noqa: B018
    return size


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.walks", description=__doc__)
    parser.add_argument("--bench", help="bench dir (default: ../shared/bench)")
    parser.add_argument("--sets", default="aeb")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        LexborHTMLParser = None  # noqa: N806
        print("selectolax not installed: lxml figures only", file=sys.stderr)
    repeat = max(1, args.repeat)
    ratios: dict[str, list[float]] = {}
    totals: dict[str, float] = {}
    for page in load(args.sets, args.bench):
        text, _, utf8 = decode_page(page.html)
        root = parse_document(text, utf8).root
        took = {
            "lxml_parse": best_time(partial(_lxml_parse, page.html), repeat),
            "lxml_walk": best_time(partial(lxml_walk, root), repeat),
            "page_lines": best_time(partial(lines_module.page_lines, root), repeat),
        }
        if LexborHTMLParser is not None:
            took["lexbor_parse_bytes"] = best_time(partial(LexborHTMLParser, page.html), repeat)
            took["lexbor_parse_str"] = best_time(partial(LexborHTMLParser, text), repeat)
            tree = LexborHTMLParser(text).root
            took["lexbor_walk"] = best_time(partial(lexbor_walk, tree), repeat)
            took["lexbor_walk_noattrs"] = best_time(partial(lexbor_walk, tree, False), repeat)
            took["lexbor_traverse"] = best_time(partial(lexbor_traverse, tree), repeat)
        for name, seconds in took.items():
            ratios.setdefault(name, []).append(seconds / took["lxml_parse"])
            totals[name] = totals.get(name, 0.0) + seconds
    print(f"page_lines from {lines_module.__file__}")
    print(f"{'':<22}{'median parses':>14}{'total ms':>10}")
    for name, values in ratios.items():
        print(f"{name:<22}{statistics.median(values):>14.3f}{1000 * totals[name]:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The walk's lines of every dev set, labelled from the truth (issue 38), and how well
the labels explain the truth.

For each page: the extraction's lines (``page.selection.lines``), their features
(scrapy_cx.extract.content._features), the current rules' choice and a label per line
(benchmarks.align). One gzipped JSON-lines file per set goes to ``--out`` (outside
the repository: the pages' text must not enter it); benchmarks.learn trains on them.

The report scores, per set and with the set's own metric, the current rules and
the *perfect labeller*: the text of exactly the lines labelled main. Its gap to
the truth is what no line labeller can close (text outside the lines, labels'
misses); for snippet-only sets it is high by construction.

    python -m benchmarks.labels [--sets wcxb_dev,aeb,...] [--out DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks.align import MAIN, Truth, label_lines, score_set
from benchmarks.datasets import BenchPage, bench_dir, load_set
from scrapy_cx.extract import extract_page
from scrapy_cx.extract.content._features import NAMES, page_features
from scrapy_cx.extract.fields.navigation import site_of

# The dev sets with main-text truth (whole text or snippets). wceb_dev is left out
# by default: silver truth, and 433 of its pages are wcxb_dev's, reviewed.
DEV_SETS = ("wcxb_dev", "aeb", "readability", "newspaper4k", "cwce_zh_dev", "trafilatura_dev")
DEFAULT_OUT = Path(tempfile.gettempdir()) / "scrapy-cx-lines"


def truth_of(page: BenchPage) -> Truth:
    """The page's scoring truth; must-haves not in the visible text are left out
    (as benchmarks.accuracy does)."""
    musts = () if page.with_verbatim is False else page.with_snippets
    return Truth(page.body, musts, page.without_snippets, page.page_type)


def site(url: str | None, fallback: str) -> str:
    """The CV group: the page's registrable domain, else its own id (no URL)."""
    host = urlsplit(url).hostname if url else None
    return site_of(host) if host else f"nourl:{fallback}"


def page_record(page: BenchPage) -> dict[str, object]:
    """One page's lines, features, labels and rules' text, as JSON."""
    # The rules' choice is a feature: read it with the learned labeller off.
    extracted = extract_page(page.html, page.url, formats=(), learned=False)
    lines = extracted.selection.lines
    texts = [line.text for line in lines]
    truth = truth_of(page)
    return {
        "set": page.set_name,
        "id": page.id,
        "site": site(page.url, f"{page.set_name}/{page.id}"),
        "page_type": page.page_type,
        "truth": {
            "body": truth.body,
            "with": list(truth.with_snippets),
            "without": list(truth.without_snippets),
        },
        "rules_text": extracted.selection.content,
        "lines": texts,
        "labels": label_lines(texts, page.body, truth.with_snippets, truth.without_snippets),
        "features": page_features(extracted),  # rounded to 4 places by the core
        # The block tree, for block-level smoothing (benchmarks.learn): each line's
        # block element, each block's line range and parent.
        "blocks": [line.block for line in lines],
        "spans": [list(span) for span in lines.spans],
        "parents": list(lines.parents),
    }


def read_records(path: Path) -> Iterator[dict[str, object]]:
    """The records of one written set file."""
    with gzip.open(path, "rt", encoding="utf-8") as rows:
        for row in rows:
            yield json.loads(row)


def record_truth(record: dict[str, object]) -> Truth:
    truth = record["truth"]
    assert isinstance(truth, dict)
    return Truth(
        truth["body"],
        tuple(truth["with"]),
        tuple(truth["without"]),
        record["page_type"],  # type: ignore[arg-type]
    )


def perfect_text(record: dict[str, object]) -> str:
    """The text of exactly the lines labelled main."""
    lines, labels = record["lines"], record["labels"]
    assert isinstance(lines, list) and isinstance(labels, list)
    return "\n".join(text for text, label in zip(lines, labels, strict=True) if label == MAIN)


def report(set_name: str, records: Sequence[dict[str, object]]) -> str:
    """Rules and perfect labeller on one set, one line (page types follow for WCXB)."""
    truths = [record_truth(r) for r in records]
    rules = score_set(set_name, truths, [str(r["rules_text"]) for r in records])
    perfect = score_set(set_name, truths, [perfect_text(r) for r in records])
    out = [
        f"{set_name:<18}{len(records):>6}  rules {rules['main']:.3f}  perfect {perfect['main']:.3f}"
    ]
    for key in sorted(rules):
        if key != "main":
            out.append(f"  {key:<22} rules {rules[key]:.3f}  perfect {perfect[key]:.3f}")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.labels", description=__doc__)
    parser.add_argument("--bench", help="bench dir (default: ../shared/bench)")
    parser.add_argument("--sets", default=",".join(DEV_SETS))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--limit", type=int, help="at most N pages per set")
    parser.add_argument("--report-only", action="store_true", help="read --out, walk nothing")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "features.json").write_text(json.dumps(NAMES))
    for set_name in args.sets.split(","):
        path = args.out / f"{set_name}.jsonl.gz"
        if not args.report_only:
            pages = load_set(bench_dir(args.bench) / set_name, limit=args.limit)
            with gzip.open(path, "wt", encoding="utf-8") as out:
                for page in pages:
                    out.write(json.dumps(page_record(page), ensure_ascii=False) + "\n")
        print(report(set_name, list(read_records(path))), flush=True)
    print(f"labelled lines in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

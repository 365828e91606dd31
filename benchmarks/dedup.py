"""Reposts found by the main-text fingerprint: precision, recall, cost, memory.

Usage (from the repo root)::

    python -m benchmarks.dedup                       # 10,000 articles, threshold sweep
    python -m benchmarks.dedup --articles 2000 --no-datasketch   # a quick run
    python -m benchmarks.dedup --json dedup.json
    python -m benchmarks.dedup --baseline main      # cost side by side with main's code

The stream of articles is built from the dev sets (nothing of them enters the
repo):

* real stories: every page of every set whose extracted main text has a
  fingerprint; its first appearance is the real page, extracted as is;
* reposts of each story: its extracted main text re-wrapped in another
  portal's template (other navigation, ads, related links, footer), the
  title suffix changed, one paragraph dropped or one added (an update taken
  from another story), whitespace and punctuation changed; extracted again
  with ``extract_article``;
* other stories on the same topics: paragraphs remixed from sentences of all
  stories of the same script (the same vocabulary, the same names, another
  text), each with its own reposts, so the index holds thousands of
  different stories that share many words; and pairs of real stories that
  share the most words stay in as they are.

The stream is shuffled (seeded); an article is a true duplicate when an
earlier one tells the same story, and a flagged article is right only when
the first article it names tells its story. Cost is CPU time
(``time.process_time``, fastest of ``--repeat`` passes; datasketch: one pass)
of ``fingerprint(content)`` plus ``index.add`` per article; extraction is not
counted. Memory is ``MemoryIndex.memory_bytes()``
per article kept. ``datasketch`` (MinHash + MinHashLSH, the same shingles,
64 permutations) runs on the same stream for comparison when installed.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.datasets import available_sets, bench_dir, load_set
from scrapy_cx import extract_article
from scrapy_cx.dedup import DEFAULT_THRESHOLD, MemoryIndex
from scrapy_cx.extract.fields import fingerprint as fp_module

SEED = 11
THRESHOLDS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
_SENTENCE = re.compile(r"[^.!?。！？]+[.!?。！？]*")
_CJK = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")

NAV_WORDS = (
    "Home World Politics Business Markets Technology Science Health Sport Culture Opinion "
    "Travel Style Video Podcasts Weather Local Education Energy Climate Crypto Autos"
).split()
PORTALS = (
    "Daily Courier",
    "News 24",
    "The Post Online",
    "Metro Wire",
    "Global Times Net",
    "InfoBeat",
)


@dataclass(frozen=True, slots=True)
class Article:
    story: int
    url: str
    content: str


def _paragraphs(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _template(rng: random.Random, title: str, paragraphs: Sequence[str], portal: str) -> str:
    """A news page of another portal: its menus, ads, related links and footer."""
    nav = " ".join(f"<a href='/{w.lower()}/'>{w}</a>" for w in rng.sample(NAV_WORDS, 12))
    related = "".join(
        f"<li><a href='/story/{rng.randrange(10**6)}'>{' '.join(rng.sample(NAV_WORDS, 5))}</a></li>"
        for _ in range(rng.randint(3, 8))
    )
    ad = (
        f"<div class='ad'>Advertisement. Sponsored by {rng.choice(NAV_WORDS)} Partners: "
        "subscribe today and save 50 percent on your first year.</div>"
    )
    body = "".join(f"<p>{p}</p>" + (ad if i == 1 else "") for i, p in enumerate(paragraphs))
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title} | {portal}</title>"
        f"</head><body><header><div class='logo'>{portal}</div><nav>{nav}</nav></header>"
        f"<main><article><h1>{title}</h1><p class='byline'>By staff, {portal}</p>{body}"
        f"</article><aside><h3>Related</h3><ul>{related}</ul>{ad}</aside></main>"
        f"<footer>© 2025 {portal}. All rights reserved. <a href='/privacy'>Privacy</a> "
        f"<a href='/terms'>Terms</a></footer></body></html>"
    )


def _retouch(rng: random.Random, paragraph: str) -> str:
    """Whitespace and punctuation changes a repost picks up."""
    out = paragraph
    if rng.random() < 0.5:
        out = out.replace(", ", " ,  ").replace("，", ", ")
    if rng.random() < 0.5:
        out = out.replace(". ", ".\n ").replace('"', "“")
    if rng.random() < 0.3:
        out = out.replace("。", ". ").replace(":", " - ")
    return out


def repost(rng: random.Random, title: str, text: str, other_paragraphs: Sequence[str]) -> str:
    """The story on another portal: one paragraph dropped or added, retouched."""
    paragraphs = _paragraphs(text)
    if len(paragraphs) >= 3 and rng.random() < 0.5:
        paragraphs.pop(rng.randrange(1, len(paragraphs)))
    elif other_paragraphs:
        update = rng.choice(other_paragraphs)
        paragraphs.insert(rng.choice((0, len(paragraphs))), update)
    paragraphs = [_retouch(rng, p) for p in paragraphs]
    return _template(
        rng, title + rng.choice(("", " (updated)", " - report")), paragraphs, rng.choice(PORTALS)
    )


def remix(
    rng: random.Random, sentences: Sequence[str], title_words: Sequence[str]
) -> tuple[str, str]:
    """Another story on the same topics: sentences of many stories, in new paragraphs."""
    paragraphs = [
        " ".join(rng.sample(sentences, rng.randint(2, 4))) for _ in range(rng.randint(3, 9))
    ]
    return " ".join(rng.sample(title_words, 6)), "\n".join(paragraphs)


def _already_told(text: str, owners: dict[str, int], story: int) -> bool:
    """Whether half of the text's word 4-grams (exactly counted) belong to one earlier story."""
    words = re.findall(r"\w", text.casefold()) if _CJK.search(text) else text.casefold().split()
    grams = {" ".join(words[i : i + 4]) for i in range(max(len(words) - 3, 1))}
    counts = Counter(owners[g] for g in grams if g in owners)
    if counts and counts.most_common(1)[0][1] >= len(grams) / 2:
        return True
    for gram in grams:
        owners.setdefault(gram, story)
    return False


def build_stream(total: int, reposts: int, rng: random.Random) -> list[Article]:
    root = bench_dir()
    stories: list[tuple[str, str, Article]] = []  # (title, text for reposts, original)
    owners: dict[str, int] = {}  # word 4-gram -> first story that has it
    merged = 0
    for name in available_sets(root):
        for page in load_set(root / name):
            html = gzip.decompress(page.html) if page.html[:2] == b"\x1f\x8b" else page.html
            article = extract_article(html, page.url)
            if article.fingerprint is None:
                continue
            if _already_told(article.content, owners, len(stories)):
                merged += 1  # the dev sets' own reposts (e.g. lorem ipsum test pages)
                continue
            url = f"https://{name}.example/{page.id}"
            original = Article(len(stories), url, article.content)
            stories.append((article.title or "News", article.content, original))
    print(f"{len(stories)} real stories ({merged} dev pages left out: reposts of another)")
    groups: dict[bool, list[str]] = defaultdict(list)  # CJK or not -> sentences
    titles: dict[bool, list[str]] = defaultdict(list)
    for title, text, _original in stories:
        cjk = bool(_CJK.search(text))
        groups[cjk].extend(s.strip() for s in _SENTENCE.findall(text) if len(s.strip()) > 20)
        titles[cjk].extend(title.split() if not cjk else list(title))
    stream: list[Article] = []
    others = [p for _t, text, _o in stories for p in _paragraphs(text)]

    def add_story(story: int, title: str, text: str, first: Callable[[], Article]) -> None:
        stream.append(first())
        for n in range(reposts):
            html = repost(rng, title, text, others)
            article = extract_article(html, f"https://repost{n}.example/{story}")
            stream.append(Article(story, article.url or "", article.content))

    for title, text, original in stories:
        if len(stream) >= total:
            break
        add_story(original.story, title, text, lambda original=original: original)
    story = len(stories)
    while len(stream) < total:
        cjk = story % 5 == 0 and bool(groups[True])  # a fifth of the remixes in CJK
        title, text = remix(rng, groups[cjk], titles[cjk] * 2)
        html = _template(rng, title, _paragraphs(text), rng.choice(PORTALS))
        first = extract_article(html, f"https://remix.example/{story}")
        add_story(story, title, text, lambda a=first, s=story: Article(s, a.url or "", a.content))
        story += 1
    del stream[total:]
    rng.shuffle(stream)
    return stream


@dataclass
class Score:
    flagged: int = 0
    right: int = 0
    duplicates: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.flagged if self.flagged else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.duplicates if self.duplicates else 1.0


def run_index(
    stream: Sequence[Article], fps: Sequence[str | None], add: Callable[[str, str], str | None]
) -> Score:
    story_of = {a.url: a.story for a in stream}
    seen: set[int] = set()
    score = Score()
    for article, fp in zip(stream, fps, strict=True):
        if article.story in seen:
            score.duplicates += 1
        seen.add(article.story)
        first = add(fp, article.url) if fp is not None else None
        if first is not None:
            score.flagged += 1
            score.right += story_of[first] == article.story
    return score


def _timed_pass(
    stream: Sequence[Article], fingerprint: Callable[[str], str | None], index: Any
) -> tuple[float, list[str | None]]:
    """CPU seconds of fingerprint + lookup over the stream, and the fingerprints."""
    fps: list[str | None] = []
    start = time.process_time()
    for article in stream:
        fp = fingerprint(article.content)
        fps.append(fp)
        if fp is not None:
            index.add(fp, article.url)
    return time.process_time() - start, fps


def load_baseline(ref: str) -> tuple[ModuleType, ModuleType]:
    """The fingerprint and dedup modules as of a git ref, imported from a scratch package."""
    folder = Path(tempfile.mkdtemp(prefix="cx-baseline-"))
    package = folder / "cx_baseline"
    (package / "extract").mkdir(parents=True)
    for path in ("__init__.py", "extract/__init__.py"):
        (package / path).write_text("", encoding="utf-8")
    for path in ("extract/fingerprint.py", "dedup.py"):
        source = subprocess.run(
            ["git", "show", f"{ref}:scrapy_cx/{path}"], capture_output=True, check=True
        ).stdout
        (package / path).write_bytes(source)
    sys.path.insert(0, str(folder))
    try:
        fingerprint = importlib.import_module("cx_baseline.extract.fingerprint")
        return fingerprint, importlib.import_module("cx_baseline.dedup")
    finally:
        sys.path.remove(str(folder))
        shutil.rmtree(folder)


def measure_cx(
    stream: Sequence[Article], threshold: float, repeat: int, baseline: str | None = None
) -> dict[str, Any]:
    """Fingerprint + lookup of every article, ``repeat`` times: the fastest pass counts.

    With a ``baseline`` git ref, its code runs the same passes, interleaved with
    the working tree's (so both see the same machine load), and the ratio is kept.
    """
    seconds = base_seconds = float("inf")
    old = load_baseline(baseline) if baseline else None
    for _ in range(repeat):
        index = MemoryIndex(threshold)
        spent, fps = _timed_pass(stream, fp_module.fingerprint, index)
        seconds = min(seconds, spent)
        if old is not None:
            old_fp, old_dedup = old
            spent, old_fps = _timed_pass(
                stream, old_fp.fingerprint, old_dedup.MemoryIndex(threshold)
            )
            base_seconds = min(base_seconds, spent)
            if old_fps != fps:
                print(f"the fingerprints differ from {baseline}'s: the scheme changed")
    kept = len(index)
    chars = sum(min(len(a.content), fp_module.MAX_CHARS) for a in stream)
    return {
        "ms_per_article": 1000 * seconds / len(stream),
        "ms_per_1000_chars": 1000 * seconds / (chars / 1000),
        "kept": kept,
        "bytes_per_article": index.memory_bytes() / max(kept, 1),
        "fingerprints": fps,
        **({"baseline": baseline, "ratio_to_baseline": seconds / base_seconds} if old else {}),
    }


def measure_datasketch(stream: Sequence[Article], threshold: float) -> dict[str, Any] | None:
    try:
        from datasketch import MinHash, MinHashLSH
    except ImportError:
        return None
    lsh = MinHashLSH(threshold=threshold, num_perm=fp_module.SLOTS)
    tracemalloc.start()
    start = time.process_time()
    score = Score()
    story_of = {a.url: a.story for a in stream}
    seen: set[int] = set()
    for article in stream:
        if article.story in seen:
            score.duplicates += 1
        seen.add(article.story)
        # The same shingles as cx (their CRCs, as bytes: datasketch hashes them again).
        hashes = fp_module._shingle_hashes(article.content[: fp_module.MAX_CHARS])
        if len(set(hashes)) < fp_module.MIN_SHINGLES:
            continue
        shingles = list(map(int.to_bytes, hashes, repeat(4), repeat("little")))
        minhash = MinHash(num_perm=fp_module.SLOTS)
        minhash.update_batch(shingles)
        found = lsh.query(minhash)
        if found:
            score.flagged += 1
            score.right += story_of[found[0]] == article.story
        else:
            lsh.insert(article.url, minhash)
    seconds = time.process_time() - start
    memory = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    kept = len(stream) - score.flagged
    return {
        "ms_per_article": 1000 * seconds / len(stream),
        "precision": score.precision,
        "recall": score.recall,
        "bytes_per_article": memory / max(kept, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=10_000)
    parser.add_argument("--reposts", type=int, default=2, help="reposts per story")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed passes of cx (the fastest counts)"
    )
    parser.add_argument("--no-datasketch", action="store_true")
    parser.add_argument(
        "--baseline", metavar="REF", help="also time the code of this git ref (e.g. main)"
    )
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    stream = build_stream(args.articles, args.reposts, rng)
    duplicates = len(stream) - len({a.story for a in stream})
    print(f"{len(stream)} articles, {len(stream) - duplicates} stories, {duplicates} reposts")
    cx = measure_cx(stream, args.threshold, args.repeat, args.baseline)
    fps = cx.pop("fingerprints")
    print(f"no fingerprint (too short): {sum(f is None for f in fps)}")
    results: dict[str, Any] = {"articles": len(stream), "reposts": duplicates, "cx": cx}
    print("threshold  precision  recall  flagged")
    sweep = {}
    for threshold in sorted({*THRESHOLDS, args.threshold}):
        score = run_index(stream, fps, MemoryIndex(threshold).add)
        sweep[threshold] = {"precision": score.precision, "recall": score.recall}
        mark = "  <- default" if threshold == args.threshold else ""
        figures = f"{score.precision:9.4f}  {score.recall:6.4f}  {score.flagged:7d}"
        print(f"{threshold:9.2f}  {figures}{mark}")
    results["sweep"] = sweep
    print(
        f"cx: {cx['ms_per_article']:.3f} ms/article (CPU, fingerprint + lookup), "
        f"{cx['ms_per_1000_chars']:.3f} ms per 1,000 characters read, "
        f"{cx['bytes_per_article']:.0f} bytes per article kept ({cx['kept']} kept)"
    )
    if args.baseline:
        print(
            f"CPU time / {args.baseline}'s, same passes interleaved: {cx['ratio_to_baseline']:.3f}"
        )
    if not args.no_datasketch:
        other = measure_datasketch(stream, args.threshold)
        if other is None:
            print("datasketch: not installed (pip install datasketch)")
        else:
            results["datasketch"] = other
            print(
                f"datasketch MinHashLSH: {other['ms_per_article']:.3f} ms/article "
                f"({other['ms_per_article'] / cx['ms_per_article']:.1f}x cx), precision "
                f"{other['precision']:.4f}, recall {other['recall']:.4f}, "
                f"{other['bytes_per_article']:.0f} bytes per article kept (tracemalloc)"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Command line: ``scrapy-cx extract PATH... -o articles.jsonl`` (or ``python -m scrapy_cx``).

Extracts articles from saved pages without crawling: HTML files, folders of
them (``.gz`` too) and WARC archives, on all cores. One JSON object per line
goes to the output; progress and a summary go to stderr.
``scrapy-cx explain PAGE -o report.html`` shows why a page gave its article.
"""

from __future__ import annotations

import argparse
import codecs
import json
import math
import signal
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import ExitStack, closing, suppress
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO, cast
from urllib.parse import urlsplit

from . import explain, zyte
from .article import FORMATS, Article, check_formats
from .bulk import (
    HTML_SUFFIXES,
    MarkdownDir,
    MissingDependency,
    Options,
    Outcome,
    PageFile,
    Progress,
    RawPage,
    Replacement,
    Skip,
    Sources,
    Summary,
    clash,
    default_jobs,
    drop_duplicates,
    extract_all,
    printable,
    read_stdin,
    require_warcio,
    say,
)
from .dedup import MemoryIndex
from .settings import ITEM_SCHEMAS, CxSettings

EXIT_CODES = """exit status:
  0    every path was read (pages that are not articles are skipped, never fatal)
  1    a path named on the command line does not exist, or is a folder with no HTML
       or WARC file in it (the others were read)
  2    bad arguments, an unwritable output, an output that is an input, or warcio
       missing for a WARC
  3    a WARC archive was damaged: records of it were lost (each is a "damaged WARC"
       skip; the intact records after a damaged gzip member are read)
  130  interrupted"""
#: A named path that does not exist: reported, skipped, the run goes on (exit 1).
MISSING = "no such file or folder"
#: The path that names standard input, as ``-o -`` names standard output.
STDIN_PATH = "-"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _probability(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:  # also refuses nan
        raise argparse.ArgumentTypeError("must be a number from 0 to 1")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value >= 0):  # nan and inf are no deadline
        raise argparse.ArgumentTypeError("must be a finite number of seconds >= 0")
    return value


def _http_address(text: str) -> str:
    """An absolute http(s) address with a host (what ``--base-url`` takes)."""
    parts = urlsplit(text.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError("must be an http(s) address: https://host/path/")
    return text.strip()


def _formats(text: str) -> tuple[str, ...]:
    """``html,markdown`` as ``CX_FORMATS`` reads it (the same names, checked the same way)."""
    try:
        return CxSettings(formats=tuple(check_formats(text))).formats
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class _MarkdownFailed(Exception):
    """A Markdown file could not be written: the run stops, the message names the folder."""


def _moment(text: str) -> datetime:
    """An ISO 8601 date or date and time; without a zone, UTC."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError("must be an ISO 8601 date or time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM ends the run like Ctrl-C: the workers are killed, the summary printed."""
    raise KeyboardInterrupt


def _encoding(text: str) -> str:
    try:
        return codecs.lookup(text).name
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scrapy-cx", description="News article extraction (title, date, main text)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_extract(commands)
    explain.add_command(commands)
    return parser


def _add_extract(commands: Any) -> None:
    """The ``extract`` command's arguments."""
    extract = commands.add_parser(
        "extract",
        help="extract articles from HTML files, folders and WARC archives",
        description="Extract articles from HTML files (.html, .htm, also .gz), folders of them "
        "(walked recursively) and WARC/ARC archives (.warc, .warc.gz). Writes one JSON object "
        "per article per line.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    extract.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="file, folder or WARC archive; '-' reads one page from standard input",
    )
    extract.add_argument(
        "-o",
        "--output",
        default="-",
        help="JSON lines file to write ('-' for stdout, default); a name ending in .csv gets "
        "CSV, as a crawl's CSV export (nested fields as JSON)",
    )
    extract.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        default=default_jobs(),
        help="worker processes (default: all cores, %(default)s here)",
    )
    extract.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar and no summary"
    )
    extract.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list every skipped page or file and why, on stderr, as it happens",
    )
    extract.add_argument(
        "--min-content-length",
        type=_non_negative,
        default=CxSettings.min_content_length,
        metavar="N",
        help="skip pages whose main text has fewer characters (default %(default)s)",
    )
    extract.add_argument(
        "--min-probability",
        type=_probability,
        default=CxSettings.min_article_probability,
        metavar="P",
        help="skip pages whose article_probability is below P, as CX_MIN_ARTICLE_PROBABILITY "
        "(default %(default)s: none)",
    )
    extract.add_argument(
        "--encoding",
        type=_encoding,
        metavar="ENC",
        help="encoding for pages whose HTTP headers declare none (files always); by default "
        "it is read from <meta charset> or detected",
    )
    extract.add_argument(
        "--reference-time",
        type=_moment,
        metavar="ISO",
        help='the moment relative and year-less dates ("3 hours ago", "09-30 22:46") count '
        "from, for every page; by default each page's own: a WARC record's WARC-Date, a "
        "file's modification time",
    )
    extract.add_argument(
        "--page-timeout",
        type=_seconds,
        default=CxSettings.page_timeout,
        metavar="S",
        help="skip a page that takes a worker longer than this, in seconds; 0: no limit "
        "(default %(default)s; with -j 1 there is no limit)",
    )
    extract.add_argument(
        "--max-page-bytes",
        type=_positive,
        default=CxSettings.max_body_size,
        metavar="N",
        help="skip pages larger than this (default %(default)s)",
    )
    extract.add_argument(
        "--dedup",
        action="store_true",
        help="leave out reposts: articles whose main text is a near duplicate of an earlier "
        "one (input order); the summary counts them",
    )
    _add_output_options(extract)


def _add_output_options(extract: argparse.ArgumentParser) -> None:
    """What ``extract`` writes, beside the JSON lines, and what it reads from stdin."""
    extract.add_argument(
        "--text",
        action="store_true",
        help="write each article as its title, then its text, a blank line between "
        "articles, instead of JSON lines (a quick look)",
    )
    extract.add_argument(
        "--url",
        metavar="URL",
        help="the address of the page read from standard input ('-'): its links, pictures "
        "and site name are read against it",
    )
    extract.add_argument(
        "--base-url",
        type=_http_address,
        metavar="URL",
        help="where the saved pages were saved from, so their relative pictures and links "
        "resolve: a folder's files are their paths under it read below URL, a file named "
        "on its own is URL (by default each page's <base href>, canonical URL or og:url)",
    )
    extract.add_argument(
        "--format",
        type=_formats,
        default=CxSettings.formats,
        metavar="FMT[,FMT]",
        help=f"what to make beside the text, as CX_FORMATS: {', '.join(FORMATS)} "
        f"(default {','.join(CxSettings.formats)}; '' for the text only)",
    )
    extract.add_argument(
        "--schema",
        type=_schema,
        choices=ITEM_SCHEMAS,
        default=CxSettings.item_schema,
        help="the lines' schema, as CX_ITEM_SCHEMA: cx (default) or zyte (zyte_common_items."
        "Article and our other fields, scrapy_cx.zyte.CxArticle; needs the zyte extra)",
    )
    extract.add_argument(
        "--markdown-dir",
        metavar="DIR",
        help="also write each article to DIR as a Markdown file named after its URL (front "
        "matter, then the body; implies --format markdown)",
    )


def _schema(value: str) -> str:
    """``--schema``: ``zyte`` only with its package installed (exit status 2 otherwise)."""
    if value == "zyte" and not zyte.installed():
        raise argparse.ArgumentTypeError(f"zyte needs zyte-common-items: {zyte.INSTALL}")
    return value


def _options(args: argparse.Namespace) -> Options:
    """What each worker needs: the crawl's settings, with the command's choices."""
    formats = (*args.format, "markdown") if args.markdown_dir else args.format
    settings = CxSettings(
        min_content_length=args.min_content_length,
        formats=formats,
        min_article_probability=args.min_probability,
        item_schema=args.schema,
    )
    return Options(
        settings,
        args.encoding,
        markdown=args.markdown_dir is not None,
        reference_time=args.reference_time,
    )


def _markdown_dir(args: argparse.Namespace, paths: list[str]) -> MarkdownDir | str | None:
    """The ``--markdown-dir`` folder, made if need be; or why it cannot be used."""
    if args.markdown_dir is None:
        return None
    why = clash(args.markdown_dir, paths)
    if why is not None:  # its files would land among the pages still to be read
        return f"refusing to write Markdown files into {args.markdown_dir}: {why}"
    try:
        Path(args.markdown_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot write {args.markdown_dir}: {exc.strerror or exc}"
    return MarkdownDir(args.markdown_dir, paths)


def _write_markdown(folder: MarkdownDir | None, outcome: Outcome, number: int) -> None:
    if folder is None or outcome.markdown is None:
        return
    try:
        folder.write(outcome.url, outcome.markdown, number)
    except OSError as exc:  # a disk full, the folder removed: the rest would fail alike
        raise _MarkdownFailed(
            f"cannot write Markdown files into {folder.folder}: {exc.strerror or exc}"
        ) from exc


def _is_csv(output: str) -> bool:
    return output.lower().endswith(".csv")


def _writer(args: argparse.Namespace, out: BinaryIO) -> Callable[[bytes], object]:
    """How each article's JSON line reaches the output: as it is, as ``--text``, or as a
    CSV row for a ``.csv`` output (the name promises CSV; JSON lines in it read as junk)."""
    if args.text:
        return lambda line: out.write(_as_text(line))
    if not _is_csv(args.output):
        return lambda line: out.write(line + b"\n")
    # The crawl's own CSV export (Scrapy's CsvItemExporter, nested fields as JSON cells,
    # UTF-8, the article's columns): a bulk .csv reads like `scrapy crawl -O x.csv`.
    from .items import JsonCellCsvItemExporter

    # Scrapy annotates the file as BytesIO; any binary file does (a feed's is a real file).
    exporter = JsonCellCsvItemExporter(cast(BytesIO, out), fields_to_export=_columns(args.schema))
    exporter.start_exporting()
    return lambda line: exporter.export_item(json.loads(line))


def _columns(schema: str) -> list[str]:
    """A CSV output's columns: the item's fields, in its order (Zyte's ``CxArticle``'s for
    ``--schema zyte``: its lines have no field of ours by our name)."""
    if schema == "zyte":
        import attrs

        return [field.name for field in attrs.fields(zyte.CxArticle)]
    return list(Article.field_names())


def _as_text(line: bytes) -> bytes:
    """An article's JSON line as ``--text`` shows it: the title, the text, a blank line."""
    article = json.loads(line)
    return f"{article.get('title') or ''}\n{article.get('content') or ''}\n\n".encode()


def _stdin_pages(args: argparse.Namespace) -> list[RawPage | Skip]:
    """The page piped in, when ``-`` is among the paths (read once, however often named)."""
    if STDIN_PATH not in args.paths:
        return []
    at = args.reference_time or datetime.now(timezone.utc)
    url = args.url or args.base_url
    return [read_stdin(sys.stdin.buffer, args.max_page_bytes, url, at)]


def _output_refused(args: argparse.Namespace, paths: list[str]) -> str | None:
    """Why ``-o`` may not be written, or None."""
    if args.text and _is_csv(args.output):
        return "--text writes plain text, not CSV"
    if args.output == "-":
        return None
    return clash(args.output, paths)  # opening it would truncate what is still to be read


def _sources(args: argparse.Namespace, paths: list[str]) -> tuple[Sources, list[str]]:
    """The pages to read, and the paths named that do not exist; each of those, and each
    folder named that holds no page, is said (the run goes on; it exits 1)."""
    missing = [p for p in paths if not Path(p).exists()]
    for path in missing:
        say(f"{MISSING}: {path} (skipped)")
    sources = Sources([p for p in paths if p not in missing], args.max_page_bytes, args.base_url)
    for path in sources.without_html:
        say(f"no HTML found in {path} (no {', '.join(HTML_SUFFIXES)} or WARC file in it)")
    return sources, missing


def run_extract(args: argparse.Namespace) -> int:
    to_stdout = args.output == "-"
    paths = [p for p in args.paths if p != STDIN_PATH]
    why = _output_refused(args, paths)
    if why is not None:
        say(f"refusing to write {args.output}: {why}")
        return 2
    markdown = _markdown_dir(args, paths)
    if isinstance(markdown, str):
        say(markdown)
        return 2
    sources, missing = _sources(args, paths)
    piped = _stdin_pages(args)
    if sources.has_warc():
        try:
            require_warcio()
        except MissingDependency as exc:
            say(str(exc))
            return 2
    show = not args.quiet and sys.stderr.isatty() and not (to_stdout and sys.stdout.isatty())
    progress = Progress(sys.stderr, sources.total_bytes, enabled=show)
    summary = Summary(missing=len(missing), without_html=len(sources.without_html))
    with ExitStack() as stack:
        try:  # written beside, renamed into place at the end: a failed run leaves the old file
            target = None if to_stdout else stack.enter_context(Replacement(args.output))
        except OSError as exc:  # a missing folder, no permission, a read-only disk
            say(f"cannot write {args.output}: {exc.strerror or exc}")
            return 2
        out: BinaryIO = sys.stdout.buffer if target is None else target.file
        write = _writer(args, out)
        # The reader runs ahead of the results: remember how far it was at each
        # page so the bar shows the input done, not the input read.
        read_up_to: deque[int] = deque()

        def tracked() -> Iterator[RawPage | PageFile | Skip]:
            for page in piped:
                read_up_to.append(0)
                yield page
            for item in sources.listing():  # files listed: each worker reads its pages
                read_up_to.append(sources.done_bytes)
                yield item

        pooled: Generator[Outcome, None, None] = extract_all(
            tracked(), _options(args), args.jobs, timeout=args.page_timeout or None
        )
        outcomes: Iterator[Outcome] = stack.enter_context(closing(pooled))
        if args.dedup:
            outcomes = drop_duplicates(outcomes, MemoryIndex())
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            for outcome in outcomes:
                summary.add(outcome)
                if outcome.line is not None:
                    line = outcome.line
                    write(line)
                    _write_markdown(markdown, outcome, summary.pages)
                elif args.verbose:
                    progress.write(printable(f"skipped {outcome.source}: {outcome.reason}"))
                progress.update(summary.pages, summary.articles, read_up_to.popleft())
            if target is None:
                out.flush()
            else:
                target.commit()
        except MissingDependency as exc:  # a WARC found inside a folder, warcio absent
            progress.close()
            say(str(exc))
            return 2
        except _MarkdownFailed as exc:
            progress.close()
            say(str(exc))
            return 2
        except BrokenPipeError:
            raise
        except OSError as exc:  # the output failed mid-run (disk full): say so in one line
            progress.close()
            if target is None:
                with suppress(OSError):  # closing flushes the same unwritable bytes again
                    out.close()
            say(f"cannot write {args.output}: {exc.strerror or exc}")
            return 2
        except KeyboardInterrupt:
            progress.close()
            summary.stop()
            pooled.close()  # kills the workers now, before the summary
            kept = "" if target is None else f" ({printable(args.output)} left as it was)"
            print(f"interrupted{kept}\n" + summary.format(args.jobs), file=sys.stderr)
            return 130
        finally:
            signal.signal(signal.SIGTERM, previous)
    progress.close()
    summary.stop()
    if not args.quiet:
        print(summary.format(args.jobs), file=sys.stderr)
        if markdown is not None:
            say(f"{markdown.written:,} Markdown files in {args.markdown_dir}")
    return 1 if missing or sources.without_html else 3 if summary.damaged else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``scrapy-cx`` console script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "extract":
            return run_extract(args)
        if args.command == "explain":
            return explain.run_command(args)
    except BrokenPipeError:  # e.g. `scrapy-cx extract ... | head`
        sys.stderr.close()
        return 141
    return 2


if __name__ == "__main__":
    sys.exit(main())

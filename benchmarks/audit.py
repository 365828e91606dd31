"""Audited labels: silver truth a person checked against the page and found wrong.

An audit file (``benchmarks/audits/*.json``) names its set and holds one or
both sections, each keyed by page id::

    {"about": "...", "set": "wceb_dev",
     "dates": {"0007": {"silver": "2025-08-19", "audited": "2025-01-29", "why": "..."}},
     "page_types": {"0898": {"silver": "forum", "audited": "article", "why": "..."}}}

A page type is written in the set's own vocabulary (article, blog, forum,
product, service, documentation, listing, collection), so an audited page is
grouped and scored exactly as a silver one would be; ``other`` (scored as the
class other) is there for a page that is none of those kinds, such as a bot
check or a saved "not found" page. The accepted values are the keys of
:data:`~benchmarks.metrics.PAGE_CLASS_OF`. A page whose silver label is no
longer the one the audit names is left alone (the set changed under the
audit), and every replacement is reported, so a run says what it scored.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from .datasets import BenchPage
from .metrics import PAGE_CLASS_OF

# Audit section -> the BenchPage field it replaces.
SECTIONS = {"dates": "date", "page_types": "page_type"}


def load_audit(path: Path) -> dict[str, Any]:
    """The audit file, checked: a known section, and page types the set's scorer knows."""
    audit: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if "set" not in audit or not any(s in audit for s in SECTIONS):
        raise ValueError(f"{path}: an audit needs 'set' and one of {sorted(SECTIONS)}")
    for page_id, fix in audit.get("page_types", {}).items():
        if fix.get("audited") not in PAGE_CLASS_OF:
            raise ValueError(f"{path}: page {page_id}: unknown page type {fix.get('audited')!r}")
    return audit


def apply_audit(pages_by_set: dict[str, list[BenchPage]], path: Path) -> list[str]:
    """Replace, in place, the labels the audit at ``path`` corrects; one line per change.

    The last line counts, per section, the replacements made of those listed.
    """
    audit = load_audit(path)
    set_name = audit["set"]
    pages = pages_by_set.get(set_name)
    if not pages:
        return []
    lines, counts = [], []
    for section, attr in SECTIONS.items():
        fixes = audit.get(section)
        if fixes is None:
            continue
        replaced = 0
        for i, page in enumerate(pages):
            fix = fixes.get(page.id)
            if fix is None or getattr(page, attr) != fix["silver"]:
                continue
            pages[i] = replace(page, **{attr: fix["audited"]})
            replaced += 1
            lines.append(
                f"  {set_name} {page.id} {attr}: {fix['silver']} -> {fix['audited']}"
                f"  ({fix.get('why', '')})"
            )
        label = attr.replace("_", " ")
        counts.append(f"{replaced} of {len(fixes)} {label} labels")
    lines.append(f"{set_name}: {', '.join(counts)} replaced by {path}")
    return lines

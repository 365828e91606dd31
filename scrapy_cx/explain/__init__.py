"""``scrapy-cx explain``: why a page gave the article it gave.

:func:`explain_page` runs the core once and keeps what it saw; the report is
rendered as one self-contained HTML file (with the line-block figure as SVG) or
as a terminal summary.
"""

from ._cli import add_parser as add_command
from ._cli import run as run_command
from ._explanation import Explanation, FieldSource, Kind, ShownLine, explain_page

__all__ = [
    "Explanation",
    "FieldSource",
    "Kind",
    "ShownLine",
    "add_command",
    "explain_page",
    "run_command",
]

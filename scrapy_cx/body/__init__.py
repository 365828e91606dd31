"""Untrusted bodies before extraction: what they are, and inflating them within a limit.

Shared by the crawl's middlewares (``sizeguard``, ``middleware``) and the bulk
readers, so a body is judged the same way however it arrived.
"""

from ._inflate import TooLarge, decoded_size_over, inflate
from ._inflate import supported as supported_coding
from ._sniff import binary_kind, looks_binary, not_html_reason

__all__ = [
    "TooLarge",
    "binary_kind",
    "decoded_size_over",
    "inflate",
    "looks_binary",
    "not_html_reason",
    "supported_coding",
]

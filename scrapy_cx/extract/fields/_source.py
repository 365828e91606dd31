"""The agency or outlet a page names as its source ("来源：新华社", "(Reuters)", an
agency given as the author): kept apart, as a news agency is never a person.
"""

from __future__ import annotations

import re

from ..parse.lines import Line
from ._bylines import MAX_LINE
from ._names import AGENCY_KEYS

_MAX_SOURCE = 30  # characters of a "来源：" value worth keeping
# Agencies named in a line's text: a Chinese one as it is, another in brackets.
_ZH_AGENCIES = ("新华社", "新華社", "中新社", "中国新闻社", "中央社", "共同通信", "時事通信")
_AGENCY_IN_TEXT = re.compile(
    "(?P<zh>" + "|".join(_ZH_AGENCIES) + ")"
    r"|[(（](?P<en>Reuters|AP|AFP|dpa|Xinhua|Kyodo|Yonhap|Bloomberg|PTI|IANS|ANI|UPI|EFE|ANSA)"
    r"[)）]"
)
# Where a match of _AGENCY_IN_TEXT may start (its first characters): found by a quick
# search, from which the pattern is tried, not from every character of the line.
_AGENCY_START = re.compile("[" + "".join(dict.fromkeys(a[0] for a in _ZH_AGENCIES)) + "(（]")
# "Saibal Dasgupta / TNN / Updated ...": the fields of a byline.
_FIELD_SPLIT = re.compile(r"\s[/|]\s")
_SOURCE_LABEL = re.compile(r"(?:来源|來源|稿源|出处|出處)\s?[:：]\s?(?P<v>[\w·．.（）()&-]{2,30})")
# Where a "来源：" value ends when the spans of an info bar are glued together.
_SOURCE_END = re.compile(
    r"[:：]|作者|编辑|編輯|责任|責任|時間|时间|日期|发布|發布|记者|記者|浏览|瀏覽|点击|點擊|阅读|閱讀|字号|"
    r"评论|評論|分享|打印"
)
_NOT_SOURCE = re.compile(
    r"本站|本网|本網|原创|原創|网络|網絡|互联网|互聯網|未知|转载|轉載|网友|網友|"
    r"^[a-z]+$"  # markup shown as text: 来源： size="20"
)


def find_source(meta_authors: list[str], lines: list[Line], lo: int, hi: int) -> str | None:
    """The agency or originating outlet the page names: "来源：新华社", "(Reuters)", or an
    agency given as the author."""
    for raw in meta_authors:
        agency = AGENCY_KEYS.get(raw.strip().casefold())
        if agency:
            return agency
    for line in lines[lo:hi]:
        text = line.text[:MAX_LINE]
        m = _SOURCE_LABEL.search(text)
        if m is not None and not _NOT_SOURCE.search(m.group("v")):
            value = _SOURCE_END.split(m.group("v"))[0]
            if 2 <= len(value) <= _MAX_SOURCE:
                return value
        m = _agency_in(text)
        if m is not None and line.length <= MAX_LINE:
            return m.group("zh") or m.group("en")
        if "/" not in text and "|" not in text:
            continue  # no fields to split
        for part in _FIELD_SPLIT.split(text)[1:3]:
            agency = AGENCY_KEYS.get(part.strip().casefold())
            if agency:
                return agency
    return None


def _agency_in(text: str) -> re.Match[str] | None:
    """``_AGENCY_IN_TEXT.search(text)``, tried from the first character a match can start with."""
    first = _AGENCY_START.search(text)
    return None if first is None else _AGENCY_IN_TEXT.search(text, first.start())

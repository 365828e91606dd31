"""The cx1 fingerprint: reposts and updates agree, other stories do not, short texts have none."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_cx import extract_article
from scrapy_cx.dedup import DEFAULT_THRESHOLD
from scrapy_cx.extract.fields.fingerprint import (
    _CJK_LEADS,
    _CJK_RANGES,
    CJK_SHINGLE,
    MIN_SHINGLES,
    SCHEME,
    SLOTS,
    WORD_SHINGLE,
    _nfkc,
    _shingle_hashes,
    _unicode_hashes,
    fingerprint,
    signature,
    similarity,
)
from tests.extract.prose import BRIDGE_STORY, EN_SENTENCES, paragraphs

ZH_STORY = [
    "本报讯 昨日上午，市政府召开新闻发布会，宣布今年将投入十二亿元改造老城区的供水管网，"
    "预计惠及沿江三个街道的八万多户居民。",
    "据介绍，老城区现有供水管道大多铺设于上世纪八十年代，管材老化、漏损严重，"
    "夏季用水高峰时部分高层住户经常出现水压不足的情况。",
    "改造工程将分三期进行，第一期计划于五月动工，优先更换医院、学校周边的主干管道，"
    "施工期间将采取夜间作业和分段停水的方式，尽量减少对居民生活的影响。",
    "市水务局负责人表示，工程完工后，管网漏损率有望从目前的百分之十八降至百分之九以下，"
    "每年可节约自来水约六百万吨。",
]
ZH_OTHER_STORY = [
    "本报讯 昨日上午，市政府召开新闻发布会，通报今年一季度全市经济运行情况，"
    "地区生产总值同比增长百分之五点六，高于全省平均水平。",
    "据介绍，一季度全市规模以上工业增加值增长百分之七，其中电子信息和新能源汽车产业"
    "增势明显，成为拉动增长的主要力量。",
    "消费市场持续回暖，社会消费品零售总额同比增长百分之六点二，餐饮、旅游等服务消费"
    "恢复较快，节假日期间各大商圈客流量创下新高。",
    "市统计局负责人表示，下一步将继续加强经济运行监测分析，为全年目标的实现打下坚实基础。",
]


def same_story(a: str | None, b: str | None) -> bool:
    assert a is not None and b is not None
    return similarity(a, b) >= DEFAULT_THRESHOLD


def retouched(text: str) -> str:
    """Other whitespace and punctuation, as a repost has them."""
    return (
        text.replace(", ", " ,  ")
        .replace(". ", ".\n\n")
        .replace("，", ",")
        .replace("。", ". ")
        .replace("\u201c", '"')
    )


def test_scheme_and_shape() -> None:
    fp = fingerprint("\n".join(BRIDGE_STORY))
    assert fp is not None
    assert fp.startswith(f"{SCHEME}:")
    assert len(signature(fp)) == 2 * SLOTS
    assert similarity(fp, fp) == 1.0


def test_english_repost_with_other_punctuation_and_a_paragraph_cut() -> None:
    story = "\n".join(BRIDGE_STORY)
    repost = retouched("\n".join(BRIDGE_STORY[:3] + BRIDGE_STORY[4:])).upper()
    assert same_story(fingerprint(story), fingerprint(repost))


def test_chinese_repost_with_other_punctuation_and_a_paragraph_cut() -> None:
    story = "\n".join(ZH_STORY)
    repost = retouched("\n".join(ZH_STORY[:2] + ZH_STORY[3:]))
    assert same_story(fingerprint(story), fingerprint(repost))


@pytest.mark.parametrize("story", [BRIDGE_STORY, ZH_STORY], ids=["en", "zh"])
def test_update_with_a_paragraph_added_is_the_same_story(story: list[str]) -> None:
    update = (
        "Update: the council has published the detour map."
        if story is BRIDGE_STORY
        else "更新：市水务局已公布第一期施工路段和停水时间表，市民可登录官网查询。"
    )
    assert same_story(fingerprint("\n".join(story)), fingerprint("\n".join([update, *story])))


def test_two_stories_from_the_same_template_are_not_duplicates() -> None:
    def page(title: str, body: list[str]) -> str:
        return (
            f"<html><head><title>{title} | Gazette</title></head><body>"
            "<nav><a href='/'>Home</a> <a href='/city'>City</a></nav>"
            f"<article><h1>{title}</h1>{paragraphs(*body)}</article>"
            "<footer>Copyright Gazette. All rights reserved. Contact the newsroom.</footer>"
            "</body></html>"
        )

    bridge = extract_article(page("Bridge to be rebuilt", BRIDGE_STORY), "http://a/1")
    buses = extract_article(page("Night buses to the airport", list(EN_SENTENCES)), "http://a/2")
    assert bridge.fingerprint is not None and buses.fingerprint is not None
    assert not same_story(bridge.fingerprint, buses.fingerprint)
    assert similarity(bridge.fingerprint, buses.fingerprint) < 0.2


def test_two_chinese_stories_with_the_same_opening_are_not_duplicates() -> None:
    a, b = fingerprint("\n".join(ZH_STORY)), fingerprint("\n".join(ZH_OTHER_STORY))
    assert a is not None and b is not None
    assert similarity(a, b) < 0.2


@pytest.mark.parametrize(
    "text", [None, "", "   \n  ", "Short note.", "短讯：今日无事。", "word " * (MIN_SHINGLES // 2)]
)
def test_empty_and_very_short_texts_have_no_fingerprint(text: str | None) -> None:
    assert fingerprint(text) is None


def test_extraction_fills_the_field() -> None:
    html = (
        f"<html><body><article><h1>Bridge</h1>{paragraphs(*BRIDGE_STORY)}</article></body></html>"
    )
    article = extract_article(html, "http://a/1")
    assert article.fingerprint == fingerprint(article.content)
    assert article.fingerprint is not None


def test_stable_across_processes_with_other_hash_seeds() -> None:
    # Python's hash() is salted per process; the fingerprint must not depend on it.
    code = (
        "from scrapy_cx.extract.fields.fingerprint import fingerprint; "
        "from tests.extract.prose import BRIDGE_STORY; "
        "print(fingerprint('\\n'.join(BRIDGE_STORY)))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert outputs == {fingerprint("\n".join(BRIDGE_STORY))}


# The scheme is a contract (stored fingerprints are compared with new ones):
# these values were computed once, by the released cx1 code; a change here is a
# breaking change (new prefix). The texts cover every road: ASCII, Latin with
# accents and typographic punctuation, CJK, a short text (densified slots)
# and long ones (the cut-off that filters hashes before the minima).
PINNED_TEXTS = {
    "en": "\n".join(BRIDGE_STORY),
    "zh": "\n".join(ZH_STORY),
    "fr": "« Le conseil municipal a voté mardi soir la rénovation complète du pont "
    "Saint-Étienne », "
    "a déclaré la maire — les travaux dureront dix-huit mois et coûteront 12,5 millions d’euros. "
    "Les piétons pourront traverser pendant toute la durée du chantier, mais les voitures "
    "devront emprunter le pont Neuf ; les bus seront déviés par la rive gauche.",
    "short": " ".join(f"w{i}" for i in range(30)),
    "words40": " ".join(f"word{i}" for i in range(40)),
    "long": " ".join(f"word{i * 7 % 1000}" for i in range(900)),
    "cjk_long": "".join(chr(0x4E00 + i * 7919 % 20000) for i in range(900)),
}
PINNED = {
    "en": (
        "cx1:b88812bb5951f5ad3816aec8d47dc6b4d7522806699ecfad1002a9d22dda"
        "45aa958af753444aa613252eb2ca14939b572699e13e4307454daf8165bf4716"
        "4694099f143ff53efa459a345af2d6152d857f5407751ca3ec11e2a601c6638d"
        "5612bd9a1f6307f92d4432eb222a21a09bd27cf5d4eea2d4cd276f4cd1158387"
        "6bf6"
    ),
    "zh": (
        "cx1:905c62ad6b9f5d01b106040a024e50c79633313812c8feff6365dd0f0583"
        "3f46ad63126eb184c3c5f7194d6742ab8a0cd246aea632319e07c7c77a9d265e"
        "c27d2d33d36e4ff4d521e8267e84a3e92dcbf38faed50c7dc06d2236c6cc74bd"
        "bfec48d1efeb00d7a2608a7fa221b498fb5b1ba97d728ba1abceca7c84561de2"
        "a752"
    ),
    "fr": (
        "cx1:eb824d4baf14f43655ff6181c34a08ff6ac88e42dfdf380399cc6c70ece0"
        "4ea9a63507fe69c71b745ae73261e41845e1a7aa097336699832f9fb7fe978fd"
        "9a76fc3f5d4737b97c7dde46c38eaa2f9241f40a706cd235dcc33e8c07bcaf8f"
        "4dc2471ca8e50aae6c776043c20c23d5b5ac2153b1c37092d9d53b9e9d67ff30"
        "60f9"
    ),
    "short": (
        "cx1:2eed90b6f27f5448b611f0b4f5ab5774603fc2084590a759b42a15f35b8f"
        "bd581f2180ea9906facfa61907e269abcb74ffe761b0ea152f5b91248c9dee66"
        "502fb1f813c1758af5d4579db9664431a6ec08b52fda2f6c9135df4e9159f322"
        "54eba72608efe98a8dc4ef8d5156b31f14e876b1d87a3a439c0cfdd55f9ec167"
        "cd24"
    ),
    "words40": (
        "cx1:64e4c6ad28768a3fec084dd1af9a116369c8cb914249a41205db67a426e8"
        "d68938529a1bfbe411fd1e6880315ef7d64038099731f8fa5ac3b7bafa105bd9"
        "3abe9c87fe506094ca5b2c248ded7aa06407c5d0950bf6d4589dba66d833d484"
        "364d9816f9df7256d41f35e897b18e3fc4dd26a6213983024d43a03a084d6a16"
        "cbdf"
    ),
    "long": (
        "cx1:4a9af453a082ec98af53ec85ec4bf75f72378bea9a81b8ecd6ae7e2226c8"
        "6ac263df6a3c3d4c2f96a7ae296a9a1fc4c3c5c3a9d1138cb8e267b229b3fc0c"
        "b0bcac8f91cc8350fd694afa35f7c5695ef67a271ec25941cf2f9f8f41597354"
        "e98bcac1948acb337c763f79f4c68c35c03f1e9f3edef014e1d90a724c7311a8"
        "b02f"
    ),
    "cjk_long": (
        "cx1:f54aea4dff0c0043402f3dcc98f435453e0582caa1719506c4621fe087df"
        "47595df82f3b930016b4f8f345fa11f028b19be182a60aab0147bf2c8d5c06a5"
        "2f2820acc0a61265582cd268717c0433f3f8140b8cf461e7837c62225224bb8e"
        "9c3b9dcdd97f1de074f38c251d14b6ed0ba4cb9e6564ecde63662ed9cf2b6557"
        "a19c"
    ),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_cx1_scheme_does_not_drift(name: str) -> None:
    assert fingerprint(PINNED_TEXTS[name]) == PINNED[name]


def test_not_a_fingerprint_is_refused() -> None:
    with pytest.raises(ValueError, match="not a cx1 fingerprint"):
        signature("cx0:abcd")


_PUNCTUATION = [chr(c) for c in (*range(0x00A0, 0x00C0), 0xD7, 0xF7, *range(0x2000, 0x2070))]
_ASCII_AND_PUNCTUATION = st.lists(
    st.tuples(
        st.text(alphabet="abcXYZ019_'", min_size=1, max_size=6),
        st.text(alphabet=st.sampled_from([*_PUNCTUATION, " ", ",", "\n"]), min_size=1, max_size=3),
    ),
    min_size=4,
    max_size=30,
).map(lambda pairs: "".join(word + gap for word, gap in pairs))


@given(_ASCII_AND_PUNCTUATION)
@settings(max_examples=300, deadline=None)
def test_the_fast_road_for_latin_text_gives_the_unicode_roads_shingles(text: str) -> None:
    # Latin text with curly quotes, dashes or no-break spaces skips NFKC and the
    # Unicode regex; what it hashes must be what the full road hashes.
    assert _shingle_hashes(text) == _unicode_hashes(text)


_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def reference_hashes(text: str) -> list[int]:
    """The cx1 shingles as its docstring words them, one string at a time."""
    text = unicodedata.normalize("NFKC", text).casefold()
    words = re.findall(f"[^\\W_{_CJK}]+", text)
    chars = re.findall(f"[{_CJK}]", text)
    runs = [" ".join(words[i : i + WORD_SHINGLE]) for i in range(len(words) - WORD_SHINGLE + 1)]
    runs += ["".join(chars[i : i + CJK_SHINGLE]) for i in range(len(chars) - CJK_SHINGLE + 1)]
    return [zlib.crc32(run.encode()) for run in runs]


# Every road: ASCII, accents, typographic and fullwidth punctuation, CJK,
# compatibility characters that NFKC expands ("\u3300" is four katakana,
# "\u2026" three dots), combining marks that NFKC composes ("<" + U+0338).
_MIXED = st.text(
    alphabet=st.sampled_from(
        list("abcXYZ019_ '-<=\n")
        + list("éÉßİıﬁ\u00a0\u2019\u2014\u2026\u0301\u0338\u3099")
        + list("中文新闻报道市民カタかな、。「」\u3000\u3300\u337b\uff10\uff21")
        + list("\uff0c\uff1a\uff08\uff09\uff1f\uff1b\uff01\uff05\uff0f")
    ),
    max_size=80,
)


@given(_MIXED)
@settings(max_examples=500, deadline=None)
def test_the_shingles_are_the_documented_ones(text: str) -> None:
    assert _shingle_hashes(text) == reference_hashes(text)


@given(_MIXED)
@settings(max_examples=300, deadline=None)
def test_the_fast_nfkc_is_nfkc(text: str) -> None:
    assert _nfkc(text) == unicodedata.normalize("NFKC", text)


def test_a_cjk_text_that_nfkc_lengthens_past_the_cut_keeps_all_its_shingles() -> None:
    text = "\u3300" * 2000  # four katakana each: 8,000 characters after NFKC
    assert _shingle_hashes(text) == reference_hashes(text)


def test_every_cjk_character_starts_with_a_listed_utf8_byte() -> None:
    # A text without these bytes skips the CJK scan: none may be missing.
    leads = {chr(code).encode()[:1] for low, high in _CJK_RANGES for code in range(low, high + 1)}
    assert leads == set(_CJK_LEADS)

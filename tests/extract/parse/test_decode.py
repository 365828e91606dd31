"""decode_html: bytes to text the way a browser would, and never an exception."""

from __future__ import annotations

import codecs

import pytest

from scrapy_cx.extract.parse.decode import (
    choose_encoding,
    decode_html,
    decode_page,
    normalize_encoding,
)

FRENCH = "Le président a déclaré à la presse qu'il était très satisfait de l'été. " * 20
CHINESE = "国务院总理李克强主持召开国务院常务会议，部署进一步做好稳就业工作。" * 20
RUSSIAN = "Президент заявил журналистам, что доволен результатами переговоров. " * 20
KOREAN = "대통령은 기자회견에서 새로운 경제 대책을 발표했다. " * 20
JAPANESE = "政府は記者会見で、新しい経済対策を発表しました。ひらがなとカタカナ。" * 20


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body><p>{body}</p></body></html>"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("utf-8", "utf-8"),
        ("UTF8", "utf-8"),
        (" 'utf-8' ", "utf-8"),
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("iso-8859-1", "cp1252"),
        ("latin1", "cp1252"),
        ("ascii", "cp1252"),
        ("windows-1251", "cp1251"),
        ("shift_jis", "shift_jis"),
        ("x-user-defined", "cp1252"),
    ],
)
def test_normalize_encoding_widens_and_canonicalizes(name: str, expected: str) -> None:
    assert normalize_encoding(name) == expected


@pytest.mark.parametrize(
    "name",
    [
        None,
        "",
        "   ",
        "no-such-charset",
        "x" * 1000,
        "text/html; charset=utf-8",
        # Python codecs that are not character sets a page can be written in.
        "base64",
        "rot13",
        "hex",
        "zlib",
        "bz2",
        "uu",
        "quopri",
        "idna",
        "punycode",
        "utf-7",
        "undefined",
        "unicode_escape",
        "raw_unicode_escape",
    ],
)
def test_normalize_encoding_refuses_unusable_names(name: str | None) -> None:
    assert normalize_encoding(name) is None


def test_header_encoding_wins_over_meta() -> None:
    data = page(FRENCH, '<meta charset="utf-8">').encode("cp1252")
    text, enc = decode_html(data, "windows-1252")
    assert enc == "cp1252"
    assert FRENCH in text


def test_meta_charset_is_read() -> None:
    data = page(CHINESE, '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
    text, enc = decode_html(data.encode("gb18030"))
    assert enc == "gb18030"
    assert CHINESE in text


def test_gb2312_label_reads_gbk_only_characters() -> None:
    # 镕 and 堃 are outside GB2312: portals that say gb2312 still send them.
    body = "朱镕基与王堃出席会议。" * 5
    data = page(body, '<meta charset="gb2312">').encode("gbk")
    text, _ = decode_html(data)
    assert body in text


def test_byte_order_mark_wins_and_is_stripped() -> None:
    data = codecs.BOM_UTF16_LE + page(FRENCH, '<meta charset="iso-8859-1">').encode("utf-16-le")
    text, enc = decode_html(data, "iso-8859-1")
    assert enc == "utf-16-le"
    assert text.startswith("<html>")
    assert FRENCH in text
    text, enc = decode_html(codecs.BOM_UTF8 + page(FRENCH).encode("utf-8"))
    assert enc == "utf-8" and text.startswith("<html>")


@pytest.mark.parametrize("label", ["base64", "rot13", "hex", "zlib", "idna", "punycode", "utf-7"])
def test_non_charset_labels_are_ignored_not_fatal(label: str) -> None:
    data = page(FRENCH, f'<meta charset="{label}">').encode("utf-8")
    for header in (None, label):
        text, enc = decode_html(data, header)
        assert enc == "utf-8"
        assert FRENCH in text


def test_utf16_meta_on_ascii_bytes_means_utf8() -> None:
    # WHATWG: if the <meta> could be read as ASCII the page is not UTF-16.
    data = page(FRENCH, '<meta charset="utf-16">').encode("utf-8")
    text, enc = decode_html(data)
    assert enc == "utf-8"
    assert FRENCH in text


def test_utf16_header_on_bytes_without_nul_is_ignored() -> None:
    data = page(FRENCH).encode("utf-8")
    text, enc = decode_html(data, "utf-16")
    assert enc == "utf-8"
    assert FRENCH in text


def test_real_utf16_without_bom_follows_header() -> None:
    data = page(FRENCH).encode("utf-16-le")
    text, enc = decode_html(data, "utf-16-le")
    assert enc == "utf-16-le"
    assert FRENCH in text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("body", [FRENCH, CHINESE])
def test_utf16_without_bom_or_header_is_recognised(codec: str, body: str) -> None:
    text, enc = decode_html(page(body, '<meta charset="utf-16">').encode(codec))
    assert enc == codec
    assert body in text


def test_legacy_meta_on_utf8_bytes_is_overridden() -> None:
    # The template says latin-1, the CMS writes UTF-8: trust the bytes.
    data = page(FRENCH, '<meta charset="iso-8859-1">').encode("utf-8")
    text, enc = decode_html(data)
    assert enc == "utf-8"
    assert FRENCH in text


def test_utf8_meta_on_legacy_bytes_is_overridden() -> None:
    data = page(FRENCH, '<meta charset="utf-8">').encode("cp1252")
    text, enc = decode_html(data)
    assert enc == "cp1252"
    assert FRENCH in text


def test_wrong_utf8_header_on_gbk_page_is_overridden() -> None:
    data = page(CHINESE).encode("gbk")
    text, enc = decode_html(data, "utf-8")
    assert enc == "gb18030"
    assert CHINESE in text


def test_mixed_encodings_keep_the_majority_encoding() -> None:
    # A UTF-8 page with a footer pasted in from a cp1252 source.
    data = page(FRENCH).encode("utf-8") + "<p>Café crème</p>".encode("cp1252")
    text, enc = decode_html(data)
    assert enc == "utf-8"
    assert FRENCH in text
    assert "Caf\ufffd cr\ufffdme" in text


@pytest.mark.parametrize(
    ("body", "codec", "expected"),
    [
        (FRENCH, "cp1252", "cp1252"),
        (CHINESE, "gb18030", "gb18030"),
        (JAPANESE, "cp932", "cp932"),
        (KOREAN, "cp949", "cp949"),
        (RUSSIAN, "cp1251", "cp1251"),
        (FRENCH, "utf-8", "utf-8"),
        (CHINESE, "utf-8", "utf-8"),
    ],
)
def test_detection_without_any_declaration(body: str, codec: str, expected: str) -> None:
    text, enc = decode_html(page(body).encode(codec))
    assert enc == expected
    assert body in text


def test_utf8_cut_at_the_sample_boundary_is_still_utf8() -> None:
    body = "é" * 40000  # 80 000 bytes: the 64 KiB sample ends on a full character or half of one
    text, enc = decode_html(("x" + body).encode("utf-8"))
    assert enc == "utf-8"
    assert text == "x" + body


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x00" * 100,
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + bytes(range(256)) * 50,
        b"\x89PNG\r\n\x1a\n" + bytes(range(255, -1, -1)) * 50,
        b"\xff\xfe",
        b"\xfe\xff\x00",
        b"\xef\xbb\xbf",
        b'<meta charset="utf-16"><p>\xff\xfe\x00</p>',
    ],
)
def test_binary_bytes_decode_without_error(data: bytes) -> None:
    for header in (None, "utf-8", "utf-16", "gb2312", "base64", "nonsense"):
        text, enc = decode_html(data, header)
        assert isinstance(text, str)
        assert codecs.lookup(enc)


def test_buffer_types_are_accepted() -> None:
    data = page(FRENCH).encode("utf-8")
    assert decode_html(bytearray(data))[0] == decode_html(memoryview(data))[0] == data.decode()


def test_str_is_returned_unchanged() -> None:
    assert decode_html("<p>déjà</p>", "gbk") == ("<p>déjà</p>", "unicode")


def test_decode_page_hands_over_the_bytes_only_when_they_are_the_text_in_utf8() -> None:
    page = "<p>Grüße, 世界</p>".encode()
    assert decode_page(page) == (page.decode(), "utf-8", page)
    assert decode_page(b"\xef\xbb\xbf" + page)[2] == page  # the BOM is not the text's
    assert decode_page(page + b"\xff")[2] is None  # invalid: the text has U+FFFD there
    assert decode_page(page.decode().encode("gb18030"))[2] is None  # not UTF-8
    assert decode_page(page.decode())[2] is None  # a str needs encoding anyway


@pytest.mark.parametrize("header", [None, "utf-8", "latin-1", "gb2312", "utf-16", "koi8-r"])
@pytest.mark.parametrize(
    "body",
    [
        "plain ASCII text",
        FRENCH,
        CHINESE,
        "x" + "é" * 40000,  # the 64 KiB sample ends within a character
        "<meta charset='windows-1252'>" + RUSSIAN,
        "<meta charset='utf-16'>déjà",
    ],
)
def test_known_valid_utf8_chooses_what_counting_the_sample_would(
    header: str | None, body: str
) -> None:
    """decode_page tells choose_encoding that the bytes are valid UTF-8 (it has
    read them so): the answer must be the one the sample's counts give."""
    data = page(body).encode("utf-8")
    assert choose_encoding(data, header, True) == choose_encoding(data, header)

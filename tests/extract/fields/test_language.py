"""The page language: declared, checked against the script of the text, else guessed."""

from __future__ import annotations

import pytest

from scrapy_cx.extract.fields.language import guess_from_text, guess_language

ZH = (
    "本报讯 记者从市交通局获悉，今年三月起，本市将开通三条通往机场的夜间公交线路，"
    "方便早班职工出行。" * 4
)
EN = (
    "The council voted on Tuesday to extend the night bus service to the airport for the workers. "
    * 3
)


@pytest.mark.parametrize(
    ("declared", "expected"),
    [("en-US", "en"), ("zh_CN", "zh"), ("fr-FR,en;q=0.5", "fr"), ("und", None), ("!!", None)],
)
def test_declared_codes_normalized(declared: str, expected: str | None) -> None:
    assert guess_language(declared, "") == expected


def test_declaration_contradicted_by_the_text_gives_way() -> None:
    assert guess_language("en", ZH) == "zh"  # a template's lang="en" on a Chinese page
    assert guess_language("en-GB", EN) == "en"
    german = "Der Rat hat für die Nachtbusse gestimmt und die Linie ist nicht teuer. " * 6
    assert guess_language("en", german) == "de"
    lorem = "Lorem ipsum dolor sit amet, sunt in culpa qui officia deserunt et id est laborum. "
    assert guess_language("en", lorem * 10) == "en"  # Latin filler is no reason to overrule
    assert guess_language("fr", "Le bus de nuit. ") == "fr"  # too little text to overrule


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (ZH, "zh"),
        ("日本語のテキストです。東京都は今日、新しい計画を発表しました。" * 3, "ja"),
        ("서울시는 오늘 새로운 버스 노선을 발표했다. " * 3, "ko"),
        ("Городской совет проголосовал за ночные автобусы. " * 3, "ru"),
        (EN, "en"),
        (
            "Le conseil a voté pour les bus de nuit et la ligne est prête pour les voyageurs. " * 2,
            "fr",
        ),
        ("Der Rat hat für die Nachtbusse gestimmt und die Linie ist nicht teuer. " * 2, "de"),
        ("", None),
        ("12345 !!!", None),
    ],
)
def test_guess_from_script_and_function_words(text: str, expected: str | None) -> None:
    assert guess_from_text(text) == expected
    assert guess_language(None, text) == expected


@pytest.mark.parametrize(
    ("declared", "text"), [("en", "Ελληνικά"), ("en", "Привет мир"), ("de", "日本語のテキスト")]
)
def test_short_text_in_another_script_keeps_the_declaration(declared: str, text: str) -> None:
    assert guess_language(declared, text) == declared  # too little text to overrule, no crash


def test_latin_words_are_the_words_regex_reads() -> None:
    from scrapy_cx.extract.fields.language import _WORDS, latin_words

    texts = [
        "The cat and the dog, ÿes: l'été à Paris — naïve café ÷ 3×4 déjà-vu",
        "Não é uma boa ideia para os ÁRVORES; straße ŁÓDŹ İstanbul ǅemal",
        "新闻 mixed with English words and 😀 emoji\ud800 and\ttabs\nnewlines",
        "DER Mann UND die Frau ß ẞ Æsir œuvre",
        "",
    ]
    for text in texts:
        expected = [word.encode("latin-1") for word in _WORDS.findall(text.lower())]
        assert latin_words(text) == expected

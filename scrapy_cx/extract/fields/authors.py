"""Authors: the byline the page shows, else the structured data's and the meta tags' names.

Metadata names are often a site, a desk or a user id; the byline ("By Ann Lee
and Bo Chen", "本报记者 王燕平 方云凤", "作者：芊草凡凡") is what readers see, so it
is read first, from a few short lines next to the headline, then JSON-LD persons,
elements the page marks as its author, meta tags that hold a name, and last a
byline closing the text ("（记者 王燕）", "Text: Anna Berg"). Every candidate is
cleaned (labels, roles, e-mail, handles) and split into names; numbers, URLs, the
site's own name and news agencies are never returned as people: an agency goes to
``source``. Photo credits ("记者 何俊 摄", "Photo: Ann Lee") are not authors.

Precision first: a wrong name costs a user's trust, a missing one little. So no
placeholder ("No Author", "未知", "Publié par Unknown"), field label ("name", "总篇数",
"Datum"), weekday or month, place, domain or user id, desk ("Redaktion Hamburg"), the
site or its publisher under any of its names, a word cut from the title, nor a one-word
nickname only the metadata gives: then no author at all. Where the page says it twice,
though, declaring a name as its author and showing it as the byline, that name is the
author whatever it is: the site's own ("Supermove" over the date), a team, a handle.
"""

from __future__ import annotations

import re

from ..page import Evidence, Page
from ..parse.lines import Line
from ..parse.meta import author_marks, jsonld_types, lower_for_search
from .title import site_from_title

_BYLINE_SCAN = 6  # lines under the headline (or above the text) looked at
_TAIL_SCAN = 3  # lines at the end of the text looked at for a closing byline
_BARE_SCAN = 3  # lines under the headline where a bare name counts
_TEXT_SCAN = 5  # lines of the text's start where a byline may be
_CAPTION_TAGS = ("figcaption", "caption")  # a name in them is a credit
_MAX_LINE = 200  # a longer line is prose, not a byline
_MAX_NAMES = 30  # papers list many authors
_MAX_NAME = 60  # characters: a longer "name" is a sentence or a bio
_MAX_WORDS = 5  # words of a Latin name ("Michelina C. de la Maza")
_MAX_SOURCE = 30  # characters of a "来源：" value worth keeping
_MIN_SITE_KEY = 4  # characters of a site name cut off a glued byline (not "AP" or "TV")
_MIN_NAME_KEY = 3  # characters of a name refused as the start of the site's own name
_MIN_CJK_NAME_KEY = 2  # ... written in ideographs ("网易" of "网易新闻")
_MIN_SITE_INSIDE = 8  # characters of a site's name that, inside a longer name, make it the site's


_LATIN_LABEL = re.compile(
    r"(?:^|[|·•(（]\s?|\s)(?:(?:written|authored|posted|reported|words|reporting|text|story|recipe|"
    r"article)\s+by|thread\sstarter|topic\sstarter|started\sby|"
    r"by|von|"
    r"par|por|di|door|av)(?::\s?|\s+|(?-i:(?=[A-Z][a-z])))(?=\S)"
    r"|(?:^|[|·•(（]\s?|\s)(?:autor(?:in)?|author|auteure?|texte?|verfasser(?:in)?|contributors?)"
    r"\s?:\s?(?=\S)",
    re.I,
)
# Two to four words, each opening with a letter: the shape of a bare name.
_NAME_WORDS = r"[^\W\d_][\w.'’-]*(?:\s[^\W\d_][\w.'’-]*){1,3}"
# A bare name under the headline counts only when a date, an age or a separator follows it.
_BARE_NAME = re.compile(
    rf"^(?P<name>{_NAME_WORDS})"
    r"(?=\s?(?:[–—•·|/]|-(?!\w)|\d|,\s?\w+\s\d|,\s?@|$))"
)
# A bare name and its role, alone on the line: "Sarah Lin, Business correspondent"
# (the role read by _ROLE_TAIL: a role alone is never a name).
_NAME_ROLE = re.compile(rf"^(?P<name>{_NAME_WORDS})(?=,\s)")
# The same after a date and a separator: "18/03/2019 | André Mindermann".
# (a month's word may open the date, "Dec 26, 2025 • Mahua Das"; the post's category may
# close the line, "... in Project Management")
_NAME_AFTER_DATE = re.compile(
    r"^(?:\S*\d\S*|[^\W\d_]{3,9}\.?)(?:\s\S*\d\S*){0,2}\s?[|·•]\s?"
    rf"(?P<name>{_NAME_WORDS})(?:$|(?=\sin\s[A-Z][\w&' -]*$))"
)
# A month word ends a name only before a day or a year ("Ann Lee May 5"): "Jan", "May"
# and "June" are given names too ("Door Jan de Vries").
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTH_WORDS = _MONTHS + r"(?=\.?\s?\d)|" + _WEEKDAYS
# Where a Latin byline's names end: a date, a separator, a role, a time.
_LATIN_STOP = re.compile(
    # (a sentence's full stop: "StarredSkies. Edited 1 time", not "Ann B. Lee", "Jr. ")
    r"\d|[|·•⋅∙●—–(（/\n;»]|\s-\s|(?-i:(?<=[a-z][a-z]))\.\s|"
    r"\b(?:on|at|for|in|updated|published|posted|photo|photos|reporter|"
    r"correspondent|editor|staff|writer|contributor|senior|analyst|follow|email|twitter|"
    r"aktualisiert|veröffentlicht|mis à jour|publié|le|am|um|vom|erstellt|geändert|zuletzt|last|"
    + _MONTH_WORDS
    + r")\b"
    # ... or such a word glued on by the markup: "Amanda FurrerUpdated Dec 19".
    + r"|(?-i:(?<=[a-z])(?:Updated|Published|Posted|Erstellt|Aktualisiert|"
    r"January|February|March|April|June|July|August|September|October|November|December))",
    re.I,
)
_NAME_SPLIT = re.compile(r",|\s(?:and|und|et|y|e|&)\s|\s?&\s?", re.I)
_PARTICLES = frozenset(
    "de da del della di du van von der den le la bin al el st. mc dos das y".split()
)
# English words that join a phrase and never stand in a person's name: a name holding
# one is a heading or a label ("Insights from", "With Rental Package"). Short words
# that are also given names ("An", "To", "In") are left out.
_FUNCTION_WORDS = frozenset(
    "the of from with for about your our my their this that "
    # ... and German, French, Spanish ones ("Die Opernball-Grande", "deinen Hochzeitsbloggern")
    "die das dem des ein eine einer einem einen und oder mit für über aus bei nach zum zur "
    "dein deine deinen ihr ihre unser unsere sein seine les une avec pour sur dans los las con para"
    .split()
    # ... and a site's controls a marked element may hold ("Sign In", "Terms & Conditions
    # Privacy Policy"), in no name either
    + "sign login logout privacy policy terms conditions cookies subscribe newsletter".split()
)
# (the lowercase letter of "McDonald" / "MacDonald" follows "M" / "Ma")
_INNER_CAPITAL = re.compile(r"(?<!^M)(?<!^Ma)[a-z][A-Z]")

# Chinese and Japanese labels before names; 记者 / 通讯员 also sit between names.
_CJK_ROLE = (
    r"本报记者|本報記者|特约记者|特約記者|见习记者|實習記者|实习记者|实习生|實習生|通讯员|通訊員|"
    r"记者|記者|作者|撰文|撰稿|执笔|執筆|著者|筆者|主笔|编译|編譯|翻訳者|翻译|翻譯|"
    r"取材・文|取材・執筆|文|發表人|发表人|楼主"
)
_CJK_LABEL = re.compile(r"(?:" + _CJK_ROLE + r")\s?[:：/／|●・]\s?|(?:" + _CJK_ROLE + r")\s")
# Every role holds an ideograph: a line without one has no CJK label (a quick search
# first: _CJK_LABEL tries every role at every character).
_IDEOGRAPH = re.compile("[\u4e00-\u9fff]")
_CJK_ROLE_ONLY = re.compile(r"^(?:" + _CJK_ROLE + r"|编辑|編集|责任编辑|責任編輯|摄影|攝影)$")
# Chinese names are 2-4 characters (a transliterated one has a "·"); Japanese ones with kana
# may be longer ("小暮ひさのり").
_CJK_NAME = re.compile(
    r"(?:[\u4e00-\u9fff]{1,6}·)?[\u4e00-\u9fff]{2,4}"
    r"|[\u4e00-\u9fff]{0,4}[\u3040-\u30ff][\u3040-\u30ff\u4e00-\u9fff・]{0,7}|[A-Za-z][\w.-]{1,30}"
)
# Where the names after a byline label end: another field's label (a known one,
# or a word before a colon and a number or a control: "点击数：1862", "字体：[大"),
# a digit, a bracket. (A name before a colon and words is a name and its
# affiliation: "赵培：北京物资学院".)
_CJK_STOP = re.compile(
    r"来源|來源|出处|时间|時間|日期|发布|發布|责任|責任|编辑|編輯|责编|摄影|攝影|报道|報道|"
    r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,6}\s?[:：]\s?[\d\[【(（]|\d|[|（(【\[:：]"
)
# A photo credit: "记者 何俊 摄", "（图/王建国）", "Photo: Ann Lee", "Foto: dpa".
_CREDIT = re.compile(
    r"摄$|摄[）)]|攝$|[（(]?图[/／:：]|圖[/／:：]|写真[:：/／]|^(?:photo|photos|photograph|image|foto|"
    r"fotos|bild|credit|illustration|video)\b|(?:photo|image|illustration|foto)s?\s(?:by|von|par)\b|"
    r"getty|shutterstock|/\s?(?:AP|AFP|EPA|Reuters|dpa|Imago)\b|\bvia\s(?:AP|Getty)",
    re.I,
)
# What a line _CREDIT matches holds, lower-cased (meta.lower_for_search: None for a
# line whose characters the case-blind match folds otherwise): one of its words or a
# CJK credit's character. A search for them leaves out most lines before _CREDIT's
# slower case-blind search.
_CREDIT_HINT = re.compile(
    "photo|image|foto|bild|credit|illustration|video|getty|shutterstock|/|via|[摄攝图圖写]"
)
_ORG_SUFFIX = re.compile(
    r"(?:局|厅|委|办|社|报|報|台|站|网|網|部|处|院|所|会|會|中心|公司|集团|集團|政府|办公室|編集部|编辑部|"
    r"网络|網絡|科技|传媒|傳媒|学院|學院|大学|大學)$"
)
# News agencies: a byline or a dateline naming one gives ``source``, never an author.
_AGENCIES = (
    "新华社", "新華社", "中新社", "中国新闻社", "中央社", "共同通信", "時事通信",
    "Reuters", "Associated Press", "AP", "AFP", "Agence France-Presse", "dpa", "Kyodo",
    "Xinhua", "Yonhap", "Bloomberg", "PTI", "IANS", "ANI", "TNN", "UPI", "EFE", "ANSA",
    "TASS", "PA", "PA Media", "Press Association", "APA", "KNA", "epd", "Jiji",
)  # fmt: skip
_AGENCY_KEYS = {name.casefold(): name for name in _AGENCIES}
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

# Cleaning: what surrounds a name in a candidate.
_EMAIL = re.compile(
    r"\S+@\S+\.\w+|\S+\s?[\[({]at[\])}]\s?\S+|\bhttps?://\S+|\bwww\.\S+|@\s?\w+|\+?\s?\bfollow\b.*$|"
    r"\b(?:view|see|read)?\s?(?:more|all)\s(?:articles|stories|posts)\b.*$",
    re.I,
)
_LATIN_ORG = re.compile(
    r"^the\s|\b(?:inc|ltd|llc|gmbh|corp|co|plc|media|news|group|network|magazine|press|staff|"
    r"agency|ministry|department|university|institute|association|council|office|weekly|daily|"
    r"journal|herald|tribune|gazette|e\.\s?v|ag|kg|ug|mbh|verlag|stiftung|verein|redaktion)\b\.?$"
    r"|^staff\b|admin",
    re.I,
)
_LEAD_LABEL = re.compile(
    r"^(?:(?:(?:post\s)?author\s+by|"
    r"(?:written|authored|posted|reported|words|text|story|analysis|opinion|commentary|review|"
    r"recipe|article)"
    r"\s+by|"
    # "Eingestellt von", "Publié par", "Publicado por": a blog engine's byline label
    r"(?:(?:ein\s)?(?:artikel|beitrag)|eingestellt|erstellt|verfasst|geschrieben|veröffentlicht|"
    r"publiziert|eingetragen)\s(?:am\s\S+\s)?von|vom|"
    r"(?:publié|posté|écrit|rédigé)\spar|(?:publicado|escrito)\spor|(?:pubblicato|scritto)\sda|"
    r"(?:text|texte|fotos?|bilder)\s(?:und|&)\s(?:interview|fotos?|bilder|text)\s?[:：]|"
    r"by|von|par|por|author|autor(?:in)?|contributors?|"
    # (a Latin label ends its word: "Byron Smith", "Paris Hilton" are names)
    r"auteure?|texte?)(?![^\W\d_])|(?:" + _CJK_ROLE + r"))\s?[:：/／●・]?\s*",
    re.I,
)
# A profession before the name ("Rechtsanwalt Sebastian Einbock", "FOCUS-Online-Experte
# Robin Tschöpe"): the name is what follows.
_LEAD_ROLE = re.compile(
    r"^(?:rechtsanwalt|rechtsanwältin|steuerberater(?:in)?|[\w-]*-?experte|[\w-]*-?expertin|"
    r"(?:chef|gast|fach)?redakteur(?:in)?|gastautor(?:in)?|korrespondent(?:in)?|"
    r"redaktionsleiter(?:in)?|staff writer|guest author|guest writer)\s+(?=[^\W\d_])",
    re.I,
)
# Where a name ends when the next field's label or a date word follows it
# ("Jule Radeck Vom 3. Februar", "Sonia Mevißen Erstellt am", "Ann Lee Last updated"):
# a candidate made only of such words ("Publiziert am") is no name.
_FIELD_WORDS = frozenset(
    """am um vom on at publiziert veröffentlicht erstellt eingestellt aktualisiert geändert
    zuletzt letzte aktualisierung stand last updated published posted modified publié mis""".split()
)
# Roles closing a name ("Ann Lee, Staff Writer"), lower-case: _ROLE_TAIL's last word.
_ROLES = (
    "writer", "reporter", "correspondent", "editor", "columnist", "contributor", "journalist",
    "analyst", "critic", "producer", "staff", "editor-at-large", "redakteur", "redakteurin",
    "korrespondent", "korrespondentin", "journaliste", "rédacteur", "rédactrice",
    "envoyé spécial", "envoyée spécial", "envoyé spéciale", "envoyée spéciale",
    "ceo", "cto", "founder",
    # de, fr, es, it, nl, pt, pl: "Hans Müller, Redakteur", "Ana García, corresponsal"
    "journalistin", "reporterin", "chefredakteur", "chefredakteurin", "correspondant",
    "correspondante", "corresponsal", "periodista", "redactor", "redactora", "giornalista",
    "corrispondente", "inviato", "inviata", "redattore", "redattrice", "verslaggever",
    "redacteur", "repórter", "jornalista", "correspondente", "redator", "redatora",
    "dziennikarz", "dziennikarka", "korespondent", "korespondentka", "redaktor", "redaktorka",
)  # fmt: skip
_ROLE_TAIL = re.compile(
    r"(?:,|\s-|\s\|)?\s*(?:(?:senior|chief|staff|deputy|contributing|special|political|"
    r"foreign|business|tv|sports?|news|editor-at-large|national|science|tech(?:nology)?|"
    r"&|and|culture|[A-Z][a-z]+)\s)*(?:" + "|".join(map(re.escape, _ROLES)) + r")s?\.?$",
    re.I,
)
_CJK_ROLE_TAIL = re.compile(r"\s?(?:" + _CJK_ROLE + r"|编辑|編集|摄影|攝影|报道|報道|撰)$")
_BRACKETS = re.compile(r"^[\[【《(（]+|[\]】》)）]+$")
_NOT_NAME_CHARS = re.compile(r"[!?#*=<>{}]")
# A user name with digits: one word opening with three letters, no month or weekday
# ("Jan2024", "Mon12").
_DIGIT_HANDLE = re.compile(
    r"(?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun))"
    r"[^\W\d_]{3,}\w*\d\w*",
    re.I,
)
_LABEL_END = re.compile(r"\s(?:by|von|par|por)$", re.I)
# Who checked, edited or drew the page is not who wrote it: "Medically reviewed by".
_NOT_WRITER = re.compile(
    r"(?:\w+\s)?(?:reviewed|checked|fact-checked|edited|illustrated|translated)\s+by\b", re.I
)
_NOT_NAME = re.compile(
    r"^(?:admin|administrator|editor|editors|editorial|staff|guest|anonymous|unknown|redaktion|rédaction|"
    r"team|newsroom|news desk|web desk|desk|the|home|share|more|more by|"
    # placeholders and field labels a CMS writes where no name was given
    r"no author|no name|not available|n/?a|none|null|undefined|default|author|authors|name|user|"
    r"username|user name|benutzername|login|log in|anmelden|password|passwort|e-?mail|"
    r"autor|autorin|autoren|verfasser|unbekannt|anonym|anonyme|inconnu|auteur|anónimo|anonimo|"
    r"desconocido|sconosciuto|ospite|gast|mehr|weiter|plus|más|leer más|read more|"
    r"redakteur|redakteurin|korrespondent|reporter|journalist|journalistin|rédacteur|rédactrice|"
    r"datum|date|uhr|heute|gestern|today|yesterday|"
    r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|"
    r"januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|"
    r"lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|"
    r"fri|sat|sun)$",
    re.I,
)
# A desk, not a person: "Redaktion Hamburg", "Online-Redaktion", "Sportredaktion".
_DESK_WORD = re.compile(r"redaktion\b|rédaction\b|redacción\b|redazione\b|newsroom\b", re.I)
# Cities a dateline or a desk names beside the byline ("Hamburg", "Wien"): a place, never
# a person. The big ones of the languages the pages are in, not a gazetteer.
_PLACES = frozenset(
    """berlin hamburg münchen munich köln cologne frankfurt stuttgart düsseldorf leipzig dresden
    hannover bremen nürnberg wien vienna graz linz salzburg innsbruck zürich zurich bern basel
    genf geneva lausanne luzern paris lyon marseille london washington brüssel brussels rom rome
    madrid barcelona moskau moscow peking beijing tokio tokyo
    北京 上海 广州 深圳 香港 台北 东京""".split()
)

_EMPTY_BRACKETS = re.compile(r"\(\s*\)|\[\s*\]")
_CREDIT_LABEL = re.compile(
    r"(?:photos?|fotos?|bilder?|images?|illustrations?|grafik|video|credits?)$", re.I
)

# Chinese words a label, a placeholder or a column holds, never a person's name: "未知"
# (unknown), "佚名" (anonymous), "网络整理" (collected from the web), "我已授权" (I have
# authorised), "股市行情" (market quotes), "总篇数" (number of posts), "暂无简介" (no
# profile yet), "管理员" (administrator), "小编" (the editor), "网友" (a netizen).
_CJK_NOT_NAME = re.compile(
    "未知|佚名|匿名|不详|网络|網絡|网友|網友|整理|授权|授權|行情|篇数|篇數|简介|簡介|暂无|暫無|"
    "管理员|管理員|小编|小編|编辑部|編輯部|本站|本网|本網|原创|原創|转载|轉載|投稿|用户|用戶|会员|會員|"
    "股市|财经|財經|新闻|新聞|资讯|資訊|频道|頻道|首页|首頁|更多|阅读|閱讀|评论|評論|关注|關注|粉丝|粉絲|"
    "文章|发布|發佈|登录|登錄|注册|註冊|专栏|專欄|热点|熱點|推荐|推薦"
)
# A domain ("symple.ch", "hessenschau.de") or a dotted user id ("christian.stadtfeld"):
# letters on both sides of a dot inside a word. Initials ("J.R.R.", "NH.") have one letter.
_DOTTED = re.compile(r"[^\W\d_]{2,}\.[^\W\d_]{2,}")
# Characters a name is written with but never holds: a soft hyphen, zero-width spaces
# and joiners, a byte order mark ("Mat\xadthi\xadas").
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff]")


def clean_name(raw: str, sites: frozenset[str] = frozenset()) -> str | None:
    """One person's name out of ``raw``, or None when it is no name.

    Drops labels ("By", "作者："), e-mail, handles and URLs, brackets, a role after the
    name ("Staff Writer", "CEO", "记者") and a name repeated twice by the markup;
    refuses numbers, agencies, the site's own name and role words alone.
    """
    raw = _INVISIBLE.sub("", raw)
    text = " ".join(_EMAIL.sub(" ", raw.replace("\u3000", " ")).split())
    if _DOTTED.search(text):
        return None  # a domain or a user id, never a person
    text = text.split(" | ", 1)[0].split("|", 1)[0].strip(" ,;:-–—·•")
    for _ in range(2):
        text = _LEAD_LABEL.sub("", text).strip(" ,;:-–—·•")
    text = _LEAD_ROLE.sub("", text)
    text = _before_field(text)
    text = _before_title(text)
    text = _EMPTY_BRACKETS.sub("", text).strip(" ,;:-–—·(")  # "Ann Lee (" once a URL is out
    if ":" in text or "：" in text:
        label, _, rest = text.replace("：", ":").partition(":")
        label_words = len(label.split())
        if label_words > 2 or _CREDIT_LABEL.match(label.strip()):
            return None  # "Mein Motto Konsumsparen: Fazit" is a heading; "Fotos: ..." a credit
        # "Interview: Julia Lauter": a label, then the name; "Mark Newton: EN Übersetzung
        # ...": the name, then what follows it.
        text = (rest if label_words < 2 else label).strip(" ,;:-–—·")
    if text.endswith(".") and len(text.split()[-1]) > 3 and " " in text:
        text = text[:-1]  # "John Plunkett." cut before "Last updated"; not "Ann B."
    text = _BRACKETS.sub("", text).strip()
    half = len(text) // 2
    if len(text) % 2 == 0 and half and text[:half] == text[half:]:
        text = text[:half]  # "Andrea WongAndrea Wong": the name twice, glued
    text = _without_site(text, sites)
    if text.isascii() or " " in text:
        if _may_end_in_role(text):
            text = _ROLE_TAIL.sub("", text)
        text = text.strip(" ,;:-–—·")
    text = _CJK_ROLE_TAIL.sub("", text).strip()
    if not text or len(text) > _MAX_NAME:
        return None
    if any(c.isdigit() for c in text) and not _DIGIT_HANDLE.fullmatch(text):
        return None  # a date, a number; not a handle ("lulug30", "Need2KnowLion")
    if _NOT_NAME_CHARS.search(text) or _LABEL_END.search(text) or _NOT_WRITER.match(text):
        return None  # "Discuz! Team": a product, markup or a slogan; "Researched by": a label
    key = text.casefold()
    if key in _AGENCY_KEYS or _NOT_NAME.match(text) or _CJK_ROLE_ONLY.match(text):
        return None
    if _CJK_NOT_NAME.search(text) or _DESK_WORD.search(text) or key in _PLACES:
        return None
    if key in sites or "".join(key.split()) in sites or "/" in text:
        return None
    words = text.split()
    if _site_part(text, sites):
        return None
    if text.isascii() or " " in text:
        if len(words) > _MAX_WORDS or not any(c.isalpha() for c in text) or _LATIN_ORG.search(text):
            return None
        if any(w.lower() in _FUNCTION_WORDS for w in words):
            return None  # "Insights from", "With Rental Package": a phrase
        lower = sum(not w[0].isupper() and w.lower() not in _PARTICLES for w in words)
        if len(words) > 1 and lower > 1:
            return None  # "Syrian defense ministries": a phrase, not a name
    elif (_ORG_SUFFIX.search(text) and len(text) > 2) or not _CJK_NAME.fullmatch(text):
        return None
    return text


def _before_field(text: str) -> str:
    """``text`` up to the first of :data:`_FIELD_WORDS` ("Jule Radeck Vom" -> "Jule
    Radeck"); empty when it starts with one ("Publiziert am")."""
    words = text.split()
    for i, word in enumerate(words):
        if word.casefold().strip(".,:;") in _FIELD_WORDS:
            return " ".join(words[:i]).strip(" ,;:-–—·")
    return text


# Words of a job title that follows a name without a comma ("Catherine Boeckmann
# Executive Digital Editor", "Matt Check Head Winemaker", "Eli Manikan Contributing
# Writer"): the name ends before the first; a candidate opening with one is a title
# alone ("Lead Reviewer", "Chief Marketing Officer", "Licensed Q Arabica Grader").
_TITLE_WORDS = frozenset(
    """executive founder co-founder cofounder director manager officer president head lead
    principal licensed certified contributing managing senior chief associate assistant""".split()
)


def _before_title(text: str) -> str:
    """``text`` up to the first of :data:`_TITLE_WORDS` after a two-word name, or ""
    when it opens with one."""
    words = text.split()
    for i, word in enumerate(words):
        if word.casefold().strip(".,:;&") in _TITLE_WORDS and (i == 0 or i >= 2):
            return " ".join(words[:i]).strip(" ,;:-–—·&")
    return text


def _may_end_in_role(text: str) -> bool:
    """Whether ``text`` may end in one of :data:`_ROLES` (an "s" and a "." after it
    allowed), as :data:`_ROLE_TAIL` matches: a test of the end alone, where the
    pattern tries every word of the text for a run of title words."""
    lowered = lower_for_search(text)  # None: a character _ROLE_TAIL folds otherwise
    if lowered is None:
        return True
    tail = lowered.removesuffix("\n").removesuffix(".")
    return tail.endswith(_ROLES) or (tail.endswith("s") and tail[:-1].endswith(_ROLES))


# What follows a site's name in a desk's byline ("CNN Business", "News Nation Bureau").
_DESK = re.compile(
    r"(?:news)?(?:staff|desk|bureau|team|sports?|business|news|editors?|editorial|reports?|wire)"
)


def _longest_first(sites: frozenset[str]) -> list[str]:
    """The site's names, the longest (most specific) first: a frozenset's own order
    changes with Python's string hash seed, and with it which name matched first,
    so the same page gave other authors from one process to the next."""
    return sorted(sites, key=lambda site: (-len(site), site))


def _site_part(text: str, sites: frozenset[str]) -> bool:
    """The site itself or its desk: "CNN Business", "News Nation Bureau" on newsnation.in,
    "Vortex" on vortexcannon.org."""
    squashed = "".join(text.casefold().split())
    first = text.split()[0].casefold()
    least = _MIN_NAME_KEY if squashed.isascii() else _MIN_CJK_NAME_KEY
    letters = _NOT_LETTERS.sub("", squashed)
    for site in _longest_first(sites):
        if first == site:
            return True
        if " " not in text and len(squashed) >= least and site.startswith(squashed):
            # "Vortex" of vortexcannon; not "Jürgen Heitmann" of "Jürgen Heitmann Fotografie"
            return True
        if len(site) >= _MIN_SITE_KEY and squashed.startswith(site) and " " in text:
            return bool(_DESK.fullmatch(squashed[len(site) :]))
        bare = _NOT_LETTERS.sub("", site)
        if len(bare) >= _MIN_SITE_INSIDE and bare in letters and " " in text:
            return True  # "EFC Bayrische Bembel" on bayrische-bembel.de: the site's club
    return False


_NOT_LETTERS = re.compile(r"[\W_]+")
# Where a site name's parts meet: "HSS - Hanns-Seidel-Stiftung e.V.", "财经_网易新闻".
_SITE_PARTS = re.compile(r"\s[|\-–—:·•/]\s|[|｜_＿【】]")


def _without_site(text: str, sites: frozenset[str]) -> str:
    """ "Jonathan GarberFOXBusiness" -> "Jonathan Garber": the site's name glued on."""
    squashed = "".join(text.casefold().split())
    for site in _longest_first(sites):
        if len(site) >= _MIN_SITE_KEY and len(squashed) > len(site) and squashed.endswith(site):
            keep, seen = len(text), 0
            while seen < len(site) and keep > 0:
                keep -= 1
                seen += not text[keep].isspace()
            return text[:keep].strip(" ,;:-–—·|")
    return text


def split_names(text: str) -> list[str]:
    """A list of names as written: "A and B", "A, B & C", "A、B", "A/B" (CJK)."""
    if not text.isascii() and not re.search(r"[A-Za-z]{3}", text):
        return [p for p in re.split(r"[\s、，,;；/／]+", text) if p]
    parts = [p.strip() for p in _NAME_SPLIT.split(text)]
    return [p for p in parts if p]


def names_in(raw: str, sites: frozenset[str] = frozenset()) -> list[str]:
    """Every clean name in a candidate string, in order."""
    raw = _EMAIL.sub(" ", raw)
    org = _DOTTED.search(raw) is not None
    raw = _LEAD_LABEL.sub("", " ".join(raw.split()))
    first, bar, _ = raw.partition(" | ")
    if bar and any(clean_name(p, sites) for p in split_names(first)):
        raw = first  # "Eli Manikan Contributing Writer | Strategy, sims, and RPG player"
    parts = split_names(raw)
    org = org or any("".join(p.casefold().split()) in sites for p in parts)
    names = list(dict.fromkeys(n for n in (clean_name(p, sites) for p in parts) if n))
    if org:  # "hessenschau.de, Frankfurt, Germany": a site's address, one word a place
        names = [n for n in names if " " in n or not n.isascii()]
    elif len(names) > 1:  # beside full names, one word is an outlet ("Ann Lee, FUTURISM")
        names = [n for n in names if " " in n or not n.isascii()] or names[:1]
    return names[:_MAX_NAMES]


def _latin_names(text: str) -> list[str]:
    m = _LATIN_LABEL.search(text)
    if m is None:
        return []
    before = text[: m.start()].lower()
    if m.start() > 0 and text[m.start()] == " " and not before.startswith(_POSTED):
        if _AFTER_FIELD.search(before) is None:
            return []  # "by" inside a sentence ("a study by ...") is no byline
    rest = text[m.end() :]
    if m.start() == 0 and _HANDLE_LABEL.match(m.group()):
        handle = _handle(rest)
        if handle:
            return [handle]
    stop = _LATIN_STOP.search(rest)
    if stop is not None:
        rest = rest[: stop.start()]
    names: list[str] = []
    posted = before.startswith(_POSTED) and not before.startswith("updated")
    for part in _NAME_SPLIT.split(rest):
        words = part.split()
        if posted and len(words) == 1 and words[0].isalnum():
            names.append(words[0])  # "Posted on 2019-04-13 by doumae": a user name
            continue
        if not 2 <= len(words) <= _MAX_WORDS:
            continue
        if all(w[0].isupper() or w.lower() in _PARTICLES for w in words if w):
            names.append(" ".join(words).strip(" ,.;:"))
    return names


# Labels that open a line and may name a poster by one word ("by Amanda · Dec 20",
# "Thread starter lulug30", "by changingtimes » Sat Feb 24").
_HANDLE_LABEL = re.compile(r"(?:by|thread\sstarter|topic\sstarter|started\sby)\b", re.I)
# The one word after the label: "lulug30", "Amanda", "J.D.", "A".
_HANDLE_WORD = re.compile(r"[^\W_][\w.-]*[^\W_.-]|[^\W\d_]")
_MONTH_WORD = re.compile(_MONTHS, re.I)
# What follows such a one-word name: the line's end, a separator, a date.
_AFTER_HANDLE = re.compile(r"\s?(?:$|[|·•⋅∙—–»]|(?:on|at|start\sdate)\s|,?\s?\d)", re.I)
# A month the markup glued to the handle: "thegrangehallFebruary 8, 2024".
_GLUED_MONTH = re.compile(
    r"(?<=[a-z])(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)$"
)


def _handle(rest: str) -> str | None:
    """The one word after a line's own label, where a field or nothing follows it: a
    poster's handle or first name. Not a sentence's word ("By continuing to use ...")
    nor a month or a weekday."""
    m = _HANDLE_WORD.match(rest)
    if m is None or _AFTER_HANDLE.match(rest, m.end()) is None:
        return None
    word = _GLUED_MONTH.sub("", m.group())
    if not _HANDLE.fullmatch(word) or word.isdigit() or _NOT_NAME.match(word):
        return None  # (_NOT_NAME holds the weekdays, long and short)
    if _MONTH_WORD.fullmatch(word):
        return None
    return word


# What ends the field before a byline's "by" / "von" / "Author:" sharing its line: a
# separator ("Nov 26, 2026 — by"), a date or a time ("23.11.2026 02:00 Uhr – Von",
# "16:00  Author:"). A sentence's "by" follows a word.
_AFTER_FIELD = re.compile(r"(?:[—–|·•/-]|\d|\d\s?(?:uhr|h|[ap]\.?m\.?|gmt|utc|[a-z]{2,4}t))\s*$")


# What a byline line starts with before its "by" / "von" / "par" ("Veröffentlicht am Juli 9,
# 2016 von mywakenews", "Ein Artikel von Pamela Sladky"): a label, so the "by" is no
# sentence's, and a one-word user name after it is a name.
_POSTED = (
    "posted", "published", "updated", "veröffentlicht", "publiziert", "eingestellt", "erstellt",
    "verfasst", "geschrieben", "eingetragen", "ein artikel", "ein beitrag", "artikel", "beitrag",
    "publié", "posté", "écrit", "publicado", "escrito", "pubblicato", "scritto",
)  # fmt: skip


def _cjk_names(text: str) -> list[str]:
    names: list[str] = []
    if _IDEOGRAPH.search(text) is None:
        return names
    for m in _CJK_LABEL.finditer(text):
        rest = text[m.end() :]
        stop = _CJK_STOP.search(rest)
        nxt = _CJK_LABEL.search(rest)
        cut = min(s.start() for s in (stop, nxt) if s is not None) if (stop or nxt) else len(rest)
        parts = re.split(r"[\s、，,/／）)\]】]+", rest[:cut].strip())[:_MAX_NAMES]
        if 2 <= len(parts) <= 3 and all(len(p) == 1 and "\u4e00" <= p <= "\u9fff" for p in parts):
            parts = ["".join(parts)]  # "赵 培": a two-character name spaced out
        for part in parts:
            if part and _CJK_NAME.fullmatch(part) and not _CJK_ROLE_ONLY.match(part):
                if not _ORG_SUFFIX.search(part) or len(part) <= 2:
                    names.append(part)
        if len(names) >= _MAX_NAMES:
            break
    return names


def is_credit(text: str) -> bool:
    """Whether a line is a photo credit (:data:`_CREDIT`)."""
    lowered = lower_for_search(text)
    if lowered is not None and _CREDIT_HINT.search(lowered) is None:
        return False
    return _CREDIT.search(text) is not None


def _capitalized(words: list[str]) -> bool:
    """Each word opens with a capital and glues no second one on ("FinanceOctober")."""
    return all(w[0].isupper() and not _INNER_CAPITAL.search(w) for w in words)


def _bare_name(line: Line) -> list[str]:
    """ "Dan Goodin - Apr 16, 2015", "Alex Perry 1 day ago", <address>Mike Conley</address>."""
    text = line.text
    m = _BARE_NAME.match(text) or _NAME_AFTER_DATE.match(text) or _name_role(text)
    if m is None or (line.tag != "address" and m.re is _BARE_NAME and m.end() == len(text)):
        return []
    name = m.group("name")
    words = name.split()
    if not _capitalized(words):
        return []  # "Yahoo FinanceOctober": words glued by the markup, not a name
    stop = _LATIN_STOP.search(text, m.start("name"))
    if stop is not None and stop.start() < m.end("name"):
        # "Mike Kappel May 18, 2016": a month before its day ends the name; a digit
        # inside a word ("Couture SS14") ends none
        name = text[m.start("name") : stop.start()].strip()
        starts_word = text[stop.start() - 1 : stop.start()].isspace()
        return [name] if starts_word and len(name.split()) > 1 else []
    return [name]


# A line that is a date alone ("December 17, 2025", "02-12-2025", "2025-12-17·",
# "Updated Oct 8, 2025") or a reading time ("9 min read"): what a byline's name
# line sits next to when the markup puts each field on a line of its own.
_DATE_LINE = re.compile(
    r"^(?:(?:updated|published|posted|on)\s)?(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|"
    + _MONTHS
    + r"\.?\s?\d{1,2}(?:st|nd|rd|th)?,?\s\d{4}|"
    r"\d{1,2}\.?\s(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s\d{4}|"
    r"\d{1,3}\s?min(?:ute)?s?\s(?:read|reading))"
    r"(?:,?\s\d{1,2}[:.]\d{2}\s?(?:[ap]\.?m\.?)?)?\W{0,3}$",  # (a time: "30 Sep 2022, 11:07am")
    re.I,
)
_MAX_DATE_LINE = 40
# A name alone on its line: two to four capitalized words.
_LONE_NAME = re.compile(_NAME_WORDS)


def _name_over_date(lines: list[Line], i: int, window: range) -> list[str]:
    """A name alone on line ``i`` whose next or previous line is a date alone ("Luke
    Kim" / "December 17, 2025"): the byline's fields, each on a line of its own."""
    text = lines[i].text.strip()
    words = text.split()
    if _LONE_NAME.fullmatch(text) is None:
        return []
    if not _capitalized(words):
        return []  # "Digital OrganizationOffice": menu items glued by the markup
    for j in (i + 1, i - 1):
        if j in window and lines[j].length <= _MAX_DATE_LINE:
            if _DATE_LINE.match(lines[j].text.strip()):
                return [text]
    if i + 1 < len(lines) and _role_line(lines[i + 1].text.strip()):
        return [text]  # "Harry Rabinowitz" / "Tech Reporter"
    return []


def _role_line(text: str) -> bool:
    """Whether a line is a job title alone: "Tech Reporter", "Writer", "Licensed Q Arabica
    Grader, M.A. Journalism"."""
    if not text or len(text) > _MAX_NAME:
        return False
    first = text.split()[0].casefold().strip(",")
    if first in _TITLE_WORDS:
        return True
    return _may_end_in_role(text) and _ROLE_TAIL.fullmatch(text) is not None


def _name_role(text: str) -> re.Match[str] | None:
    """A name whose line goes on with a role alone ("Sarah Lin, Business correspondent")."""
    m = _NAME_ROLE.match(text)
    if m is None or not _may_end_in_role(text) or _ROLE_TAIL.match(text, m.end()) is None:
        return None
    return m


def _marked(text: str, marks: list[str], sites: frozenset[str]) -> list[str]:
    """Names of the page's author-marked elements that this line shows."""
    for mark in marks:
        if mark in text:
            names = names_in(mark, sites)
            if names:
                return names
    return []


def _line_names(line: Line, marks: list[str], sites: frozenset[str]) -> list[str]:
    text = line.text
    if line.tag in _CAPTION_TAGS or is_credit(text):
        return []
    if text.isascii():
        names = _latin_names(text)
    else:
        names = _cjk_names(text) or _latin_names(text)
    names = [n for n in (clean_name(n, sites) for n in names) if n]
    return names or _marked(text, marks, sites)


# A byline's label on a line of its own, the name on the next: "By" / "Chris Thompson",
# "Article by:" / "Cara Dumaplin".
_LABEL_ALONE = re.compile(
    r"(?:(?:written|authored|posted|article|recipe|story)\s)?by\s?:?|von|par|author\s?:", re.I
)


def byline_authors(
    lines: list[Line],
    headline: int | None,
    main_start: int,
    marks: list[str] | None = None,
    sites: frozenset[str] = frozenset(),
    bare: bool = True,
) -> list[str]:
    """Names from the byline next to the headline, or an empty list.

    ``marks`` are the texts of elements the page marks as its author: a line
    showing one is a byline even without a label ("Gina TrapaniCEO"). With ``bare``,
    a name alone followed by a date ("Dan Goodin - Apr 16, 2015") counts too.
    """
    marks = marks or []
    window = _byline_window(lines, headline, main_start)
    for i in window:
        line = lines[i]
        if line.length > _MAX_LINE:
            continue
        names = _line_names(line, marks, sites)
        if not names and _LABEL_ALONE.fullmatch(line.text.strip()) and i + 1 < window.stop:
            names = names_in(lines[i + 1].text, sites)  # "By" / "Chris Thompson" on two lines
            if not _capitalized(" ".join(names).split()) and i + 2 < window.stop:
                # "By" / "Wedding ChecklistsJust Engaged" (tags glued) / "Naoise McNally"
                names = names_in(lines[i + 2].text, sites)
        if bare and not names and _bare_line(headline, i):
            if not is_credit(line.text) and line.tag not in _CAPTION_TAGS:
                found = _bare_name(line) or _name_over_date(lines, i, window)
                names = [n for n in (clean_name(n, sites) for n in found) if n]
        if names:
            return names[:_MAX_NAMES]
    return []


def unlabelled_byline(
    lines: list[Line],
    headline: int | None,
    main_start: int,
    marks: list[str],
    sites: frozenset[str] = frozenset(),
) -> list[str]:
    """``byline_authors(lines, headline, main_start, marks, sites)``, where the same
    call with no marks and not ``bare`` found nothing: no line of the window holds a
    labelled byline (nor a "By" over a name), so only the lines showing a mark and
    the bare names are left to read; not the labels again."""
    window = _byline_window(lines, headline, main_start)
    for i in window:
        line = lines[i]
        if _not_byline(line):
            continue
        if _NOT_WRITER.match(line.text):
            continue  # "Reviewed by: <a class=author>...": the reviewer's mark
        names = _marked(line.text, marks, sites)
        if not names and _bare_line(headline, i):
            found = _bare_name(line) or _name_over_date(lines, i, window)
            names = [n for n in (clean_name(n, sites) for n in found) if n]
        if names:
            return names[:_MAX_NAMES]
    if headline is not None:  # over the headline: "Rachel MacDonald" / "Writer" / "12/11/25"
        above = range(max(0, headline - _BARE_SCAN), headline)
        title = lines[headline].text.casefold()
        for i in above:
            if lines[i].text.strip().casefold() in title:
                continue  # the headline's copy over its date
            found = _name_over_date(lines, i, above)
            names = [n for n in (clean_name(n, sites) for n in found) if n]
            if names:
                return names
    return []


def _full_name(
    names: list[str], lines: list[Line], window: range, sites: frozenset[str]
) -> list[str]:
    """A byline's lone first name ("Stefanus", the author's link) as the full name a
    line of the byline's window opens with ("Stefanus Stahl - Maschinenbauer, ...":
    the author's box under it), read as :func:`_bare_name` reads a bare name:
    capitalized words, then a separator or a date. Anything else (a sentence that
    opens with the name), and a byline of several or of full names, as it is.
    (trafilatura_dev's mtb-news page labels the box's "Stefanus Stahl"; its byline,
    og and JSON-LD say "Stefanus".)"""
    if len(names) != 1 or not names[0].isalpha() or not names[0][:1].isupper():
        return names
    opening = names[0] + " "
    for i in window:
        line = lines[i]
        if line.length > _MAX_LINE or not line.text.startswith(opening):
            continue
        found = _bare_name(line)
        full = clean_name(found[0], sites) if found else None
        if full is not None and full.startswith(opening):
            return [full]
    return names


def _unglued(names: list[str], declared: list[str], sites: frozenset[str]) -> list[str]:
    """The byline's names, each cut back to the declared name it opens with where the
    markup glued the next field on ("Christian Spließin Allgemeines": "Christian
    Spließ" + "in Allgemeines", the JSON-LD author "Christian Spließ")."""
    if not declared:
        return names
    known = [n for raw in declared for n in names_in(raw, sites)]
    out = []
    for name in names:
        cut = next((k for k in known if name.startswith(k) and name[len(k) :][:1].isalpha()), None)
        # ... or a space between ("Harsh Vaibhav Global Commons": his desk), after a full name
        cut = cut or next((k for k in known if " " in k and name.startswith(k + " ")), None)
        out.append(cut or name)
    return out


def _byline_window(lines: list[Line], headline: int | None, main_start: int) -> range:
    """The lines a byline is looked for in: under the headline, or above the text."""
    lo = headline + 1 if headline is not None else max(0, main_start - _BYLINE_SCAN)
    return range(lo, min(len(lines), max(lo, main_start) + _TEXT_SCAN, lo + 3 * _BYLINE_SCAN))


def _not_byline(line: Line) -> bool:
    """Whether a line can hold no byline: prose, a caption, a photo's credit."""
    return line.length > _MAX_LINE or line.tag in _CAPTION_TAGS or is_credit(line.text)


def _bare_line(headline: int | None, i: int) -> bool:
    """Whether line ``i`` may show a bare name: one of the few right under the headline."""
    return headline is not None and i <= headline + _BARE_SCAN


_TAIL_LABEL = re.compile(
    r"^[(（\[【]\s?(?:" + _CJK_ROLE + r")|^(?:" + _CJK_ROLE + r")\s?[:：/／\s]"
    r"|^(?:text|texte|autor(?:in)?|author|auteure?|reporting by|written by|by|von|par)\s?[:：]?\s",
    re.I,
)


def tail_authors(
    lines: list[Line], main_end: int, sites: frozenset[str] = frozenset()
) -> list[str]:
    """A byline closing the text: "（记者 王燕 通讯员 李强）", "Text: Anna Berg"."""
    for line in lines[max(0, main_end - _TAIL_SCAN) : main_end + 1]:
        text = line.text
        label = _TAIL_LABEL.search(text)
        if line.length > _MAX_LINE // 2 or label is None or is_credit(text):
            continue
        if text.isascii() and not text[label.end() :].lstrip()[:1].isupper():
            continue  # "By now, you know ...": a sentence; a closing byline names a Name
        names = _cjk_names(text) if not text.isascii() else []
        if not names:
            names = names_in(re.split(r"[;；]", text, maxsplit=1)[0].strip("()（）[]【】"), sites)
        names = [n for n in (clean_name(n, sites) for n in names) if n]
        if names:
            return names[:_MAX_NAMES]
    return []


_BOX_SCAN = 10  # lines after the text where its author's box may be
# The verbs of a byline's label that the site, a team or a box's writer follows.
_BY_VERB = r"(?:written|authored|posted|published)\s+by"
# The label of the author's box after the text: "Written by Ann Lee", "This post was
# written by Ann Lee, Head of ...", "About the Author: Ann", "Published by", "By: Ann Lee".
_BOX_LABEL = re.compile(
    r"^(?:(?:this\s(?:post|article|story|guide|piece)\s(?:was\s)?)?"
    + _BY_VERB
    + r"|about\s+the\s+author|by)\s?:?\s",
    re.I,
)


def _box_authors(page: Page, sites: frozenset[str]) -> tuple[list[str], int] | None:
    """The names of the author's box right after the text (:data:`_BOX_LABEL`), and its
    line: two to five capitalized words, or one the page declares as its author ("About
    the Author: Tom", the author tag "Tom")."""
    lines, end = page.lines, page.end
    declared = {name.casefold() for name in _declared(page)}
    for i in range(max(page.start, end - _TAIL_SCAN), min(len(lines), end + _BOX_SCAN)):
        text = lines[i].text
        label = _BOX_LABEL.match(text)
        if label is None or lines[i].length > _MAX_LINE or is_credit(text):
            continue
        rest = text[label.end() :]
        stop = _LATIN_STOP.search(rest)
        names = []
        for part in _NAME_SPLIT.split(rest[: stop.start()] if stop else rest):
            words = part.split()
            if words and words[0].casefold() in _TITLE_WORDS:
                break  # "Ann Lee, Head of Marketing and Sales": her role, to the end
            if 2 <= len(words) <= _MAX_WORDS and _capitalized(words):
                names.append(" ".join(words))
            elif len(words) == 1 and words[0].casefold() in declared:
                names.append(words[0])
        names = [n for n in (clean_name(n, sites) for n in names) if n]
        if names:
            return names[:_MAX_NAMES], i
    for i in range(max(page.start, end - _BOX_IN_TEXT), min(len(lines) - 1, end + _BOX_SCAN)):
        name = _boxed_name(lines[i].text.strip(), lines[i + 1].text)
        name = clean_name(name, sites) if name else None
        if name:
            return [name], i
    return None


_BOX_IN_TEXT = 20  # lines at the end of the text where its author's box may be
_BOX_ROLE = re.compile(r"(?:author|writer|editor|contributor|reporter|journalist)s?:?", re.I)
# How a box's bio goes on after the name: "Ann Lee is a ...", "Ann, as an editor ..."
_BIO_VERB = re.compile(
    r"(?:\s(?:is|was)\s(?:a|an|the)\b|\s(?:writes|covers|joined)\b|,\s(?:a|an|as|the)\b)"
)


def _boxed_name(text: str, following: str) -> str | None:
    """The name a line of the author's box holds alone, where the next line names its role
    ("Ann Lee" / "Author") or opens the bio with it ("Ann Lee" / "Ann Lee is a writer ...")."""
    words = text.split()
    if not 1 <= len(words) <= 4 or not _capitalized(words) or not text.replace(" ", "").isalpha():
        return None
    if len(words) > 1 and _BOX_ROLE.fullmatch(following.strip()):
        return text
    if following.startswith(text) and _BIO_VERB.match(following, len(text)):
        return text  # (the whole name: "Copper Pipes" / "Copper is a metal" is a section)
    return None


def find_source(meta_authors: list[str], lines: list[Line], lo: int, hi: int) -> str | None:
    """The agency or originating outlet the page names: "来源：新华社", "(Reuters)", or an
    agency given as the author."""
    for raw in meta_authors:
        agency = _AGENCY_KEYS.get(raw.strip().casefold())
        if agency:
            return agency
    for line in lines[lo:hi]:
        text = line.text[:_MAX_LINE]
        m = _SOURCE_LABEL.search(text)
        if m is not None and not _NOT_SOURCE.search(m.group("v")):
            value = _SOURCE_END.split(m.group("v"))[0]
            if 2 <= len(value) <= _MAX_SOURCE:
                return value
        m = _agency_in(text)
        if m is not None and line.length <= _MAX_LINE:
            return m.group("zh") or m.group("en")
        if "/" not in text and "|" not in text:
            continue  # no fields to split
        for part in _FIELD_SPLIT.split(text)[1:3]:
            agency = _AGENCY_KEYS.get(part.strip().casefold())
            if agency:
                return agency
    return None


def _agency_in(text: str) -> re.Match[str] | None:
    """``_AGENCY_IN_TEXT.search(text)``, tried from the first character a match can start with."""
    first = _AGENCY_START.search(text)
    return None if first is None else _AGENCY_IN_TEXT.search(text, first.start())


def _site_keys(site_names: list[str | None], url: str | None) -> frozenset[str]:
    """The site's own names, folded, spaces removed: never returned as a person. Each
    part of a site name ("HSS - Hanns-Seidel-Stiftung e.V.", "LinkNaija | Nigeria's
    ...") and the host's name ("linknaija" of linknaija.com) count too."""
    host = (url or "").split("//", 1)[-1].split("/", 1)[0].lower().removeprefix("www.")
    names = [host, host.split(".", 1)[0]]
    for site_name in site_names:
        if site_name:
            names.append(site_name)
            names += _SITE_PARTS.split(site_name)
    return frozenset(
        "".join(name.casefold().split()) for name in names if len(name.strip()) > 1
    )


# A person's full name as a site owner writes it: two to four capitalized words
# ("Kristian Larsen", "Julian K. Arni"), no digits or markup, no word in capitals
# ("IT Finanzmagazin"); a word a business's name holds ("Automateed Team") is none.
_OWNER_NAME = re.compile(r"[A-Z](?:[a-z][\w'’-]*|\.)(?:\s[A-Z](?:[a-z][\w'’-]*|\.))*")
_NOT_OWNER = frozenset("team store shop editorial editors blog studio one".split())


# Languages that capitalize every noun: there a name's capitals do not tell a person
# ("Deutscher Tennis Bund", "Lebensmittel Praxis") from a business.
_NOUNS_CAPITALIZED = ("de", "lb")


def _owned_sites(sites: frozenset[str], declared: list[str]) -> frozenset[str]:
    """The site's names less those that are the declared author's own: a person's site
    is named after them ("Kristian Larsen" on kristian-larsen.com, "Derek Seaman's
    Tech Blog", "Miod Vallat" on miod.online.fr), and there the name is the author,
    not the site standing in for one. Only a declared (JSON-LD or meta tag) name
    shaped as a person's full name frees it: a one-word site ("Vortex") never."""
    for raw in declared[:3]:
        name = " ".join(raw.split())
        words = name.casefold().split()
        if not 2 <= len(words) <= 4 or not _OWNER_NAME.fullmatch(name):
            continue
        if words[0] in _PARTICLES or _NOT_OWNER.intersection(words) or clean_name(name) != name:
            continue  # "El Colombiano", "Camphouse Team": a business
        key = _NOT_LETTERS.sub("", name.casefold())
        first = _NOT_LETTERS.sub("", name.split()[0].casefold())
        owned = {
            site for site in sites
            if key in _NOT_LETTERS.sub("", site) or _NOT_LETTERS.sub("", site) == first
        }  # fmt: skip
        if owned:
            return sites - owned
    return sites


def _declares_someone(raw: str, sites: frozenset[str]) -> bool:
    """Whether a JSON-LD author names a person or an agency ("AP"), not only the site."""
    return raw.strip().casefold() in _AGENCY_KEYS or bool(names_in(raw, sites))


# JSON-LD types whose ``author`` is the page's: an article, a post, a forum thread's
# opening post (its starter), a question.
_POSTING = re.compile(r"Article|BlogPosting|Report|WebPage|Posting|Question", re.I)
# A declared name that is a handle: letters with digits or an underscore, one word
# ("Need2KnowLion", "q_user"), as forums show them.
_HANDLE = re.compile(r"(?=.*[^\W\d_].*[^\W\d_])[\w.-]{2,30}")


def _declared(page: Page) -> list[str]:
    """Every name the page declares as its author, of any kind: JSON-LD ``author``
    of an article or a posting (an Organization's too), then ``<meta name=author>``."""
    raw: list[str] = []
    for node in page.meta.jsonld[:_MAX_NAMES]:
        if any(_POSTING.search(kind) for kind in jsonld_types(node)):
            raw += _jsonld_names(node.get("author"))
    raw += page.meta.author_tags
    return list(dict.fromkeys(" ".join(_INVISIBLE.sub("", name).split()) for name in raw))


def _jsonld_names(value: object, depth: int = 0) -> list[str]:
    """The names a JSON-LD ``author`` value holds (a string, a node, a list of them)."""
    if depth > 2:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return _jsonld_names(value.get("name"), depth + 1)
    if isinstance(value, list):
        return [n for v in value[:_MAX_NAMES] for n in _jsonld_names(v, depth + 1)]
    return []


def _declared_name(raw: str) -> str | None:
    """``raw`` as the name of whoever the page says wrote it, a person or not ("Supermove",
    "Need2KnowLion", "EcoCult Staff"), or None: a placeholder, a role alone
    ("Community Editor"), a phrase ("Our Editors"), an address, an agency."""
    text = _LEAD_LABEL.sub("", raw).strip(" ,;:-–—·•|")
    words = text.split()
    if not words or len(text) > _MAX_NAME or len(words) > _MAX_WORDS:
        return None
    if _NOT_NAME.match(text) or _NOT_NAME_CHARS.search(text) or _DOTTED.search(text):
        return None
    if "@" in text or "/" in text or text.casefold() in _AGENCY_KEYS or _DESK_WORD.search(text):
        return None
    if any(c.isdigit() for c in text) and not (len(words) == 1 and _HANDLE.fullmatch(text)):
        return None  # a date or a number; a handle ("lulug30") is a name
    if any(w.lower() in _FUNCTION_WORDS for w in words) or not any(c.isalpha() for c in text):
        return None
    if _ROLE_TAIL.fullmatch(text) or all(w.lower().strip(".") in _TITLE_WORDS for w in words):
        return None  # a role alone
    if all(w.lower() in _DESK_WORDS for w in words):
        return None  # "Staff Reports", "Editorial Team": a desk's credit, no one's name
    return text


# What may follow the site's own name in a byline that credits the site: nothing, or a
# date ("Posted by IndustrySelect on Tuesday, August 29"); another field after it ("IT
# Finanzmagazin /PP 20. Juni") credits someone of the site's (initials, a desk).
_SITE_BYLINE_END = re.compile(
    r"(?:(?:on|at|published|updated|posted)\s|[|·•—–-]\s?)?(?:\d|" + _MONTHS + r"\b|"
    + _WEEKDAYS
    + r")",
    re.I,
)


# "By" naming the site itself, at the line's start or after a date or a separator.
_SITE_LABEL = re.compile(
    r"(?:^|[\d|·•—–]\s?)(?:" + _BY_VERB + r"|by)\s?:?\s", re.I
)


def _shown_declared(page: Page, sites: frozenset[str]) -> tuple[list[str], int] | None:
    """The declared author (:func:`_declared`) that the byline shows: a line next to the
    headline opening with it (after a label: "By GrinGEO"), then nothing, a separator, a
    date or another field ("Supermove" / "February 8, 2022", "Susan December 9, 2024").
    Two sources agreeing make it the author even where one alone is too weak: a one-word
    handle, the site's own name, a team. The site's name (og:site_name, the publisher)
    counts after a "By" alone ("By Erin Spain" on Erin Spain's site)."""
    names = [n for n in (_declared_name(raw) for raw in _declared(page)) if n]
    own = [page.site_name, page.meta.site_name, page.meta.publisher]
    owned = [n for n in (_declared_name(raw) for raw in own if raw) if n]
    if not names and not owned:
        return None
    lines = page.lines
    window = _byline_window(lines, page.headline, page.start)
    above = [page.headline - 1] if page.headline else []  # (a byline over the headline)
    for i in [*above, *window]:
        line = lines[i]
        if _not_byline(line):
            continue
        text = line.text.strip()
        label = _SITE_LABEL.search(text)
        if label is not None:  # the site's own name after "By": "May 3, 2017 By Erin Spain"
            for name in owned:
                rest = text[label.end() :]
                if rest.casefold().startswith(name.casefold()):
                    shown, rest = rest[: len(name)], rest[len(name) :].lstrip(" ,")
                    if not rest or _SITE_BYLINE_END.match(rest):
                        return [shown], i  # (as the line writes it)
        for _ in range(2):
            text = _LEAD_LABEL.sub("", text).strip(" ,;:-–—·•|")
        for name in names:
            if not text.casefold().startswith(name.casefold()):
                continue
            rest = text[len(name) :]
            if rest[:1].isalnum():
                continue  # "Arcade" is not "Arc"
            rest = rest.lstrip(" ,")
            if "".join(name.casefold().split()) in sites:
                if not rest or _SITE_BYLINE_END.match(rest):
                    return [name], i
            elif not rest or _LATIN_STOP.match(rest):
                return [name], i
    return None


# A team or a desk as the byline names it ("By Workzone Team", "The Upwork Team", "Resy
# Staff", "Team SimplyThrilled"): capitalized words, then the team word; after a label
# anywhere in the byline's window, alone on its line right under the headline.
_TEAM_LABEL = re.compile(r"(?i:" + _BY_VERB + r"|by|von|author)\s?:?\s")
_TEAM = re.compile(
    r"(?P<name>(?:[Tt]he\s)?(?:[A-Z0-9][\w&'’.-]*\s){1,3}"
    r"(?:Team|Staff|Editors|Editorial\sTeam|Editorial\sStaff|News\s?[Dd]esk|Webteam)"
    r"|Team\s[A-Z][\w'’-]*)"
    r"(?=\s?(?:[–—•·|/,]|-(?!\w)|\d|$)|\s(?i:on|at|updated|published)\b)"
)


_DESK_WORDS = frozenset("the editorial editors news staff team desk web reports wire".split())


def _team_byline(page: Page) -> tuple[list[str], int] | None:
    """A team's byline (:data:`_TEAM`) and its line: the team the page names as its author
    (all three benchmarks' labels name it so, "Smart Shopping Team", "TMZ STAFF")."""
    lines, headline = page.lines, page.headline
    above = range(max(0, headline - 2), headline) if headline is not None else range(0)
    for i in [*above, *_byline_window(lines, headline, page.start)]:
        line = lines[i]
        if _not_byline(line):
            continue
        text = line.text.strip()
        label = _TEAM_LABEL.match(text)
        if label is None and not (_bare_line(headline, i) or i in above):
            continue
        m = _TEAM.match(text, label.end() if label else 0)
        if m is None:
            continue
        name = m.group("name")
        words = name.split()
        if any(w.lower() in _FUNCTION_WORDS for w in words[words[0].lower() == "the" :]):
            continue  # "Our Team", "Join Our Team": a link to the staff page
        if all(w.lower() in _DESK_WORDS for w in words):
            continue  # "Editorial Staff", "News Desk": a role, no one's name
        return [name], i
    return None


def _names(page: Page, sites: frozenset[str]) -> tuple[list[str], Evidence | None]:
    """Authors in order of trust, with where they were read."""
    meta, lines, headline, start = page.meta, page.lines, page.headline, page.start
    site_keys = sites
    top = start if headline is None else headline  # (a headline on line 0 is a headline)
    if not (page.language or "").lower().startswith(_NOUNS_CAPITALIZED):
        sites = _owned_sites(sites, meta.authors + meta.author_tags)
    shown = byline_authors(lines, headline, start, None, sites, bare=False)
    marked: list[str] = []
    if not shown and not any(_declares_someone(raw, sites) for raw in meta.authors):
        # (JSON-LD persons come before a marked element; a JSON-LD "author" that names
        # no person, ", USA TODAY", does not)
        marked = author_marks(page.root, page.markup, page.lines.marks)
        # A field's label ("Username" in the site's header) is no mark of the story's author.
        marked = [mark for mark in marked if not _NOT_NAME.match(mark.strip())]
        # ... nor the reviewer's ("Reviewed by: <span class=author>Ann Lee</span>")
        reviews = [line.text for line in lines[max(0, top - 1) : start + 3]]
        reviews = [text for text in reviews if _NOT_WRITER.match(text)]
        marked = [mark for mark in marked if not any(mark in text for text in reviews)]
        shown = unlabelled_byline(lines, headline, start, marked, sites)
    tagged = [n for raw in meta.author_tags for n in names_in(raw, sites)]
    if shown:
        index = page.line_with(shown[0], max(0, top - 1))
        raw = lines[index].text if index is not None else shown[0]
        if len(tagged) > len(shown) and shown[0] == tagged[0]:
            # The byline shows the first of many (citation_author on papers).
            return tagged, Evidence("meta:author", None, ", ".join(meta.author_tags))
        window = _byline_window(lines, headline, start)
        declared = meta.authors + meta.author_tags
        if not declared and any(len(name.split()) > 2 for name in shown):
            # (a long name may hold a glued field: the marks are read for it alone)
            declared = author_marks(page.root, page.markup, page.lines.marks)
        shown = _unglued(shown, declared, sites)
        return _full_name(shown, lines, window, sites), Evidence("byline", index, raw)
    if meta.publisher and meta.publisher in meta.authors + meta.author_tags:
        # The publisher named as the author is a person only where a byline shows it.
        sites = site_keys
    structured = (
        (meta.authors, "jsonld"),
        (marked[:1], "marked"),
        (meta.author_tags, "meta:author"),
    )
    for group, source in structured:
        # (a meta tag alone is too weak to make the site's name a person's)
        keys = site_keys if source == "meta:author" else sites
        names = [n for raw in group for n in names_in(raw, keys)]
        if source != "marked" and all(n.isascii() and " " not in n for n in names):
            names = []  # "Nils", "Lynn": an account's nickname the page never shows
        if names:
            return names, Evidence(source, None, ", ".join(group))
    found = _shown_declared(page, site_keys) or _team_byline(page)
    if found is not None:
        return found[0], Evidence("byline", found[1], lines[found[1]].text)
    if page.end > start:
        boxed = _box_authors(page, sites)
        if boxed is not None:
            return boxed[0], Evidence("byline", boxed[1], lines[boxed[1]].text)
        names = tail_authors(lines, page.end - 1, sites)
        if names:
            index = page.line_with(names[0], max(0, page.end - 1 - _TAIL_SCAN))
            return names, Evidence("byline", index, lines[index].text if index is not None else "")
    return [], None


def find_authors(page: Page) -> None:
    """Fill ``page.authors`` (people, in page order: the byline, JSON-LD persons, marked
    elements, meta tags that hold a name, the closing byline), ``page.source`` (the
    agency or outlet the page names) and their evidence."""
    meta = page.meta
    sites = [page.site_name, meta.site_name, meta.publisher]
    sites.append(site_from_title(meta.title_tag, page.title))
    names, evidence = _names(page, _site_keys(sites, page.url))
    page.authors = tuple(dict.fromkeys(names[:_MAX_NAMES]))
    if page.authors and evidence is not None:
        page.evidence["authors"] = evidence
    lo = page.headline if page.headline is not None else max(0, page.start - _BYLINE_SCAN)
    hi = min(len(page.lines), page.start + 3)
    lo = max(0, lo - 2)
    page.source = find_source(page.meta.authors + page.meta.author_tags, page.lines, lo, hi)
    if page.source is not None:
        index = page.line_with(page.source, lo)
        if index is not None and index < hi:
            page.evidence["source"] = Evidence("line", index, page.lines[index].text)
        else:
            page.evidence["source"] = Evidence("meta:author", None, page.source)

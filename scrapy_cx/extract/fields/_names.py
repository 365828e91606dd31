"""Names out of a candidate string: the labels, roles, e-mail, handles and the site's own
name around a name cut off, then what is left checked to be a person's name.

One place says what a name is, so every reader (the byline, the marks, the metadata,
the closing line) refuses the same placeholders, desks, agencies, places and phrases.
"""

from __future__ import annotations

import re

from ..parse.meta import lower_for_search

MAX_NAMES = 30  # papers list many authors
MAX_NAME = 60  # characters: a longer "name" is a sentence or a bio
MAX_WORDS = 5  # words of a Latin name ("Michelina C. de la Maza")
_MIN_SITE_KEY = 4  # characters of a site name cut off a glued byline (not "AP" or "TV")
_MIN_NAME_KEY = 3  # characters of a name refused as the start of the site's own name
_MIN_CJK_NAME_KEY = 2  # ... written in ideographs ("网易" of "网易新闻")
_MIN_SITE_INSIDE = 8  # characters of a site's name that, inside a longer name, make it the site's
NAME_SPLIT = re.compile(r",|\s(?:and|und|et|y|e|&)\s|\s?&\s?", re.I)
PARTICLES = frozenset(
    "de da del della di du van von der den le la bin al el st. mc dos das y".split()
)
# English words that join a phrase and never stand in a person's name: a name holding
# one is a heading or a label ("Insights from", "With Rental Package"). Short words
# that are also given names ("An", "To", "In") are left out.
FUNCTION_WORDS = frozenset(
    "the of from with for about your our my their this that "
    # ... and German, French, Spanish ones ("Die Opernball-Grande", "deinen Hochzeitsbloggern")
    "die das dem des ein eine einer einem einen und oder mit für über aus bei nach zum zur "
    "dein deine deinen ihr ihre unser unsere sein seine les une avec pour sur dans los las con para"
    .split()
    # ... and a site's controls a marked element may hold ("Sign In", "Terms & Conditions
    # Privacy Policy"), in no name either
    + "sign login logout privacy policy terms conditions cookies subscribe newsletter".split()
)

# Chinese and Japanese labels before names; 记者 / 通讯员 also sit between names.
CJK_ROLE = (
    r"本报记者|本報記者|特约记者|特約記者|见习记者|實習記者|实习记者|实习生|實習生|通讯员|通訊員|"
    r"记者|記者|作者|撰文|撰稿|执笔|執筆|著者|筆者|主笔|编译|編譯|翻訳者|翻译|翻譯|"
    r"取材・文|取材・執筆|文|發表人|发表人|楼主"
)
CJK_ROLE_ONLY = re.compile(r"^(?:" + CJK_ROLE + r"|编辑|編集|责任编辑|責任編輯|摄影|攝影)$")
# Chinese names are 2-4 characters (a transliterated one has a "·"); Japanese ones with kana
# may be longer ("小暮ひさのり").
CJK_NAME = re.compile(
    r"(?:[\u4e00-\u9fff]{1,6}·)?[\u4e00-\u9fff]{2,4}"
    r"|[\u4e00-\u9fff]{0,4}[\u3040-\u30ff][\u3040-\u30ff\u4e00-\u9fff・]{0,7}|[A-Za-z][\w.-]{1,30}"
)
ORG_SUFFIX = re.compile(
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
AGENCY_KEYS = {name.casefold(): name for name in _AGENCIES}

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
LEAD_LABEL = re.compile(
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
    r"auteure?|texte?)(?![^\W\d_])|(?:" + CJK_ROLE + r"))\s?[:：/／●・]?\s*",
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
# Roles closing a name ("Ann Lee, Staff Writer"), lower-case: ROLE_TAIL's last word.
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
ROLE_TAIL = re.compile(
    r"(?:,|\s-|\s\|)?\s*(?:(?:senior|chief|staff|deputy|contributing|special|political|"
    r"foreign|business|tv|sports?|news|editor-at-large|national|science|tech(?:nology)?|"
    r"&|and|culture|[A-Z][a-z]+)\s)*(?:" + "|".join(map(re.escape, _ROLES)) + r")s?\.?$",
    re.I,
)
_CJK_ROLE_TAIL = re.compile(r"\s?(?:" + CJK_ROLE + r"|编辑|編集|摄影|攝影|报道|報道|撰)$")
_BRACKETS = re.compile(r"^[\[【《(（]+|[\]】》)）]+$")
NOT_NAME_CHARS = re.compile(r"[!?#*=<>{}]")
# A user name with digits: one word opening with three letters, no month or weekday
# ("Jan2024", "Mon12").
_DIGIT_HANDLE = re.compile(
    r"(?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun))"
    r"[^\W\d_]{3,}\w*\d\w*",
    re.I,
)
_LABEL_END = re.compile(r"\s(?:by|von|par|por)$", re.I)
# Who checked, edited or drew the page is not who wrote it: "Medically reviewed by".
NOT_WRITER = re.compile(
    r"(?:\w+\s)?(?:reviewed|checked|fact-checked|edited|illustrated|translated)\s+by\b", re.I
)
NOT_NAME = re.compile(
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
DESK_WORD = re.compile(r"redaktion\b|rédaction\b|redacción\b|redazione\b|newsroom\b", re.I)
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
DOTTED = re.compile(r"[^\W\d_]{2,}\.[^\W\d_]{2,}")
# Characters a name is written with but never holds: a soft hyphen, zero-width spaces
# and joiners, a byte order mark ("Mat\xadthi\xadas").
INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff]")


def clean_name(raw: str, sites: frozenset[str] = frozenset()) -> str | None:
    """One person's name out of ``raw``, or None when it is no name.

    Drops labels ("By", "作者："), e-mail, handles and URLs, brackets, a role after the
    name ("Staff Writer", "CEO", "记者") and a name repeated twice by the markup;
    refuses numbers, agencies, the site's own name and role words alone.
    """
    raw = INVISIBLE.sub("", raw)
    text = " ".join(_EMAIL.sub(" ", raw.replace("\u3000", " ")).split())
    if DOTTED.search(text):
        return None  # a domain or a user id, never a person
    text = text.split(" | ", 1)[0].split("|", 1)[0].strip(" ,;:-–—·•")
    for _ in range(2):
        text = LEAD_LABEL.sub("", text).strip(" ,;:-–—·•")
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
        if may_end_in_role(text):
            text = ROLE_TAIL.sub("", text)
        text = text.strip(" ,;:-–—·")
    text = _CJK_ROLE_TAIL.sub("", text).strip()
    if not text or len(text) > MAX_NAME:
        return None
    if any(c.isdigit() for c in text) and not _DIGIT_HANDLE.fullmatch(text):
        return None  # a date, a number; not a handle ("lulug30", "Need2KnowLion")
    if NOT_NAME_CHARS.search(text) or _LABEL_END.search(text) or NOT_WRITER.match(text):
        return None  # "Discuz! Team": a product, markup or a slogan; "Researched by": a label
    key = text.casefold()
    if key in AGENCY_KEYS or NOT_NAME.match(text) or CJK_ROLE_ONLY.match(text):
        return None
    if _CJK_NOT_NAME.search(text) or DESK_WORD.search(text) or key in _PLACES:
        return None
    if key in sites or "".join(key.split()) in sites or "/" in text:
        return None
    words = text.split()
    if _site_part(text, sites):
        return None
    if text.isascii() or " " in text:
        if len(words) > MAX_WORDS or not any(c.isalpha() for c in text) or _LATIN_ORG.search(text):
            return None
        if any(w.lower() in FUNCTION_WORDS for w in words):
            return None  # "Insights from", "With Rental Package": a phrase
        lower = sum(not w[0].isupper() and w.lower() not in PARTICLES for w in words)
        if len(words) > 1 and lower > 1:
            return None  # "Syrian defense ministries": a phrase, not a name
    elif (ORG_SUFFIX.search(text) and len(text) > 2) or not CJK_NAME.fullmatch(text):
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
TITLE_WORDS = frozenset(
    """executive founder co-founder cofounder director manager officer president head lead
    principal licensed certified contributing managing senior chief associate assistant""".split()
)


def _before_title(text: str) -> str:
    """``text`` up to the first of :data:`TITLE_WORDS` after a two-word name, or ""
    when it opens with one."""
    words = text.split()
    for i, word in enumerate(words):
        if word.casefold().strip(".,:;&") in TITLE_WORDS and (i == 0 or i >= 2):
            return " ".join(words[:i]).strip(" ,;:-–—·&")
    return text


def may_end_in_role(text: str) -> bool:
    """Whether ``text`` may end in one of :data:`_ROLES` (an "s" and a "." after it
    allowed), as :data:`ROLE_TAIL` matches: a test of the end alone, where the
    pattern tries every word of the text for a run of title words."""
    lowered = lower_for_search(text)  # None: a character ROLE_TAIL folds otherwise
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
    letters = NOT_LETTERS.sub("", squashed)
    for site in _longest_first(sites):
        if first == site:
            return True
        if " " not in text and len(squashed) >= least and site.startswith(squashed):
            # "Vortex" of vortexcannon; not "Jürgen Heitmann" of "Jürgen Heitmann Fotografie"
            return True
        if len(site) >= _MIN_SITE_KEY and squashed.startswith(site) and " " in text:
            return bool(_DESK.fullmatch(squashed[len(site) :]))
        bare = NOT_LETTERS.sub("", site)
        if len(bare) >= _MIN_SITE_INSIDE and bare in letters and " " in text:
            return True  # "EFC Bayrische Bembel" on bayrische-bembel.de: the site's club
    return False


NOT_LETTERS = re.compile(r"[\W_]+")


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


_LATIN_WORD = re.compile(r"[A-Za-z]{3}")  # a non-ASCII text holding one is split as Latin
_CJK_SPLIT = re.compile(r"[\s、，,;；/／]+")


def split_names(text: str) -> list[str]:
    """A list of names as written: "A and B", "A, B & C", "A、B", "A/B" (CJK)."""
    if not text.isascii() and not _LATIN_WORD.search(text):
        return [p for p in _CJK_SPLIT.split(text) if p]
    parts = [p.strip() for p in NAME_SPLIT.split(text)]
    return [p for p in parts if p]


def names_in(raw: str, sites: frozenset[str] = frozenset()) -> list[str]:
    """Every clean name in a candidate string, in order."""
    raw = _EMAIL.sub(" ", raw)
    org = DOTTED.search(raw) is not None
    raw = LEAD_LABEL.sub("", " ".join(raw.split()))
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
    return names[:MAX_NAMES]

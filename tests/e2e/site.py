"""A generated news site for end-to-end crawls: what a crawler meets on real sites.

:func:`build_site` renders invented stories through page templates modelled on
real kinds of news site (an HTML5 English paper, a WordPress blog, a 2008
table-layout paper in ISO-8859-1, a 2009 Chinese portal in GBK, a modern
Chinese news app site, a government notice) with menus, related-story boxes,
comments, ads and footers around the article, plus index pages and the
responses every crawl meets sooner or later: a redirect, a 404, a 500, JSON,
a PDF, a PDF served as ``text/html``, robots.txt.

The site knows its answers: :attr:`Site.articles` maps each article's final
URL path to the :class:`Story` it shows, and :attr:`Site.boilerplate` to text
that is on the page but is not the article. Nothing here is copied from real
pages; the stories are templates filled with invented places and people.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import escape

from tests.support.server import Route

# --------------------------------------------------------------------------- stories


@dataclass(frozen=True)
class Story:
    """One invented article: what a correct extraction returns."""

    slug: str
    lang: str
    title: str
    published: datetime
    paragraphs: tuple[str, ...]
    author: str
    comments: tuple[str, ...]

    @property
    def day(self) -> str:
        return self.published.date().isoformat()


EN_PLACES = (
    "Ashcombe",
    "Brindlecross",
    "Fenwick Moor",
    "Holbrook",
    "Larkhill Green",
    "Marston Quay",
)
EN_PEOPLE = (
    "Alan Petherick",
    "Grace Okafor",
    "Colin Marchant",
    "Priya Venkat",
    "Ruth Aldous",
    "Tomasz Wrona",
    "Helen Carew",
    "Idris Bevan",
)

# (title, paragraphs) with {place}, {person}, {n}, {m}, {year} slots.
EN_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "{place} library to reopen in former bank after £{n}m refit",
        (
            "The library in {place} will move into the former bank building on the market square "
            "next spring, after councillors approved a £{n} million refit on Tuesday night.",
            "The current library has been closed since a burst pipe flooded its basement store "
            "in {year}, and a temporary service has run from two rooms in the community centre, "
            "with room for barely a tenth of the usual stock.",
            "Councillor {person}, who chairs the culture committee, said the bank was the only "
            "building in the town centre large enough and already owned by the council. "
            '"It has stood empty for {m} years, and now it gets a use everyone can share," '
            "she said.",
            "The plans include a children's floor, a study room open until nine in the evening "
            "and a small local history archive. Opposition members questioned the cost but "
            "did not vote against the scheme.",
            "Building work is expected to start in the autumn, and the council says the move "
            "will not affect the mobile library that serves the outlying villages.",
        ),
    ),
    (
        "Bus route between {place} and the hospital restored after {n} months",
        (
            "Passengers in {place} will again have a direct bus to the district hospital from "
            "Monday, {n} months after the route was withdrawn when its operator lost two drivers.",
            "The service will run every hour from seven in the morning until seven at night on "
            "weekdays, with a reduced timetable on Saturdays. The county council is paying a "
            "subsidy of £{m},000 a year to keep it running.",
            "{person}, who collected more than a thousand signatures asking for the route back, "
            "said older residents had been paying for taxis or missing appointments. "
            '"People should not have to choose between a check-up and their heating bill," '
            "he said.",
            "The new operator has promised to publish real-time departure information at the "
            "main stops by the end of the year, something passengers had asked for repeatedly.",
            "A review of the route's passenger numbers will take place after twelve months.",
        ),
    ),
    (
        "Flood barrier work to close {place} riverside path until {year}",
        (
            "The riverside path through {place} will close for most of the next two years while "
            "engineers build a new flood barrier along the west bank, the Environment Agency "
            "has confirmed.",
            "The £{n} million scheme will protect around {m}0 homes that flooded twice in the "
            "last decade. It includes a raised wall, two sets of demountable gates and a new "
            "pumping station near the old tannery.",
            "Walkers and cyclists will be diverted along the main road, and the agency says it "
            "will keep a narrow section near the footbridge open at weekends when it is safe "
            "to do so.",
            "{person}, project manager for the agency, said the closure was unavoidable. "
            '"We understand people love this path. We will reopen it wider and better lit than '
            'before," she said.',
            "Residents can see the designs at a drop-in session in the town hall on the first "
            "Thursday of next month.",
        ),
    ),
    (
        "{place} primary school to add {n} places as new estate fills up",
        (
            "The primary school in {place} is to gain {n} extra places from September after the "
            "education authority agreed to fund a two-classroom extension.",
            "Families moving into the new estate on the edge of the town have found the school "
            "full, and some children have been offered places in villages up to {m} miles away.",
            "Headteacher {person} said the extension would end the use of the temporary "
            "classroom in the playground, which has been in place since {year}. "
            '"Our children will finally get their playground back," she said.',
            "The developer of the estate is contributing to the cost through a planning "
            "agreement, with the authority paying the remainder from its capital budget.",
            "Parents who applied late for a September place are being asked to contact the "
            "admissions team again once the extension is confirmed.",
        ),
    ),
    (
        "{place} Town promoted after {n}-game unbeaten run",
        (
            "{place} Town sealed promotion on Saturday with a 2-1 win at home, stretching their "
            "unbeaten run to {n} league games and ending {m} seasons in the division.",
            "A crowd of more than a thousand, the biggest at the ground for years, watched the "
            "winner go in with eleven minutes left, a header from a corner at the clubhouse end.",
            "Manager {person}, in his first full season, said the squad had been built on local "
            'players. "Most of these lads grew up ten minutes from the ground. That matters '
            'when you are a goal down in February," he said.',
            "The club must now upgrade its floodlights and add covered seating to meet the "
            "ground rules of the higher league, work it expects to finish over the summer.",
            "Supporters have been invited to a celebration at the clubhouse after the final "
            "home game of the season next weekend.",
        ),
    ),
    (
        "New day surgery unit opens at {place} community hospital",
        (
            "A new day surgery unit has opened at {place} community hospital, allowing minor "
            "operations that used to mean a trip to the city to be done close to home.",
            "The unit has two theatres and a recovery ward with {n} bays, and is expected to "
            "treat around {m},000 patients a year, mostly for cataracts, hernias and hand "
            "surgery.",
            "Dr {person}, clinical lead for the unit, said waiting lists for some procedures "
            'should fall by several weeks. "For an older patient, not having to travel an '
            'hour each way makes a real difference," she said.',
            "The building was paid for from a national fund for surgical hubs, and the health "
            "board has recruited fourteen new staff, including theatre nurses from the area.",
            "The hospital's League of Friends raised money for the furniture and garden in "
            "the recovery area, which looks out over the river meadows.",
        ),
    ),
    (
        "Market traders in {place} win fight to stay on the square",
        (
            "Traders at the weekly market in {place} have won their campaign to stay on the "
            "market square after councillors dropped a plan to move the stalls to a car park.",
            "The proposal would have freed the square for a new events space, but the "
            "{n} traders argued that shoppers would not follow them to the edge of town.",
            "Stallholder {person}, who has sold fruit and vegetables on the square for "
            '{m} years, said it was a relief. "The market is why people come into town on a '
            'Thursday. Move it and you lose them," he said.',
            "The council will instead resurface the square and add electric hook-ups for the "
            "stalls, work planned for the quiet weeks after Christmas.",
            "The events space will now be created in the old bus station yard, which has been "
            "empty since the new interchange opened in {year}.",
        ),
    ),
    (
        "Solar farm near {place} approved despite objections",
        (
            "Plans for a solar farm on farmland near {place} have been approved by planners, "
            "despite {n} letters of objection from residents.",
            "The scheme will cover about {m}0 acres of grazing land and is expected to power "
            "the equivalent of twelve thousand homes. Sheep will continue to graze between the "
            "panel rows.",
            "Objectors said the site was too visible from the footpath on the ridge and that "
            "the lanes could not cope with construction traffic. {person}, speaking for the "
            "parish council, called the decision disappointing.",
            "The developer has agreed to plant new hedges around the site, limit deliveries to "
            "weekday working hours and pay into a community fund for the next forty years.",
            "Construction is due to begin in {year} and take around nine months.",
        ),
    ),
)

ZH_PLACES = ("青山镇", "白沙县", "临水区", "东坪镇", "南湖区", "石桥镇")
ZH_PEOPLE = ("王立新", "陈晓梅", "刘建华", "赵玉兰", "孙志强", "周文静", "吴国平", "郑海燕")

ZH_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "{place}新建中心小学秋季开学投入使用",
        (
            "记者从{place}教育办获悉，总投资{n}千万元的{place}中心小学新校区已完成竣工验收，"
            "将于今年秋季开学正式投入使用，可新增学位{m}00余个。",
            "新校区占地约四十亩，建有教学楼、综合楼、风雨操场和标准田径场，每间教室都配备了"
            "多媒体教学设备。学校食堂可同时容纳一千二百名学生就餐。",
            "{place}教育办负责人{person}介绍，近年来随着城镇化推进，镇区学生人数逐年增加，"
            "老校区班额普遍超过五十人。新校区启用后，大班额问题将得到有效缓解。",
            "目前，新校区的绿化、课桌椅安装和教师调配工作已基本完成，学校将在开学前组织家长"
            "开放日，方便家长提前了解新校园。",
            "据了解，老校区将改建为镇文化活动中心，预计明年年底前完成改造。",
        ),
    ),
    (
        "{place}老旧小区改造惠及{n}00余户居民",
        (
            "今年以来，{place}启动老旧小区改造工程，对建成于上世纪九十年代的{m}个小区进行"
            "综合整治，预计惠及居民{n}00余户。",
            "改造内容包括雨污分流、屋面防水、外墙保温、道路硬化和停车位增设等，部分具备条件的"
            "楼栋还将加装电梯。施工期间，各小区都设立了临时停车点和居民意见箱。",
            "“以前一下雨楼道里就渗水，现在屋顶重新做了防水，心里踏实多了。”家住幸福小区的"
            "居民{person}说。",
            "区住建局有关负责人表示，改造方案在实施前都经过了入户征求意见，居民同意率达到"
            "百分之九十以上才启动施工，改造完成后还将引入物业服务，建立长效管理机制。",
            "目前，已有一半以上的小区完成主体改造，全部工程计划于年底前完工。",
        ),
    ),
    (
        "{place}开通{n}路公交 群众出行更便捷",
        (
            "{place}{n}路公交线路日前正式开通运营，线路全长约{m}0公里，沿途设站二十三个，"
            "连接镇区、高铁站和工业园区。",
            "该线路首班车时间为早上六点，末班车时间为晚上八点，高峰时段发车间隔为十五分钟，"
            "全程票价两元，持老年卡的市民可免费乘坐。",
            "“以前去高铁站要先坐车到城区再转车，现在家门口就能直达，方便多了。”正在候车的"
            "市民{person}告诉记者。",
            "公交公司相关负责人表示，新线路投入的全部是新能源公交车，车上配有无障碍踏板和"
            "电子报站系统。下一步还将根据客流情况适时优化线路和班次。",
            "市民可通过公交服务热线或手机应用查询车辆实时到站信息。",
        ),
    ),
    (
        "{place}早稻喜获丰收 亩产同比增加{jin}斤",
        (
            "眼下正值早稻收割时节，{place}的田野里一派繁忙景象，收割机来回穿梭，金黄的稻谷"
            "源源不断地装车入仓。",
            "据{place}农业服务中心统计，今年全镇早稻种植面积{m}万余亩，平均亩产预计比去年"
            "增加{jin}斤左右，是近年来收成最好的一年。",
            "农业服务中心主任{person}介绍，今年推广了优质高产品种和机插秧技术，并组织农技"
            "人员分片包村开展病虫害统防统治，为丰收打下了基础。",
            "为帮助农民及时售粮，当地粮站延长了收购时间，并在产粮大村设立了临时收购点，"
            "农民在家门口就能把稻谷卖掉。",
            "当地还将组织农机手抢收抢种，确保晚稻按时插秧。",
        ),
    ),
    (
        "{place}人民医院新门诊楼启用 日接诊能力提升{pct}%",
        (
            "{place}人民医院新门诊综合楼近日正式启用。新楼共{m}层，建筑面积约三万平方米，"
            "设有门诊、医技、急诊等功能区。",
            "新门诊楼启用后，医院日门诊接诊能力提升约{pct}%，患者就医环境和就诊流程得到明显"
            "改善。每层都设有自助挂号缴费机和候诊区，检查报告可在手机上直接查看。",
            "医院院长{person}介绍，新楼按照“一站式服务”的思路设计，同一科室的挂号、就诊、"
            "检查尽量安排在同一楼层，减少患者来回奔波。",
            "为方便群众就医，医院周边新增了两百多个停车位，并与公交公司协调在医院门口增设"
            "公交站点。",
            "原门诊楼将改造为康复医学中心，预计明年投入使用。",
        ),
    ),
    (
        "{place}第{n}届桃花文化节开幕",
        (
            "三月的{place}桃花盛开，第{n}届桃花文化节于日前开幕，吸引了周边地区的大批游客"
            "前来赏花踏青。",
            "本届文化节为期一个月，期间将举办摄影比赛、民俗表演、农产品展销和乡村马拉松等"
            "{m}0余项活动。主会场设在桃花岭景区，各村还设立了特色分会场。",
            "文化节组委会负责人{person}表示，近年来当地依托桃花资源发展乡村旅游，带动了农家乐、"
            "民宿和农产品销售，去年全镇乡村旅游收入超过一亿元。",
            "为做好游客服务，当地增设了临时停车场和旅游厕所，并开通了从城区到景区的旅游专线"
            "公交车。",
            "组委会提醒游客错峰出行，文明赏花，不要攀折花枝。",
        ),
    ),
    (
        "{place}河道整治工程完工 {n}公里河岸变身滨水公园",
        (
            "历时一年多的{place}河道综合整治工程日前完工，沿河{n}公里河岸由昔日的杂草丛生、"
            "垃圾成堆变成了绿树成荫的滨水公园。",
            "整治工程包括清淤疏浚、截污纳管、生态护岸和绿化景观建设等内容，共清理河道淤泥"
            "{m}万余立方米，新建游步道和自行车道各十余公里。",
            "“以前河边都没人愿意走，现在每天晚饭后都来散步。”住在河边的居民{person}说。",
            "区水利局有关负责人表示，下一步将落实河长制，安排专人负责日常保洁和巡查，防止"
            "河道污染反弹。",
            "据悉，二期工程将向上游延伸，计划明年开工建设。",
        ),
    ),
    (
        "{place}至市区快速路建成通车 车程缩短{mins}分钟",
        (
            "{place}至市区快速路今天上午正式建成通车，全长约{m}0公里，设计时速八十公里，"
            "双向六车道。",
            "快速路通车后，从{place}到市中心的车程将由原来的一个多小时缩短{mins}分钟左右，"
            "沿线多个乡镇的群众出行将更加便捷。",
            "项目负责人{person}介绍，工程建设过程中克服了地质条件复杂、施工工期紧等困难，"
            "全线共建设桥梁十二座、互通立交四处。",
            "交警部门提醒，快速路通车初期车流量较大，驾驶员要按照标志标线行驶，严禁超速和"
            "违法停车。",
            "下一步，沿线的绿化、照明和服务区建设将陆续完成。",
        ),
    ),
)

# Government notices: (title, paragraphs) with {year}, {month}, {day}, {n} slots.
GOV_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "临江市人民政府办公室关于做好{year}年春季森林防火工作的通知",
        (
            "各县（区）人民政府，市政府各部门、各直属机构：",
            "当前正值春季森林防火关键期，我市气温回升快、降水偏少，加之清明祭扫和春耕备耕"
            "用火增多，森林火灾风险持续上升。为切实做好春季森林防火工作，经市政府同意，"
            "现将有关事项通知如下：",
            "一、严格野外火源管控。各地要在林区入口、重点路段设立防火检查站，严禁携带火种"
            "进山，严禁在林区及林缘地带烧荒、烧田埂和焚烧秸秆。清明期间要倡导文明祭扫，"
            "推广鲜花祭扫、网络祭扫等方式。",
            "二、加强巡护和监测预警。各级护林员要按照网格化管理要求加密巡山频次，充分利用"
            "视频监控和无人机开展火情监测，发现火情第一时间报告、第一时间处置。",
            "三、做好扑救准备。各县（区）要组织专业扑火队伍于{month}月{day}日前完成集中"
            "训练和装备检修，补足扑火物资储备，严格执行二十四小时值班和领导带班制度。",
        ),
    ),
    (
        "临江市人民政府办公室关于开展{year}年城乡环境卫生整治月活动的通知",
        (
            "各县（区）人民政府，市直各有关单位：",
            "为进一步改善城乡人居环境，巩固全国文明城市创建成果，市政府决定于{month}月在"
            "全市范围内开展城乡环境卫生整治月活动。现将有关事项通知如下：",
            "一、整治重点。集中清理城乡接合部、背街小巷、农贸市场、河道沟渠和村庄房前屋后的"
            "积存垃圾，规范占道经营和乱堆乱放，整治乱贴乱画和破损广告牌。",
            "二、工作要求。各地要制定具体实施方案，明确责任单位和完成时限，每周报送工作进展。"
            "市整治办将组织人员开展明察暗访，对整治不力的单位予以通报。",
            "三、发动群众参与。各地要广泛开展宣传，组织志愿者和机关干部参加义务劳动，"
            "引导群众自觉维护环境卫生，形成人人参与、共建共享的良好氛围。",
        ),
    ),
    (
        "临江市人民政府办公室关于印发临江市{year}年民生实事项目实施方案的通知",
        (
            "各县（区）人民政府，市政府各部门、各直属机构：",
            "《临江市{year}年民生实事项目实施方案》已经市政府第{n}次常务会议研究同意，"
            "现印发给你们，请认真组织实施。",
            "今年全市共安排民生实事项目十件，涵盖教育、医疗、养老、交通、住房等方面，"
            "包括新建改扩建中小学和幼儿园十二所、新增养老床位八百张、改造老旧小区五十个、"
            "新开和优化公交线路二十条等。",
            "各牵头单位要细化工作任务，倒排工期，确保项目按时保质完成；市财政局要做好资金"
            "保障；市督查室要加强跟踪督办，定期通报项目进展情况。",
            "项目实施中遇到的重大问题，请及时向市政府报告。",
        ),
    ),
)
EN_COMMENTS = (
    "Been saying this for years, glad someone finally listened.",
    "Where is the money coming from though? Not from my council tax I hope.",
    "Great news for the town, well done to everyone involved.",
    "Typical, announced just before the elections.",
)
ZH_COMMENTS = (
    "终于等到了，为家乡点赞！",
    "希望后续管理能跟上，别只是一阵风。",
    "什么时候能轮到我们村？",
    "记者辛苦了，报道很及时。",
)


def _stories() -> list[Story]:
    """36 stories: 20 English, 13 Chinese news, 3 Chinese notices; each its own date."""
    stories: list[Story] = []
    start = datetime(2008, 3, 4, 8, 5)
    for i in range(20):
        title, paras = EN_TOPICS[i % len(EN_TOPICS)]
        place = EN_PLACES[(i * 5 + i // len(EN_TOPICS)) % len(EN_PLACES)]
        slots = {
            "place": place,
            "person": EN_PEOPLE[i % len(EN_PEOPLE)],
            "n": 3 + i,
            "m": 2 + (i * 7) % 9,
            "year": 2009 + i % 12,
        }
        stories.append(
            Story(
                slug=f"en-{i:02d}",
                lang="en",
                title=title.format(**slots),
                published=start + timedelta(days=97 * i, minutes=37 * i),
                paragraphs=tuple(p.format(**slots) for p in paras),
                author=EN_PEOPLE[(i + 3) % len(EN_PEOPLE)],
                comments=(
                    f"{EN_COMMENTS[i % 4]} (reader {100 + i})",
                    f"{EN_COMMENTS[(i + 1) % 4]} (reader {200 + i})",
                ),
            )
        )
    for i in range(13):
        title, paras = ZH_TOPICS[i % len(ZH_TOPICS)]
        place = ZH_PLACES[(i * 5 + i // len(ZH_TOPICS)) % len(ZH_PLACES)]
        slots = {
            "place": place,
            "person": ZH_PEOPLE[i % len(ZH_PEOPLE)],
            "n": 2 + i,
            "m": 3 + (i * 5) % 7,
            "pct": 15 + 5 * (i % 6),
            "mins": 20 + 5 * (i % 5),
            "jin": 30 + 5 * (i % 6),
        }
        stories.append(
            Story(
                slug=f"zh-{i:02d}",
                lang="zh",
                title=title.format(**slots),
                published=start + timedelta(days=113 * i + 40, minutes=53 * i),
                paragraphs=tuple(p.format(**slots) for p in paras),
                author=ZH_PEOPLE[(i + 2) % len(ZH_PEOPLE)],
                comments=(
                    f"{ZH_COMMENTS[i % 4]}（网友{300 + i}）",
                    f"{ZH_COMMENTS[(i + 2) % 4]}（网友{400 + i}）",
                ),
            )
        )
    for i, (title, paras) in enumerate(GOV_TOPICS):
        published = datetime(2012 + 3 * i, 2 + 3 * i, 10 + 5 * i, 16, 30)
        slots = {
            "year": published.year,
            "month": published.month,
            "day": published.day + 10,
            "n": 11 + 7 * i,
        }
        stories.append(
            Story(
                slug=f"gov-{i:02d}",
                lang="zh",
                title=title.format(**slots),
                published=published,
                paragraphs=tuple(p.format(**slots) for p in paras),
                author="市政府办公室",
                comments=(),
            )
        )
    return stories


# --------------------------------------------------------------------------- templates

EN_NAV = ("News", "Sport", "Business", "What's On", "Property", "Jobs", "Announcements")
EN_FOOTER = "© Valley Chronicle Media Ltd. Registered in England No. 03115599."
ZH_NAV = ("首页", "新闻中心", "本地", "财经", "房产", "汽车", "教育", "娱乐", "论坛")
ZH_FOOTER = "主办：晨江日报社　版权所有　未经授权禁止转载、摘编、复制或建立镜像"
GOV_FOOTER = "主办单位：临江市人民政府办公室　承办单位：临江市大数据中心"


@dataclass
class Page:
    """One rendered page and the text on it that is not the article."""

    body: str
    encoding: str = "utf-8"
    content_type: str = "text/html; charset=utf-8"
    boilerplate: list[str] = field(default_factory=list)

    def route(self) -> Route:
        headers = {"Content-Type": self.content_type}
        return Route(self.body.encode(self.encoding), headers=headers)


def _related_en(related: list[tuple[str, Story]]) -> str:
    items = "".join(f'<li><a href="{href}">{escape(s.title)}</a></li>' for href, s in related)
    return f'<aside class="related"><h2>Related stories</h2><ul>{items}</ul></aside>'


def _paras(story: Story, indent: str = "") -> str:
    return "\n".join(f"<p>{indent}{escape(p)}</p>" for p in story.paragraphs)


def modern_en(story: Story, related: list[tuple[str, Story]], *, json_ld: bool) -> Page:
    """An HTML5 English paper, minified onto one line, as CMS templates ship them."""
    d = story.published
    iso = d.strftime("%Y-%m-%dT%H:%M:00+00:00")
    visible = f"{d.day} {d:%B %Y}, {d:%H:%M}"
    head_extra = ""
    if json_ld:
        data = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "headline": story.title,
            "datePublished": iso,
            "author": [{"@type": "Person", "name": story.author}],
        }
        head_extra = f'<script type="application/ld+json">{json.dumps(data)}</script>'
        time_tag = f'<time datetime="{iso}">{visible}</time>'
    else:
        time_tag = f'<span class="date">Published: {visible}</span>'
    nav = "".join(f'<li><a href="/en/{n.lower().replace(" ", "-")}/">{n}</a></li>' for n in EN_NAV)
    comments = "".join(
        f'<li class="comment"><span class="who">reader{i}</span><p>{escape(c)}</p>'
        f"<button>Reply</button><button>Report</button></li>"
        for i, c in enumerate(story.comments)
    )
    ad = '<div class="ad ad--inline"><span>Advertisement</span></div>'
    paras = [f"<p>{escape(p)}</p>" for p in story.paragraphs]
    paras.insert(2, ad)
    html = (
        '<!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8">'
        f"<title>{escape(story.title)} | The Valley Chronicle</title>"
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"{head_extra}</head><body>"
        '<header class="site-header"><a class="logo" href="/">The Valley Chronicle</a>'
        '<a class="btn" href="/subscribe">Subscribe for £1 a week</a>'
        f'<nav class="primary-nav"><ul>{nav}</ul></nav></header>'
        '<main><article class="article"><header>'
        f"<h1>{escape(story.title)}</h1>"
        f'<div class="byline">By <a href="/authors/{story.slug}">{escape(story.author)}</a> '
        f"{time_tag}</div>"
        '<ul class="share"><li><a href="https://www.facebook.com/sharer">Share on Facebook</a>'
        '</li><li><a href="https://x.com/intent/post">Share on X</a></li></ul></header>'
        f'<div class="article-body">{"".join(paras)}</div></article>'
        f"{_related_en(related)}"
        f'<section class="comments"><h2>Comments</h2><ol>{comments}</ol></section></main>'
        '<footer class="site-footer"><ul><li><a href="/about">About us</a></li>'
        '<li><a href="/privacy">Privacy notice</a></li></ul>'
        f"<p>{escape(EN_FOOTER)}</p></footer></body></html>"
    )
    return Page(
        html,
        boilerplate=[
            "Subscribe for £1 a week",
            "Share on Facebook",
            EN_FOOTER,
            *story.comments,
            *(s.title for _, s in related),
        ],
    )


def blog_en(story: Story, related: list[tuple[str, Story]]) -> Page:
    """A WordPress blog post; charset only in <meta>, the date under the post."""
    d = story.published
    comments = "\n".join(
        f'<li class="comment"><article class="comment-body"><footer class="comment-meta">'
        f'<b class="fn">Neighbour {i + 1}</b> <span class="says">says:</span>'
        f"<time>{d:%B} {d.day}, {d.year} at {i + 6}:15 pm</time></footer>"
        f'<div class="comment-content"><p>{escape(c)}</p></div></article></li>'
        for i, c in enumerate(story.comments)
    )
    recent = "\n".join(f'<li><a href="{href}">{escape(s.title)}</a></li>' for href, s in related)
    html = f"""<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<title>{escape(story.title)} &#8211; Around the Parish</title>
<meta name="generator" content="WordPress 6.4.2">
</head>
<body class="single single-post">
<header id="masthead" class="site-header">
<p class="site-title"><a href="/en/blog/">Around the Parish</a></p>
<p class="site-description">News and notes from the villages, written by volunteers</p>
<nav class="primary-navigation"><ul>
<li><a href="/en/blog/">Home</a></li><li><a href="/en/blog/about/">About this blog</a></li>
<li><a href="/en/blog/write-for-us/">Write for us</a></li>
</ul></nav>
</header>
<main id="main" class="site-main">
<article class="post type-post status-publish hentry entry">
<header class="entry-header"><h1 class="entry-title">{escape(story.title)}</h1></header>
<div class="entry-content">
{_paras(story)}
</div>
<footer class="entry-footer"><span class="posted-on">Posted on
<time class="entry-date published">{d:%B} {d.day}, {d.year}</time></span>
<span class="byline"> by {escape(story.author)}</span></footer>
</article>
<div id="comments" class="comments-area">
<h2 class="comments-title">{len(story.comments)} thoughts on this post</h2>
<ol class="comment-list">
{comments}
</ol>
<div id="respond"><h3>Leave a Reply</h3><form><textarea name="comment"></textarea>
<input type="submit" value="Post Comment"></form></div>
</div>
</main>
<aside class="widget-area">
<section class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>
{recent}
</ul></section>
<section class="widget widget_text"><h2 class="widget-title">Contact</h2>
<div class="textwidget"><p>Send your parish news to the editor by the 20th of each month.</p>
</div></section>
</aside>
<footer class="site-footer"><p>Proudly powered by WordPress</p></footer>
</body>
</html>
"""
    return Page(
        html,
        content_type="text/html",
        boilerplate=[
            "News and notes from the villages, written by volunteers",
            "Send your parish news to the editor by the 20th of each month.",
            "Leave a Reply",
            *story.comments,
            *(s.title for _, s in related),
        ],
    )


def table_en(story: Story, related: list[tuple[str, Story]]) -> Page:
    """A 2008 table-layout paper: ISO-8859-1 in <meta>, curly quotes as cp1252 bytes."""
    d = story.published
    paras = "\n".join(
        "<P>" + escape(p, quote=False).replace('"', "\u201c", 1).replace('"', "\u201d", 1) + "</P>"
        for p in story.paragraphs
    )
    others = "<BR>\n".join(f'&raquo; <A HREF="{href}">{escape(s.title)}</A>' for href, s in related)
    html = f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<HTML><HEAD>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1">
<TITLE>Wolds Herald Online - News - {escape(story.title)}</TITLE>
</HEAD>
<BODY BGCOLOR="#FFFFFF">
<TABLE WIDTH="780" BORDER="0" CELLPADDING="0" CELLSPACING="0" ALIGN="center">
<TR><TD COLSPAN="3"><A HREF="/"><IMG SRC="/img/herald.gif" ALT="Wolds Herald" BORDER="0"></A></TD>
</TR>
<TR><TD COLSPAN="3" CLASS="topnav">
<A HREF="/en/archive/2008/">News</A> | <A HREF="/sport/">Sport</A> |
<A HREF="/classifieds/">Classifieds</A> | <A HREF="/motors/">Motors</A> |
<A HREF="/homes/">Homes</A>
</TD></TR>
<TR>
<TD WIDTH="150" VALIGN="top" CLASS="leftnav"><P><B>SERVICES</B><BR><A HREF="/weather/">Weather</A>
<BR>
<A HREF="/tv/">TV Guide</A><BR><A HREF="/notices/">Family Notices</A></P>
<P><A HREF="/ads/click.asp?id=77">
<IMG SRC="/ads/garden_centre.gif" ALT="Wolds Garden Centre - Spring Sale Now On" BORDER="0"></A></P>
</TD>
<TD WIDTH="470" VALIGN="top">
<P CLASS="headline"><FONT SIZE="5"><B>{escape(story.title)}</B></FONT></P>
<P CLASS="byline">By {escape(story.author)}, Chief Reporter<BR>{d:%A}, {d:%B} {d.day}, {d.year}</P>
{paras}
<P CLASS="tools">
<A HREF="/print.asp">Print this story</A> | <A HREF="/email.asp">Email to a friend</A></P>
<TABLE WIDTH="100%" BGCOLOR="#F4F4F4"><TR><TD><B>Other stories</B></TD></TR><TR><TD>
{others}
</TD></TR></TABLE>
</TD>
<TD WIDTH="160" VALIGN="top"><P><B>MOST READ</B>
<BR>1. <A HREF="/most/1">Pub quiz raises record sum for air ambulance</A></P></TD>
</TR>
<TR><TD COLSPAN="3" ALIGN="center">&copy; Wolds Herald Newspapers. All rights reserved.</TD></TR>
</TABLE>
</BODY></HTML>
"""
    return Page(
        html,
        encoding="cp1252",
        content_type="text/html",
        boilerplate=[
            "Wolds Garden Centre",
            "Pub quiz raises record sum for air ambulance",
            "Email to a friend",
            "Other stories",
            *(s.title for _, s in related),
        ],
    )


def portal_zh(story: Story, related: list[tuple[str, Story]], *, header: bool, meta: bool) -> Page:
    """A 2009 Chinese portal in GBK; the charset in the header, in <meta>, or nowhere."""
    d = story.published
    nav = " | ".join(f'<a href="/zh/{i}/">{n}</a>' for i, n in enumerate(ZH_NAV))
    meta_tag = (
        '<meta http-equiv="Content-Type" content="text/html; charset=gb2312" />\n' if meta else ""
    )
    rel = "<br />\n".join(
        f'·<a href="{href}">{escape(s.title)}</a> <span class="date">{s.day}</span>'
        for href, s in related
    )
    comments = "\n".join(
        f"<tr><td>晨江网友 [61.{i}.*.*] {d:%Y-%m-%d} {d.hour + 1:02d}:{10 + i}<br />"
        f"{escape(c)}</td></tr>"
        for i, c in enumerate(story.comments)
    )
    paras = _paras(story, indent="\u3000\u3000")
    html = f"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
{meta_tag}<title>{escape(story.title)}_晨江新闻网</title>
<meta name="keywords" content="晨江新闻,本地新闻" />
</head>
<body>
<table width="960" border="0" align="center" cellpadding="0" cellspacing="0">
  <tr><td width="220"><img src="/images/logo.gif" alt="晨江新闻网" /></td><td>{nav}</td></tr>
</table>
<div id="banner"><a href="http://ad.cjnews.example/c?id=12">
<img src="/ad/960x90.gif" alt="滨江花园 精装现房火热认购中" /></a></div>
<table width="960" border="0" align="center" cellpadding="0" cellspacing="0">
  <tr>
    <td width="660" valign="top">
      <table width="100%" border="0" cellspacing="0" cellpadding="0">
        <tr><td align="center" class="title"><h1>{escape(story.title)}</h1></td></tr>
        <tr>
<td align="center" class="info">发布时间：{d:%Y-%m-%d %H:%M:%S}　来源：晨江日报
　作者：{escape(story.author)}　点击数：{300 + d.day * 17}</td>
</tr>
        <tr><td class="content" id="zoom">
{paras}
<p>　　（责任编辑：李明）</p>
        </td></tr>
        <tr>
<td class="tools">【<a href="javascript:window.print()">打印本页</a>】
【<a href="javascript:window.close()">关闭窗口</a>】</td>
</tr>
      </table>
      <table width="100%" class="related"><tr><td class="boxtitle">相关新闻</td></tr><tr><td>
{rel}
      </td></tr></table>
      <table width="100%" class="comment"><tr><td class="boxtitle">网友评论</td></tr>
{comments}
      </table>
    </td>
    <td width="290" valign="top" class="sidebar"><div class="boxtitle">热点排行</div>
      <ol><li><a href="/zh/hot/1.html">我市出租车起步价调整听证会召开</a></li>
      <li><a href="/zh/hot/2.html">全市中小学冬季作息时间调整</a></li></ol></td>
  </tr>
</table>
<div id="footer"><a href="/about/">关于我们</a> | <a href="/ad/">广告服务</a><br />{ZH_FOOTER}</div>
</body>
</html>
"""
    return Page(
        html,
        encoding="gbk",
        content_type="text/html; charset=gbk" if header else "text/html",
        boilerplate=[
            "滨江花园",
            "我市出租车起步价调整听证会召开",
            ZH_FOOTER,
            "网友评论",
            *story.comments,
            *(s.title for _, s in related),
        ],
    )


def modern_zh(story: Story, related: list[tuple[str, Story]]) -> Page:
    """A modern Chinese news site: time and source line, editor, share bar, hot list."""
    d = story.published
    rel = "".join(f'<li><a href="{href}">{escape(s.title)}</a></li>' for href, s in related)
    comments = "".join(
        f'<div class="cmt"><span class="user">用户{i}</span><p>{escape(c)}</p>'
        f'<span class="like">赞 {12 * (i + 1)}</span></div>'
        for i, c in enumerate(story.comments)
    )
    html = f"""<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{escape(story.title)}_晨江新闻客户端</title>
</head>
<body>
<div class="topbar"><a href="/zh/news/">晨江新闻首页</a>
<a href="/app/">下载客户端</a><a href="/login">登录</a>
</div>
<ul class="channel-nav"><li><a href="/zh/news/">要闻</a></li><li><a href="/zh/local/">本地</a></li>
<li><a href="/zh/finance/">财经</a></li><li><a href="/zh/video/">视频</a></li></ul>
<div class="main">
<div class="article-head">
<h1 class="title">{escape(story.title)}</h1>
<div class="info"><span class="time">{d:%Y-%m-%d %H:%M:%S}</span>
<span class="source">来源：晨江新闻</span>
<span class="author">记者：{escape(story.author)}</span></div>
</div>
<div class="article-content">
{_paras(story)}
<p class="editor">责任编辑：何芳</p>
</div>
<div class="share-bar">分享到：<a href="javascript:;">微信</a><a href="javascript:;">微博</a></div>
<div class="app-promo"><p>扫码下载晨江新闻客户端，第一时间看本地新闻</p></div>
<div class="related"><h3>相关阅读</h3><ul>{rel}</ul></div>
<div class="comment-area"><h3>热门评论</h3>{comments}</div>
</div>
<div class="hot-list"><h3>24小时热榜</h3>
<ol><li><a href="/zh/hot/3.html">五一假期高铁加开列车二十八列</a></li></ol>
</div>
<div class="footer"><p>晨江新闻 版权所有 违法和不良信息举报电话：000-00000000</p></div>
</body>
</html>
"""
    return Page(
        html,
        boilerplate=[
            "扫码下载晨江新闻客户端",
            "五一假期高铁加开列车二十八列",
            "违法和不良信息举报电话",
            *story.comments,
            *(s.title for _, s in related),
        ],
    )


def gov_zh(story: Story, related: list[tuple[str, Story]]) -> Page:
    """A government notice: metadata table with 成文日期 before 发布日期 (the published day)."""
    d = story.published
    written = d - timedelta(days=2)
    rel = "\n".join(
        f'<li><a href="{href}">{escape(s.title)}</a><span>{s.day}</span></li>'
        for href, s in related
    )
    html = f"""<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{escape(story.title)}_通知公告_临江市人民政府</title>
</head>
<body>
<div class="top-bar"><span>欢迎访问临江市人民政府门户网站</span>
<a href="/wza/">无障碍</a><a href="/en/">English</a>
</div>
<div class="nav"><ul><li><a href="/zh/gov/">首页</a></li>
<li><a href="/zh/gov/zwgk/">政务公开</a></li>
<li><a href="/zh/gov/zwfw/">政务服务</a></li>
<li><a href="/zh/gov/hdjl/">互动交流</a></li></ul></div>
<div class="location">当前位置：<a href="/zh/gov/">首页</a> &gt;
<a href="/zh/gov/tzgg/">通知公告</a></div>
<table class="xxgk-table">
<tr><th>索 引 号：</th><td>11360200MB0000000X/{d.year}-00{d.day}</td>
<th>主题分类：</th><td>综合政务</td></tr>
<tr><th>发文机关：</th><td>临江市人民政府办公室</td><th>成文日期：</th><td>{written:%Y-%m-%d}</td></tr>
<tr><th>发文字号：</th><td>临府办字〔{d.year}〕{d.day}号</td><th>发布日期：</th><td>{d:%Y-%m-%d}</td></tr>
</table>
<div class="article">
<h1 class="article-title">{escape(story.title)}</h1>
<div class="article-info"><span>发布日期：{d:%Y-%m-%d %H:%M}</span>
<span>来源：市政府办公室</span></div>
<div class="article-content" id="zoom">
{_paras(story)}
</div>
<div class="article-tools"><a href="javascript:window.print();">【打印本页】</a>
<a href="javascript:window.close();">【关闭窗口】</a></div>
</div>
<div class="related-docs"><h3>相关文件</h3><ul>
{rel}
</ul></div>
<div class="footer"><p>{GOV_FOOTER}</p><p>网站标识码：3602000001</p></div>
</body>
</html>
"""
    return Page(
        html,
        boilerplate=[
            "欢迎访问临江市人民政府门户网站",
            "11360200MB0000000X",  # the metadata table's index number
            "网站标识码",
            GOV_FOOTER,
            *(s.title for _, s in related),
        ],
    )


def index_page(
    title: str,
    links: list[tuple[str, str, str]],
    nav_links: list[tuple[str, str]],
    *,
    lang: str,
    gbk: bool = False,
) -> Page:
    """A section front, never an article: ``(href, headline, teaser or date)`` per story.

    English fronts show a teaser under each headline, Chinese lists a date.
    """
    if lang == "en":
        items = "\n".join(
            f'<li class="card"><a href="{href}"><h3>{escape(text)}</h3></a>'
            + (f'<p class="teaser">{escape(note)}</p>' if note else "")
            + "</li>"
            for href, text, note in links
        )
    else:
        items = "\n".join(
            f'<li><span class="date">{escape(note)}</span><a href="{href}">{escape(text)}</a></li>'
            for href, text, note in links
        )
    nav = " | ".join(f'<a href="{href}">{escape(text)}</a>' for href, text in nav_links)
    meta = (
        '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'
        if gbk
        else ('<meta charset="utf-8">')
    )
    html = f"""<!DOCTYPE html>
<html><head>{meta}<title>{escape(title)}</title></head>
<body>
<header><nav>{nav}</nav></header>
<main><h1>{escape(title)}</h1>
<ul class="list">
{items}
</ul>
</main>
<footer><p>{escape(EN_FOOTER if lang == "en" else ZH_FOOTER)}</p></footer>
</body></html>
"""
    return Page(
        html,
        encoding="gbk" if gbk else "utf-8",
        content_type="text/html" if gbk else "text/html; charset=utf-8",
    )


# --------------------------------------------------------------------------- the site

PDF_BYTES = (
    b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
    b"trailer << /Root 1 0 R >>\n%%EOF\n"
)

ROBOTS = b"User-agent: *\nDisallow: /private/\n"


@dataclass
class Site:
    """Routes to serve plus the answers a crawl of them must give."""

    routes: dict[str, Route]
    articles: dict[str, Story]  # final URL path -> the story shown there
    boilerplate: dict[str, list[str]]  # final URL path -> text that is not the article
    index_pages: list[str]
    never_fetched: list[str]  # linked, but robots.txt, depth, host or extension forbid it
    faults: dict[str, str]  # path -> the cx/skipped reason its response gets


# (layout name, how many stories use it)
LAYOUTS = (
    ("modern_en_jsonld", 5),
    ("modern_en_text", 5),
    ("blog_en", 6),
    ("table_en", 4),
    ("portal_zh_header", 3),
    ("portal_zh_meta", 3),
    ("portal_zh_none", 3),
    ("modern_zh", 4),
    ("gov_zh", 3),
)
SECTIONS = {
    "modern_en_jsonld": "/en/news/",
    "modern_en_text": "/en/news/?page=2",
    "blog_en": "/en/blog/",
    "table_en": "/en/archive/2008/",
    "portal_zh_header": "/zh/local/",
    "portal_zh_meta": "/zh/local/",
    "portal_zh_none": "/zh/local/",
    "modern_zh": "/zh/news/",
    "gov_zh": "/zh/gov/tzgg/",
}


def _path(layout: str, story: Story) -> str:
    d = story.published
    if layout.startswith("portal_zh"):
        return f"/zh/local/{d:%Y%m}/{story.slug}.html"
    if layout == "gov_zh":
        return f"/zh/gov/tzgg/{d:%Y%m}/t{d:%Y%m%d}_{story.slug}.html"
    if layout == "modern_zh":
        return f"/zh/news/{d:%Y/%m/%d}/{story.slug}.html"
    if layout == "blog_en":
        return f"/en/blog/{d:%Y/%m/%d}/{story.slug}/"
    if layout == "table_en":
        return f"/en/archive/{d:%Y/%m}/{story.slug}.asp"
    return f"/en/news/{d:%Y/%m/%d}/{story.slug}"


def _render(layout: str, story: Story, related: list[tuple[str, Story]]) -> Page:
    if layout == "modern_en_jsonld":
        return modern_en(story, related, json_ld=True)
    if layout == "modern_en_text":
        return modern_en(story, related, json_ld=False)
    if layout == "blog_en":
        return blog_en(story, related)
    if layout == "table_en":
        return table_en(story, related)
    if layout.startswith("portal_zh"):
        return portal_zh(
            story,
            related,
            header=layout == "portal_zh_header",
            meta=layout in ("portal_zh_header", "portal_zh_meta"),
        )
    if layout == "modern_zh":
        return modern_zh(story, related)
    return gov_zh(story, related)


SECTION_TITLES = {
    "/en/news/": "News | The Valley Chronicle",
    "/en/news/?page=2": "News, page 2 | The Valley Chronicle",
    "/en/blog/": "Around the Parish",
    "/en/archive/2008/": "Wolds Herald archive",
    "/zh/local/": "本地新闻_晨江新闻网",
    "/zh/news/": "要闻_晨江新闻客户端",
    "/zh/gov/tzgg/": "通知公告_临江市人民政府",
}
REDIRECT = "/go/top-story"
WELCOME = "/welcome"  # reached as http://localhost:PORT/welcome
NOT_FOUND = "/en/news/2024/05/deleted-story"
SERVER_ERROR = "/zh/news/broken.html"


def _teaser(story: Story) -> str:
    """What a section front shows under a headline: the opening words, or the date."""
    if story.lang == "zh":
        return story.day
    words = story.paragraphs[0].split()
    return " ".join(words[:14]) + "…"


def build_site(base_url: str) -> Site:
    """The whole site as served from ``base_url`` (``http://127.0.0.1:PORT``).

    Depths from the home page: sections 1, articles 2. The redirect and the
    error pages hang off section pages, so no page at depth 2 is ever followed
    with the spider's default depth of 2. One article is linked only from
    another article's related box (depth 3) and must not be fetched.
    """
    stories = _stories()
    pools: dict[str, list[Story]] = {"en": [], "zh": [], "gov": []}
    for story in stories:
        pools["gov" if story.slug.startswith("gov-") else story.lang].append(story)
    placed: list[tuple[str, str, Story]] = []  # (layout, path, story)
    for layout, count in LAYOUTS:
        kind = "gov" if layout == "gov_zh" else "zh" if "_zh" in layout else "en"
        pool = pools[kind]
        for _ in range(count):
            story = pool.pop(0)
            placed.append((layout, _path(layout, story), story))
    assert not any(pools.values()), "every story is placed once"

    deep_layout, deep_path, deep_story = placed.pop()  # a gov notice
    redirect_layout, redirect_path, redirect_story = placed.pop(0)  # an English story
    linked = placed + [(redirect_layout, redirect_path, redirect_story)]
    deep_parent = next(path for layout, path, _ in placed if layout == "gov_zh")

    routes: dict[str, Route] = {}
    articles: dict[str, Story] = {}
    boilerplate: dict[str, list[str]] = {}
    for n, (layout, path, story) in enumerate(linked):
        others = [(p, s) for _, p, s in placed if s.lang == story.lang and s is not story]
        related = others[n % 4 : n % 4 + 3]
        if path == deep_parent:
            related.append((deep_path, deep_story))
        page = _render(layout, story, related)
        routes[path] = page.route()
        articles[path] = story
        boilerplate[path] = page.boilerplate
    routes[deep_path] = _render(deep_layout, deep_story, []).route()

    # Index pages: the home page links the sections, the sections their articles.
    sections: dict[str, list[tuple[str, str, str]]] = {s: [] for s in SECTION_TITLES}
    for layout, path, story in placed:
        sections[SECTIONS[layout]].append((path, story.title, _teaser(story)))
    sections["/en/blog/"].append((REDIRECT, "Editor's pick of the month", ""))
    sections["/en/news/"].append((NOT_FOUND, "A story that was taken down", ""))
    sections["/zh/news/"].append((SERVER_ERROR, "服务器出错的页面", "2011-12-31"))
    # Every front links home first, as real sites do (a crawl must not fetch "/" twice).
    nav_en = [("/", "Home")] + [
        (s, SECTION_TITLES[s].split(" | ")[0]) for s in SECTION_TITLES if "/en/" in s
    ]
    nav_zh = [("/", "首页")] + [
        (s, SECTION_TITLES[s].split("_")[0]) for s in SECTION_TITLES if "/zh/" in s
    ]
    port = base_url.rsplit(":", 1)[1]
    home_links = [(path, title, "") for path, title in SECTION_TITLES.items()] + [
        ("/api/latest", "Latest headlines (JSON)", ""),
        ("/download?id=7", "Annual report (PDF)", ""),
        ("/reports/summary", "Report summary", ""),
        ("/files/budget-2024.pdf", "Budget 2024 (PDF)", ""),
        ("/private/staff-notes.html", "Staff notes", ""),
        (f"http://localhost:{port}/en/news/elsewhere", "Our sister site", ""),
    ]
    routes["/"] = index_page(
        "The Valley Chronicle and friends", home_links, nav_en, lang="en"
    ).route()
    for section, links in sections.items():
        lang = "zh" if section.startswith("/zh/") else "en"
        nav = nav_zh if lang == "zh" else nav_en
        page = index_page(
            SECTION_TITLES[section], links, nav, lang=lang, gbk=section == "/zh/local/"
        )
        routes[section] = page.route()

    routes[REDIRECT] = Route(status=301, headers={"Location": redirect_path})
    # The short address many sites have: another host name, redirecting to the site.
    routes[WELCOME] = Route(status=301, headers={"Location": f"{base_url}/"})
    routes[NOT_FOUND] = Route(
        b"<html><body><h1>Page not found</h1><p>Sorry, that page has gone.</p></body></html>",
        status=404,
    )
    routes[SERVER_ERROR] = Route(
        b"<html><body><h1>500 Internal Server Error</h1></body></html>", status=500
    )
    latest = [{"title": s.title, "url": p} for p, s in list(articles.items())[:5]]
    routes["/api/latest"] = Route(
        json.dumps(latest).encode(), headers={"Content-Type": "application/json"}
    )
    routes["/download?id=7"] = Route(PDF_BYTES, headers={"Content-Type": "application/pdf"})
    routes["/reports/summary"] = Route(PDF_BYTES, headers={"Content-Type": "text/html"})
    routes["/files/budget-2024.pdf"] = Route(PDF_BYTES, headers={"Content-Type": "application/pdf"})
    routes["/robots.txt"] = Route(ROBOTS, headers={"Content-Type": "text/plain"})
    routes["/private/staff-notes.html"] = modern_en(deep_story, [], json_ld=False).route()
    routes["/en/news/elsewhere"] = modern_en(deep_story, [], json_ld=True).route()

    return Site(
        routes=routes,
        articles=articles,
        boilerplate=boilerplate,
        index_pages=["/", *SECTION_TITLES],
        never_fetched=[
            deep_path,
            "/files/budget-2024.pdf",
            "/private/staff-notes.html",
            "/en/news/elsewhere",
        ],
        faults={
            NOT_FOUND: "status",
            SERVER_ERROR: "status",
            "/api/latest": "not_html",
            "/download?id=7": "not_html",
            "/reports/summary": "binary",
        },
    )

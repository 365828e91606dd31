"""Story text shared by the extractor tests: written for them, in English and Chinese."""

from __future__ import annotations

EN_SENTENCES = (
    "The city council voted on Tuesday to extend the night bus service to the airport, "
    "after a year of complaints from workers on the early shifts.",
    "The new lines start in March and will run every twenty minutes between midnight "
    "and five in the morning, the transport office said in a statement.",
    "Members of the opposition said the plan came too late and cost too much, but "
    "voted for it in the end so the service would not be delayed again.",
)
BRIDGE_STORY = [
    "The council voted on Tuesday to rebuild the old river bridge, ending a debate "
    "that had divided the town for almost ten years.",
    "Engineers said the new span would carry twice the traffic of the current one, "
    "which was closed to lorries last spring after cracks appeared in its piers.",
    "Residents who opposed the plan worried about the cost, which the council put at "
    "eleven million pounds, and about two years of detours through the market square.",
    "Work is expected to begin in March, once the river is low enough for the crews "
    "to reach the foundations without building a temporary dam.",
    "The mayor said the town had waited long enough. \u201cWe will finally have a bridge "
    "our grandchildren can rely on,\u201d she told reporters outside the hall.",
    "A public meeting on the detours is planned for next month at the library, where "
    "the engineers will present the timetable and answer questions.",
]
ZH_SENTENCES = (
    "本报讯 记者从市交通局获悉，今年三月起，本市将开通三条通往机场的夜间公交线路，"
    "方便早班职工出行。"
    "这三条线路每二十分钟一班，运营时间为午夜至凌晨五点，票价与日间公交相同。",
    "市交通局有关负责人表示，夜间公交开通后，将根据客流情况适时调整发车间隔，"
    "并在主要站点增设候车亭和照明设施，保障乘客夜间出行安全。",
)


def paragraphs(*texts: str) -> str:
    """``<p>`` elements, one per text."""
    return "".join(f"<p>{text}</p>" for text in texts)


PARAGRAPHS = paragraphs(*EN_SENTENCES)
ZH_PARAGRAPHS = paragraphs(*ZH_SENTENCES)

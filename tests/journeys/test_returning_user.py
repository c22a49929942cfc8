"""The returning chat user, over real HTTP: months later the agent still knows and recalls.

On the journey service (``manage.py serve``, tests/journeys/conftest.py; offline agent, local
model).
Each user tells the agent a food and a vibe preference through its chat endpoint, then
"chats for months": thousands of messages and hundreds of chat summaries, all newer than the
preferences, are inserted through the ORM (``manage.py shell``: embedding them through the
API would take the machine for an hour; they are searched lexically, as unembedded rows are),
and one fact is written through the bulk write API. Back in a new chat the user asks for
dinner (the persona still holds 不吃辣) and what they said (the reply quotes the fact).

Times are relative to the server's clock, read in its time zone (Asia/Shanghai): the fact is
written on last week's Wednesday at noon (in "上周" at any hour), the English one in the last
March that has ended there, and the months of history end a day before now. The dinner
request names no time of day ("tonight" asked at 22:00 leaves no dinner in the window, and the
answer then lists no food: a test that failed late in the evening, session 49), and the
journey's own organiser puts two dinners three days ahead (``dinners``) rather than relying on
what other journeys made.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.journeys.helpers import organise
from tests.platform.live_service import ServeService, manage

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]

SHANGHAI = ZoneInfo("Asia/Shanghai")  # the service's TIME_ZONE
MONTHS_OF_CHAT = 2000  # messages per user, over ~120 days
SUMMARIES = 200  # chat summaries per user, all newer than the preferences
FILLER = {
    "alice": ["今天上班有点累。", "周末去公园散步了。", "最近在看一本小说。", "晚上做了番茄炒蛋。"],
    "bob": [
        "Work was busy today.",
        "I went for a walk in the park.",
        "Reading a novel these days.",
        "Cooked eggs and tomatoes tonight.",
    ],
}
HISTORY_SCRIPT = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from memory.models import ChatMessage, Kind, Preference
from rag.text import segment_for_index

now = timezone.now()
user = get_user_model().objects.get(username={username!r})
filler = {filler!r}
segmented = {{text: segment_for_index(text) for text in filler}}
Preference.objects.filter(user=user).update(updated_at=now - timedelta(days=121))
rows = []
for i in range({messages}):
    text = filler[i % len(filler)]
    rows.append(ChatMessage(
        user=user, message_id=f"old_{{i:05d}}", chat_id=f"month_{{i // 100}}",
        ts=now - timedelta(days=120) + timedelta(minutes=85 * i),
        role="user" if i % 2 == 0 else "assistant", kind=Kind.MESSAGE,
        content=text, search_text=segmented[text], summarised=True,
    ))
for i in range({summaries}):
    text = "对话摘要：" + "；".join(filler)
    rows.append(ChatMessage(
        user=user, message_id=f"sum_{{i:04d}}", chat_id=f"month_{{i // 10}}",
        ts=now - timedelta(days=120) + timedelta(hours=14 * i), role="system",
        kind=Kind.SUMMARY, content=text, search_text=segment_for_index(text),
    ))
ChatMessage.objects.bulk_create(rows, batch_size=1000)
for i in range({summaries}):
    ChatMessage.objects.filter(user=user, message_id=f"sum_{{i:04d}}").update(
        created_at=now - timedelta(days=119) + timedelta(hours=14 * i)
    )
print(ChatMessage.objects.filter(user=user).count())
"""


# Dinners the journey's own organiser puts on the service, days ahead of its clock, so that the
# request for dinner finds one whatever other journeys ran before and whatever the hour.
DINNERS = {
    "zh": ("川菜馆晚饭局｜辣度可选", "周五晚上一起吃晚饭，川菜馆，辣度自己选。"),
    "en": ("Neighbourhood supper club", "Dinner together at a small bistro, three courses."),
}


@pytest.fixture(scope="module")
def dinners(journey_service):
    """Rosa's two dinners, three days after the server's now, indexed."""
    start = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(days=3)
    bodies = [
        {
            "title": title,
            "description": description,
            "type": "美食",
            "start_at": (start + timedelta(hours=offset)).isoformat(),
            "location": {"lat": 31.2304, "lng": 121.4737},
            "location_name": title[:6],
            "max_participants": 8,
        }
        for offset, (title, description) in enumerate(DINNERS.values())
    ]
    return organise(journey_service, "rosa", bodies)


def last_wednesday_noon() -> datetime:
    """Return Wednesday 12:00 of last week in the service's time zone (Monday-first weeks):
    inside "上周" whatever the hour, unless a Monday midnight falls within the journey."""
    today = datetime.now(SHANGHAI).date()
    wednesday = today - timedelta(days=today.weekday() + 5)
    return datetime.combine(wednesday, time(12), tzinfo=SHANGHAI)


def say(web: ServeService, user: str, message: str, chat_id: str) -> dict:
    response = web.post("/api/agent/chat", user, {"message": message, "chat_id": chat_id})
    assert response.status_code == 200, response.text
    return response.json()


def months_of_chat(web: ServeService, user: str) -> None:
    """Insert months of messages and summaries, all newer than the user's preferences."""
    script = HISTORY_SCRIPT.format(
        username=user, filler=FILLER[user], messages=MONTHS_OF_CHAT, summaries=SUMMARIES
    )
    out = manage(web.db.data_dir, "shell", "-c", script).stdout
    assert int(out.split()[-1]) >= MONTHS_OF_CHAT + SUMMARIES


def write_fact(web: ServeService, user: str, content: str, ts: datetime) -> None:
    item = {"ts": ts.isoformat(), "role": "user", "content": content, "chat_id": "the_fact"}
    response = web.post(f"/v1/users/{user}/messages", user, {"items": [item]})
    assert response.status_code in (200, 201), response.text


def preference_ids(web: ServeService, user: str) -> dict[str, int]:
    items = web.get(f"/v1/users/{user}/preferences", user).json()["items"]
    return {item["value"]: item["id"] for item in items}


def test_a_returning_chinese_user_is_still_known_and_recalled(service, dinners):
    first = say(service, "alice", "我不吃辣", "first")
    say(service, "alice", "我喜欢安静的活动", "first")
    assert first["reply"].startswith("记住啦：不吃辣")
    write_fact(service, "alice", "我家的猫叫年糕，是只橘猫。", last_wednesday_noon())
    months_of_chat(service, "alice")
    ids = preference_ids(service, "alice")

    dinner = say(service, "alice", "推荐个吃晚饭的地方", "months_later")
    recall = say(service, "alice", "我上周说我的猫叫什么名字？", "months_later")

    assert set(ids) == {"不吃辣", "安静"}
    assert f"persona:preference:{ids['不吃辣']}" in dinner["sources"]
    assert "不吃辣" in dinner["reply"]
    assert "年糕" in recall["reply"] and "跟我说过" in recall["reply"]


def test_a_returning_english_user_is_still_known_and_recalled(service, dinners):
    say(service, "bob", "I don't eat spicy food", "first")
    say(service, "bob", "I like quiet activities", "first")
    # "in March" is read in the service's time zone: the last March that has ended there.
    local = datetime.now(SHANGHAI)
    march = local.year if local.month > 3 else local.year - 1
    trip = datetime(march, 3, 15, 12, tzinfo=UTC)
    write_fact(service, "bob", "My trip in March was to Kyoto with my sister.", trip)
    months_of_chat(service, "bob")
    ids = preference_ids(service, "bob")

    dinner = say(service, "bob", "recommend somewhere for dinner", "months_later")
    recall = say(service, "bob", "what did I tell you about my trip in March?", "months_later")

    # Kept in the language they were stated in (agent.preferences_said.PREFERENCE_RULES).
    assert set(ids) == {"no spicy food", "quiet activities"}
    assert f"persona:preference:{ids['no spicy food']}" in dinner["sources"]
    assert "no spicy food" in dinner["reply"]
    assert recall["reply"] == (
        f'On March 15, {march} you told me: "My trip in March was to Kyoto with my sister."'
    )

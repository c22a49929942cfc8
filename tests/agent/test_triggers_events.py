"""Proactive triggers fire once per period; the events feed is private; tools ignore user ids."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db
SH = ZoneInfo("Asia/Shanghai")
SENT = datetime(2026, 11, 20, 9, 0, tzinfo=SH)  # a Friday morning


def write(user, *contents, start=SENT, chat_id="c1"):
    from memory.services import messages_write

    items = [
        {
            "ts": (start + timedelta(minutes=i)).isoformat(),
            "role": "user",
            "content": text,
            "chat_id": chat_id,
        }
        for i, text in enumerate(contents)
    ]
    return messages_write(user=user, items=items)


def test_daily_digest_once_per_day(user, other_user):
    from agent.models import SystemEvent
    from agent.triggers import run_daily_digest

    write(user, "今天去了新开的咖啡店，拿铁很好喝。", "下午开了两个会，有点累。")
    now = SENT + timedelta(hours=10)
    assert run_daily_digest(now) == 1
    assert run_daily_digest(now + timedelta(hours=2)) == 0  # same local day
    event = SystemEvent.objects.get(user=user, kind="daily_digest")
    assert event.period_key == "2026-11-20"
    assert event.payload["messageCount"] == 2 and event.payload["text"]
    assert not SystemEvent.objects.filter(user=other_user).exists()
    assert run_daily_digest(now + timedelta(hours=13)) == 1  # 08:00 next day, within 24 hours


def test_an_english_users_digest_and_interest_are_written_in_english(user, agent_settings):
    from agent.models import SystemEvent
    from agent.triggers import run_daily_digest, run_interest_spike

    write(user, "went bouldering after work", "bouldering again tomorrow", "love bouldering")
    now = SENT + timedelta(hours=1)
    assert run_daily_digest(now) == 1 and run_interest_spike(now) == 1
    digest = SystemEvent.objects.get(kind="daily_digest").payload
    spike = SystemEvent.objects.get(kind="interest_spike").payload
    assert digest["title"] == "Your day"
    assert digest["text"].startswith("We exchanged 3 messages in the last 24 hours.")
    assert spike["title"] == 'You keep mentioning "bouldering"'
    assert "「" not in spike["text"] and "「" not in digest["text"]


def test_interest_spike_threshold_and_once(user, agent_settings):
    from agent.models import SystemEvent
    from agent.triggers import run_interest_spike

    write(user, "好想吃火锅", "昨天那家火锅真不错", start=SENT - timedelta(days=1))
    now = SENT + timedelta(hours=1)
    assert run_interest_spike(now) == 0  # twice is not a spike (threshold 3)
    write(user, "周末再约火锅吧", start=SENT + timedelta(minutes=30))
    assert run_interest_spike(now) == 1
    assert run_interest_spike(now + timedelta(minutes=30)) == 0
    event = SystemEvent.objects.get(kind="interest_spike")
    assert event.payload["term"] == "火锅" and event.payload["count"] == 3
    # The next day the same subject is not reported again within the window.
    assert run_interest_spike(now + timedelta(days=1)) == 0
    assert SystemEvent.objects.filter(kind="interest_spike").count() == 1


def test_interest_spike_threshold_is_a_live_setting(user, agent_settings):
    from agent.models import SystemEvent
    from agent.triggers import run_interest_spike

    agent_settings.interest_spike_count = 4
    agent_settings.save()
    write(user, "好想吃火锅", "昨天那家火锅真不错", "周末再约火锅吧")
    now = SENT + timedelta(hours=1)
    assert run_interest_spike(now) == 0  # three is below the live threshold of four
    write(user, "火锅还是得吃牛油锅底", start=SENT + timedelta(minutes=30))
    assert run_interest_spike(now) == 1
    event = SystemEvent.objects.get(kind="interest_spike")
    assert event.payload["term"] == "火锅" and event.payload["count"] == 4


def test_deadline_reminder_the_day_before(user):
    from agent.models import SystemEvent
    from agent.triggers import deadline_of, run_deadline_reminders

    write(user, "报告下周五截止", "明天下午三点开会", "周五晚上附近有什么好玩的")
    # 明天下午三点 relative to Friday 09:00 is Saturday 15:00; 下周五 is 2026-11-27.
    assert deadline_of("明天下午三点开会", SENT) == datetime(2026, 11, 21, 15, 0, tzinfo=SH)
    assert deadline_of("周五晚上附近有什么好玩的", SENT) is None  # no task word
    assert run_deadline_reminders(SENT + timedelta(hours=1)) == 0  # more than a day ahead
    friday_evening = datetime(2026, 11, 20, 16, 0, tzinfo=SH)
    assert run_deadline_reminders(friday_evening) == 1
    assert run_deadline_reminders(friday_evening + timedelta(hours=2)) == 0
    thursday = datetime(2026, 11, 26, 10, 0, tzinfo=SH)
    assert run_deadline_reminders(thursday) == 1
    keys = SystemEvent.objects.values_list("period_key", flat=True)
    assert sorted(keys) == ["2026-11-21T15:00", "2026-11-27T09:00"]


def test_a_deadline_told_in_english_is_reminded_in_english(user):
    from agent.models import SystemEvent
    from agent.triggers import run_deadline_reminders

    write(user, "my essay is due next Friday")
    assert run_deadline_reminders(datetime(2026, 11, 26, 10, 0, tzinfo=SH)) == 1
    event = SystemEvent.objects.get(kind="deadline_reminder")
    assert event.payload["title"] == "Tomorrow's reminder"
    assert event.payload["text"].startswith('Reminder: you said "my essay is due next Friday"')


def test_a_task_due_today_said_after_the_morning_is_due_by_the_days_end():
    from agent.triggers import deadline_of

    ten = datetime(2026, 11, 25, 10, 0, tzinfo=SH)
    assert deadline_of("the essay is due today", ten) == datetime(2026, 11, 25, 23, 59, tzinfo=SH)
    assert deadline_of("报告今天截止", ten) == datetime(2026, 11, 25, 23, 59, tzinfo=SH)
    assert deadline_of("报告今天要交", ten) == datetime(2026, 11, 25, 23, 59, tzinfo=SH)
    eight = datetime(2026, 11, 25, 8, 0, tzinfo=SH)
    assert deadline_of("the essay is due today", eight) == datetime(2026, 11, 25, 9, 0, tzinfo=SH)


def test_a_part_of_today_under_way_is_due_by_its_end_and_an_event_today_not_reminded():
    from agent.triggers import deadline_of

    noon = datetime(2026, 11, 25, 12, 39, tzinfo=SH)
    assert deadline_of("作业今天下午交，记得提醒我", noon).hour == 17  # by the afternoon's end
    assert deadline_of("my exam is today", noon) is None
    assert deadline_of("明天考试，不用提醒我", noon) is None  # told, its reminder refused


def test_something_to_hand_in_said_after_it_is_a_deadline_and_making_friends_is_not():
    from agent.triggers import deadline_of

    seven = datetime(2026, 11, 25, 7, 0, tzinfo=SH)
    assert deadline_of("论文周五要交，提醒我", seven) == datetime(2026, 11, 27, 9, 0, tzinfo=SH)
    assert deadline_of("周五想去交朋友", seven) is None


def test_a_task_due_today_is_reminded_as_todays(user):
    from agent.models import SystemEvent
    from agent.triggers import run_deadline_reminders

    write(user, "the essay is due today", start=datetime(2026, 11, 25, 10, 0, tzinfo=SH))
    assert run_deadline_reminders(datetime(2026, 11, 25, 10, 30, tzinfo=SH)) == 1
    assert SystemEvent.objects.get(kind="deadline_reminder").payload["title"] == "Today's reminder"


def test_deadline_reminder_once_per_deadline_not_per_message(user):
    from agent.models import SystemEvent
    from agent.triggers import run_deadline_reminders

    rows = write(user, "报告下周五截止", "记得下周五交报告", "下周五下午三点面试")["items"]
    ids = [r["message_id"] for r in rows]
    thursday = datetime(2026, 11, 26, 16, 0, tzinfo=SH)  # within a day of both deadlines
    assert run_deadline_reminders(thursday) == 2
    assert run_deadline_reminders(thursday + timedelta(hours=1)) == 0
    report = SystemEvent.objects.get(period_key="2026-11-27T09:00")
    assert report.payload["messageId"] == ids[0]
    assert report.payload["messageIds"] == ids[:2]
    assert "报告下周五截止" in report.payload["text"]
    interview = SystemEvent.objects.get(period_key="2026-11-27T15:00")
    assert interview.payload["messageIds"] == [ids[2]]


def test_schedules_registered_once():
    from django_q.models import Schedule

    from agent.signals import register_agent_schedules

    register_agent_schedules(sender=None)
    names = sorted(
        Schedule.objects.filter(name__startswith="agent.").values_list("name", flat=True)
    )
    assert names == [
        "agent.activity_reminders",
        "agent.daily_digest",
        "agent.deadline_reminders",
        "agent.interest_spike",
    ]


def test_events_endpoint_privacy(api_client, user, other_user, staff_client):
    from agent.models import SystemEvent

    SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1", payload={"a": 1})
    SystemEvent.objects.create(user=other_user, kind="daily_digest", period_key="d1")
    own = api_client.get(f"/v1/users/{user.username}/events")
    assert own.status_code == 200
    assert [e["payload"] for e in own.json()["events"]] == [{"a": 1}]
    other = api_client.get(f"/v1/users/{other_user.username}/events")
    assert other.status_code == 404 and other.json()["error"]["code"] == "NOT_FOUND"
    missing = api_client.get("/v1/users/nobody/events")
    assert missing.status_code == 404
    staff = staff_client.get(f"/v1/users/{other_user.username}/events?kind=daily_digest")
    assert staff.status_code == 200 and len(staff.json()["events"]) == 1
    bad = api_client.get(f"/v1/users/{user.username}/events?kind=nope")
    assert bad.status_code == 400


def test_tool_ignores_user_id_from_the_model(user, other_user):
    from agent.models import PartnerIntent
    from agent.tool_registry import REGISTRY

    result = REGISTRY["createPartnerIntent"].run(
        user, {"activityType": "音乐", "user_id": other_user.pk, "userId": "bob", "owner": 2}
    )
    assert result["partnerIntent"]["activityType"] == "音乐"
    assert PartnerIntent.objects.get().user == user
    for tool in REGISTRY.values():
        properties = tool.parameters["properties"]
        assert not {"user_id", "userId", "user", "owner"} & set(properties)


def test_tool_cannot_touch_another_users_activity(user, other_user, make_activity_for):
    from agent.tool_registry import REGISTRY

    theirs = make_activity_for(other_user)
    result = REGISTRY["cancelActivity"].run(user, {"activityId": theirs.pk})
    assert result["error"]["code"] == "NOT_FOUND"
    theirs.refresh_from_db()
    assert theirs.status == "active"
    draft = make_activity_for(other_user, status="draft")
    result = REGISTRY["refineDraft"].run(user, {"activityId": draft.pk, "title": "偷改"})
    assert result["error"]["code"] == "NOT_FOUND"


def test_erasure_removes_agent_data(user, other_user):
    from agent.models import PartnerIntent, SystemEvent
    from memory.services import user_erase

    SystemEvent.objects.create(user=user, kind="daily_digest", period_key="d1")
    SystemEvent.objects.create(user=other_user, kind="daily_digest", period_key="d1")
    PartnerIntent.objects.create(user=user, activity_type="户外")
    counts = user_erase(user=user)
    assert counts["agent_events"] == 1 and counts["partner_intents"] == 1
    assert SystemEvent.objects.filter(user=other_user).count() == 1


def test_event_text_polished_by_the_llm(user, fake_llm):
    from agent.models import SystemEvent
    from agent.triggers import run_daily_digest

    write(user, "今天去了新开的咖啡店，拿铁很好喝。")
    fake_llm.chat_script += [
        {"content": "用户去了新开的咖啡店。"},  # memory's summary
        {"content": "今天你去了一家新咖啡店，拿铁不错！"},  # the polish
    ]
    assert run_daily_digest(SENT + timedelta(hours=1)) == 1
    event = SystemEvent.objects.get()
    assert event.payload["text"] == "今天你去了一家新咖啡店，拿铁不错！"
    assert event.payload["summary"] == "用户去了新开的咖啡店。"


def test_an_english_interest_is_never_a_day_or_an_asking_word():
    from agent.triggers import subject_terms

    assert subject_terms("any jazz gigs on Saturday night? I love jazz") == {"jazz", "gigs"}


def test_an_appointment_told_in_english_is_a_time_to_remind():
    from agent.triggers import deadline_of

    due = deadline_of("I have a dentist appointment tomorrow afternoon", SENT)
    assert due is not None and due.date() == (SENT + timedelta(days=1)).date()
    assert timezone.localtime(due).hour >= 12  # the afternoon, not 09:00
    assert deadline_of("what are my plans tomorrow afternoon", SENT) is None


def test_an_activity_is_reminded_once_to_everyone_on_it_the_day_before(
    user, other_user, make_activity_for
):
    from activities.services import activity_join
    from agent.activity_reminders import run_activity_reminders
    from agent.models import SystemEvent

    start = datetime(2026, 11, 27, 19, 0, tzinfo=SH)
    game = make_activity_for(other_user, title="周五桌游局", start_at=start)
    activity_join(activity_id=game.pk, user=user)

    assert run_activity_reminders(start - timedelta(days=2)) == 0  # too early
    assert run_activity_reminders(start - timedelta(hours=20)) == 2  # the player and the organiser
    assert run_activity_reminders(start - timedelta(hours=2)) == 0  # once
    event = SystemEvent.objects.get(user=user, kind="activity_reminder")
    assert event.payload["activityId"] == game.pk
    assert event.payload["text"] == "提醒：「周五桌游局」11月27日 19:00 开始，人民广场。"


def test_a_muted_activity_is_not_reminded_to_the_one_who_muted_it(
    user, other_user, make_activity_for
):
    from activities.services import activity_join
    from agent.activity_reminders import run_activity_reminders
    from agent.models import SystemEvent
    from agent.services import reminders_set

    start = datetime(2026, 11, 27, 19, 0, tzinfo=SH)
    game = make_activity_for(other_user, title="周五桌游局", start_at=start)
    activity_join(activity_id=game.pk, user=user)
    reminders_set(user=user, activity_ids=[game.pk], remind=False)
    reminders_set(user=user, activity_ids=[game.pk], remind=False)  # twice is once

    assert run_activity_reminders(start - timedelta(hours=20)) == 1  # the organiser only
    assert not SystemEvent.objects.filter(user=user, kind="activity_reminder").exists()


def test_an_activity_reminder_is_in_english_for_a_user_writing_english(
    user, other_user, make_activity_for
):
    from activities.services import activity_join
    from agent.activity_reminders import run_activity_reminders
    from agent.models import SystemEvent

    start = datetime(2026, 11, 27, 19, 0, tzinfo=SH)
    write(user, "any board games this week?")
    game = make_activity_for(other_user, title="Board games", start_at=start)
    activity_join(activity_id=game.pk, user=user)

    run_activity_reminders(start - timedelta(hours=20))
    event = SystemEvent.objects.get(user=user, kind="activity_reminder")
    assert event.payload["text"] == 'Reminder: "Board games" starts Fri 27 Nov 19:00, 人民广场.'


def test_a_cancelled_activity_is_not_reminded(other_user, make_activity_for):
    from activities.models import ActivityStatus
    from agent.activity_reminders import run_activity_reminders

    start = datetime(2026, 11, 27, 19, 0, tzinfo=SH)
    make_activity_for(other_user, start_at=start, status=ActivityStatus.CANCELLED)
    assert run_activity_reminders(start - timedelta(hours=20)) == 0


def test_an_activity_later_today_is_reminded_as_todays(user, make_activity_for):
    from agent.activity_reminders import run_activity_reminders
    from agent.models import SystemEvent

    now = datetime(2026, 11, 25, 10, 0, tzinfo=SH)
    make_activity_for(user, title="今晚桌游", start_at=datetime(2026, 11, 25, 19, 0, tzinfo=SH))
    run_activity_reminders(now)
    assert (
        SystemEvent.objects.get(user=user, kind="activity_reminder").payload["title"]
        == "今天的活动"
    )


def test_a_reminder_asked_for_at_a_time_comes_at_that_time_not_the_day_before(user):
    from agent.models import SystemEvent
    from agent.triggers import deadline_of, run_deadline_reminders

    write(user, "remind me to call mom at 5pm")  # said Friday 09:00
    assert deadline_of("remind me to call mom at 5pm", SENT) == SENT.replace(hour=17)
    assert run_deadline_reminders(SENT.replace(hour=16)) == 0  # not before it
    assert run_deadline_reminders(SENT.replace(hour=17, minute=10)) == 1
    assert run_deadline_reminders(SENT.replace(hour=17, minute=40)) == 0  # once
    event = SystemEvent.objects.get(kind="deadline_reminder")
    assert event.payload["title"] == "Today's reminder"
    assert event.payload["dueAt"].startswith("2026-11-20T17:00")


@pytest.mark.parametrize(
    "message", ["remind me to take my pills at 8 tonight", "tonight at 8 remind me to call mom"]
)
def test_a_reminder_at_an_hour_without_pm_tonight_is_that_evening_hour(message):
    from agent.triggers import deadline_of

    assert deadline_of(message, SENT) == SENT.replace(hour=20)


def test_a_reminder_asked_for_a_day_comes_that_morning(user):
    from agent.triggers import run_deadline_reminders

    write(user, "明天提醒我交房租")  # Saturday 09:00
    assert run_deadline_reminders(SENT.replace(hour=16)) == 0  # the day before: too early
    assert run_deadline_reminders(datetime(2026, 11, 21, 9, 20, tzinfo=SH)) == 1


@pytest.mark.parametrize(
    "message", ["提前一天提醒我", "到时候提醒我一下", "记得提醒我哦", "remind me"]
)
def test_a_reminder_of_the_activity_asks_for_no_task(message):
    from agent.triggers import REMIND_TASK_RE

    assert not REMIND_TASK_RE.search(message)


@pytest.mark.parametrize(
    "message",
    ["提醒我8点吃药", "remind me at 5pm to call mom", "remind me on Friday to buy tickets"],
)
def test_a_task_reminder_with_its_time_said_first_is_read(message):
    from agent.triggers import REMIND_TASK_RE

    assert REMIND_TASK_RE.search(message)


def test_a_reminder_asked_for_a_time_already_past_is_not_sent(user):
    from agent.triggers import run_deadline_reminders

    write(user, "remind me to call mom at 8am")  # said Friday 09:00: 08:00 has passed
    assert run_deadline_reminders(SENT.replace(hour=9, minute=30)) == 0


def test_a_reminder_asked_for_and_a_deadline_at_one_time_are_both_sent(user):
    from agent.models import SystemEvent
    from agent.triggers import run_deadline_reminders

    write(user, "明天下午五点面试", "remind me to call mom tomorrow at 5pm")
    assert run_deadline_reminders(SENT.replace(hour=18)) == 1  # the interview, the day before
    assert run_deadline_reminders(datetime(2026, 11, 21, 17, 10, tzinfo=SH)) == 1
    keys = sorted(SystemEvent.objects.values_list("period_key", flat=True))
    assert keys[0] == "2026-11-21T17:00" and keys[1].startswith("asked@2026-11-21T17:00#")


@pytest.mark.parametrize(
    "message", ["不用提醒我明天的活动", "别提醒我周五交报告", "don't remind me to call mom"]
)
def test_a_refused_task_reminder_is_no_reminder_at_a_time(message):
    from agent.triggers import REMIND_TASK_RE

    assert not REMIND_TASK_RE.search(message)

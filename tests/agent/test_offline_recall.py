"""The offline chat answer: recall of what the user said, quoted with its date; languages."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from agent.context import RuntimeContext
from agent.offline_recall import compose_chat, is_recall, persona_values, quoted_part
from agent.prompt import Chunk

SHANGHAI = ZoneInfo("Asia/Shanghai")
# A fixed "now" (a Wednesday); last week is 2026-11-16 .. 2026-11-22.
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)


def _said(
    message_id: str, text: str, ts: str, *, role="user", kind="message", priority=0.6, lexical=True
):
    return Chunk(
        f"knowledge:msg:{message_id}",
        f"用户曾说：{text}",
        priority,
        body=text,
        key=f"msg:{message_id}",
        meta={"role": role, "kind": kind, "ts": ts, "lexical": lexical},
    )


def _ctx(message: str, knowledge=(), persona=()) -> RuntimeContext:
    return RuntimeContext(
        user=None, chat_id="c1", message=message, knowledge=list(knowledge), persona=list(persona)
    )


@pytest.mark.parametrize(
    "message",
    [
        "我上周说我的猫叫什么名字？",
        "还记得我说过的那家店吗",
        "what did I tell you about my trip in March?",
        "Do you remember my cat's name?",
        "我对什么过敏来着",
        "我周三晚上干嘛来着",
        "what am I allergic to again?",
        "whats my cats name again",
        "我叫什么名字",
        "what's my name?",
        "when is Mia coming again?",
        "who is coming to visit?",
    ],
)
def test_questions_about_what_the_user_said_are_recall(message):
    assert is_recall(message)


@pytest.mark.parametrize(
    "message",
    [
        "我说我不去了。",
        "今晚吃什么？",
        "I told him no.",
        "what is on tonight again?",
        "when is my frisbee game again?",
        "when does the hike start again?",
        "where is it again?",
        "我的名字叫小王",
        "我跟你说我周末干嘛去了",
        "我有哪些提醒",  # 提 of 提醒: the reminders asked for
        "我设了什么提醒",
    ],
)
def test_statements_and_other_questions_are_no_recall(message):
    assert not is_recall(message)


def test_recall_quotes_the_remembered_message_with_its_date_in_chinese():
    ctx = _ctx(
        "我上周说我的猫叫什么名字？",
        [_said("m1", "我家的猫叫年糕，三岁了。", "2026-11-18T12:00:00Z")],
    )

    assert compose_chat(ctx, []) == "你在2026年11月18日跟我说过：「我家的猫叫年糕，三岁了。」"


def test_recall_quotes_the_remembered_message_with_its_date_in_english():
    ctx = _ctx(
        "what did I tell you about my trip in March?",
        [_said("m1", "In March I went to Kyoto with my sister.", "2026-03-14T12:00:00Z")],
    )

    reply = compose_chat(ctx, [])

    assert reply == 'On March 14, 2026 you told me: "In March I went to Kyoto with my sister."'


def test_recall_leaves_out_the_assistant_summaries_and_earlier_questions():
    ctx = _ctx(
        "我上周说我的猫叫什么名字？",
        [
            _said("q0", "我的猫叫什么名字？", "2026-11-19T12:00:00Z", priority=0.7),
            _said("a0", "你的猫叫年糕。", "2026-11-19T12:00:01Z", role="assistant", priority=0.7),
            _said("s0", "用户养了一只猫。", "2026-11-19T13:00:00Z", kind="summary", priority=0.7),
            _said("m1", "我家的猫叫年糕。", "2026-11-18T12:00:00Z", priority=0.5),
        ],
    )

    assert compose_chat(ctx, []) == "你在2026年11月18日跟我说过：「我家的猫叫年糕。」"


@pytest.mark.parametrize(
    ("second", "quoted"),
    [
        (_said("m2", "京都的红叶很美。", "2026-03-15T12:00:00Z", priority=0.60), True),
        (_said("m3", "京都的红叶很美。", "2026-03-15T12:00:00Z", priority=0.40), False),
        (_said("m4", "京都的红叶很美。", "2026-03-15T12:00:00Z", lexical=False), False),
    ],
)
def test_recall_quotes_a_second_message_only_when_it_matches_about_as_well(second, quoted):
    best = _said("m1", "三月去了京都。", "2026-03-14T12:00:00Z", priority=0.62)

    reply = compose_chat(_ctx("我三月说我去哪旅行了？", [best, second]), [])

    assert "「三月去了京都。」" in reply
    assert ("「京都的红叶很美。」" in reply) is quoted


def test_recall_after_retention_quotes_what_the_summary_holds_and_says_it_is_one():
    summary = _said(
        "s1",
        "用户最近搬了家。我家的猫叫年糕，是只橘猫。周末常去公园。",
        "2026-08-10T12:00:00Z",
        role="system",
        kind="summary",
    )

    reply = compose_chat(_ctx("我之前说我的猫叫什么名字？", [summary]), [])

    assert reply == "我们2026年8月10日及之前那次对话的摘要里记着：「我家的猫叫年糕，是只橘猫。」"


def test_recall_after_retention_in_english_names_the_summary():
    text = "The user moved house. My cat is called Biscuit, a ginger tabby. Likes parks."
    summary = _said("s1", text, "2026-08-10T12:00:00Z", role="system", kind="summary")

    reply = compose_chat(_ctx("What did I tell you my cat is called?", [summary]), [])

    assert reply == (
        'From the summary of our chat up to August 10, 2026: "My cat is called Biscuit, a '
        'ginger tabby."'
    )


def test_a_summary_without_the_questions_words_is_no_answer():
    summary = _said("s1", "用户周末常去公园散步。", "2026-08-10T12:00:00Z", kind="summary")

    assert "没找到" in compose_chat(_ctx("我之前说我的猫叫什么名字？", [summary]), [])


def test_recall_with_nothing_remembered_says_so_in_the_users_language():
    assert "没找到" in compose_chat(_ctx("我上周说我的猫叫什么名字？"), [])
    assert "couldn't find" in compose_chat(_ctx("What did I tell you about my cat?"), [])


def test_a_stated_preference_is_acknowledged_in_the_users_language():
    zh = compose_chat(_ctx("我不吃辣"), [("food", "不吃辣")])
    en = compose_chat(_ctx("I don't eat spicy food"), [("food", "no spicy food")])
    # A value stored in the other language is named in the reply's.
    zh_of_en = compose_chat(_ctx("记住我不吃辣"), [("food", "no spicy food")])
    en_of_zh = compose_chat(_ctx("remember: no spicy food"), [("food", "不吃辣")])

    assert zh.startswith("记住啦：不吃辣") and zh_of_en.startswith("记住啦：不吃辣")
    assert en.startswith("Got it: no spicy food") and en_of_zh.startswith("Got it: no spicy food")


@pytest.mark.parametrize(
    ("message", "reply"),
    [
        ("我下周三要去北京出差，帮我记一下", "记下了：「我下周三要去北京出差」。"),
        ("记住：我明天要交报告", "记下了：「我明天要交报告」。"),
        ("please remember that I park on level 3", 'Noted: "I park on level 3".'),
    ],
)
def test_asking_to_be_remembered_says_back_what_was_kept(message, reply):
    assert compose_chat(_ctx(message), []).startswith(reply)


def test_asking_whether_it_was_remembered_keeps_nothing():
    assert not compose_chat(_ctx("记住了吗？"), []).startswith("记下了")


def test_the_remember_rule_matches_english_words_whole():
    from agent import extract
    from agent.router import rule_scores

    assert rule_scores("remember that I'm vegetarian")["CHAT"] == 1.0
    assert extract.REMEMBER_RE.search("I remember mine fondly") is None


def test_the_explore_answer_names_the_persona_preferences():
    from agent.modes import get_agent_mode
    from agent.offline import compose

    meta = {"category": "food", "value": "不吃辣"}
    persona = [
        Chunk("persona:preference:1", "偏好 food: 不吃辣", 1.0, meta=meta),
        Chunk("persona:feedback:1", "反馈 rating +1 on a1", 0.6),
    ]
    item = {"title": "川菜馆聚餐", "startAt": "2026-11-27T19:00:00+08:00", "type": "美食"}
    calls = [
        {
            "name": "exploreNearby",
            "arguments": {"query": "晚饭"},
            "result": {"results": [item], "meta": {}},
        }
    ]

    reply = compose(get_agent_mode("EXPLORE"), _ctx("今晚吃什么？", persona=persona), calls, [])

    assert "按你的偏好：不吃辣" in reply


@pytest.mark.django_db
def test_the_agent_recalls_last_weeks_message_from_memory(user, django_capture_on_commit_callbacks):
    from agent.context import build_context
    from memory.services import messages_write

    said = NOW - timedelta(days=7)
    items = [
        {"ts": (said + timedelta(minutes=i)).isoformat(), "role": role, "content": text}
        for i, (role, text) in enumerate(
            [
                ("user", "我家的猫叫年糕，是只橘猫。"),
                ("assistant", "好可爱的名字！"),
                ("user", "周末想去看电影。"),
            ]
        )
    ]
    items += [
        {"ts": (NOW - timedelta(days=40 + i)).isoformat(), "role": "user", "content": text}
        for i, text in enumerate(["今天加班到很晚。", "想学做饭。", "朋友的狗叫旺财。"])
    ]
    with django_capture_on_commit_callbacks(execute=True):
        messages_write(user=user, items=items)

    ctx = build_context(user=user, chat_id="c2", message="我上周说我的猫叫什么名字？", now=NOW)

    assert compose_chat(ctx, []) == "你在2026年11月18日跟我说过：「我家的猫叫年糕，是只橘猫。」"


@pytest.mark.django_db
def test_the_agent_recalls_what_a_retention_summary_holds(user, django_capture_on_commit_callbacks):
    from agent.context import build_context
    from memory.models import ChatMessage
    from memory.retention import retention_run
    from memory.services import messages_write

    said = NOW - timedelta(days=100)
    texts = ["我家的猫叫年糕，是只橘猫。", "周末想去看电影。", "最近在学做饭。"]
    items = [
        {"ts": (said + timedelta(minutes=i)).isoformat(), "role": "user", "content": text}
        for i, text in enumerate(texts)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        messages_write(user=user, items=[{**item, "chat_id": "spring"} for item in items])
    ChatMessage.objects.filter(user=user).update(created_at=NOW - timedelta(days=95))
    with django_capture_on_commit_callbacks(execute=True):
        assert retention_run(dry_run=False).messages_deleted == 3

    ctx = build_context(user=user, chat_id="c2", message="我之前说我的猫叫什么名字？", now=NOW)

    assert "「我家的猫叫年糕，是只橘猫。」" in compose_chat(ctx, [])


def test_a_recall_question_routed_to_a_tool_mode_is_answered_from_memory():
    from agent.modes import get_agent_mode
    from agent.offline import compose

    ctx = _ctx(
        "what did I tell you about my trip in March?",
        [_said("m1", "My trip in March was to Kyoto.", "2026-03-14T12:00:00Z")],
    )
    calls = [{"name": "getMyActivities", "arguments": {}, "result": {"activities": []}}]

    reply = compose(get_agent_mode("MANAGE"), ctx, calls, [])

    assert reply == 'On March 14, 2026 you told me: "My trip in March was to Kyoto."'


def test_the_explore_answer_without_results_names_no_preference():
    from agent.modes import get_agent_mode
    from agent.offline import compose

    meta = {"category": "food", "value": "不吃辣"}
    persona = [Chunk("persona:preference:1", "偏好 food: 不吃辣", 1.0, meta=meta)]
    calls = [{"name": "exploreNearby", "arguments": {}, "result": {"results": [], "meta": {}}}]

    reply = compose(get_agent_mode("EXPLORE"), _ctx("今晚吃什么？", persona=persona), calls, [])

    assert "偏好" not in reply and "不吃辣" not in reply


@pytest.mark.django_db
def test_the_agent_answers_a_question_about_a_day_with_what_the_user_said_that_day(
    user, django_capture_on_commit_callbacks
):
    from agent.context import build_context
    from memory.services import messages_write

    day = NOW - timedelta(days=3)
    items = [
        {"ts": (day + timedelta(minutes=i)).isoformat(), "role": role, "content": text}
        for i, (role, text) in enumerate(
            [
                ("user", "今天在公司加班到很晚。"),
                ("assistant", "辛苦了，早点休息。"),
                ("user", "晚上想去吃火锅。"),
            ]
        )
    ]
    items.append(
        {"ts": (day - timedelta(days=1)).isoformat(), "role": "user", "content": "想学做饭。"}
    )
    with django_capture_on_commit_callbacks(execute=True):
        messages_write(user=user, items=items)

    asked = f"{day.month}月{day.day}日我们聊了什么"
    ctx = build_context(user=user, chat_id="c2", message=asked, now=NOW)

    assert compose_chat(ctx, []) == (
        f"{day.year}年{day.month}月{day.day}日你跟我说了：\n"
        "- 「今天在公司加班到很晚。」\n- 「晚上想去吃火锅。」"
    )


def test_a_reminder_question_quotes_the_statement_not_an_earlier_question():
    ctx = _ctx(
        "what am I allergic to again?",
        [
            _said("m2", "我对什么过敏来着", "2026-11-24T12:05:00Z", priority=0.7),
            _said("m1", "帮我记一下：我一吃芒果就过敏", "2026-11-24T12:00:00Z"),
        ],
    )

    told = 'On November 24, 2026 you told me: "帮我记一下：我一吃芒果就过敏"'
    assert compose_chat(ctx, []) == told


def test_an_allergy_is_named_as_avoided_in_the_explore_answer_not_as_a_liking():
    from agent.modes import get_agent_mode
    from agent.offline import compose

    meta = {"category": "allergy", "value": "花生"}
    persona = [Chunk("persona:preference:1", "偏好 allergy: 花生", 1.0, meta=meta)]
    item = {"title": "Street food crawl", "startAt": "2026-11-27T19:00:00+08:00", "type": "美食"}
    calls = [
        {
            "name": "exploreNearby",
            "arguments": {"query": "street food"},
            "result": {"results": [item], "meta": {}},
        }
    ]

    reply = compose(get_agent_mode("EXPLORE"), _ctx("any street food?", persona=persona), calls, [])

    assert "by your preferences: allergic to peanuts" in reply


def _explore_reply(message: str, persona: list, item: dict) -> str:
    """Return the offline EXPLORE answer listing ``item`` for ``message``."""
    from agent.modes import get_agent_mode
    from agent.offline import compose

    calls = [{"name": "exploreNearby", "arguments": {}, "result": {"results": [item], "meta": {}}}]
    return compose(get_agent_mode("EXPLORE"), _ctx(message, persona=persona), calls, [])


def test_an_allergy_is_not_named_over_a_listing_that_is_no_food():
    meta = {"category": "allergy", "value": "花生"}
    persona = [Chunk("persona:preference:1", "偏好 allergy: 花生", 1.0, meta=meta)]
    walk = {"title": "Sunday walk", "startAt": "2026-11-29T09:00:00+08:00", "type": "户外"}

    reply = _explore_reply("something outdoors on sunday morning", persona, walk)

    assert "peanut" not in reply and "preferences" not in reply


def test_a_taste_is_named_only_when_the_search_raised_a_result_by_it():
    meta = {"category": "likes", "value": "安静"}
    persona = [Chunk("persona:preference:1", "偏好 likes: 安静", 1.0, meta=meta)]
    plain = {"title": "静读会", "startAt": "2026-11-29T14:00:00+08:00", "type": "读书"}
    raised = {**plain, "boost": 0.05, "provenance": {"personalised": "preferences"}}

    assert "按你的偏好" not in _explore_reply("周末看书", persona, plain)
    assert "按你的偏好：安静" in _explore_reply("周末看书", persona, raised)


def test_a_stated_allergy_is_acknowledged_as_an_allergy():
    assert compose_chat(_ctx("帮我记一下：我对花生过敏"), [("allergy", "花生")]).startswith(
        "记住啦：花生过敏。"
    )


@pytest.mark.parametrize(("lexical", "quoted"), [(True, True), (False, False)])
def test_a_question_sharing_a_word_with_something_told_is_answered_with_it(lexical, quoted):
    told = "my sister Mia is visiting next weekend, she loves climbing"
    ctx = _ctx(
        "what does Mia like?",
        knowledge=[_said("m1", told, "2026-11-28T09:00:00Z", lexical=lexical)],
    )

    assert (told in compose_chat(ctx, [])) is quoted


@pytest.mark.parametrize("title", ["周五火锅局", "BBQ in the park"])
def test_an_allergy_is_named_over_a_listing_whose_title_is_food_whatever_its_type(title):
    meta = {"category": "allergy", "value": "花生"}
    persona = [Chunk("persona:preference:1", "偏好 allergy: 花生", 1.0, meta=meta)]
    item = {"title": title, "startAt": "2026-11-27T19:00:00+08:00", "type": "社交"}

    assert "花生过敏" in _explore_reply("周五有什么局", persona, item)


@pytest.mark.parametrize(
    ("question", "told", "quote"),
    [
        ("我叫什么名字？", "你好，我叫林晓，在杭州上班，对花生过敏", "「我叫林晓」"),
        (
            "what's my name?",
            "Hi, my name is Lin. I work in Leeds and love hiking.",
            '"my name is Lin"',
        ),
    ],
)
def test_a_name_question_quotes_the_clause_that_told_the_name(question, told, quote):
    ctx = _ctx(question, [_said("m1", told, "2026-11-18T12:00:00Z")])

    assert compose_chat(ctx, []).endswith(quote)


def test_a_question_about_something_else_quotes_the_whole_message():
    told = "my sister Mia is visiting next weekend, she loves climbing"
    ctx = _ctx("what did I tell you about Mia?", [_said("m1", told, "2026-11-18T12:00:00Z")])

    assert compose_chat(ctx, []).endswith(f'"{told}"')


@pytest.mark.parametrize(
    ("message", "named"), [("what's on?", ["board games"]), ("有什么活动", ["桌游"])]
)
def test_a_liking_said_in_both_languages_is_named_once_in_the_answers(message, named):
    persona = [
        Chunk(f"persona:preference:{i}", f"偏好 likes: {value}", 1.0, meta=meta)
        for i, (value, meta) in enumerate(
            (v, {"category": "likes", "value": v}) for v in ("board games", "桌游")
        )
    ]

    assert persona_values(_ctx(message, persona=persona), english=message.isascii()) == named


@pytest.mark.parametrize(
    ("question", "told", "quoted"),
    [
        ("what's my name?", "My name is Mr. Smith, I teach math", "My name is Mr. Smith"),
        # More than the name asked: the whole message answers it.
        ("我叫什么名字，在哪上班", "你好，我叫林晓，在杭州上班", "你好，我叫林晓，在杭州上班"),
    ],
)
def test_the_name_clause_is_whole_and_only_the_name_is_trimmed_to(question, told, quoted):
    assert quoted_part(told, question) == quoted


def test_a_name_question_quotes_no_message_that_tells_no_name():
    ctx = _ctx("what's my name?", [_said("m1", "I love board games", "2026-11-18T12:00:00Z")])

    assert compose_chat(ctx, []).startswith("I looked through what you've told me")


@pytest.mark.parametrize(
    "told", ["你好，我是小周，刚搬来", "hi im Amy", "call me Amy", "My name is Amy"]
)
def test_the_usual_ways_of_telling_a_name_are_found(told):
    ctx = _ctx("what's my name?", [_said("m1", told, "2026-11-18T12:00:00Z")])

    assert compose_chat(ctx, []).startswith("On November 18, 2026 you told me:")


def test_a_name_told_as_i_am_is_found_and_quoted():
    told = "hi, I'm Amy, I just moved here and I love board games"
    ctx = _ctx(
        "what's my name?",
        [
            _said("m1", "I love board games", "2026-11-18T12:00:00Z"),
            _said("m2", told, "2026-11-17T12:00:00Z", priority=0.5),
        ],
    )

    assert compose_chat(ctx, []).endswith('"I\'m Amy"')


def _persona(category: str, value: str) -> Chunk:
    return Chunk(f"persona:{category}", value, 1.0, meta={"category": category, "value": value})


@pytest.mark.django_db
def test_what_do_you_know_about_me_names_the_name_told_and_the_tastes(user):
    from memory.services import messages_write

    told = [
        ("Hi! I'm Tom, I just moved here", NOW - timedelta(days=3)),
        ("I'm so tired today", NOW - timedelta(days=1)),
        ("what's my name?", NOW - timedelta(hours=1)),
    ]
    messages_write(
        user=user,
        items=[{"ts": ts.isoformat(), "role": "user", "content": text} for text, ts in told],
    )
    ctx = RuntimeContext(
        user=user,
        chat_id="c1",
        message="what do you know about me?",
        persona=[_persona("food", "素食")],
    )
    assert compose_chat(ctx, []) == (
        'You told me your name on November 22, 2026: "I\'m Tom". Your tastes: vegetarian. '
        "Ask me about anything else you told me, too."
    )


@pytest.mark.django_db
def test_what_do_you_know_about_me_with_nothing_told_says_so_in_chinese(user):
    ctx = RuntimeContext(user=user, chat_id="c1", message="你都知道我什么")
    assert compose_chat(ctx, []).startswith("你还没跟我说过自己的事。")


@pytest.mark.parametrize("message", ["你对我了解多少", "关于我你记得什么", "What have I told you?"])
def test_questions_about_oneself_as_a_whole_are_read_as_such(message):
    from agent.offline_recall import ABOUT_ME_RE

    assert ABOUT_ME_RE.search(message)


@pytest.mark.django_db
def test_the_name_told_plainly_outranks_a_later_i_am_a_student(user):
    from agent.offline_recall import name_told
    from memory.services import messages_write

    told = [("我叫小王", NOW - timedelta(days=2)), ("我是学生", NOW - timedelta(days=1))]
    messages_write(
        user=user,
        items=[{"ts": ts.isoformat(), "role": "user", "content": text} for text, ts in told],
    )
    assert name_told(user)[0] == "我叫小王"


@pytest.mark.parametrize("message", ["你知道我多少岁吗", "你知道我什么时候有空吗"])
def test_a_question_about_one_fact_is_no_question_about_oneself_as_a_whole(message):
    from agent.offline_recall import ABOUT_ME_RE

    assert not ABOUT_ME_RE.search(message)

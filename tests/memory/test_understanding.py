"""Memory search reading past time phrases (``understand``, on by default): filter or rank."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from memory.understanding import by_closeness, read_time
from rag.understand import Window

LEX = "/v1/messages/lexical_search"
SEM = "/v1/messages/semantic_search"
HYB = "/v1/messages/hybrid_search"
SHANGHAI = ZoneInfo("Asia/Shanghai")
# A Thursday: 上周 is Monday 2025-06-30 to Monday 2025-07-07, 三月 is March 2025.
NOW = "2025-07-10T12:00:00+08:00"


# Relevance: these tests rank by meaning, so they need the real model (docs/DEVELOPING.md).
pytestmark = pytest.mark.real_model


def _ids(body):
    return [i["message_id"] for i in body["items"]]


@pytest.fixture
def dated(api_client, user, write):
    """Store five messages of ``user`` on dates months apart (embedded by the real model)."""
    items = [
        ("m1", "2025-03-05T19:00:00+08:00", "和小王去吃了海底捞火锅，排队两个小时"),
        ("m2", "2025-06-14T19:00:00+08:00", "又去吃了一次火锅，这次点了鸳鸯锅"),
        ("m3", "2025-07-01T09:00:00+08:00", "我家的猫豆豆生病了，带它去了医院"),
        ("m4", "2025-07-09T21:00:00+08:00", "看了一场电影，讲宇航员的故事"),
        ("m5", "2025-05-20T12:00:00+08:00", "I ate dumplings with Anna near the river"),
    ]
    write(
        api_client,
        user.username,
        [
            {"message_id": m, "ts": t, "role": "user", "content": c, "chat_id": "c1"}
            for m, t, c in items
        ],
        status=201,
    )
    return items


def _post(api_client, path, user, text, **extra):
    body = {"user_id": user.username, "query_text": text, "understand": True, "now": NOW}
    response = api_client.post(path, {**body, **extra}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_lexical_filters_to_the_month_named(api_client, user, dated):
    body = _post(api_client, LEX, user, "三月吃的火锅")
    assert _ids(body) == ["m1"]
    assert body["understood"]["phrase"] == "三月"
    assert body["understood"]["applied"] == "filter"
    assert body["understood"]["start"] == "2025-03-01T00:00:00+08:00"
    assert body["understood"]["end"] == "2025-04-01T00:00:00+08:00"


def test_understand_false_leaves_the_phrase_as_words(api_client, user, dated):
    response = api_client.post(
        LEX,
        {"user_id": user.username, "query_text": "三月吃的火锅", "understand": False},
        format="json",
    )
    body = response.json()
    assert set(_ids(body)) == {"m1", "m2"}
    assert body["understood"] is None


@pytest.mark.parametrize("path", [LEX, SEM, HYB])
def test_a_search_reads_the_phrase_unless_told_not_to(api_client, user, dated, path):
    # On by default (docs/memory.md, "Time phrases"): a request without the field reads 三月.
    body = {"user_id": user.username, "query_text": "三月吃的火锅", "now": NOW}
    read = api_client.post(path, body, format="json")
    assert read.status_code == 200, read.json()
    assert read.json()["understood"]["phrase"] == "三月"
    plain = api_client.post(path, {**body, "understand": False}, format="json")
    assert plain.status_code == 200, plain.json()
    assert plain.json()["understood"] is None


def test_an_english_date_with_its_year_is_that_day(api_client, user, dated):
    # "May 20, 2025" is one day of 2025, not "May 20" of some year with ", 2025" as words.
    # A year after the messages: without the year the window would be May 20, 2026.
    later = "2026-07-10T12:00:00+08:00"
    body = _post(api_client, HYB, user, "What did I eat on May 20, 2025?", top_k=5, now=later)
    assert _ids(body) == ["m5"]
    assert body["understood"]["phrase"] == "on May 20, 2025"
    assert body["understood"]["start"] == "2025-05-20T00:00:00+08:00"
    assert body["understood"]["end"] == "2025-05-21T00:00:00+08:00"


def test_hybrid_returns_only_last_weeks_messages(api_client, user, dated):
    body = _post(api_client, HYB, user, "上周说的猫", top_k=5)
    assert _ids(body) == ["m3"]
    assert body["understood"]["applied"] == "filter"
    assert body["understood"]["start"] == "2025-06-30T00:00:00+08:00"


def test_semantic_reads_an_english_phrase(api_client, user, dated):
    body = _post(api_client, SEM, user, "what did I eat last May", min_score=-1)
    assert _ids(body) == ["m5"]
    assert body["understood"]["phrase"].lower() == "last may"


def test_nothing_matching_in_the_window_ranks_by_closeness(api_client, user, dated):
    # No 火锅 in last week: both 火锅 messages come back, the nearer one (June) first.
    body = _post(api_client, LEX, user, "上周吃的火锅")
    assert _ids(body) == ["m2", "m1"]
    assert body["understood"]["applied"] == "rank"


def test_a_window_outside_the_time_range_is_not_applied(api_client, user, dated):
    flt = {"time_range": {"since": "2025-06-01T00:00:00+08:00"}}
    body = _post(api_client, LEX, user, "三月吃的火锅", filter=flt)
    assert _ids(body) == ["m2"]
    assert body["understood"]["applied"] == "none"


def test_the_time_zone_moves_the_window(api_client, user, dated):
    body = _post(api_client, LEX, user, "昨天的电影", time_zone="America/Los_Angeles")
    # 2025-07-10 12:00 in Shanghai is 2025-07-09 21:00 in Los Angeles: yesterday is the 8th.
    assert body["understood"]["start"] == "2025-07-08T00:00:00-07:00"
    assert body["understood"]["applied"] == "rank"


@pytest.mark.parametrize("zone", ["Mars/X", "Asia", "../etc/passwd", "UTC\x00"])
def test_an_unknown_time_zone_is_invalid(api_client, user, dated, zone):
    response = api_client.post(
        HYB,
        {"user_id": user.username, "query_text": "上周", "understand": True, "time_zone": zone},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_a_query_embedding_has_no_phrase_to_read(api_client, user, dated):
    from rag.embeddings import embed_query

    vector = embed_query("上周说的猫")
    response = api_client.post(
        SEM,
        {"user_id": user.username, "query_embedding": vector, "understand": True, "top_k": 5},
        format="json",
    )
    body = response.json()
    assert len(body["items"]) == 5
    assert body["understood"] is None


def test_lexical_pages_of_an_understood_query_follow_one_cursor(api_client, user, dated):
    first = _post(api_client, LEX, user, "上周吃的火锅", page_size=1)
    second = _post(api_client, LEX, user, "上周吃的火锅", page_size=1, cursor=first["next_cursor"])
    assert _ids(first) + _ids(second) == ["m2", "m1"]
    assert "next_cursor" not in second


@pytest.fixture
def worded(api_client, user, write, dated):
    """Add to ``dated`` turns naming a time as words: 昨天 with and without 火锅, and the
    phrase 上周五的会议 said on a day that is not last Friday (2025-07-04)."""
    items = [
        ("q1", "2025-04-02T19:00:00+08:00", "昨天吃的火锅太辣了"),
        ("q2", "2025-05-02T10:00:00+08:00", "上周五的会议改到下周一了"),
        ("q3", "2025-05-10T20:00:00+08:00", "昨天下雨了没出门"),
    ]
    write(
        api_client,
        user.username,
        [
            {"message_id": m, "ts": t, "role": "user", "content": c, "chat_id": "c2"}
            for m, t, c in items
        ],
        status=201,
    )


def _unasked(api_client, path, user, text, **extra):
    """Post a search that does not send ``understand`` (on by default)."""
    body = {"user_id": user.username, "query_text": text, "now": NOW, **extra}
    response = api_client.post(path, body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


# The time phrase is a word the query syntax asks for (docs/memory.md, "Time phrases"): with
# the default operator OR, "火锅 -昨天" is 火锅 without 昨天 (an exclusion narrows, as web search
# reads it: not q1, which says both), "火锅 OR 昨天" either word, the quoted phrase the turn
# saying it.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("火锅 -昨天", {"m1", "m2"}),
        ("火锅 OR 昨天", {"m1", "m2", "q1", "q3"}),
        ('"上周五的会议"', {"q2"}),
    ],
)
def test_a_time_phrase_the_query_syntax_asks_for_is_searched_as_words(
    api_client, user, worded, text, expected
):
    body = _unasked(api_client, LEX, user, text)
    assert body["understood"] is None
    assert set(_ids(body)) == expected
    plain = _unasked(api_client, LEX, user, text, understand=False)
    assert _ids(body) == _ids(plain)


@pytest.mark.parametrize("path", [SEM, HYB])
@pytest.mark.parametrize("text", ["火锅 -昨天", "火锅 OR 昨天", '"上周五的会议"'])
def test_no_search_reads_a_time_the_query_syntax_asks_for(api_client, user, worded, path, text):
    assert _unasked(api_client, path, user, text)["understood"] is None


def test_a_time_phrase_outside_the_query_syntax_is_still_read():
    now = datetime(2025, 7, 10, 12, tzinfo=SHANGHAI)
    either = read_time("昨天 火锅 OR 烧烤", tz=SHANGHAI, now=now)
    assert (either.phrase, either.rest) == ("昨天", "火锅 OR 烧烤")
    # The exclusion stays one: the rest is not stripped of its "-" (昨天 without 火锅).
    assert read_time("昨天 -火锅", tz=SHANGHAI, now=now).rest == "-火锅"
    assert read_time('"昨天的火锅" 上周', tz=SHANGHAI, now=now).rest == '"昨天的火锅"'
    # Lower-case or / and / not are words of a sentence, not operators.
    assert read_time("what did we eat yesterday or the day before", tz=SHANGHAI, now=now)


def test_a_lexical_cursor_without_a_time_phrase_is_the_cursor_of_understand_false(
    api_client, user, dated
):
    # A cursor issued before understanding was on by default, or under understand: false,
    # pages on in a request without the field, and the other way round.
    unasked = _unasked(api_client, LEX, user, "火锅", page_size=1)
    plain = _unasked(api_client, LEX, user, "火锅", page_size=1, understand=False)
    assert unasked["next_cursor"] == plain["next_cursor"]
    after_plain = _unasked(api_client, LEX, user, "火锅", page_size=1, cursor=plain["next_cursor"])
    after_unasked = _unasked(
        api_client, LEX, user, "火锅", page_size=1, understand=False, cursor=unasked["next_cursor"]
    )
    assert _ids(unasked) + _ids(after_plain) == _ids(plain) + _ids(after_unasked)
    assert len(set(_ids(unasked) + _ids(after_plain))) == 2


def test_a_lexical_cursor_of_a_time_phrase_read_stays_bound_to_it(api_client, user, dated):
    first = _unasked(api_client, LEX, user, "上周吃的火锅", page_size=1)
    assert first["understood"]["applied"] == "rank"
    response = api_client.post(
        LEX,
        {
            "user_id": user.username,
            "query_text": "上周吃的火锅",
            "understand": False,
            "page_size": 1,
            "cursor": first["next_cursor"],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"]["field"] == "cursor"


def test_read_time_ended_only_skips_a_window_reaching_now():
    now = datetime(2025, 7, 10, 12, tzinfo=SHANGHAI)
    assert read_time("今天想吃火锅", tz=SHANGHAI, now=now, ended_only=True) is None
    assert read_time("今天想吃火锅", tz=SHANGHAI, now=now).phrase == "今天"
    assert read_time("昨天吃的火锅", tz=SHANGHAI, now=now, ended_only=True).rest == "吃的火锅"


def test_by_closeness_puts_the_nearer_of_equal_scores_first():
    class Row:
        def __init__(self, ts):
            self.ts = ts

    class Hit:
        def __init__(self, ts, score):
            self.row, self.score = Row(ts), score

    window = Window(datetime(2025, 6, 1, tzinfo=UTC), datetime(2025, 6, 8, tzinfo=UTC))
    far = Hit(datetime(2025, 1, 1, tzinfo=UTC), 1.0)
    near = Hit(window.end + timedelta(days=1), 1.0)
    assert by_closeness([far, near], window, 1) == [near]


@pytest.mark.parametrize("text", ["我每天早上做什么锻炼", "下午犯困怎么办", "下班后一般做什么"])
def test_a_part_of_the_day_alone_tells_a_habit_not_a_time(text):
    now = datetime(2025, 7, 10, 21, tzinfo=SHANGHAI)
    assert read_time(text, tz=SHANGHAI, now=now) is None


def test_a_part_of_a_named_day_is_still_a_time():
    now = datetime(2025, 7, 10, 21, tzinfo=SHANGHAI)
    assert read_time("昨天晚上吃了什么", tz=SHANGHAI, now=now).phrase == "昨天晚上"
    asked = read_time("昨天下班后聊了什么", tz=SHANGHAI, now=now)
    assert asked.phrase == "昨天下班后"
    assert (asked.window.start.hour, asked.window.end.hour) == (18, 0)

"""What the API documentation says about each operation: tag, summary, description, examples.

One table, keyed by operation id, so the views keep only what describes their input and output
(serializers, status codes) and every operation's prose sits in one place. The schema hook
:func:`config.api_docs.document_operations` (a ``POSTPROCESSING_HOOKS`` entry) applies it: it
sets each operation's tag, fills its summary and description where the view gives none, puts
the example request body into ``requestBody`` and an example value on each path and query
parameter.

Every example is written to SUCCEED when sent, as it stands, by the documented user ``alice``
(a normal token: ``manage.py issue_token alice``) on a database with the demo data
(``manage.py load_demo``), in this order: the writes that create an object come before the
reads, updates and deletes of it. Integer ids in paths (``/api/activities/1/``) are examples
of the form: use an id the create operation answered. ``tests/platform/test_api_examples.py``
sends every example (creating the objects first and putting their ids in the paths) and
requires a 2xx answer.

The API's conventions (docs/users/rest-consumer.md, "Conventions"): JSON keys are snake_case,
except ``POST /rag/search``, whose request and response are camelCase (fixed by the seed's
issue; kept for its clients); date-times are RFC 3339 with an offset, sent with a time zone and
answered in the service's ``TIME_ZONE`` (Asia/Shanghai, +08:00) unless stored as sent.
"""

from __future__ import annotations

# --- Tags: the headings of ReDoc and Swagger UI (config.api_docs.API_TAGS) -------------------

ACTIVITIES, MEMORY, WRITING, AGENT, WEBHOOKS, ACCOUNT, HEALTH = (
    "Activities",
    "Memory",
    "Writing",
    "Agent",
    "Webhooks",
    "Account",
    "Health",
)

# --- Shared example values -------------------------------------------------------------------

USER = "alice"  # the documented user: the token's own username
CHAT = "trip-2026-05"  # a chat id the client chose (also valid as the agent's chat_id)
SHANGHAI = {"lat": 31.2304, "lng": 121.4737}  # People's Square, where most demo activities are
PAGE = {"limit": 20, "offset": 0}

BLOCKS = [
    {"content": "海外有一国，名曰傲来国。国近大海，海中有一座名山，唤为花果山。"},
    {"content": "那座山正当顶上，有一块仙石。一日迸裂，产一石卵，见风化作一个石猴。"},
]

MESSAGES = [
    {
        "message_id": "m1",
        "chat_id": CHAT,
        "ts": "2026-05-01T09:30:00+08:00",
        "role": "user",
        "content": "五一想去杭州玩两天，我不吃辣。",
    },
    {
        "message_id": "m2",
        "chat_id": CHAT,
        "ts": "2026-05-01T09:30:05+08:00",
        "role": "assistant",
        "content": "可以第一天逛西湖和灵隐寺，第二天去西溪湿地；餐厅都选清淡的杭帮菜。",
    },
    {
        "message_id": "m3",
        "chat_id": CHAT,
        "ts": "2026-05-01T09:31:00+08:00",
        "role": "user",
        "content": "好的，顺便帮我记一下：周日晚上要回上海。",
    },
]


def _op(tag, summary=None, description=None, *, body=None, examples=None, params=None):
    """Return one operation's entry.

    ``summary``, ``description``: left out where the view's ``@extend_schema`` gives them (the
    view's win); ``body``: one example request body; ``examples``: several, ``{summary: body}``;
    ``params``: ``{name: example}`` for path and query parameters.
    """
    if body is not None:
        examples = {"Example": body}
    return {
        "tag": tag,
        "summary": summary,
        "description": description,
        "examples": examples or {},
        "params": params or {},
    }


OPERATIONS: dict[str, dict] = {
    # --- Activities ------------------------------------------------------------------------
    "rag_search": _op(
        ACTIVITIES,
        "Search activities in natural language",
        examples={
            "A query in Chinese": {"semanticQuery": "玩水", "limit": 5},
            "Near a place, in the user's time zone": {
                "semanticQuery": "周末适合社恐的安静活动",
                "filters": {"location": {**SHANGHAI, "radiusInKm": 10}},
                "limit": 5,
                "timeZone": "Asia/Shanghai",
            },
            "Hard filters only": {
                "filters": {
                    "type": "户外",
                    "timeRange": {
                        "start": "2026-12-01T00:00:00+08:00",
                        "end": "2026-12-31T00:00:00+08:00",
                    },
                },
                "limit": 10,
            },
        },
    ),
    "activities_list": _op(
        ACTIVITIES,
        "List activities",
        "Activities by start time, paged with `limit` (1-200) and `offset`; `count` is the "
        "total. Filter by `type` and `status`.",
        params={"status": "active", **PAGE},
    ),
    "activities_create": _op(
        ACTIVITIES,
        "Create an activity",
        "Create an activity owned by the caller. It is embedded in the background "
        "(`index_state` pending, then indexed) and becomes searchable then. `start_at` and "
        "`end_at` are RFC 3339 with a time zone.",
        body={
            "title": "周六下午桌游局",
            "description": "几个人一起玩卡坦岛，新手友好，安静不吵。",
            "type": "桌游",
            "tags": ["桌游", "室内"],
            "start_at": "2027-01-09T14:00:00+08:00",
            "end_at": "2027-01-09T17:00:00+08:00",
            "location": SHANGHAI,
            "location_name": "人民广场",
            "max_participants": 6,
        },
    ),
    "activities_retrieve": _op(
        ACTIVITIES,
        "Get one activity",
        "One activity with its indexing state. Any active activity is visible; a hidden one "
        "only to its creator and staff.",
        params={"activity_id": 1},
    ),
    "activities_partial_update": _op(
        ACTIVITIES,
        "Change an activity",
        "Change some fields of an activity you created (staff: any). A changed text is "
        "embedded again in the background.",
        body={"description": "卡坦岛和璀璨宝石，新手友好，提供饮料。", "max_participants": 8},
        params={"activity_id": 1},
    ),
    "activities_destroy": _op(
        ACTIVITIES,
        "Delete an activity",
        "Delete an activity you created (staff: any), with its participations.",
        params={"activity_id": 1},
    ),
    "activities_join": _op(
        ACTIVITIES,
        "Join an activity",
        "Join an active activity that has not started and is not full; no body (or `{}`). "
        "Joining twice answers 409 CONFLICT. What you join shapes your personalised search.",
        params={"activity_id": 1},
    ),
    "activities_leave": _op(
        ACTIVITIES,
        description="Cancel your participation in an activity that has not started yet.",
        params={"activity_id": 1},
    ),
    "activities_feedback": _op(
        ACTIVITIES,
        "Rate a joined activity",
        "Rate an activity you joined: 1 (liked), 0 (neutral) or -1 (disliked). Ratings "
        "steer your personalised search.",
        body={"rating": 1},
        params={"activity_id": 1},
    ),
    # --- Memory: messages and search ---------------------------------------------------------
    "memory_messages_write": _op(
        MEMORY,
        "Write chat messages",
        "Store 1 to 500 messages of one or more chats, atomically. `ts` is RFC 3339 with a "
        "time zone; `role` is user, assistant or system; `chat_id` is any id the client "
        "chooses (default `default`); `message_id` (1-100 characters of `A-Z a-z 0-9 _ . : -`, "
        "generated when absent) makes the write idempotent: the same id with the same content "
        "is `unchanged` (200 when nothing was created), with other content 409. Each message "
        "is searchable by keyword at once and by meaning once embedded (`embed_state`). "
        "`speaker` (optional, up to 100 characters) names who said the turn: in a conversation "
        "between people, hybrid search ranks first the turns of a speaker the question names.",
        examples={
            "A chat with the assistant": {"items": MESSAGES},
            "A conversation between people, each turn's speaker named": {
                "items": [
                    {
                        "message_id": "d1",
                        "chat_id": "family",
                        "ts": "2026-05-02T20:00:00+08:00",
                        "role": "user",
                        "speaker": "小雨",
                        "content": "周末我去学陶艺了，做了一个碗。",
                    },
                    {
                        "message_id": "d2",
                        "chat_id": "family",
                        "ts": "2026-05-02T20:01:00+08:00",
                        "role": "user",
                        "speaker": "妈妈",
                        "content": "真厉害！我下周要去苏州出差。",
                    },
                ]
            },
        },
        params={"user_id": USER},
    ),
    "memory_messages_list": _op(
        MEMORY,
        "List chat messages by time",
        "A user's messages in time order, filtered by chat, role, kind and an RFC 3339 "
        "`since`/`until` window, paged with `page_size` and `next_cursor`.",
        params={"user_id": USER, "chat_id": CHAT, "page_size": 50},
    ),
    "memory_messages_neighbors": _op(
        MEMORY,
        "Read the messages around one message",
        "Up to `before` messages before and `after` messages after the given one, in its "
        "chat, in time order (the message itself included).",
        params={"user_id": USER, "message_id": "m2", "before": 5, "after": 5},
    ),
    "memory_chat_context": _op(
        MEMORY,
        "Build a chat's context for a prompt",
        "The chat's latest summary and the messages after it, newest kept first, within "
        "`budget` characters (`truncated` when some did not fit).",
        params={"user_id": USER, "chat_id": CHAT, "budget": 4000},
    ),
    "memory_lexical_search": _op(
        MEMORY,
        "Search messages by keyword",
        'Full-text search with the rag query syntax (`"不吃辣" AND 火锅`, OR, NOT, -x), with '
        "highlights and scores, paged with `next_cursor`. `user_id` may be left out: the "
        "server binds the caller (a service token names the user). A past time phrase in the "
        "query (上周, yesterday) filters or ranks by its window (`understood` says which); "
        "`understand: false` searches it as words.",
        body={
            "user_id": USER,
            "query_text": "杭州 OR 西湖",
            "filter": {"chat_id": CHAT},
            "page_size": 10,
        },
    ),
    "memory_semantic_search": _op(
        MEMORY,
        "Search messages by meaning",
        "Nearest messages to `query_text` (or to a `query_embedding` of the model's "
        "dimension; send exactly one), cut by a relevance floor (`min_score`, or the "
        "calibrated cut). `user_id` may be left out: the server binds the caller (a "
        "service token names the user). A past time phrase in `query_text` (上周, yesterday) "
        "filters or ranks by its window (`understood` says which); `understand: false` "
        "searches it as words. If the text cannot be embedded in time the answer is the "
        "lexical matches, `degraded: true`.",
        body={"query_text": "旅行时的饮食忌口", "top_k": 5},
    ),
    "memory_hybrid_search": _op(
        MEMORY,
        "Search messages by keyword and meaning",
        "Lexical and semantic passes fused by rank. A question about one day (5月2日我们聊了什么, "
        "what did we talk about yesterday) is answered with that day's messages in time order "
        "(`read_as: range`). Another past time phrase (上周, 五一, last May) filters or ranks by "
        "its window (`understood` says which); `understand: false` searches it as words. "
        "`user_id` may be left out: the server binds the caller (a service token names the "
        "user).",
        examples={
            "A time phrase read (五一: the last May Day)": {
                "query_text": "五一去哪里玩",
                "top_k": 5,
                "time_zone": "Asia/Shanghai",
            },
            "The same words, no time read": {
                "query_text": "五一去哪里玩",
                "top_k": 5,
                "understand": False,
            },
        },
    ),
    "memory_message_update": _op(
        MEMORY,
        "Correct a message",
        body={"content": "五一想去杭州玩两天，我不吃辣，也不吃香菜。"},
        params={"user_id": USER, "message_id": "m1"},
    ),
    "memory_message_delete": _op(
        MEMORY, "Delete a message", params={"user_id": USER, "message_id": "m3"}
    ),
    # --- Memory: persona and shared contexts ------------------------------------------------
    "memory_preferences_upsert": _op(
        MEMORY,
        "State a preference",
        "Save a preference in a category (201 when new, 200 when it was already in force). "
        "A preference that contradicts one in force replaces it (`superseded_by`).",
        body={"category": "food", "value": "不吃辣"},
        params={"user_id": USER},
    ),
    "memory_preferences_list": _op(
        MEMORY, "List preferences", params={"user_id": USER, "history": True}
    ),
    "memory_preference_update": _op(
        MEMORY,
        "Correct a preference",
        body={"value": "微辣可以"},
        params={"user_id": USER, "preference_id": 1},
    ),
    "memory_preference_delete": _op(
        MEMORY,
        "Delete a preference",
        "Delete one preference (audited).",
        params={"user_id": USER, "preference_id": 1},
    ),
    "memory_feedback_create": _op(
        MEMORY,
        "Rate an answer",
        "Rate one of the user's messages (typically an assistant answer): 1, 0 or -1, with an "
        "optional comment. The message must exist (write it first).",
        body={"target_message_id": "m2", "rating": 1, "comment": "行程很实用"},
        params={"user_id": USER},
    ),
    "feedback_rate": _op(MEMORY),
    "feedback_list": _op(MEMORY, params={"page_size": 20}),
    "memory_contexts_list": _op(MEMORY, params={"page_size": 20}),
    "memory_context_create": _op(
        MEMORY,
        "Create a shared context",
        "A context several agents append to (a trip plan, a task): a title and a first entry "
        "written by `agent_name`. Owned by the caller (a staff token may name `user_id`).",
        body={
            "title": "五一杭州行程",
            "entry": "5月1日-2日，两人，预算2000元，不吃辣。",
            "agent_name": "planner",
        },
    ),
    "memory_context_get": _op(
        MEMORY,
        "Read a shared context",
        "A shared context with all its entries, oldest first.",
        params={"context_id": 1},
    ),
    "memory_context_append": _op(
        MEMORY,
        "Append to a shared context",
        "Add an entry written by `agent_name`; answers the whole context.",
        body={"agent_name": "booking", "content": "已订西湖边酒店，5月1日入住。"},
        params={"context_id": 1},
    ),
    "memory_context_entry_update": _op(
        MEMORY,
        "Correct a shared-context entry",
        body={"content": "5月1日-2日，两人，预算2500元，不吃辣。"},
        params={"context_id": 1, "entry_id": 1},
    ),
    "memory_context_entry_delete": _op(
        MEMORY,
        "Delete a shared-context entry",
        "Delete one entry of a shared context (its owner, or staff).",
        params={"context_id": 1, "entry_id": 1},
    ),
    # --- Account ----------------------------------------------------------------------------
    "memory_user_export": _op(ACCOUNT, "Export a user's data", params={"user_id": USER}),
    "memory_user_delete": _op(
        ACCOUNT,
        "Erase a user's data",
        "Erase everything the service holds about the user in every app (messages, books and "
        "their chunks, activities, preferences, agent events, webhooks, ...) and answer the "
        "count per kind. Irreversible; a normal token may erase only itself.",
        params={"user_id": USER},
    ),
    "tokens_create": _op(
        ACCOUNT, "Issue an API token", body={"name": "laptop", "expires_in_days": 90}
    ),
    "tokens_list": _op(ACCOUNT, "List API tokens"),
    "tokens_rotate": _op(ACCOUNT, "Rotate an API token", params={"token_id": 1}),
    "tokens_revoke": _op(ACCOUNT, "Revoke an API token", params={"token_id": 1}),
    "health": _op(
        HEALTH,
        description="503 only when the database is down; 200 with `status: degraded` while the "
        "embedding provider fails or a queue's worker has not been seen for 5 minutes (searches "
        "still answer, degraded). No token needed.",
    ),
    # --- Writing ----------------------------------------------------------------------------
    "writing_book_create": _op(
        WRITING,
        "Create a book",
        "Create an empty book owned by the caller; add chapters with `POST /api/chapters/`.",
        body={"title": "西游记"},
    ),
    "writing_book_list": _op(WRITING, params=dict(PAGE)),
    "writing_book_get": _op(WRITING, params={"book_id": 1}),
    "writing_book_delete": _op(
        WRITING,
        "Delete a book",
        "Delete one of your books with its chapters, blocks and chunks.",
        params={"book_id": 1},
    ),
    "writing_book_chapter_list": _op(WRITING, params={"book_id": 1, "limit": 50, "offset": 0}),
    "writing_chapter_create": _op(
        WRITING,
        "Add a chapter",
        "Add a chapter of story blocks (paragraphs) to one of your books (`book`: its id). "
        "It is chunked in the background: `chunk_state` pending, then ready (searchable).",
        body={"book": 1, "title": "第一回 灵根育孕源流出", "sequence": 1, "blocks": BLOCKS},
    ),
    "writing_chapter_get": _op(
        WRITING,
        "Read a chapter",
        "A chapter with its blocks, version and chunking state.",
        params={"chapter_id": 1},
    ),
    "writing_chapter_save": _op(
        WRITING,
        "Save a chapter",
        "Replace a chapter's blocks (and optionally its title, sequence): unchanged blocks "
        "keep their chunks, changed ones are chunked again.",
        body={
            "title": "第一回 灵根育孕源流出　心性修持大道生",
            "blocks": [*BLOCKS, {"content": "那猴在山中，却会行走跳跃，食草木，饮涧泉。"}],
        },
        params={"chapter_id": 1},
    ),
    "writing_chapter_delete": _op(
        WRITING,
        "Delete a chapter",
        "Delete a chapter with its blocks and chunks.",
        params={"chapter_id": 1},
    ),
    "writing_chapter_autosave": _op(
        WRITING,
        "Autosave edited blocks",
        "Save the blocks being edited, each by `id` or `position` (its index); chunking waits "
        "until the writer pauses (debounced).",
        body={"blocks": [{"position": 0, "content": "东胜神洲海外有一国，名曰傲来国。"}]},
        params={"chapter_id": 1},
    ),
    "writing_search": _op(
        WRITING,
        "Search your books",
        "Search small children by meaning, return a window of their parent around the best "
        "one (`text`). Narrow with `book` or `chapters` (ids); `order`: relevance or reading "
        "order. Degraded (full text) when the query cannot be embedded in time.",
        body={"query": "石猴出世", "top_k": 5},
    ),
    # --- Agent ------------------------------------------------------------------------------
    "agent_chat": _op(
        AGENT,
        "Chat with the agent",
        body={
            "message": "这周末有什么适合带孩子的户外活动？",
            "chat_id": CHAT,
            "location": SHANGHAI,
        },
    ),
    "agent_chat_stream": _op(
        AGENT,
        "Chat with the agent (server-sent events)",
        body={"message": "我喜欢安静的活动，周五晚上有什么推荐？", "chat_id": CHAT},
    ),
    "agent_user_events": _op(
        AGENT, "List proactive events", params={"user_id": USER, "unread": True, "limit": 20}
    ),
    "agent_user_events_stream": _op(
        AGENT, "Follow proactive events (server-sent events)", params={"user_id": USER, "wait": 0}
    ),
    "agent_user_event_read": _op(
        AGENT, "Mark an event read", params={"user_id": USER, "event_id": 1}
    ),
    # --- Webhooks ---------------------------------------------------------------------------
    "agent_webhooks_list": _op(WEBHOOKS, "List webhooks", params={"user_id": USER}),
    "agent_webhooks_create": _op(
        WEBHOOKS,
        "Register a webhook",
        body={
            "url": "https://example.com/hooks/semantic-memory",
            "kinds": ["daily_digest", "deadline_reminder"],
        },
        params={"user_id": USER},
    ),
    "agent_webhooks_update": _op(WEBHOOKS, params={"user_id": USER, "webhook_id": 1}),
    "agent_webhooks_delete": _op(
        WEBHOOKS, "Delete a webhook", params={"user_id": USER, "webhook_id": 1}
    ),
    "agent_webhook_deliveries": _op(
        WEBHOOKS, "List a webhook's deliveries", params={"user_id": USER, "webhook_id": 1}
    ),
}

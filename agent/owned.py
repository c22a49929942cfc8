"""Which of the user's own activities a change names ("move my potluck to 7pm", 把羽毛球局改到晚上
7点), or points at when the chat is about one ("move it to 8pm" right after publishing it): read
by the CREATE planner (agent/offline_plans.py) and its answer (agent/offline.py)."""

from __future__ import annotations

import re

from activities.models import ActivityStatus
from activities.selectors import activities_of_user
from agent import extract
from agent.context import RuntimeContext
from agent.naming import named_matches
from agent.tools import activity_shape

# The activity the chat is about, pointed at ("move it to 8pm", 把它改到周日).
_IT_RE = re.compile(r"\b(?:it|this|that)\b|它|这个|那个", re.IGNORECASE)


def own_activity_named(ctx: RuntimeContext) -> tuple[str, dict | None]:
    """Return which of the user's activities from today on the message names by its words, or
    points at when the chat is about one the user organises (a change naming none otherwise is
    the chat's draft's): ("one", it) for one the user organises, ("several", None) when more
    than one holds them, ("joined", it) for one only joined (someone else's to change), else
    ("none", None)."""
    rows, _ = activities_of_user(
        user=ctx.user,
        scope="all",
        start=extract.start_of_today(),
    )
    live = [
        {**activity_shape(a), "mine": a.creator_id == ctx.user.pk}
        for a in rows
        if a.status != ActivityStatus.CANCELLED
    ]
    words, matching = named_matches(ctx.message, live)
    if not words or not matching:
        # "move it to 8pm" right after publishing it: the one the chat is about, when it is the
        # user's own (it drafted a new activity titled "Move it": a make-run look, session 54).
        focused = [a for a in live if a["id"] == ctx.focus and a["mine"]]
        if focused and (not words or _IT_RE.search(ctx.message)):
            return "one", focused[0]
        return "none", None
    own = [a for a in matching if a["mine"]]
    if len(own) > 1:
        return "several", None
    if own:
        return "one", own[0]
    return "joined", matching[0]

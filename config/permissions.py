"""Who may act for other users: one rule for every app (the apps never import each other).

Acting for another user (reading, writing, exporting or erasing their data) takes the Django
permission ``memory.act_for_any_user`` (created by memory's migrations, granted by
``manage.py issue_token NAME --staff``), not ``is_staff``: staff who only use the admin cannot
act for others through the API (docs/SECURITY.md, "Roles").
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

ACT_FOR_ANY_USER = "memory.act_for_any_user"


def acts_for_any_user(user) -> bool:
    """Return whether ``user`` may read and change any user's data (not only its own)."""
    return bool(user and user.is_active and user.has_perm(ACT_FOR_ANY_USER))


def normalized_user_name(name: str) -> str:
    """Return the form a user name is stored and looked up in (one rule for every entry point).

    The user model's ``normalize_username`` (NFKC: "ﬁ" -> "fi"), as ``create_user`` stores it:
    the API's ``user_id``, ``manage.py issue_token NAME`` and the MCP tools all name the same
    user by the same spelling.
    """
    return get_user_model().normalize_username(name)

"""Who may act for other users: one rule for every app (the apps never import each other).

Acting for another user (reading, writing, exporting or erasing their data) takes the Django
permission ``memory.act_for_any_user`` (created by memory's migrations, granted by
``manage.py issue_token NAME --staff``), not ``is_staff``: staff who only use the admin cannot
act for others through the API (docs/SECURITY.md, "Roles").
"""

from __future__ import annotations

ACT_FOR_ANY_USER = "memory.act_for_any_user"


def acts_for_any_user(user) -> bool:
    """Return whether ``user`` may read and change any user's data (not only its own)."""
    return bool(user and user.is_active and user.has_perm(ACT_FOR_ANY_USER))

"""Create the fuzz suite's accounts in the fuzz server's database (``manage.py shell``).

Run as ``manage.py shell -c "from tests.fuzz.seed import main; main()"``: creates two normal
users and a staff user with API tokens, and one proactive event per normal user (events have
no write endpoint), then prints ``{username: {"token", "staff"}}`` as JSON on the last line.
Everything else the suite needs is written through the API (:mod:`tests.fuzz.world`).
"""

from __future__ import annotations

import json

USERS = {"fuzz-alice": False, "fuzz-bob": False, "fuzz-staff": True}
MARKERS = {"fuzz-alice": "amaryllis7341", "fuzz-bob": "bergamot5520", "fuzz-staff": "staff0000"}


def main() -> None:
    """Create the users, their tokens and events; print them as JSON."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from rest_framework.authtoken.models import Token

    from agent.models import SystemEvent

    out = {}
    for username, staff in USERS.items():
        user, _ = get_user_model().objects.get_or_create(username=username, is_staff=staff)
        if staff:  # a service user, as ``issue_token --staff`` makes
            user.user_permissions.add(Permission.objects.get(codename="act_for_any_user"))
        token, _ = Token.objects.get_or_create(user=user)
        if not staff:
            SystemEvent.objects.get_or_create(
                user=user,
                kind="daily_digest",
                period_key="2026-11-23",
                defaults={"payload": {"text": f"digest {MARKERS[username]}"}},
            )
        out[username] = {"token": token.key, "staff": staff}
    print(json.dumps(out))

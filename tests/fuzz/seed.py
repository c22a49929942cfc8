"""Create the fuzz suite's accounts in the fuzz server's database (``manage.py shell``).

:func:`create` makes two normal users and a staff user with API tokens, and one proactive event
per normal user (events have no write endpoint); it is idempotent. Run as
``manage.py shell -c "from tests.fuzz.seed import main; main()"`` it prints
``{username: {"token", "staff", "created"}}`` as JSON on the last line. The suite runs
:func:`serve` instead, one process for the session: a fuzzed erasure (``DELETE
/v1/users/{user_id}``) deletes an account with its token, and the world puts it back through
this process with the same token key (:meth:`tests.fuzz.world.World.restore_accounts`).
Everything else the suite needs is written through the API (:mod:`tests.fuzz.world`).
"""

from __future__ import annotations

import json
import sys

USERS = {"fuzz-alice": False, "fuzz-bob": False, "fuzz-staff": True}
MARKERS = {"fuzz-alice": "amaryllis7341", "fuzz-bob": "bergamot5520", "fuzz-staff": "staff0000"}


def create(keys: dict[str, str] | None = None) -> dict:
    """Create whatever of the users, their tokens and events is missing; return the accounts.

    ``keys`` (username -> token key) gives a token created again the key it had, so the
    suite's credentials stay valid (a revoked one is made valid again). Each account says
    whether its user was created now.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from agent.models import SystemEvent
    from config.models import ApiToken
    from config.selectors import token_digest
    from config.services import token_issue

    out = {}
    for username, staff in USERS.items():
        user, created = get_user_model().objects.get_or_create(username=username, is_staff=staff)
        if staff:  # a service user, as ``issue_token --staff`` makes
            user.user_permissions.add(Permission.objects.get(codename="act_for_any_user"))
        key = (keys or {}).get(username)
        # A key the fuzzer revoked or rotated away is made valid again; a deleted one re-issued.
        kept = key and ApiToken.objects.filter(user=user, digest=token_digest(key)).update(
            revoked_at=None, expires_at=None
        )
        if not kept:
            key = token_issue(user=user, name=f"fuzz {MARKERS[username]}", key=key).key
        if not staff:
            SystemEvent.objects.get_or_create(
                user=user,
                kind="daily_digest",
                period_key="2026-11-23",
                defaults={"payload": {"text": f"digest {MARKERS[username]}"}},
            )
        out[username] = {"token": key, "staff": staff, "created": created}
    return out


def main() -> None:
    """Create the users, their tokens and events; print them as JSON."""
    print(json.dumps(create()))


def serve() -> None:
    """For each line of stdin (JSON: null or the token keys), run :func:`create`; print its
    answer as one JSON line. Ends when stdin closes."""
    for line in sys.stdin:
        print(json.dumps(create(json.loads(line))), flush=True)

"""Rows a whole test module shares: made once before its first test, rolled back after its last.

:func:`module_transaction` opens a transaction around a module: the module's rows are written in
it, and each test's own transaction (pytest-django's ``db``, a ``django.test.TestCase``) nests in
it as a savepoint, so what a test writes is still rolled back after the test, and the shared rows
after the module; nothing is committed. Only for modules whose tests all use ``db`` (a
``transactional_db`` test would commit the shared rows) and change the shared rows only in their
own transaction. :func:`create_user` is the user ``make_user`` (tests/conftest.py) creates.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from config.services import token_issue


def create_user(username: str = "alice", *, staff: bool = False, act_for_any_user=None):
    """Create a user (optionally staff) with an API token, its key as ``user.api_key``.

    A staff user is a service user unless ``act_for_any_user=False``: it holds the
    ``memory.act_for_any_user`` permission, as ``manage.py issue_token NAME --staff`` grants.
    """
    user = get_user_model().objects.create_user(
        username=username, password="pw-" + username, is_staff=staff
    )
    if staff if act_for_any_user is None else act_for_any_user:
        user.user_permissions.add(
            Permission.objects.get(codename="act_for_any_user", content_type__app_label="memory")
        )
    user.api_key = token_issue(user=user, name="test").key
    return user


@contextmanager
def module_transaction(django_db_blocker) -> Iterator[None]:
    """Open a transaction for a module's shared rows; roll it back when the block ends.

    Write the rows in the block under ``django_db_blocker.unblock()``: between the two, the
    database stays blocked, so a test of the module still needs ``db`` to reach it.
    """
    atomic = transaction.atomic()
    with django_db_blocker.unblock():
        atomic.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)

"""Resolve the ``user_id`` a request names against the authenticated user.

``user_id`` is the user's external identifier (the username). A normal user may act only as
itself: naming anybody else answers NOT_FOUND, exactly as for a user that does not exist, so
the answer reveals nothing. A login holding the ``memory.act_for_any_user`` permission (the
service token ``manage.py issue_token NAME --staff`` makes) may act for any user; for writes an
unknown ``user_id`` creates that user (with an unusable password), for reads it is NOT_FOUND.
Staff without the permission (an admin's session) may view the admin, not act for others: naming
another user answers PERMISSION_DENIED.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from config.errors import InvalidArgument, NotFound, PermissionDenied
from config.permissions import acts_for_any_user, normalized_user_name

MAX_USER_ID_LENGTH = 150


def _not_found() -> NotFound:
    return NotFound(gettext("No such user."))


def resolve_user(request_user, user_id, *, create: bool = False):
    """Return the user named by ``user_id`` if ``request_user`` may act for it.

    With ``create=True`` call this inside the same ``transaction.atomic()`` as the write it
    serves, so a write that is then rejected (INVALID_ARGUMENT, CONFLICT, NOT_FOUND) rolls the
    new user back with it.
    """
    if not isinstance(user_id, str) or not user_id.strip():
        raise InvalidArgument(gettext("user_id is required."), details={"field": "user_id"})
    if len(user_id) > MAX_USER_ID_LENGTH:
        raise InvalidArgument(gettext("user_id is too long."), details={"field": "user_id"})
    model = get_user_model()
    # create_user stores the NFKC form ("ﬁ" -> "fi"): look up that same form, or an id naming an
    # existing user only after normalisation is not found, then collides on create.
    user_id = normalized_user_name(user_id)
    if request_user.get_username() == user_id:
        return request_user
    if not acts_for_any_user(request_user):
        if request_user.is_staff:
            raise PermissionDenied(
                gettext(
                    "Acting for another user needs the act_for_any_user permission, not only staff."
                )
            )
        raise _not_found()
    found = model._default_manager.filter(**{model.USERNAME_FIELD: user_id}).first()
    if found is not None:
        return found
    if not create:
        raise _not_found()
    try:
        # Savepoint: a concurrent request may create the same user first.
        with transaction.atomic():
            return model._default_manager.create_user(**{model.USERNAME_FIELD: user_id})
    except IntegrityError:
        return model._default_manager.get(**{model.USERNAME_FIELD: user_id})

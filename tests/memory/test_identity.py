"""``resolve_user``: ids are compared in the normalised form the user model stores."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


@pytest.mark.django_db
def test_a_staff_write_for_an_id_that_normalises_to_an_existing_user_reaches_that_user(
    staff_client,
):
    # "ﬁnn" (U+FB01) is stored as "finn" by create_user (NFKC).
    first = staff_client.post(
        "/v1/users/ﬁnn/preferences", {"category": "food", "value": "tea"}, format="json"
    )
    again = staff_client.post(
        "/v1/users/ﬁnn/preferences", {"category": "food", "value": "coffee"}, format="json"
    )
    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert list(
        get_user_model().objects.filter(username__startswith="f").values_list("username", flat=True)
    ) == ["finn"]


@pytest.mark.django_db
def test_a_user_naming_itself_in_another_normal_form_is_itself(make_user):
    from memory.identity import resolve_user

    finn = make_user("finn")
    assert resolve_user(finn, "ﬁnn") == finn

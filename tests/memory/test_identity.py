"""``resolve_user``: ids are compared in the normalised form the user model stores."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.memory.memory_helpers import ts


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


@pytest.mark.django_db
@pytest.mark.parametrize("operation", ["lexical_search", "semantic_search", "hybrid_search"])
def test_a_search_without_user_id_searches_the_callers_own_memory(
    api_client, user, write, operation
):
    # Seed 003: the server binds the user of a normal token; the body need not name it.
    item = {"message_id": "m1", "ts": ts(0), "role": "user", "content": "我的橘猫叫年糕"}
    write(api_client, user.username, [{**item, "chat_id": "c1"}], status=201)
    response = api_client.post(f"/v1/messages/{operation}", {"query_text": "年糕"}, format="json")
    assert response.status_code == 200, response.content
    assert [i["message_id"] for i in response.json()["items"]][:1] == ["m1"]

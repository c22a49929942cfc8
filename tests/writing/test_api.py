"""REST endpoints, staff pages and the OpenAPI schema of the writing app."""

from __future__ import annotations

import pytest

from writing.models import Chapter, ChildChunk, StoryBlock
from writing.services import book_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_chapter(api_client, blocks, small_chunks, django_capture_on_commit_callbacks):
    """A chapter created through the API (chunked on commit); return its JSON."""
    book = api_client.post("/api/books/", {"title": "API 之书"}, format="json")
    assert book.status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        resp = api_client.post(
            "/api/chapters/",
            {
                "book": book.json()["id"],
                "title": "第一回",
                "sequence": 1,
                "blocks": [{"content": c} for c in blocks],
            },
            format="json",
        )
    assert resp.status_code == 201, resp.json()
    return resp.json()


def test_create_get_chapter(api_client, api_chapter, blocks):
    body = api_client.get(f"/api/chapters/{api_chapter['id']}/").json()
    assert body["chunk_state"] == "ready"
    assert [b["content"] for b in body["blocks"]] == blocks
    assert all(b["child_count"] >= 1 and not b["is_dirty"] for b in body["blocks"])


def test_put_and_autosave(api_client, api_chapter, blocks, django_capture_on_commit_callbacks):
    url = f"/api/chapters/{api_chapter['id']}/"
    edited = [*blocks[:3], "新的最后一段：师徒四人终于到达灵山，拜见如来佛祖取得真经。"]
    with django_capture_on_commit_callbacks(execute=True):
        resp = api_client.put(
            url,
            {
                "book": api_chapter["book"],
                "title": "第一回",
                "sequence": 1,
                "blocks": [{"content": c} for c in edited],
            },
            format="json",
        )
    assert resp.status_code == 200
    assert resp.json()["chunk_state"] == "pending"  # answered before chunking ran
    assert api_client.get(url).json()["chunk_state"] == "ready"
    block_id = resp.json()["blocks"][0]["id"]
    resp = api_client.patch(
        url + "autosave", {"blocks": [{"id": block_id, "content": "草稿。"}]}, format="json"
    )
    assert resp.status_code == 200
    body = resp.json()
    assert body["chunk_state"] == "pending" and body["blocks"][0]["is_dirty"]
    bad = api_client.patch(url + "autosave", {"blocks": [{"content": "x"}]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_search_endpoint(api_client, api_chapter):
    resp = api_client.post(
        "/api/writing/search",
        {"query": "沙和尚挑行李", "book": api_chapter["book"], "top_k": 2, "order": "story"},
        format="json",
    )
    assert resp.status_code == 200, resp.json()
    results = resp.json()["results"]
    assert 1 <= len(results) <= 2
    assert set(results[0]) >= {
        "parent_id",
        "chapter_id",
        "blocks",
        "text",
        "text_start",
        "text_end",
        "children",
        "raw_score",
        "score",
    }
    empty = api_client.post("/api/writing/search", {"query": ""}, format="json")
    assert empty.status_code == 400


def test_other_user_gets_not_found(other_client, api_chapter):
    chapter_url = f"/api/chapters/{api_chapter['id']}/"
    for resp in (
        other_client.get(chapter_url),
        other_client.delete(chapter_url),
        other_client.delete(f"/api/books/{api_chapter['book']}/"),
        other_client.post(
            "/api/writing/search", {"query": "悟空", "book": api_chapter["book"]}, format="json"
        ),
        other_client.post(
            "/api/chapters/",
            {"book": api_chapter["book"], "title": "x", "sequence": 2, "blocks": []},
            format="json",
        ),
    ):
        assert resp.status_code == 404 and resp.json()["error"]["code"] == "NOT_FOUND"


def test_staff_can_read_any_chapter(staff_client, api_chapter):
    assert staff_client.get(f"/api/chapters/{api_chapter['id']}/").status_code == 200


def test_anonymous_rejected(anon_client):
    assert anon_client.post("/api/books/", {"title": "x"}, format="json").status_code == 401


def test_delete_cascades(api_client, api_chapter):
    assert api_client.delete(f"/api/chapters/{api_chapter['id']}/").status_code == 204
    assert not StoryBlock.objects.exists() and not ChildChunk.objects.exists()
    assert api_client.delete(f"/api/books/{api_chapter['book']}/").status_code == 204


def test_staff_pages(client, staff_user, api_chapter, make_chapter, blocks):
    assert client.get("/staff/writing/").status_code == 302  # login required
    client.force_login(staff_user)
    assert "第一回" in client.get("/staff/writing/").content.decode()
    page = client.get(f"/staff/writing/chapters/{api_chapter['id']}/").content.decode()
    # Each block is one parent too short for two children: its sentences were not compared.
    assert "<svg" in page and "not compared" in page and "Parent" in page
    longer = make_chapter(["".join(blocks[:2])], sequence=2)  # room for two children
    page = client.get(f"/staff/writing/chapters/{longer.pk}/").content.decode()
    assert "polyline" in page
    found = client.get(f"/staff/writing/books/{api_chapter['book']}/search/", {"q": "猪八戒"})
    assert found.status_code == 200 and "raw" in found.content.decode()


def test_staff_search_page_refuses_an_over_long_query(client, staff_user, settings):
    from writing.models import Book

    book = Book.objects.create(owner=staff_user, title="书")
    settings.RAG_QUERY_MAX_CHARS = 10
    client.force_login(staff_user)
    page = client.get(f"/staff/writing/books/{book.pk}/search/", {"q": "猪" * 11})
    assert page.status_code == 200
    assert "longer than 10 characters" in page.content.decode()
    assert page.context["results"] is None


def test_admin_rechunk_action(client, staff_user, api_chapter, django_capture_on_commit_callbacks):
    staff_user.is_superuser = True
    staff_user.save()
    client.force_login(staff_user)
    before = set(ChildChunk.objects.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(
            "/admin/writing/chapter/",
            {"action": "rechunk", "_selected_action": [api_chapter["id"]]},
        )
    assert resp.status_code == 302
    assert Chapter.objects.get(pk=api_chapter["id"]).chunk_state == "ready"
    assert set(ChildChunk.objects.values_list("pk", flat=True)).isdisjoint(before)
    for url in (
        "/admin/writing/chapter/",
        "/admin/writing/childchunk/",
        "/admin/writing/parentchunk/",
    ):
        assert client.get(url).status_code == 200


def _admin_change_data(response) -> dict:
    """Return the POST data of an admin change page as rendered (forms and inline formsets)."""
    data = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        mgmt = formset.management_form
        data.update({mgmt.add_prefix(name): mgmt[name].value() for name in mgmt.fields})
        forms.extend(formset.forms)
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is None or value is False:
                continue
            data[form.add_prefix(name)] = "on" if value is True else value
    return data


def test_admin_block_edit_keeps_untouched_chunks(
    client, staff_user, api_chapter, django_capture_on_commit_callbacks
):
    staff_user.is_superuser = True
    staff_user.save()
    client.force_login(staff_user)
    url = f"/admin/writing/chapter/{api_chapter['id']}/change/"
    data = _admin_change_data(client.get(url))
    edited = StoryBlock.objects.get(chapter_id=api_chapter["id"], order=2)
    data["blocks-2-content"] = "猪八戒扛着九齿钉耙走在最后，嘴里嘟囔着要回高老庄。"
    before = dict(ChildChunk.objects.values_list("pk", "story_block_id"))
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(url, data)
    assert resp.status_code == 302, resp.context["adminform"].form.errors
    after = dict(ChildChunk.objects.values_list("pk", "story_block_id"))
    untouched = {pk for pk, block in before.items() if block != edited.pk}
    rebuilt = {pk for pk, block in after.items() if block == edited.pk}
    assert untouched == set(after) - rebuilt  # the other blocks kept their chunk ids
    assert rebuilt and rebuilt.isdisjoint(before)


def test_chunk_admins_do_not_delete(client, staff_user, api_chapter):
    staff_user.is_superuser = True
    staff_user.save()
    client.force_login(staff_user)
    child = ChildChunk.objects.first()
    assert (
        client.post(f"/admin/writing/childchunk/{child.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert (
        client.post(
            f"/admin/writing/parentchunk/{child.parent_id}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    assert ChildChunk.objects.filter(pk=child.pk).exists()


@pytest.mark.slow  # generates and validates the whole OpenAPI schema: 49 s under load
def test_schema_is_valid():
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


# --- listing books and chapters -------------------------------------------------------------


def test_book_list_is_empty_for_a_new_writer(api_client):
    assert api_client.get("/api/books/").json() == {"count": 0, "results": []}


def test_book_list_pages_with_limit_and_offset(api_client, user):
    ids = [book_create(user=user, title=f"书{n}").pk for n in range(3)]
    first = api_client.get("/api/books/", {"limit": 2}).json()
    rest = api_client.get("/api/books/", {"limit": 2, "offset": 2}).json()
    assert (first["count"], rest["count"]) == (3, 3)
    assert [b["id"] for b in first["results"] + rest["results"]] == ids


def test_book_list_refuses_a_zero_limit(api_client):
    resp = api_client.get("/api/books/", {"limit": 0})
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "INVALID_ARGUMENT"


def test_book_list_leaves_out_other_writers_books(api_client, other_user, book):
    book_create(user=other_user, title="别人的书")
    assert [b["id"] for b in api_client.get("/api/books/").json()["results"]] == [book.pk]


def test_book_list_counts_chapters_per_chunk_state(api_client, pending_chapters):
    Chapter.objects.filter(pk=pending_chapters[0].pk).update(chunk_state="ready")
    Chapter.objects.filter(pk=pending_chapters[1].pk).update(chunk_state="failed")
    (item,) = api_client.get("/api/books/").json()["results"]
    assert item["chapter_count"] == 3
    assert item["chunking"] == {"pending": 1, "running": 0, "ready": 1, "failed": 1}


def test_book_detail_summarises_chapters_in_order(api_client, book, pending_chapters):
    body = api_client.get(f"/api/books/{book.pk}/").json()
    assert body["title"] == book.title and body["chapter_count"] == 3
    assert [c["sequence"] for c in body["chapters"]] == [1, 2, 3]
    first = body["chapters"][0]
    assert (first["length"], first["block_count"]) == (len("花果山" + "水帘洞。"), 2)
    assert first["chunk_state"] == "pending" and first["book"] == book.pk


def test_book_detail_of_an_empty_book_has_no_chapters(api_client, book):
    body = api_client.get(f"/api/books/{book.pk}/").json()
    assert body["chapters"] == [] and body["chapter_count"] == 0


def test_chapter_list_pages_in_reading_order(api_client, book, pending_chapters):
    url = f"/api/books/{book.pk}/chapters/"
    first = api_client.get(url, {"limit": 2}).json()
    rest = api_client.get(url, {"limit": 2, "offset": 2}).json()
    assert (first["count"], rest["count"]) == (3, 3)
    assert [c["title"] for c in first["results"] + rest["results"]] == ["第1回", "第2回", "第3回"]


def test_chapter_list_of_an_empty_book_is_empty(api_client, book):
    assert api_client.get(f"/api/books/{book.pk}/chapters/").json() == {"count": 0, "results": []}


def test_another_writers_book_is_not_found(other_client, book):
    for path in (f"/api/books/{book.pk}/", f"/api/books/{book.pk}/chapters/"):
        resp = other_client.get(path)
        assert resp.status_code == 404 and resp.json()["error"]["code"] == "NOT_FOUND", path


def test_a_missing_book_is_not_found(api_client):
    assert api_client.get("/api/books/999999/chapters/").status_code == 404


def test_staff_can_open_any_book(staff_client, book, pending_chapters):
    assert staff_client.get(f"/api/books/{book.pk}/chapters/").json()["count"] == 3


def test_schema_documents_the_listing_operations():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = {
        op["operationId"]: op
        for item in schema["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for name in ("writing_book_list", "writing_book_get", "writing_book_chapter_list"):
        operation = operations[name]
        assert operation["summary"] and operation["description"], name
        assert operation["responses"]["200"]["content"]["application/json"]["examples"], name
    params = {p["name"] for p in operations["writing_book_chapter_list"]["parameters"]}
    assert {"limit", "offset", "book_id"} <= params


def test_staff_page_shows_chunking_progress(client, staff_user, book, pending_chapters):
    Chapter.objects.filter(pk=pending_chapters[0].pk).update(chunk_state="ready")
    Chapter.objects.filter(pk=pending_chapters[1].pk).update(chunk_state="failed")
    client.force_login(staff_user)
    page = client.get("/staff/writing/").content.decode()
    assert "1 of 3 chapters chunked" in page
    assert "1 pending" in page and "1 failed" in page and "0 running" in page


def test_a_book_id_beyond_bigint_is_not_found(api_client):
    assert api_client.get(f"/api/books/{10**20}/chapters/").status_code == 404


def test_chapter_list_refuses_an_offset_beyond_integer(api_client, book):
    resp = api_client.get(f"/api/books/{book.pk}/chapters/", {"offset": 10**20})
    assert resp.status_code == 400 and resp.json()["error"]["details"]

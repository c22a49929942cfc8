"""The API takes JSON (and urlencoded forms on flat views); multipart is 415, never spooled."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.test import override_settings

pytestmark = pytest.mark.django_db


class RecordingUploadHandler(TemporaryFileUploadHandler):
    """Django's handler that writes each upload to a temporary file, recording each one."""

    started: list[str] = []

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.started.append(self.file.name)


@pytest.fixture
def spooled():
    """Return the names of the temporary files Django starts for uploads during the test."""
    RecordingUploadHandler.started = []
    handler = f"{__name__}.RecordingUploadHandler"
    with override_settings(FILE_UPLOAD_HANDLERS=[handler]):
        yield RecordingUploadHandler.started


def _multipart_book(client):
    upload = SimpleUploadedFile("big.bin", b"x" * 100_000, "application/octet-stream")
    return client.post("/api/books/", {"title": "西游记", "file": upload}, format="multipart")


def test_a_multipart_post_is_415_in_the_error_shape(api_client, spooled):
    response = _multipart_book(api_client)
    assert response.status_code == 415
    error = response.json()["error"]
    assert error["code"] == "UNSUPPORTED_MEDIA_TYPE"
    assert error["details"] == {"media_type": "multipart/form-data"}


def test_a_multipart_post_writes_no_temporary_file(api_client, spooled):
    _multipart_book(api_client)
    assert spooled == []


def test_a_multipart_post_creates_nothing(api_client, spooled):
    from writing.models import Book

    _multipart_book(api_client)
    assert Book.objects.count() == 0


def test_a_multipart_post_without_credentials_is_also_refused_unread(anon_client, spooled):
    assert _multipart_book(anon_client).status_code == 415
    assert spooled == []


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml"])
def test_another_media_type_is_415_naming_what_the_view_accepts(api_client, content_type):
    response = api_client.post("/api/books/", "title=x", content_type=content_type)
    assert response.status_code == 415
    error = response.json()["error"]
    assert error["code"] == "UNSUPPORTED_MEDIA_TYPE"
    assert error["details"] == {
        "media_type": content_type,
        "accepted": ["application/json", "application/x-www-form-urlencoded"],
    }


def test_a_documented_form_body_is_still_accepted(api_client):
    response = api_client.post(
        "/api/books/", "title=abc", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 201, response.content

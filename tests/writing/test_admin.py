"""The writing admin: its live settings page (chunking, window, debounce)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from writing.indexing import debounce_remaining
from writing.models import WritingSettings

pytestmark = pytest.mark.django_db

INVALID = [
    ({"child_min_chars": 300, "child_max_chars": 300}, "child_max_chars"),
    ({"parent_min_chars": 1600, "parent_max_chars": 1500}, "parent_max_chars"),
    ({"child_max_chars": 2000}, "parent_max_chars"),
    ({"context_window_chars": 100}, "context_window_chars"),
    ({"child_min_chars": 10}, "child_min_chars"),
    ({"cliff_threshold": 1.5}, "cliff_threshold"),
    ({"cliff_percentile": 100.0}, "cliff_percentile"),
    ({"debounce_seconds": -1.0}, "debounce_seconds"),
]


def test_default_settings_are_valid(writing_settings):
    writing_settings.full_clean()


@pytest.mark.parametrize("changes, field", INVALID, ids=[f for _, f in INVALID])
def test_the_live_settings_page_refuses_out_of_range_values(
    writing_settings, post_live_settings, changes, field
):
    response = post_live_settings(writing_settings, **changes)
    assert response.status_code == 200  # the form again, with the error
    assert field in response.context["adminform"].form.errors
    assert WritingSettings.objects.get().child_min_chars == 200


def test_window_must_hold_the_longest_child_the_packer_makes(writing_settings):
    # child 200-300: a merged short tail can make a child of 2 * 200 = 400 characters.
    writing_settings.child_min_chars, writing_settings.child_max_chars = 200, 300
    writing_settings.context_window_chars = 350
    with pytest.raises(ValidationError) as caught:
        writing_settings.full_clean()
    assert "400" in caught.value.message_dict["context_window_chars"][0]
    writing_settings.context_window_chars = 400
    writing_settings.full_clean()


def test_the_live_settings_page_saves_and_the_next_read_uses_it(
    writing_settings, post_live_settings, pending_chapters
):
    chapter = pending_chapters[0]
    chapter.last_edit_at = timezone.now()
    assert debounce_remaining(chapter) == pytest.approx(3.0, abs=1.0)  # now cached
    response = post_live_settings(writing_settings, debounce_seconds=30.0)
    assert response.status_code == 302, response.content[-2000:]
    assert debounce_remaining(chapter) == pytest.approx(30.0, abs=1.0)

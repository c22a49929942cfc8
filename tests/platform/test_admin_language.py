"""One language per page: every admin page and staff page, in English and in Chinese.

A superuser opens every registered model's changelist, add page and change page (one object
of each project model is created, with ASCII-only content) and every staff page, once with
``Accept-Language: en`` and once with ``zh-hans``. English pages have no Han character;
Chinese pages' visible text has no English word beyond a few proper names and technical
identifiers (paths, ``snake_case``, JSON keys). Also: the search playground shows each stage
of a time-phrase query, and the changelists' long text is shortened.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from tests.platform.pages import (
    admin_urls,
    around,
    language_problem,
    registered_models,
    staff_urls,
    visible_text,
)

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _check(client: Client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    assert response.status_code == 200, (url, language, response.status_code)
    html = response.content.decode()
    problem = language_problem(html, url, language)
    assert not problem, problem
    return html


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_admin_and_staff_page_speaks_one_language(objects, language):
    client = Client()
    client.force_login(objects["root"])
    urls = admin_urls(objects["root"]) + staff_urls(objects)
    failures = []
    for url in urls:
        try:
            _check(client, url, language)
        except AssertionError as exc:
            failures.append(str(exc))
    assert not failures, "\n".join(failures)


def test_the_pages_cover_every_registered_model(objects):
    covered = {"/".join(url.split("/")[2:4]) for url in admin_urls(objects["root"])}
    for model in registered_models():
        assert f"{model._meta.app_label}/{model._meta.model_name}" in covered


def test_changelist_shortens_long_text(objects):
    client = Client()
    client.force_login(objects["root"])
    html = client.get(reverse("admin:activities_activity_changelist")).content.decode()
    text = visible_text(html)  # the full title stays in the checkbox's aria-label
    assert "kayak " * 30 not in text and "…" in text


def test_admin_labels_follow_the_language(objects):
    client = Client()
    client.force_login(objects["root"])
    url = reverse("admin:activities_workingmemory_changelist")
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    zh = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Working memories" in en and "Working memorys" not in en
    assert "工作记忆" in zh and "选择 工作记忆 来修改" in zh.replace("\n", "")


def test_retention_report_dates_are_local_without_microseconds(objects):
    client = Client()
    client.force_login(objects["root"])
    html = client.get(reverse("admin:memory_chatmessageproxy_retention")).content.decode()
    cutoff = re.search(r"stored before \(cut-off\)</th><td>([^<]*)</td>", html).group(1)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0800", cutoff), cutoff
    zh = client.get(
        reverse("admin:memory_chatmessageproxy_retention"), HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "存储早于（截止时间）" in zh and "试运行：未做任何修改" in zh


def test_playground_shows_every_stage_of_a_time_phrase_query(objects):
    client = Client()
    client.force_login(objects["root"])
    url = reverse("activities-staff-search")
    for language, words in (
        ("en", ["time phrase", "window", "Relevance cut", "path", "candidates"]),
        ("zh-hans", ["时间短语", "时间窗口", "相关性截断", "路径", "候选数"]),
    ):
        response = client.get(url, {"q": "this weekend kayak"}, HTTP_ACCEPT_LANGUAGE=language)
        html = response.content.decode()
        time = response.context["outcome"]["meta"]["understood"]["time"]
        assert time and time["phrase"], time
        stage = re.search(r'id="stage-time">(.*?)</dd>', html, re.S).group(1)
        assert time["phrase"] in stage and time["reason"], stage
        assert f'datetime="{time["start"]}"' in stage and f'datetime="{time["end"]}"' in stage
        assert all(word in html for word in words), language
        if not response.context["outcome"]["results"]:
            assert re.search(r'id="no-results">[^<]*:\s*\S', html)


def test_no_results_always_says_why(objects):
    client = Client()
    client.force_login(objects["root"])
    response = client.get(
        reverse("activities-staff-search"), {"q": "kayak", "type": "no-such-type"}
    )
    html = response.content.decode()
    assert not response.context["outcome"]["results"]
    assert "No results: no activity passes the filters" in html


def test_no_results_says_why_in_chinese_for_a_chinese_admin(objects):
    client = Client()
    client.force_login(objects["root"])
    response = client.get(
        reverse("activities-staff-search"),
        {"q": "kayak", "type": "no-such-type"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    reason = response.context["stages"]["empty_reason"]
    assert not response.context["outcome"]["results"]
    assert re.search(r"[\u4e00-\u9fff]", reason) and not re.search(r"[A-Za-z]{4,}", reason)
    assert f"没有结果: {reason}" in html_text(response)


def html_text(response) -> str:
    """Return a page's HTML with its entities unescaped (reasons may hold quotes)."""
    return html.unescape(response.content.decode())


# A datetime as ISO text (2026-11-25T02:00:00Z, +00:00) or named in UTC: not the admin's zone.
ISO_OR_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d|\+00:?00\b|\bUTC\b")


def test_changelists_show_times_in_the_admins_time_zone(objects, settings):
    from memory.models import ChatMessage

    client = Client()
    client.force_login(objects["root"])
    failures = []
    changelists = [
        reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for model in registered_models()
    ]
    for url in changelists:
        text = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
        failures += [f"{url}: {around(text, m.group(0))}" for m in ISO_OR_UTC.finditer(text)]
    assert not failures, "\n".join(failures)
    # The message's ts, in the admin's zone and format, is what its row shows.
    stored = timezone.localtime(ChatMessage.objects.get(message_id="one").ts)
    url = reverse("admin:memory_chatmessageproxy_changelist")
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert str(stored.tzinfo) == settings.TIME_ZONE != "UTC"
    with translation.override("en"):
        assert date_format(stored, "DATETIME_FORMAT") in html

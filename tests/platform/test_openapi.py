"""The OpenAPI schema validates and the docs pages are served without a CDN."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from tests.testapp.server import manage

DOC_PAGES = ["/api/docs/", "/api/redoc/"]


@pytest.mark.slow
@pytest.mark.django_db
def test_spectacular_validate_fail_on_warn_passes():
    # Against the test database (migrated); the schema itself needs no rows.
    from django.db import connection

    result = manage(connection.settings_dict["NAME"], "spectacular", "--validate", "--fail-on-warn")
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("openapi: 3")


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_is_html(anon_client, path):
    response = anon_client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_loads_no_remote_asset(anon_client, path):
    html = anon_client.get(path).content.decode()
    remote = re.findall(r"""(?:src|href)\s*=\s*["'](?:https?:)?//[^"']+""", html)
    assert remote == []
    for cdn in ("cdn.jsdelivr.net", "unpkg.com", "cdnjs"):
        assert cdn not in html


@pytest.mark.django_db
@pytest.mark.parametrize("path", DOC_PAGES)
def test_docs_page_references_local_sidecar_files_that_exist(anon_client, path):
    html = anon_client.get(path).content.decode()
    assets = re.findall(r"/static/(drf_spectacular_sidecar/[^\"'?]+)", html)
    assert assets
    for asset in assets:
        assert finders.find(asset), asset

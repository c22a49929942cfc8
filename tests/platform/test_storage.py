"""Static files: WhiteNoise's compressed copies, made again only for changed files."""

from __future__ import annotations

import os
import time

import pytest

from config.storage import IncrementalCompressedStaticFilesStorage

# Compares file modification times, which the real clock writes.
pytestmark = pytest.mark.real_clock


@pytest.fixture
def storage(tmp_path):
    """A storage over a temporary STATIC_ROOT holding one compressible file."""
    (tmp_path / "app.css").write_text("body { color: red; }\n" * 200)
    return IncrementalCompressedStaticFilesStorage(location=str(tmp_path), base_url="/static/")


def _compress(storage) -> list[str]:
    """Run the post-processing collectstatic runs; return the files it compressed."""
    return [name for _, name, _ in storage.post_process({"app.css": (storage, "app.css")})]


def test_first_collect_compresses_the_file(storage):
    assert _compress(storage) == ["app.css.gz"]


def test_unchanged_file_is_not_compressed_again(storage):
    _compress(storage)
    assert _compress(storage) == []


def test_changed_file_is_compressed_again(storage, tmp_path):
    _compress(storage)
    later = time.time() + 5
    (tmp_path / "app.css").write_text("body { color: blue; }\n" * 200)
    os.utime(tmp_path / "app.css", (later, later))
    assert _compress(storage) == ["app.css.gz"]

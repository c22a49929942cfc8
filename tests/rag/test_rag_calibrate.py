"""manage.py rag_calibrate: fits the cut on a labelled file with the real model and stores it."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from config import live
from rag import calibration, relevance
from rag.background import model_key
from rag.selectors import rag_settings_get

pytestmark = pytest.mark.django_db

DOCUMENTS = {
    "surf": "标题: 室内冲浪体验课\n类型: 水上\n标签: 冲浪, 玩水",
    "kayak": "标题: 皮划艇半日游\n类型: 水上\n标签: 皮划艇, 划船",
    "boardgame": "标题: 四人卡坦岛策略桌游\n类型: 桌游\n标签: 桌游, 小局",
    "reading": "标题: 静读会，一起安静地读书\n类型: 读书\n标签: 读书, 安静",
}
QUERIES = [
    {"query": "玩水", "relevant": {"surf": 3, "kayak": 3}},
    {"query": "桌游", "relevant": ["boardgame"]},
    {"query": "安静看书", "relevant": {"reading": 3}},
    {"query": "买房贷款咨询", "relevant": {}},
    {"query": "个人所得税怎么申报", "relevant": []},
]


@pytest.fixture
def labelled_file(tmp_path):
    """A self-contained labelled file: document lines (the corpus) and query lines."""
    path = tmp_path / "labels.jsonl"
    lines = [{"document": {"key": k, "text": t}} for k, t in DOCUMENTS.items()] + QUERIES
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), "utf-8")
    return path


def _run(*args):
    out = StringIO()
    call_command("rag_calibrate", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_dry_run_prints_the_fit_and_stores_nothing(labelled_file):
    before = dict(rag_settings_get().relevance_cuts)
    out = _run("--file", str(labelled_file), "--surface", "memory", "--dry-run")
    assert "5 queries (2 off-topic)" in out and "fitted gate" in out and "recall" in out
    live.invalidate()
    assert rag_settings_get().relevance_cuts == before


def test_fit_is_stored_in_live_settings_for_the_active_model(labelled_file):
    out = _run("--file", str(labelled_file), "--surface", "memory")
    assert "stored" in out
    live.invalidate()
    stored = rag_settings_get().relevance_cuts[model_key()]["memory"]
    assert stored["fit"]["queries"] == 5
    assert relevance.cut_for("memory").calibrated


def test_malformed_file_is_a_command_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"query": "玩水", "relevant": {}}\nnot json\n', "utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        _run("--file", str(path), "--dry-run")


def test_file_without_queries_is_a_command_error(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"document": {"key": "a", "text": "x"}}\n', "utf-8")
    with pytest.raises(CommandError, match="no labelled queries"):
        _run("--file", str(path), "--dry-run")


def test_scored_queries_carry_the_surfaces_evidence_and_the_noise_flag():
    from rag.embeddings import embed_texts

    vectors = embed_texts(list(DOCUMENTS.values()), role="passage")
    corpus = list(zip(DOCUMENTS, vectors, strict=True))
    asked = []

    def evidence(query, keys):
        asked.append(keys)
        return query == "玩水"

    rows = [{"query": "玩水", "relevant": ["surf"]}, {"query": "zzzz qwerty", "relevant": []}]
    items = calibration.score_labelled(rows, corpus, evidence)
    assert [(i.evidence, i.noise) for i in items] == [(True, False), (False, True)]
    assert all(set(keys) <= set(DOCUMENTS) for keys in asked)

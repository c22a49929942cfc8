"""Tests for rag.jieba_dict: jieba's dictionary in a trie, saved once, read back (no database)."""

import logging
import os
import stat
import subprocess
import sys
import threading
import zlib

import jieba
import pytest

from rag import jieba_dict
from rag.jieba_dict import CompactFreq, CompactTokenizer, load_compact, save_compact, warm_up

SAMPLE = (
    "中华人民共和国国务院总理在北京人民大会堂发表讲话。孙悟空大闹天宫，"
    "唐僧师徒四人西天取经；周末带孩子去上海爬山、吃四川火锅。Hello 3.14 ＡＢＣ"
)


@pytest.fixture
def saved_dir(tmp_path):
    """A temporary directory holding the loaded dictionary's trie, as a first start saves it."""
    warm_up()
    save_compact(
        jieba_dict.compact_path(_in(tmp_path)),
        jieba_dict.tokenizer.FREQ,
        jieba_dict.tokenizer.total,
    )
    return tmp_path


def _in(directory) -> CompactTokenizer:
    """Return a tokenizer that keeps its caches in ``directory``."""
    tokenizer = CompactTokenizer()
    tokenizer.tmp_dir = str(directory)
    return tokenizer


def test_warm_up_is_idempotent_thread_safe_and_quiet():
    threads = [threading.Thread(target=warm_up) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    warm_up()
    assert jieba_dict.is_loaded()
    assert logging.getLogger("jieba").level >= logging.WARNING


def test_warm_up_holds_jiebas_dictionary_in_a_trie():
    warm_up()
    assert isinstance(jieba_dict.tokenizer.FREQ, CompactFreq)
    assert jieba.__version__ in jieba_dict.COMPACT_JIEBA_VERSIONS


def test_warm_up_leaves_jiebas_default_tokenizer_as_jieba_made_it():
    warm_up()
    assert not isinstance(jieba.dt.FREQ, CompactFreq)


def test_the_trie_answers_every_lookup_as_the_dict_did():
    words = {"中华": 120, "中华人": 0, "中华人民": 85, "人民": 3000}
    freq = CompactFreq(words)
    assert all(word in freq and freq[word] == count for word, count in words.items())
    assert freq.get("中华人") == 0 and freq.get("火锅") is None and freq.get("火锅", 7) == 7
    assert "火锅" not in freq and len(freq) == 4
    with pytest.raises(KeyError):
        freq["火锅"]


def test_words_added_to_the_trie_are_found_and_override_its_counts():
    freq = CompactFreq({"人民": 3000})
    freq["火锅"] = 9
    freq["人民"] = 0  # jieba.del_word sets a word's count to 0
    assert freq["火锅"] == 9 and freq.get("人民") == 0 and "人民" in freq
    assert len(freq) == 2


def test_a_saved_trie_reads_back_with_every_count_and_the_total(tmp_path):
    words = {"中华": 120, "中华人": 0, "中华人民": 85, "人民": 3000}
    save_compact(str(tmp_path / "t.trie"), CompactFreq(words), 3205)
    freq, total = load_compact(str(tmp_path / "t.trie"))
    assert total == 3205
    assert {word: freq[word] for word in words} == words and "火锅" not in freq


def test_a_tokenizer_reads_the_saved_trie_instead_of_loading_jieba(saved_dir, monkeypatch):
    def jieba_load(self, dictionary=None):
        raise AssertionError("jieba's own load ran")

    monkeypatch.setattr(jieba.Tokenizer, "initialize", jieba_load)
    tokenizer = _in(saved_dir)
    tokenizer.initialize()
    assert tokenizer.initialized and isinstance(tokenizer.FREQ, CompactFreq)
    assert tokenizer.total == jieba_dict.tokenizer.total
    assert list(tokenizer.cut_for_search(SAMPLE)) == list(
        jieba_dict.tokenizer.cut_for_search(SAMPLE)
    )


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # a write cut short
        lambda data: b"x" * len(data),  # not ours
        # another jieba, the same length, so only the version check can reject it
        lambda data: data.replace(b"0.42.1", b"0.42.2", 1),
        lambda data: b"",
        # damaged in place, its length intact
        lambda data: data[:-20] + bytes(b ^ 0xFF for b in data[-20:-10]) + data[-10:],
    ],
    ids=["truncated", "foreign", "other-version", "empty", "damaged-body"],
)
def test_a_saved_trie_that_does_not_read_back_as_written_is_ignored(tmp_path, damage):
    path = tmp_path / "t.trie"
    save_compact(str(path), CompactFreq({"人民": 3000}), 3000)
    path.write_bytes(damage(path.read_bytes()))
    assert load_compact(str(path)) is None


@pytest.mark.slow  # builds jieba's dictionary again from its text file: 20 s under load
def test_a_trie_marisa_cannot_read_is_ignored_even_with_a_matching_checksum(tmp_path):
    body = b"not a trie" + bytes(8)  # ten bytes of "trie", then one count
    header = jieba_dict._HEADER.pack(
        jieba_dict._MAGIC, jieba_dict.FORMAT, jieba.__version__.encode(), 1, 10, 1, zlib.crc32(body)
    )
    path = tmp_path / "t.trie"
    path.write_bytes(header + body)
    assert load_compact(str(path)) is None


def test_the_trie_is_kept_in_a_directory_of_this_users_own(tmp_path, monkeypatch):
    monkeypatch.setenv("SEMMEM_RUNTIME_DIR", str(tmp_path / "runtime"))
    path = os.path.dirname(jieba_dict.compact_path(CompactTokenizer()))
    assert path == str(tmp_path / "runtime")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o700


def test_a_directory_others_may_write_is_not_used_for_the_trie(tmp_path, monkeypatch, caplog):
    shared = tmp_path / "runtime"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("SEMMEM_RUNTIME_DIR", str(shared))
    assert os.path.dirname(jieba_dict.compact_path(CompactTokenizer())) != str(shared)
    assert "not this user's own directory" in caplog.text


def test_a_damaged_trie_is_built_again_and_replaced(saved_dir):
    path = jieba_dict.compact_path(_in(saved_dir))
    with open(path, "r+b") as saved:
        saved.truncate(100)
    tokenizer = _in(saved_dir)
    tokenizer.initialize()
    assert isinstance(tokenizer.FREQ, CompactFreq)
    assert list(tokenizer.cut(SAMPLE)) == list(jieba_dict.tokenizer.cut(SAMPLE))
    assert load_compact(path) is not None and os.path.getsize(path) > 100


@pytest.mark.slow  # builds jieba's dictionary again from its text file: 17 s under load
def test_a_temp_dir_that_cannot_be_written_still_loads_the_dictionary(tmp_path, caplog):
    missing = tmp_path / "gone"  # jieba writes its own cache there too, and logs when it cannot
    tokenizer = _in(missing)
    tokenizer.initialize()
    assert isinstance(tokenizer.FREQ, CompactFreq)
    assert "could not save the dictionary trie" in caplog.text


@pytest.mark.slow  # loads jieba's dictionary a second time: 20 s under load
def test_a_jieba_version_not_checked_keeps_its_own_dictionary(monkeypatch):
    monkeypatch.setattr(jieba_dict, "COMPACT_JIEBA_VERSIONS", frozenset({"0.0.0"}))
    other = CompactTokenizer()
    other.initialize()
    assert isinstance(other.FREQ, dict)
    assert list(other.cut("周末带孩子去上海爬山")) == list(
        jieba_dict.tokenizer.cut("周末带孩子去上海爬山")
    )


@pytest.mark.slow  # loads jieba's dictionary a second time: 20 s under load
def test_segmentation_with_the_trie_equals_jiebas_own_dictionary():
    plain = jieba.Tokenizer()
    plain.initialize()
    assert isinstance(plain.FREQ, dict)
    warm_up()
    ours = jieba_dict.tokenizer
    assert list(ours.cut(SAMPLE)) == list(plain.cut(SAMPLE))
    assert list(ours.cut_for_search(SAMPLE)) == list(plain.cut_for_search(SAMPLE))


@pytest.mark.slow  # a Python process loading jieba's dictionary: 44 s under load
def test_jieba_loads_and_segments_without_importing_pkg_resources():
    code = (
        "import sys\n"
        "from rag.text import segment_query\n"
        "print(segment_query('不吃辣火锅'), 'pkg_resources' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "['不吃', '辣', '火锅'] False", done.stderr[-2000:]

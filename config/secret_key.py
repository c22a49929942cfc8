"""Create the secret key file of a development machine: ``python -m config.secret_key PATH``.

``make run`` (and ``make migrate``, ``make demo``) call it and pass the file to Django in
``DJANGO_SECRET_KEY_FILE``: a random key made once, readable by its owner only (mode 0600), so
sessions and signed cursors survive restarts. An existing file keeps its key; its mode is
tightened to 0600. Production sets ``DJANGO_SECRET_KEY`` or its own file (docs/SECURITY.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from django.core.management.utils import get_random_secret_key


def ensure_secret_key_file(path: Path) -> bool:
    """Create ``path`` with a random key, mode 0600, unless it exists; return whether created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        os.chmod(path, 0o600)
        return False
    with os.fdopen(fd, "w") as handle:
        handle.write(get_random_secret_key() + "\n")
    os.chmod(path, 0o600)  # whatever the umask
    return True


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m config.secret_key PATH", file=sys.stderr)
        return 2
    path = Path(argv[0])
    if ensure_secret_key_file(path):
        print(f"created the secret key file {path} (mode 0600)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

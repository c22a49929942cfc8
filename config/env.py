"""Read every environment variable the project uses, in one place.

Each reader raises ``ImproperlyConfigured`` naming the variable and what to set
when a value cannot be parsed.
"""

from __future__ import annotations

import ipaddress
import os
import stat
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured


def env_str(name: str, default: str | None = None) -> str | None:
    """Return the variable as a string, or the default when unset or empty."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool = False) -> bool:
    """Return the variable as a boolean (1/true/yes/on, 0/false/no/off)."""
    value = os.environ.get(name, "").strip().lower()
    if value == "":
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"Set {name} to true or false (got {value!r}).")


def _env_number(name: str, default, kind: type, what: str):
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        return kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"Set {name} to {what} (got {value!r}).") from None


def env_int(name: str, default: int | None = None) -> int | None:
    """Return the variable as an integer."""
    return _env_number(name, default, int, "a whole number")


def env_float(name: str, default: float | None = None) -> float | None:
    """Return the variable as a float."""
    return _env_number(name, default, float, "a number")


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Return a comma-separated variable as a list of stripped strings."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_secret_file(name: str) -> str | None:
    """Return the secret in the file the variable names, or None when it is unset.

    The file must pass :func:`read_secret_file`.
    """
    value = env_str(name)
    if value is None:
        return None
    return read_secret_file(Path(value), name)


def read_secret_file(path: Path, name: str) -> str:
    """Return the secret in ``path``, stripped; ``name`` says where it was given.

    Refuse a file that is missing, empty, or readable or writable by anyone but its owner
    (mode 0600 or 0400): a secret others can read is no secret.
    """
    try:
        mode = path.stat().st_mode
        secret = path.read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(f"Set {name} to a readable file ({exc}).") from None
    if stat.S_IMODE(mode) & 0o077:
        raise ImproperlyConfigured(
            f"{name}: {path} is open to other users (mode {stat.S_IMODE(mode):o}); "
            f"run `chmod 600 {path}`."
        )
    if not secret:
        raise ImproperlyConfigured(f"{name}: {path} is empty.")
    return secret


def env_networks(name: str, default: list[str] | None = None) -> list:
    """Return a comma-separated list of IP addresses or networks (CIDR) as ip_network objects."""
    networks = []
    for item in env_list(name, default):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"Set {name} to IP addresses or networks, comma-separated (got {item!r})."
            ) from None
    return networks


def parse_database_url(url: str, *, conn_max_age: int = 0) -> dict:
    """Return a Django DATABASES entry for a PostgreSQL URL.

    The libpq socket form ``postgresql://user:@/db?host=/run/dir`` (what the embedded server
    gives) keeps the socket directory in ``HOST``: dj_database_url leaves ``HOST`` empty and
    puts ``host`` in ``OPTIONS``, which the connection honours but ``dbshell`` and anything else
    reading ``HOST`` do not.
    """
    try:
        config = dj_database_url.parse(url, conn_max_age=conn_max_age)
    except ValueError as exc:
        raise ImproperlyConfigured(f"Set DATABASE_URL to a valid database URL ({exc}).") from None
    options = config.get("OPTIONS") or {}
    for key in ("host", "port"):
        if not config.get(key.upper()) and options.get(key):
            config[key.upper()] = str(options.pop(key))
    return config

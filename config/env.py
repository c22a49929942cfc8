"""Read every environment variable the project uses, in one place.

Each reader raises ``ImproperlyConfigured`` naming the variable and what to set
when a value cannot be parsed.
"""

from __future__ import annotations

import os

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


def env_int(name: str, default: int | None = None) -> int | None:
    """Return the variable as an integer."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"Set {name} to a whole number (got {value!r}).") from None


def env_float(name: str, default: float | None = None) -> float | None:
    """Return the variable as a float."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ImproperlyConfigured(f"Set {name} to a number (got {value!r}).") from None


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Return a comma-separated variable as a list of stripped strings."""
    value = os.environ.get(name, "").strip()
    if value == "":
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def parse_database_url(url: str, *, conn_max_age: int = 0) -> dict:
    """Return a Django DATABASES entry for a PostgreSQL URL.

    The libpq socket form ``postgresql://user:@/db?host=/run/dir`` (what the embedded server
    gives) keeps the socket directory in ``HOST``: dj_database_url leaves ``HOST`` empty and
    puts ``host`` in ``OPTIONS``, which the connection honours but ``dbshell`` and anything else
    reading ``HOST`` do not.
    """
    import dj_database_url

    try:
        config = dj_database_url.parse(url, conn_max_age=conn_max_age)
    except ValueError as exc:
        raise ImproperlyConfigured(f"Set DATABASE_URL to a valid database URL ({exc}).") from None
    options = config.get("OPTIONS") or {}
    for key in ("host", "port"):
        if not config.get(key.upper()) and options.get(key):
            config[key.upper()] = str(options.pop(key))
    return config

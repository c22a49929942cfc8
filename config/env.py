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

"""What a rating can be about, across apps: each app that owns a kind of target registers how
to find one the user may see, so the app storing ratings (memory) never imports it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class RatedTarget:
    """A target the user may rate: its primary key and a label of what it is."""

    pk: int
    label: str


# target type -> find(user=..., target_id=str) returning a RatedTarget or raising NotFound
_finders: dict[str, Callable[..., RatedTarget]] = {}


def register(target_type: str, find: Callable[..., RatedTarget]) -> None:
    """Add (or replace) how targets of ``target_type`` are found (an app's ``ready``)."""
    _finders[target_type] = find


def find(target_type: str, *, user, target_id: str) -> RatedTarget:
    """Return the target of ``target_type`` named ``target_id`` that ``user`` may see.

    Raise LookupError when no app registered ``target_type``; the finder raises NotFound.
    """
    return _finders[target_type](user=user, target_id=target_id)

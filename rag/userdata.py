"""One registry of the user data every app holds, used by erasure (and export) alike.

Each app declares, from its ``AppConfig.ready``, the kinds of a user's data it stores::

    register(UserData("writing", kinds=(Kind("books", Book, lambda user: ...), ...), texts=...))

A :class:`Kind` names a model and the queryset of one user's rows of it (``rows``), how to
count them (default: ``rows(user).count()``) and how to erase them (default:
``rows(user).delete()``). A kind with ``erased_with`` is a measure of rows another kind erases
(the vectors on message rows, the interest vectors inside a working memory): it is counted and
reported, and checked empty afterwards, but not deleted on its own. ``texts`` yields every text
of the user the app may have embedded through rag's shared cache, so erasure can forget those
cached vectors (by content hash, every model and role).

:func:`user_data_erase` runs every declaration in one transaction and returns the counts per
kind (every declared kind, plus ``embedding_cache``). An export can stream the same
``rows(user)`` querysets that erasure counts.

Erasure is complete by construction: :func:`user_data_paths` finds every installed model that
holds a user's data (a relation to the user model, a user-id column, or a foreign-key chain to
such a model), and the system check ``rag.E010`` (and the tests) fail when one is neither
declared here nor explicitly kept with :func:`keep`.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.db import models, transaction

CACHE_KIND = "embedding_cache"

# A plain column that stores a user's id without a foreign key (user_id, owner, author_id...).
USER_COLUMN = re.compile(r"^(user|owner|author|creator|created_by|account)(_?id)?$")
_COLUMN_TYPES = {
    "IntegerField",
    "BigIntegerField",
    "PositiveIntegerField",
    "PositiveBigIntegerField",
    "CharField",
    "UUIDField",
}
# Chains longer than this are not followed (a cycle of foreign keys would never end).
MAX_CHAIN = 6


@dataclass(frozen=True)
class Kind:
    """One kind of a user's data: a model and the queryset of one user's rows."""

    name: str
    model: type[models.Model]
    rows: Callable[[Any], models.QuerySet]
    count: Callable[[Any], int] | None = None
    erase: Callable[[Any], object] | None = None
    erased_with: str = ""
    description: str = ""

    def count_for(self, user) -> int:
        """Return how much of this kind the user has (rows, unless ``count`` says otherwise)."""
        return int(self.count(user) if self.count else self.rows(user).count())

    def erase_for(self, user) -> None:
        """Delete the user's rows of this kind (nothing when another kind erases them)."""
        if self.erased_with:
            return
        if self.erase:
            self.erase(user)
        else:
            self.rows(user).delete()


@dataclass(frozen=True)
class UserData:
    """What one app holds about a user: its kinds, in erase order (dependants first)."""

    app_label: str
    kinds: tuple[Kind, ...]
    texts: Callable[[Any], Iterable[str]] | None = None


_registry: dict[str, UserData] = {}
_kept: dict[str, str] = {}


def register(declaration: UserData) -> None:
    """Add (or replace) an app's declaration; kind names must be unique across apps."""
    names = [k.name for k in declaration.kinds]
    if len(set(names)) != len(names) or CACHE_KIND in names:
        raise ImproperlyConfigured(f"{declaration.app_label}: kind names must be unique.")
    for kind in declaration.kinds:
        if kind.erased_with and kind.erased_with not in names:
            raise ImproperlyConfigured(
                f"{declaration.app_label}.{kind.name}: erased_with names no kind of this app."
            )
    taken = {k.name: d.app_label for d in _registry.values() for k in d.kinds}
    for name in names:
        owner = taken.get(name)
        if owner and owner != declaration.app_label:
            raise ImproperlyConfigured(f"Kind {name!r} is already declared by {owner}.")
    _registry[declaration.app_label] = declaration


def unregister(app_label: str) -> None:
    """Drop an app's declaration (tests)."""
    _registry.pop(app_label, None)


def keep(model_label: str, reason: str) -> None:
    """Record a model that holds user data but is kept on erasure on purpose, and why."""
    _kept[model_label.lower()] = reason


def kept() -> dict[str, str]:
    """Return ``{model label: why it is kept}``."""
    return dict(_kept)


def declarations() -> list[UserData]:
    """Return the declarations in registration order (the order of ``INSTALLED_APPS``)."""
    return list(_registry.values())


def kinds() -> list[Kind]:
    """Return every declared kind, app by app, in erase order."""
    return [kind for d in declarations() for kind in d.kinds]


def report_keys() -> list[str]:
    """Return the keys of an erasure report: every declared kind, then ``embedding_cache``."""
    return [k.name for k in kinds()] + [CACHE_KIND]


def user_texts(user) -> Iterable[str]:
    """Yield every text of the user that any app may have embedded through the shared cache."""
    return itertools.chain.from_iterable(d.texts(user) for d in declarations() if d.texts)


def user_data_count(*, user) -> dict[str, int]:
    """Return what erasing the user would remove, per kind (nothing is written)."""
    from rag.embeddings import embedding_cache_count

    counts = {kind.name: kind.count_for(user) for kind in kinds()}
    counts[CACHE_KIND] = embedding_cache_count(texts=user_texts(user))
    return counts


def user_data_erase(*, user) -> dict[str, int]:
    """Erase everything every app declared about the user, in one transaction; return counts.

    The counts are taken before anything is deleted (a cascade cannot move rows between kinds);
    the cached vectors of the user's texts go first, while their texts can still be read. The
    account itself is not a declared kind: deleting it is the auth system's job.
    """
    from rag.embeddings import embedding_cache_forget

    with transaction.atomic():
        counts = {kind.name: kind.count_for(user) for kind in kinds()}
        counts[CACHE_KIND] = embedding_cache_forget(texts=user_texts(user))
        for kind in kinds():
            kind.erase_for(user)
    return counts


# --- finding the models that hold a user's data ---------------------------------------------


def _is_user_model(target, user_model) -> bool:
    if isinstance(target, str):  # a lazy reference not resolved in this registry
        return target.lower() == user_model._meta.label_lower
    return target is not None and issubclass(target, user_model)


def _user_model_columns(model, user_model) -> list[str]:
    names = []
    for f in model._meta.get_fields():
        if f.auto_created and not f.concrete:
            continue  # reverse relations: the other model is the one holding the data
        if f.is_relation:
            if _is_user_model(f.related_model, user_model):
                names.append(f.name)
        elif (
            getattr(f, "concrete", False)
            and USER_COLUMN.match(f.name)
            and f.get_internal_type() in _COLUMN_TYPES
        ):
            names.append(f.name)
    return names


def user_data_paths(model_list=None) -> dict[type[models.Model], list[str]]:
    """Return ``{model: [lookup, ...]}`` for every model that holds a user's data.

    A lookup reaches the user from the model: a field related to the user model (foreign key,
    one-to-one, many-to-many), a user-id column without a foreign key (an integer, char or UUID
    field named ``user_id``, ``owner``, ``author_id``, ``creator_id``...), or a chain of foreign
    keys to a model that has one (``parent__chapter__book__owner``). The user model itself, proxy
    and abstract models are left out.
    """
    user_model = get_user_model()
    candidates = [
        m
        for m in (apps.get_models() if model_list is None else model_list)
        if not m._meta.proxy and not m._meta.abstract and not issubclass(m, user_model)
    ]
    paths: dict[type[models.Model], list[str]] = {}
    for m in candidates:
        direct = _user_model_columns(m, user_model)
        if direct:
            paths[m] = direct
    for _ in range(MAX_CHAIN):
        grown = False
        for m in candidates:
            for f in m._meta.concrete_fields:
                target = f.related_model if (f.many_to_one or f.one_to_one) else None
                if target is None or target is m or target not in paths:
                    continue
                for tail in paths[target]:
                    lookup = f"{f.name}__{tail}"
                    if lookup.count("__") < MAX_CHAIN and lookup not in paths.get(m, []):
                        paths.setdefault(m, []).append(lookup)
                        grown = True
        if not grown:
            break
    return paths


def reaching(model, lookups: Iterable[str], user) -> models.QuerySet:
    """Return the rows of ``model`` that reach the user through any of the lookups."""
    conditions = []
    for lookup in lookups:
        f = _last_field(model, lookup)
        if f.is_relation:
            conditions.append(models.Q(**{lookup: user.pk}))
        elif f.get_internal_type() in ("CharField", "UUIDField"):
            values = {str(user.pk), user.get_username()}
            conditions.append(models.Q(**{f"{lookup}__in": sorted(values)}))
        else:
            conditions.append(models.Q(**{lookup: user.pk}))
    condition = functools.reduce(operator.or_, conditions)
    return model._default_manager.filter(condition).distinct()


def _last_field(model, lookup: str):
    parts = lookup.split("__")
    for name in parts[:-1]:
        model = model._meta.get_field(name).related_model
    return model._meta.get_field(parts[-1])


def covered_models() -> set[type[models.Model]]:
    """Return the models some declared kind erases (not only measures)."""
    return {k.model for k in kinds() if not k.erased_with}


def undeclared(model_list=None) -> dict[type[models.Model], list[str]]:
    """Return the models holding user data that no kind erases and none is kept, with lookups."""
    covered = covered_models()
    return {
        m: lookups
        for m, lookups in user_data_paths(model_list).items()
        if m not in covered and m._meta.label_lower not in _kept
    }

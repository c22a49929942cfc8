"""One registry of the user data every app holds, used by erasure (and export) alike.

Each app declares, from its ``AppConfig.ready``, the kinds of a user's data it stores::

    register(UserData("writing", kinds=(Kind("books", Book, "owner"), ...), texts=...))

A :class:`Kind` names a model and the queryset of one user's rows of it (``rows``), how to
count them (default: ``rows(user).count()``) and how to erase them (default:
``rows(user).delete()``). A kind with ``erased_with`` is a measure of rows another kind erases
(the vectors on message rows, the interest vectors inside a working memory): it is counted and
reported, and checked empty afterwards, but not deleted on its own. ``texts`` yields every text
of the user the app may have embedded through the engine's shared cache, so erasure can forget
those cached vectors: the engine registers that cache with :func:`register_text_cache` (the
platform imports no engine).

:func:`user_data_erase` runs every declaration in one transaction and returns the counts per
kind (every declared kind, plus ``embedding_cache``). An export can stream the same
``rows(user)`` querysets that erasure counts.

Erasure is complete by construction: :func:`user_data_paths` finds every installed model that
holds a user's data (a relation to the user model, a user-id column, or a foreign-key chain to
such a model), and the system check ``platform.E010`` (and the tests) fail when one is neither
declared here nor explicitly kept with :func:`keep`.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.exceptions import ImproperlyConfigured
from django.db import models, transaction
from django.db.models import CharField
from django.db.models.functions import Cast
from django.utils import timezone
from django_q.models import OrmQ, Schedule, Task

from config.queues import BULK, QUEUES, cluster_config, enqueue_later, task_ids

CACHE_KIND = "embedding_cache"
# Beyond the apps' kinds, erasure removes: the admin's log entries about the user's rows (or
# made by the user), the django-q rows of tasks naming the user's rows, and the account itself
# with its API token and sessions.
ADMIN_LOG_KIND = "admin_log_entries"
TASKS_KIND = "task_rows"
ACCOUNT_KIND = "account"
EXTRA_KINDS = (ADMIN_LOG_KIND, TASKS_KIND, ACCOUNT_KIND)
# After the erasure, the cached vectors of the user's texts are forgotten once more when every
# task that was running during it has ended (its worker timeout) plus this margin: an embedding
# task that read a row before the erasure may store its vector in the cache after it.
LATE_CACHE_MARGIN_SECONDS = 60

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
    """One kind of a user's data: a model and the queryset of one user's rows.

    ``rows`` is a callable of the user, or the lookup from the model to the user
    (``"book__owner"``: ``Model.objects.filter(book__owner=user)``).
    """

    name: str
    model: type[models.Model]
    rows: Callable[[Any], models.QuerySet] | str
    count: Callable[[Any], int] | None = None
    erase: Callable[[Any], object] | None = None
    erased_with: str = ""
    description: str = ""
    # Columns an export leaves out although they are the user's rows (a webhook's signing
    # secret: a credential, not data about the user).
    left_out: tuple[str, ...] = ()

    def __post_init__(self):
        if isinstance(self.rows, str):
            lookup, manager = self.rows, self.model.objects
            object.__setattr__(self, "rows", lambda user: manager.filter(**{lookup: user}))

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
class TextCache:
    """A store of values made from users' texts (the engine's embedding cache), keyed by text.

    ``count(texts)`` and ``forget(texts)`` (in the caller's transaction) return rows; ``keys``
    returns the stable keys of texts (content hashes), and ``forget_late`` is the dotted path of
    a task that forgets by those keys once every task running during an erasure has ended.
    """

    count: Callable[[Iterable[str]], int]
    forget: Callable[[Iterable[str]], int]
    keys: Callable[[Iterable[str]], list[str]]
    forget_late: str


@dataclass(frozen=True)
class UserData:
    """What one app holds about a user: its kinds, in erase order (dependants first)."""

    app_label: str
    kinds: tuple[Kind, ...]
    texts: Callable[[Any], Iterable[str]] | None = None
    # The app's background tasks whose first argument is an id (or a list of ids) of a model:
    # ``{"memory.tasks.messages_embed": ChatMessage}``; ``None`` for the user model. Erasure
    # deletes the django-q rows (queued, scheduled, finished) of those naming the user's rows.
    tasks: dict[str, type[models.Model] | None] | None = None


_registry: dict[str, UserData] = {}
_kept: dict[str, str] = {}
_text_caches: list[TextCache] = []


def register_text_cache(cache: TextCache) -> None:
    """Add a store keyed by users' texts that erasure forgets and counts as ``embedding_cache``."""
    if cache not in _text_caches:
        _text_caches.append(cache)


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
    """Return the keys of an erasure report: every declared kind, then what erasure adds."""
    return [k.name for k in kinds()] + [CACHE_KIND, *EXTRA_KINDS]


def user_texts(user) -> Iterable[str]:
    """Yield every text of the user that any app may have embedded through the shared cache."""
    return itertools.chain.from_iterable(d.texts(user) for d in declarations() if d.texts)


def user_data_count(*, user) -> dict[str, int]:
    """Return what erasing the user would remove, per kind (nothing is written)."""
    counts = {kind.name: kind.count_for(user) for kind in kinds()}
    counts[CACHE_KIND] = sum(cache.count(user_texts(user)) for cache in _text_caches)
    counts[ADMIN_LOG_KIND] = admin_log_entries(user).count()
    counts[TASKS_KIND] = sum(len(ids) for ids in task_rows(user).values())
    counts[ACCOUNT_KIND] = 1
    return counts


def user_data_erase(*, user) -> dict[str, int]:
    """Erase everything held about the user, the account too, in one transaction; return counts.

    The counts are taken before anything is deleted (a cascade cannot move rows between kinds);
    the cached vectors of the user's texts go first, while their texts can still be read, and
    are forgotten once more after every task running now has ended (the cache's ``forget_late``).
    The admin's log entries about the user's rows are scrubbed (the text of the object and the
    change message; who did what, when, stays) and those the user made go with the account; the
    django-q rows of tasks naming the user's rows are deleted; then the account, which takes its
    API token with it, and its sessions.
    """
    with transaction.atomic():
        counts = {kind.name: kind.count_for(user) for kind in kinds()}
        late = [(cache, cache.keys(user_texts(user))) for cache in _text_caches]
        counts[CACHE_KIND] = sum(cache.forget(user_texts(user)) for cache in _text_caches)
        log = admin_log_entries(user)
        counts[ADMIN_LOG_KIND] = log.count()
        tasks = task_rows(user)
        counts[TASKS_KIND] = sum(len(ids) for ids in tasks.values())
        counts[ACCOUNT_KIND] = 1
        log.exclude(user=user).update(object_repr=ERASED, change_message="")
        for kind in kinds():
            kind.erase_for(user)
        for model, ids in tasks.items():
            model.objects.filter(pk__in=ids).delete()
        _delete_sessions(user)
        user.delete()  # cascades to its token and the log entries it made
        for cache, keys in late:
            if keys:
                _schedule_late_forget(cache, keys)
    return counts


ERASED = "(erased)"


def _schedule_late_forget(cache: TextCache, keys: list[str]) -> None:
    longest = max(cluster_config(queue).get("timeout") or 0 for queue in QUEUES)
    enqueue_later(
        cache.forget_late,
        keys,
        queue=BULK,
        key=f"rag.erasure_late_forget:{keys[0][:16]}:{len(keys)}",
        delay=longest + LATE_CACHE_MARGIN_SECONDS,
    )


def _delete_sessions(user) -> None:
    """Delete the database sessions logged in as the user (the session table has no user column)."""
    if "django.contrib.sessions" not in settings.INSTALLED_APPS:
        return
    pk = str(user.pk)
    doomed = [
        s.pk
        for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if s.get_decoded().get("_auth_user_id") == pk
    ]
    Session.objects.filter(pk__in=doomed).delete()


def admin_log_entries(user) -> models.QuerySet:
    """Return the admin's log entries made by the user or about one of the user's rows."""
    user_model = get_user_model()
    condition = models.Q(user=user) | models.Q(
        content_type=ContentType.objects.get_for_model(user_model), object_id=str(user.pk)
    )
    for token_model in _token_models():
        keys = (
            token_model.objects.filter(user=user)
            .order_by()
            .annotate(_log_pk=Cast("pk", CharField()))
            .values("_log_pk")
        )
        for m in _with_proxies(token_model):
            ct = ContentType.objects.get_for_model(m, for_concrete_model=False)
            condition |= models.Q(content_type=ct, object_id__in=keys)
    for kind in kinds():
        ids = kind.rows(user).order_by().annotate(_log_pk=Cast("pk", CharField())).values("_log_pk")
        for m in _with_proxies(kind.model):
            ct = ContentType.objects.get_for_model(m, for_concrete_model=False)
            condition |= models.Q(content_type=ct, object_id__in=ids)
    return LogEntry.objects.filter(condition)


def _token_models() -> list[type[models.Model]]:
    """Return the models of API tokens the admin may have logged: ours and DRF's legacy one."""
    found = [apps.get_model("platform", "ApiToken")] if apps.is_installed("config") else []
    if apps.is_installed("rest_framework.authtoken"):
        found.append(apps.get_model("authtoken", "Token"))
    return found


def _with_proxies(model) -> list[type[models.Model]]:
    """Return ``model`` and its proxies (the admin logs a proxy's own content type)."""
    return [model] + [
        m for m in apps.get_models() if m._meta.proxy and m._meta.concrete_model is model
    ]


def _concerns(user, model, ids: list[int]) -> bool:
    if not ids:
        return False
    if model is None:
        return user.pk in ids
    return any(k.rows(user).filter(pk__in=ids).exists() for k in kinds() if k.model is model)


def task_rows(user) -> dict[type[models.Model], list]:
    """Return ``{django-q model: [pk, ...]}``: the queued, scheduled and finished task rows
    whose first argument names one of the user's rows (their payloads carry those ids)."""
    declared = {}
    for d in declarations():
        declared.update(d.tasks or {})
    if not declared:
        return {}
    found: dict[type[models.Model], list] = {}
    rows = Task.objects.filter(func__in=list(declared)).only("pk", "func", "args")
    for row in rows.iterator():
        if _concerns(user, declared[row.func], task_ids(row.args or ())):
            found.setdefault(Task, []).append(row.pk)
    for row in OrmQ.objects.only("pk", "payload").iterator():
        try:
            task = row.task
        except Exception:  # noqa: BLE001 - a payload signed with another key: not ours to read
            continue
        func = task.get("func")
        if func in declared and _concerns(user, declared[func], task_ids(task.get("args"))):
            found.setdefault(OrmQ, []).append(row.pk)
    for row in Schedule.objects.filter(func__in=list(declared)).only("pk", "func", "args"):
        try:
            args = ast.literal_eval(row.args) if row.args else ()
        except (ValueError, SyntaxError):
            continue
        if _concerns(user, declared[row.func], task_ids(args)):
            found.setdefault(Schedule, []).append(row.pk)
    return found


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

"""The data the fuzz suite works on, written through the API of a running server.

Two normal users (``fuzz-alice``, ``fuzz-bob``) each get messages in two chats, a preference,
a feedback, a shared context, a book with a chapter, an active and a draft activity; every
private text they own carries their marker (:data:`tests.fuzz.seed.MARKERS`) so a test can tell
whose data a response shows. Only the active activity, public by design, carries
``public_marker`` instead. ``fuzz-staff`` acts for alice. :meth:`World.ensure` puts back what a
fuzzed DELETE removed; :meth:`World.restore_accounts` puts back an account a fuzzed erasure
(``DELETE /v1/users/{user_id}``) deleted, with the same token, so later requests keep their
credentials; :meth:`World.adapt` points most generated ids at these objects so the fuzzer
reaches past NOT_FOUND.
"""

from __future__ import annotations

import functools
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import httpx

from tests.fuzz.seed import MARKERS

SHANGHAI = {"lat": 31.2304, "lng": 121.4737}
OWNER = "fuzz-alice"  # whose data path and body ids point at, for both roles
OTHER = "fuzz-bob"
STAFF = "fuzz-staff"
TIMEOUT = 120  # the first request of the server loads the embedding model


@functools.cache
def load_schema() -> dict:
    """Return the service's OpenAPI schema, built in this process (what /api/schema/ serves)."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    raw = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(raw, renderer_context={}))


@dataclass
class Account:
    """One user of the fuzz server: its token and the ids of what it owns."""

    username: str
    token: str
    staff: bool
    marker: str
    ids: dict = field(default_factory=dict)

    @property
    def public_marker(self) -> str:
        return f"public-{self.username}"

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Token {self.token}"}

    @property
    def message_ids(self) -> list[str]:
        return [f"{self.username}-m{i}" for i in range(1, 5)]

    @property
    def chat_ids(self) -> list[str]:
        return [f"{self.username}-chat-1", f"{self.username}-chat-2"]


def _pick(pool: list, value) -> object:
    """Return a value of ``pool`` for three generated values in four, else ``value`` itself.

    The choice depends only on the generated value, so a run is reproducible.
    """
    slot = zlib.crc32(repr(value).encode("utf-8", "surrogatepass")) % 4
    return value if slot == 3 or not pool else pool[slot % len(pool)]


class World:
    """The fuzz server's users and their objects."""

    def __init__(
        self,
        base_url: str,
        accounts: dict[str, dict],
        seeder: Callable[[dict[str, str] | None], dict],
    ):
        """``seeder`` (re)creates the accounts in the server's database, given their token keys
        (:func:`tests.fuzz.seed.create`), and returns them."""
        self.base_url = base_url
        self.seeder = seeder
        self.accounts = {
            name: Account(name, info["token"], info["staff"], MARKERS[name])
            for name, info in accounts.items()
        }
        self.http = httpx.Client(base_url=base_url, timeout=TIMEOUT)
        # Fixed once: rewriting a message with another ts would be a CONFLICT.
        self.epoch = datetime.now(UTC).replace(microsecond=0)
        self.dirty = True  # whether ensure() must run before the next test

    def close(self) -> None:
        self.http.close()

    # --- writing through the API -------------------------------------------------------------

    def call(self, account: Account, method: str, path: str, **kwargs) -> httpx.Response:
        """Send one request as ``account``."""
        return self.http.request(method, path, headers=account.headers, **kwargs)

    def _ok(self, account: Account, method: str, path: str, **kwargs) -> dict:
        response = self.call(account, method, path, **kwargs)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json() if response.content else {}

    def seed(self) -> None:
        """Write every normal user's data, then have alice join bob's activity."""
        for name in (OWNER, OTHER):
            self.ensure(name)
        alice, bob = self.accounts[OWNER], self.accounts[OTHER]
        self.call(alice, "POST", f"/api/activities/{bob.ids['activity']}/join/")
        self.dirty = False

    def restore_accounts(self) -> None:
        """Create again, with their token keys, the accounts an erasure deleted.

        Their data is written again lazily: the owner's by :meth:`ensure` before the next test
        (``dirty``), another user's now. The ids of erased objects stay until then (requests
        naming them answer NOT_FOUND, as after any DELETE).
        """
        keys = {name: account.token for name, account in self.accounts.items()}
        for name, info in self.seeder(keys).items():
            account = self.accounts[name]
            assert info["token"] == account.token, (name, "token key not kept")
            if not info["created"]:
                continue
            account.ids.pop("feedback", None)  # ensure() writes it when it has no id
            if name == OWNER:
                self.dirty = True
            elif not account.staff:
                self.ensure(name)

    def _write_messages(self, account: Account, user_path: str, items: list[dict]) -> None:
        """Write the seed messages; put back the content, role and speaker of one a PATCH
        changed."""
        by_id = {item["message_id"]: item for item in items}
        for _ in range(len(items) + 1):
            response = self.call(account, "POST", f"{user_path}/messages", json={"items": items})
            if response.status_code != 409:
                break
            # Rewriting a message with other content is a CONFLICT: restore the seed's first.
            item = by_id[response.json()["error"]["details"]["message_id"]]
            self._ok(
                account,
                "PATCH",
                f"{user_path}/messages/{item['message_id']}",
                json={
                    "content": item["content"],
                    "role": item["role"],
                    "speaker": item.get("speaker", ""),
                },
            )
        assert response.status_code < 300, (user_path, response.status_code, response.text)

    def ensure(self, username: str) -> None:
        """Write (again) whatever of the user's data is missing; idempotent."""
        account = self.accounts[username]
        marker = account.marker
        now = self.epoch
        contents = [
            f"周末想去爬山，最好是莫干山 {marker}",
            f"好的，我帮你找找周末的户外活动 {marker}",
            f"我不吃辣，喜欢安静的地方 {marker}",
            f"Reading a novel about whales tonight {marker}",
        ]
        items = [
            {
                "message_id": message_id,
                "ts": (now - timedelta(minutes=10 - i)).isoformat(),
                "role": "assistant" if i == 1 else "user",
                "content": contents[i],
                "chat_id": account.chat_ids[0 if i < 3 else 1],
            }
            for i, message_id in enumerate(account.message_ids)
        ]
        user_path = f"/v1/users/{username}"
        self._write_messages(account, user_path, items)
        self._ok(
            account,
            "POST",
            f"{user_path}/preferences",
            json={"category": "food", "value": f"不吃辣 {marker}"},
        )
        if "feedback" not in account.ids:
            account.ids["feedback"] = self._ok(
                account,
                "POST",
                f"{user_path}/feedback",
                json={
                    "target_message_id": account.message_ids[1],
                    "rating": 1,
                    "comment": f"helpful {marker}",
                },
            )["id"]
        if not self._exists(account, f"/v1/contexts/{account.ids.get('context', 0)}"):
            account.ids["context"] = self._ok(
                account,
                "POST",
                "/v1/contexts",
                json={"title": f"plan {marker}", "entry": f"first {marker}", "agent_name": "fz"},
            )["id"]
        if not self._exists(account, f"/api/chapters/{account.ids.get('chapter', 0)}/"):
            book = self._ok(account, "POST", "/api/books/", json={"title": f"鲸 {marker}"})
            chapter = self._ok(
                account,
                "POST",
                "/api/chapters/",
                json={
                    "book": book["id"],
                    "title": f"第一章 {marker}",
                    "sequence": 1,
                    "blocks": [
                        {"content": f"海面很平静，鲸鱼在远处喷水。{marker}"},
                        {"content": f"船长说今晚会起风。{marker}"},
                    ],
                },
            )
            account.ids.update(book=book["id"], chapter=chapter["id"])
        for key, status in (("activity", "active"), ("draft", "draft")):
            label = account.public_marker if status == "active" else marker
            if not self._exists(account, f"/api/activities/{account.ids.get(key, 0)}/"):
                account.ids[key] = self._ok(
                    account,
                    "POST",
                    "/api/activities/",
                    json={
                        "title": f"莫干山徒步 {label}",
                        "description": f"周末一起爬山 {label}",
                        "type": "户外",
                        "tags": ["徒步"],
                        "start_at": (now + timedelta(days=3)).isoformat(),
                        "location": SHANGHAI,
                        "location_name": "人民广场",
                        "max_participants": 10,
                        "status": status,
                    },
                )["id"]
        if username == OWNER:
            self.dirty = False

    def _exists(self, account: Account, path: str) -> bool:
        response = self.call(account, "GET", path)
        assert response.status_code in (200, 404), (path, response.status_code, response.text)
        return response.status_code == 200

    # --- steering generated cases ------------------------------------------------------------

    def adapt(self, case) -> None:
        """Point most generated ids of ``case`` at the owner's objects (path and JSON body)."""
        owner, other = self.accounts[OWNER], self.accounts[OTHER]
        pools = {
            "user_id": [owner.username],
            "activity_id": [owner.ids["activity"], other.ids["activity"], owner.ids["draft"]],
            "book_id": [owner.ids["book"]],
            "chapter_id": [owner.ids["chapter"]],
            "context_id": [owner.ids["context"]],
            "message_id": owner.message_ids,
            "chat_id": owner.chat_ids,
        }
        for name, value in list(case.path_parameters.items()):
            if name in pools:
                case.path_parameters[name] = _pick(pools[name], value)
        if isinstance(case.body, dict):
            body_pools = {
                "user_id": pools["user_id"],
                "book": pools["book_id"],
                "target_message_id": owner.message_ids,
                "chat_id": owner.chat_ids,
                "context_id": pools["context_id"],
            }
            for name, value in list(case.body.items()):
                if name in body_pools:
                    case.body[name] = _pick(body_pools[name], value)
            if isinstance(case.body.get("chapters"), list):
                case.body["chapters"] = _pick([[owner.ids["chapter"]]], case.body["chapters"])

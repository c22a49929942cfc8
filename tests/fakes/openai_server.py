"""A real HTTP server speaking enough of OpenAI's protocol to test providers against.

    with FakeOpenAIServer() as srv:
        provider = OpenAIEmbeddingProvider(base_url=srv.base_url, model="m", dimensions=1536)
        provider.embed(["hello"])
        srv.requests  # [(path, headers, json_body), ...]

Knobs (set them before the request they should affect):

- ``srv.script.append((status, body_or_None, headers_or_None))`` answers the next
  request, whatever its path, with that status and JSON body; status 0 closes
  the connection without answering (a transport error for the client).
- ``srv.chat_script.append({"content": "..."})`` or
  ``{"tool_calls": [{"name": ..., "arguments": {...} or "raw json"}]}`` scripts
  the next assistant turn; when empty the reply is ``"(fake) " + last user message``.
  A turn may also set ``"finish_reason"``, ``"truncate": True`` to end a
  stream before its finish_reason and ``[DONE]``, and ``"error": "message"`` to send an error
  event after the first piece of content instead of the rest.
- ``srv.require_key = "sk-test"`` answers 401 to requests without that bearer key.
- ``srv.dimensions`` (default 1536), ``srv.embed_fn(texts) -> vectors`` and
  ``srv.reverse_order`` shape the embeddings answer.
- ``srv.fail_status = 500`` answers every later request with that status (an outage) until
  set back to None; ``srv.delay = 10.0`` sleeps that long before answering (a slow provider).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

STREAM_PIECE = 4  # characters per streamed content/arguments fragment


def fake_vector(text: str, dimensions: int) -> list[float]:
    """Return the deterministic unit vector the fake server gives ``text``."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    vector = np.random.default_rng(seed).standard_normal(dimensions)
    return (vector / np.linalg.norm(vector)).astype(np.float32).tolist()


def _pieces(text: str, size: int = STREAM_PIECE) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class FakeOpenAIServer:
    """Serve ``/v1/embeddings`` and ``/v1/chat/completions`` on 127.0.0.1."""

    def __init__(self, *, dimensions: int = 1536, require_key: str | None = None):
        self.dimensions = dimensions
        self.require_key = require_key
        self.embed_fn: Callable[[list[str]], list] | None = None
        self.reverse_order = False
        self.fail_status: int | None = None
        self.delay = 0.0
        self.script: list[tuple] = []
        self.chat_script: list[dict] = []
        self.requests: list[tuple[str, Message, dict | None]] = []
        self.lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._calls = 0

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        """Start serving on an ephemeral port in a daemon thread."""
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        # A short poll interval keeps shutdown (once per test) from costing half a second.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join(timeout=5)
            self._httpd = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- helpers for tests -------------------------------------------------------

    def bodies(self, path: str | None = None) -> list[dict | None]:
        """Return the JSON bodies received (optionally only for one path)."""
        with self.lock:
            return [body for p, _, body in self.requests if path is None or p == path]

    def vector(self, text: str, dimensions: int | None = None) -> list[float]:
        """Return the vector this server gives ``text``."""
        return fake_vector(text, dimensions or self.dimensions)

    def _next_scripted(self):
        with self.lock:
            return self.script.pop(0) if self.script else None

    def _next_turn(self) -> dict | None:
        with self.lock:
            return self.chat_script.pop(0) if self.chat_script else None

    def _call_id(self) -> str:
        with self.lock:
            self._calls += 1
            return f"call_{self._calls}"


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAIServer  # set on the subclass made per server
    server_version = "FakeOpenAI/1.0"

    def log_message(self, format, *args):  # keep test output clean
        pass

    # -- plumbing ------------------------------------------------------------------

    def _send_json(self, status: int, body, headers: dict | None = None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, str(value))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status: int, message: str, code: str | None = None) -> None:
        error = {"message": message, "type": "invalid_request_error", "param": None, "code": code}
        self._send_json(status, {"error": error})

    def do_GET(self):
        self._record(None)
        if self.path.rstrip("/") == "/v1/models":
            return self._send_json(200, {"object": "list", "data": []})
        self._error(404, f"Unknown path {self.path}")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self._record(body)
        if self.fake.delay:
            time.sleep(self.fake.delay)
        if self.fake.fail_status is not None:
            return self._error(self.fake.fail_status, "The server had an error (fake outage).")

        scripted = self.fake._next_scripted()
        if scripted is not None:
            status, payload, headers = (tuple(scripted) + (None, None))[:3]
            if status == 0:  # drop the connection without a response
                self.close_connection = True
                self.connection.close()
                return
            return self._send_json(status, payload, headers)

        key = self.fake.require_key
        if key is not None and self.headers.get("Authorization") != f"Bearer {key}":
            given = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            return self._error(
                401,
                f"Incorrect API key provided: {given[:3]}***. You can find your API key at "
                "https://platform.openai.com/account/api-keys.",
                "invalid_api_key",
            )
        if not isinstance(body, dict):
            return self._error(400, "We could not parse the JSON body of your request.")
        path = self.path.rstrip("/")
        if path == "/v1/embeddings":
            return self._embeddings(body)
        if path == "/v1/chat/completions":
            return self._chat(body)
        self._error(404, f"Unknown path {self.path}")

    def _record(self, body) -> None:
        with self.fake.lock:
            # The message itself: header names are case-insensitive, as in HTTP.
            self.fake.requests.append((self.path, self.headers, body))

    # -- embeddings ------------------------------------------------------------------

    def _embeddings(self, body: dict) -> None:
        texts = body.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not texts:
            return self._error(400, "'input' is a required property")
        if any(not isinstance(t, str) or t == "" for t in texts):
            return self._error(400, "'$.input' is invalid.")
        dimensions = body.get("dimensions") or self.fake.dimensions
        if self.fake.embed_fn is not None:
            vectors = [list(map(float, v)) for v in self.fake.embed_fn(texts)]
        else:
            vectors = [fake_vector(text, dimensions) for text in texts]
        data = [
            {"object": "embedding", "index": i, "embedding": vector}
            for i, vector in enumerate(vectors)
        ]
        if self.fake.reverse_order:
            data.reverse()
        tokens = sum(len(t.split()) for t in texts)
        self._send_json(
            200,
            {
                "object": "list",
                "data": data,
                "model": body.get("model", ""),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    # -- chat ------------------------------------------------------------------------

    def _turn(self, body: dict) -> dict:
        turn = self.fake._next_turn()
        if turn is not None:
            return turn
        last_user = ""
        for message in body.get("messages") or []:
            if message.get("role") == "user":
                content = message.get("content")
                last_user = content if isinstance(content, str) else json.dumps(content)
        return {"content": f"(fake) {last_user}"}

    def _tool_calls(self, turn: dict) -> list[dict]:
        calls = []
        for call in turn.get("tool_calls") or []:
            arguments = call.get("arguments", {})
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments)
            calls.append(
                {
                    "id": call.get("id") or self.fake._call_id(),
                    "type": "function",
                    "function": {"name": call["name"], "arguments": arguments},
                }
            )
        return calls

    def _chat(self, body: dict) -> None:
        if not body.get("messages"):
            return self._error(400, "'messages' is a required property")
        turn = self._turn(body)
        content = turn.get("content")
        calls = self._tool_calls(turn)
        finish = turn.get("finish_reason") or ("tool_calls" if calls else "stop")
        base = {
            "id": f"chatcmpl-{int(time.time() * 1000)}",
            "created": int(time.time()),
            "model": body.get("model", ""),
        }
        if body.get("stream"):
            return self._chat_stream(base, content, calls, finish, turn)
        message: dict = {"role": "assistant", "content": content if content or not calls else None}
        if calls:
            message["tool_calls"] = calls
        self._send_json(
            200,
            {
                **base,
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )

    def _chat_stream(self, base: dict, content, calls: list[dict], finish: str, turn: dict) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.close_connection = True  # HTTP/1.0: the end of the body is the closed socket
        try:
            for chunk in self._stream_chunks(base, content, calls, finish, turn):
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading early, which clients may do

    def _stream_chunks(self, base, content, calls, finish, turn):
        def chunk(delta: dict, finish_reason=None) -> bytes:
            body = {
                **base,
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
            }
            return f"data: {json.dumps(body)}\n\n".encode()

        yield chunk({"role": "assistant", "content": ""})
        if content:
            for piece in _pieces(content):
                yield chunk({"content": piece})
                if turn.get("error"):  # the server fails mid-answer, as OpenAI reports it
                    error = {"message": turn["error"], "type": "server_error"}
                    yield f"data: {json.dumps({'error': error})}\n\n".encode()
                    return
        for index, call in enumerate(calls):
            function = call["function"]
            head = {"name": function["name"], "arguments": ""}
            yield chunk(
                {
                    "tool_calls": [
                        {"index": index, "id": call["id"], "type": "function", "function": head}
                    ]
                }
            )
            for piece in _pieces(function["arguments"]):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        if turn.get("truncate"):  # a connection lost mid-answer: no finish_reason, no [DONE]
            return
        yield chunk({}, finish)
        yield b"data: [DONE]\n\n"

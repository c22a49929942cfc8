"""``manage.py mcp``: serve the MCP tools over stdio (the caller's token) or streamable HTTP."""

from __future__ import annotations

import logging
from pathlib import Path

import anyio
import uvicorn
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from mcp.server.stdio import stdio_server

from config.env import env_str, read_secret_file
from mcp_server import server
from mcp_server.identity import user_for_token

TOKEN_ENV = "MCP_TOKEN"
TOKEN_FLAG_DEPRECATED = (
    "--token puts the key on the command line, where other users of this machine can read it "
    "(ps, /proc); it will be removed. Set MCP_TOKEN in the environment or pass --token-file "
    "PATH (mode 0600) instead."
)


class Command(BaseCommand):
    help = (
        "Serve the MCP tools. stdio (for a local MCP client): the caller's API token from the "
        "MCP_TOKEN environment variable or --token-file PATH (a file only its owner can read). "
        "Streamable HTTP: --http [--host H] [--port P]; each request then carries "
        "'Authorization: Bearer KEY'."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--token-file", type=Path, help="stdio: a file (mode 0600) holding the API token."
        )
        parser.add_argument("--token", help="Deprecated (visible to other users): use MCP_TOKEN.")
        parser.add_argument("--http", action="store_true", help="Serve streamable HTTP.")
        parser.add_argument("--host", default="127.0.0.1", help="HTTP: address to bind.")
        parser.add_argument("--port", type=int, default=8765, help="HTTP: port to bind.")

    def handle(self, *args, token, token_file, http, host, port, **options):
        # The SDK logs every stateless HTTP request at INFO; keep its warnings.
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
        if http:
            if token or token_file:
                raise CommandError("A token is for stdio; over HTTP each request brings its own.")
            self._serve_http(host, port)
            return
        token = self._stdio_token(token, token_file)
        user = user_for_token(token)
        if user is None:
            raise CommandError("That API token is not valid.")
        # stdout is the protocol's: everything human goes to stderr.
        server.warm_up()
        self.stderr.write(f"MCP over stdio for {user.get_username()!r}.")
        anyio.run(self._serve_stdio, token)

    def _stdio_token(self, flag: str | None, path: Path | None) -> str:
        """Return the stdio caller's key: --token-file, else MCP_TOKEN, else --token (warned)."""
        given = [name for name, v in (("--token-file", path), ("--token", flag)) if v]
        if len(given) > 1:
            raise CommandError("Give one of --token-file or --token, not both.")
        if path is not None:
            try:
                return read_secret_file(path, "--token-file")
            except ImproperlyConfigured as exc:
                raise CommandError(str(exc)) from None
        if flag:
            self.stderr.write(f"Warning: {TOKEN_FLAG_DEPRECATED}")
            return flag
        from_env = env_str(TOKEN_ENV)
        if from_env:
            return from_env.strip()
        raise CommandError(
            f"Set {TOKEN_ENV} to an API token (see `manage.py issue_token`) or pass "
            "--token-file PATH; or use --http."
        )

    @staticmethod
    async def _serve_stdio(token: str) -> None:
        mcp = server.build_server(stdio_token=token)
        async with stdio_server() as (read_stream, write_stream):
            await mcp.run(read_stream, write_stream, mcp.create_initialization_options())

    def _serve_http(self, host: str, port: int) -> None:
        server.warm_up()
        self.stderr.write(f"MCP streamable HTTP on http://{host}:{port}{server.HTTP_PATH}")
        uvicorn.run(server.http_app(host=host), host=host, port=port, log_level="warning")

"""``manage.py mcp``: serve the MCP tools over stdio (``--token``) or streamable HTTP."""

from __future__ import annotations

import logging

import anyio
from django.core.management.base import BaseCommand, CommandError

from mcp_server import server
from mcp_server.identity import user_for_token


class Command(BaseCommand):
    help = (
        "Serve the MCP tools. stdio (for a local MCP client): --token KEY, the caller's API "
        "token. Streamable HTTP: --http [--host H] [--port P]; each request then carries "
        "'Authorization: Bearer KEY'."
    )

    def add_arguments(self, parser):
        parser.add_argument("--token", help="stdio: the API token of the user to act for.")
        parser.add_argument("--http", action="store_true", help="Serve streamable HTTP.")
        parser.add_argument("--host", default="127.0.0.1", help="HTTP: address to bind.")
        parser.add_argument("--port", type=int, default=8765, help="HTTP: port to bind.")

    def handle(self, *args, token, http, host, port, **options):
        # The SDK logs every stateless HTTP request at INFO; keep its warnings.
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
        if http:
            if token:
                raise CommandError("--token is for stdio; over HTTP each request brings its own.")
            self._serve_http(host, port)
            return
        if not token:
            raise CommandError("Give --token KEY (see `manage.py issue_token`), or use --http.")
        user = user_for_token(token)
        if user is None:
            raise CommandError("That API token is not valid.")
        # stdout is the protocol's: everything human goes to stderr.
        server.warm_up()
        self.stderr.write(f"MCP over stdio for {user.get_username()!r}.")
        anyio.run(self._serve_stdio, token)

    @staticmethod
    async def _serve_stdio(token: str) -> None:
        from mcp.server.stdio import stdio_server

        mcp = server.build_server(stdio_token=token)
        async with stdio_server() as (read_stream, write_stream):
            await mcp.run(read_stream, write_stream, mcp.create_initialization_options())

    def _serve_http(self, host: str, port: int) -> None:
        import uvicorn

        server.warm_up()
        self.stderr.write(f"MCP streamable HTTP on http://{host}:{port}{server.HTTP_PATH}")
        uvicorn.run(server.http_app(host=host), host=host, port=port, log_level="warning")

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from config.errors import ServiceError
from memory.services import messages_import


class Command(BaseCommand):
    help = (
        "Import a user's chat history from another system: a JSON Lines file (- for standard "
        "input), one message a line with the fields of a POST /v1/users/{user_id}/messages "
        "item and, optionally, stored_at (RFC 3339): when that system stored it. Retention "
        "counts from stored_at, so history already past the retention period is summarised "
        "and its turns removed by the next sweep. All or nothing; prints the counts."
    )

    def add_arguments(self, parser):
        parser.add_argument("username", help="the user the history belongs to (must exist)")
        parser.add_argument("path", help="the JSON Lines file, or - for standard input")

    def handle(self, *args, username: str, path: str, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}: create it first (manage.py issue_token).")
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        try:
            items = [self._line(n, line) for n, line in enumerate(stream, 1) if line.strip()]
        finally:
            if stream is not sys.stdin:
                stream.close()
        if not items:
            raise CommandError("The file holds no message.")
        try:
            result = messages_import(user=user, items=items)
        except ServiceError as exc:
            raise CommandError(f"Nothing imported: {exc.message}") from exc
        self.stdout.write(f"created {result['created']}, unchanged {result['unchanged']}")

    @staticmethod
    def _line(number: int, line: str) -> dict:
        try:
            return json.loads(line)
        except json.JSONDecodeError as exc:
            raise CommandError(f"Line {number} is not JSON: {exc.msg}.") from exc

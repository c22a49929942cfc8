import json

from django.core.management.base import BaseCommand

from memory.retention import retention_run


class Command(BaseCommand):
    help = (
        "Apply chat-message retention now and print the report (counts per kind): due chats "
        "are summarised first, then only messages a summary covers are deleted. --dry-run "
        "changes nothing and prints what a run would do."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="count only; change nothing")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print the report as JSON"
        )

    def handle(self, *args, dry_run: bool, as_json: bool, **options):
        report = retention_run(dry_run=dry_run)
        if as_json:
            self.stdout.write(json.dumps(report.as_dict(), indent=2, ensure_ascii=False))
        else:
            self.stdout.write(report.text())

from django.core.management.base import BaseCommand

from activities.services import activity_vibes_fill


class Command(BaseCommand):
    help = (
        "Give the vibe lexicon's vibes to every activity stored without any (English listings "
        "saved before the English lexicon, issue 30) and queue them for indexing again. Rows "
        "that have vibes are left as they are. Safe to run twice; --dry-run writes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Count, write nothing.")

    def handle(self, *args, dry_run, **options):
        count = activity_vibes_fill(dry_run=dry_run)
        verb = "[dry run] would give vibes to" if dry_run else "gave vibes to"
        self.stdout.write(self.style.SUCCESS(f"{verb} {count} activities without any"))

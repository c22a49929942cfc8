from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the demo data of every app into an empty database (safe to run twice)."

    def handle(self, *args, **options):
        # Each app owns its demo loader; each skips when its data already exists.
        for command in ("activities_load_demo", "writing_load_demo"):
            self.stdout.write(f"== {command}")
            call_command(command, stdout=self.stdout, stderr=self.stderr)

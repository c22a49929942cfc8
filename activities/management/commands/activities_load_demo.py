import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from activities.demo import demo_activities_roll_forward, load_demo_activities
from activities.models import Activity

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "demo_activities.json"


class Command(BaseCommand):
    help = (
        "Load the Chinese demo activities when there are none, embedded in batches; when there "
        "are, move the demo activities that have started forward by whole weeks."
    )

    def add_arguments(self, parser):
        parser.add_argument("--file", default=str(FIXTURE))

    def handle(self, *args, file, **options):
        items = json.loads(Path(file).read_text(encoding="utf-8"))
        if Activity.objects.exists():
            # Demo start times are relative to the load date: keep an old demo searchable.
            creator = get_user_model().objects.filter(username="demo").first()
            moved = demo_activities_roll_forward(items=items, creator=creator) if creator else []
            self.stdout.write(
                f"activities already exist; nothing loaded; moved {len(moved)} past demo "
                "activities forward by whole weeks"
            )
            return
        creator, _ = get_user_model().objects.get_or_create(
            username="demo", defaults={"is_active": True}
        )
        with transaction.atomic():
            created, totals = load_demo_activities(items, creator=creator)
        self.stdout.write(
            self.style.SUCCESS(
                f"loaded {len(created)} demo activities; embedded {totals.processed}, "
                f"errors {totals.errors}"
            )
        )

from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def register_memory_schedules(sender, **kwargs):
    """Schedule the daily retention sweep (idempotent)."""
    # Imported here: django_q.models and config.schedules need the app registry.
    from django_q.models import Schedule

    from config.queues import BULK
    from config.schedules import ensure_schedule

    ensure_schedule(
        "memory.tasks.retention_sweep",
        name="memory.retention_sweep",
        queue=BULK,
        schedule_type=Schedule.DAILY,
    )


def warm_search() -> None:
    """Run one hybrid search for a user with no messages (rag.warmup)."""
    # Imported here: memory.selectors imports models, which need the app registry.
    from memory.selectors import messages_search_hybrid
    from rag.warmup import PROBE_TEXT

    nobody = get_user_model()(id=-1, username="warm-up")  # never saved: matches no row
    messages_search_hybrid(user=nobody, query_text=PROBE_TEXT)


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = _("Chat memory")

    def ready(self):
        # Imported here, not at the top: these modules import models, which need the app registry.
        from config import work
        from config.userdata import register
        from memory import userdata
        from memory.selectors import feedback_ratings, stated_preferences
        from memory.tasks import EMBED_WORK
        from rag.preferences import register_ratings_reader, register_reader
        from rag.warmup import register as warm_up_with

        work.register(EMBED_WORK)  # reconciled by config.tasks.work_reconcile
        post_migrate.connect(register_memory_schedules, sender=self, dispatch_uid="memory.sched")
        register(userdata.declaration())
        warm_up_with(warm_search)
        # Chat-stated preferences reach activity ranking through rag, not an import.
        register_reader("memory", stated_preferences)
        # So do the ratings of the feedback API (a -1 hides an activity from that user).
        register_ratings_reader("memory", feedback_ratings)

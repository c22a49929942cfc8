from django.apps import AppConfig


def register_memory_schedules(sender, **kwargs):
    """Schedule the daily retention sweep (idempotent)."""
    from django_q.models import Schedule

    from rag.queues import BULK
    from rag.schedules import ensure_schedule

    ensure_schedule(
        "memory.tasks.retention_sweep",
        name="memory.retention_sweep",
        queue=BULK,
        schedule_type=Schedule.DAILY,
    )


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Chat memory"

    def ready(self):
        from django.db.models.signals import post_migrate

        from memory import userdata
        from memory.selectors import stated_preferences
        from memory.tasks import EMBED_WORK
        from rag import work
        from rag.preferences import register_reader
        from rag.userdata import register

        work.register(EMBED_WORK)  # reconciled by rag.tasks.work_reconcile
        post_migrate.connect(register_memory_schedules, sender=self, dispatch_uid="memory.sched")
        register(userdata.declaration())
        # Chat-stated preferences reach activity ranking through rag, not an import.
        register_reader("memory", stated_preferences)

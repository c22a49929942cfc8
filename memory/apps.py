from django.apps import AppConfig


def register_memory_schedules(sender, **kwargs):
    """Schedule the daily retention sweep (idempotent)."""
    from django_q.models import Schedule

    from rag.schedules import ensure_schedule

    ensure_schedule(
        "memory.tasks.retention_sweep",
        name="memory.retention_sweep",
        schedule_type=Schedule.DAILY,
    )


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = "Chat memory"

    def ready(self):
        from django.db.models.signals import post_migrate

        from memory import userdata
        from rag.userdata import register

        post_migrate.connect(register_memory_schedules, sender=self, dispatch_uid="memory.sched")
        register(userdata.declaration())

from django.apps import AppConfig
from django.db.models.signals import post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = _("Agent")

    def ready(self):
        # Imported here, not at the top: these modules import models, which need the app registry.
        # checks and tools register themselves when imported (the modes look tools up by name).
        from agent import (  # noqa: F401
            checks,
            router,
            signals,
            tools,
            tools_memory,
            tools_reminders,
            userdata,
        )
        from agent.models import SystemEvent
        from agent.tasks import DELIVERY_WORK
        from config import work
        from config.userdata import register
        from rag.warmup import register as warm_up_with

        post_migrate.connect(
            signals.register_agent_schedules, sender=self, dispatch_uid="agent.schedules"
        )
        register(userdata.declaration())
        # The intent router's example vectors, before the first chat turn (agent/router.py).
        warm_up_with(router.warm_up)
        post_save.connect(signals.event_created, sender=SystemEvent, dispatch_uid="agent.fanout")
        work.register(DELIVERY_WORK)  # reconciled by config.tasks.work_reconcile

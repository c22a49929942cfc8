from django.apps import AppConfig


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = "Agent"

    def ready(self):
        from django.db.models.signals import post_migrate

        from agent import checks, signals  # noqa: F401  (checks register themselves)
        from rag.signals import user_data_erasure

        post_migrate.connect(
            signals.register_agent_schedules, sender=self, dispatch_uid="agent.schedules"
        )
        user_data_erasure.connect(signals.erase_user_data, dispatch_uid="agent.erasure")

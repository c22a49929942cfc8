from django.apps import AppConfig


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = "Agent"

    def ready(self):
        from django.db.models.signals import post_migrate

        from agent import checks, signals, userdata  # noqa: F401  (checks register themselves)
        from rag.userdata import register

        post_migrate.connect(
            signals.register_agent_schedules, sender=self, dispatch_uid="agent.schedules"
        )
        register(userdata.declaration())

from rest_framework import serializers


class HealthEmbeddingSerializer(serializers.Serializer):
    provider = serializers.CharField()
    model = serializers.CharField()
    dimensions = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["ok", "failing", "unknown"],
        help_text="From this process's circuit breaker, or a one-word probe when it knows nothing.",
    )
    last_error = serializers.CharField(allow_null=True)
    checked = serializers.ChoiceField(choices=["recent calls", "probe"])
    retry_in_seconds = serializers.FloatField(
        required=False, allow_null=True, help_text="Searches skip the provider this much longer."
    )


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    ready = serializers.BooleanField(
        help_text="This server process has loaded the Chinese dictionary and the embedding model "
        "and, under `manage.py serve`, every web process has finished its warm-up (each warms "
        "up before it takes traffic), so a search answers at full speed."
    )
    database = serializers.CharField()
    worker_heartbeat_age_seconds = serializers.FloatField(
        allow_null=True, help_text="Seconds since any worker cluster was last seen."
    )
    worker_queues = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Seconds since each queue's cluster (interactive, bulk, webhooks) was last "
        "seen; null: never. A queue not seen for 5 minutes makes the status degraded.",
    )
    embedding = HealthEmbeddingSerializer()
    llm = serializers.DictField()

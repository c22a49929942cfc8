from rest_framework import serializers


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class ErrorSerializer(serializers.Serializer):
    """The one error shape of the API."""

    error = ErrorDetailSerializer()


class HealthEmbeddingSerializer(serializers.Serializer):
    provider = serializers.CharField()
    model = serializers.CharField()
    dimensions = serializers.IntegerField()


class HealthSerializer(serializers.Serializer):
    status = serializers.CharField()
    database = serializers.CharField()
    worker_heartbeat_age_seconds = serializers.FloatField(allow_null=True)
    embedding = HealthEmbeddingSerializer()
    llm = serializers.DictField()

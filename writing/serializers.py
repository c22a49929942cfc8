from rest_framework import serializers

from rag.embeddings import DEGRADED_REASONS
from writing.search import MAX_TOP_K, ORDERS


class BookInSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=200)


class BookOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    created_at = serializers.DateTimeField()


class WritingBlockInSerializer(serializers.Serializer):
    content = serializers.CharField(trim_whitespace=False)


class ChapterInSerializer(serializers.Serializer):
    book = serializers.IntegerField()
    title = serializers.CharField(max_length=200, allow_blank=True)
    sequence = serializers.IntegerField()
    blocks = WritingBlockInSerializer(many=True, allow_empty=True)


class ChapterSaveSerializer(serializers.Serializer):
    book = serializers.IntegerField(required=False, help_text="Must match the chapter's book.")
    title = serializers.CharField(max_length=200, allow_blank=True, required=False)
    sequence = serializers.IntegerField(required=False)
    blocks = WritingBlockInSerializer(many=True, allow_empty=True)


class WritingAutosaveBlockSerializer(serializers.Serializer):
    id = serializers.IntegerField(required=False, help_text="The block id, or:")
    position = serializers.IntegerField(required=False, min_value=0, help_text="Its index.")
    content = serializers.CharField(trim_whitespace=False)

    def validate(self, attrs):
        if ("id" in attrs) == ("position" in attrs):
            raise serializers.ValidationError("Give exactly one of id or position.")
        return attrs


class WritingAutosaveInSerializer(serializers.Serializer):
    blocks = WritingAutosaveBlockSerializer(many=True, allow_empty=False)


class WritingBlockOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    order = serializers.IntegerField()
    content = serializers.CharField()
    content_hash = serializers.CharField()
    is_dirty = serializers.BooleanField()
    child_count = serializers.IntegerField()


class ChapterOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    book = serializers.IntegerField()
    title = serializers.CharField()
    sequence = serializers.IntegerField()
    version = serializers.IntegerField()
    chunk_state = serializers.ChoiceField(choices=["pending", "ready", "failed"])
    chunk_error = serializers.CharField(allow_blank=True)
    chunked_version = serializers.IntegerField()
    chunked_at = serializers.DateTimeField(allow_null=True)
    parent_count = serializers.IntegerField()
    child_count = serializers.IntegerField()
    blocks = WritingBlockOutSerializer(many=True)


class WritingSearchInSerializer(serializers.Serializer):
    query = serializers.CharField(max_length=2000)
    book = serializers.IntegerField(required=False, allow_null=True)
    chapters = serializers.ListField(child=serializers.IntegerField(), required=False)
    top_k = serializers.IntegerField(required=False, default=10, min_value=1, max_value=MAX_TOP_K)
    order = serializers.ChoiceField(choices=list(ORDERS), required=False, default="relevance")


class WritingSearchChildSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start = serializers.IntegerField(help_text="Offset in the parent text.")
    end = serializers.IntegerField()
    score = serializers.FloatField(
        help_text="Cosine similarity to the query (its ts_rank_cd in a degraded answer)."
    )


class WritingSearchResultSerializer(serializers.Serializer):
    parent_id = serializers.IntegerField()
    chapter_id = serializers.IntegerField()
    blocks = serializers.ListField(child=serializers.IntegerField())
    text = serializers.CharField(help_text="At most context_window_chars around the best child.")
    text_start = serializers.IntegerField()
    text_end = serializers.IntegerField()
    children = WritingSearchChildSerializer(many=True)
    raw_score = serializers.FloatField()
    score = serializers.FloatField(help_text="raw_score * sqrt(median_size / parent size).")


class WritingSearchOutSerializer(serializers.Serializer):
    results = WritingSearchResultSerializer(many=True)
    median_parent_size = serializers.FloatField(allow_null=True)
    normalised = serializers.BooleanField(required=False)
    degraded = serializers.BooleanField(
        help_text="True when the query could not be embedded within the time budget: the "
        "children were found by full text."
    )
    degraded_reason = serializers.ChoiceField(
        choices=list(DEGRADED_REASONS),
        allow_null=True,
        help_text="Why (null when not degraded).",
    )

from django.utils.translation import gettext
from rest_framework import serializers

from config import fields
from config.inputs import INT_MAX
from rag.embeddings import DEGRADED_REASONS
from writing.search import MAX_TOP_K, ORDERS
from writing.services import MAX_BLOCK_CHARS, MAX_BLOCKS

MAX_SEARCH_CHAPTERS = 200


class BookInSerializer(fields.ClosedSerializer):
    title = fields.StrictCharField(max_length=200)


class BookOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    created_at = serializers.DateTimeField()


class PageQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(
        required=False, min_value=1, max_value=200, default=50, help_text="Page size."
    )
    offset = serializers.IntegerField(
        required=False, min_value=0, max_value=INT_MAX, default=0, help_text="Rows to skip."
    )


class ChunkProgressSerializer(serializers.Serializer):
    pending = serializers.IntegerField(source="pending_count")
    running = serializers.IntegerField(source="running_count")
    ready = serializers.IntegerField(source="ready_count", help_text="Chunked: searchable.")
    failed = serializers.IntegerField(source="failed_count")


class BookSummarySerializer(BookOutSerializer):
    chapter_count = serializers.IntegerField()
    chunking = ChunkProgressSerializer(source="*", help_text="Chapters per chunk state.")


class BookListOutSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Books in all pages.")
    results = BookSummarySerializer(many=True)


class ChapterSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    book = serializers.IntegerField(source="book_id")
    title = serializers.CharField()
    sequence = serializers.IntegerField(help_text="The chapter's order in the book.")
    length = serializers.IntegerField(help_text="Characters in its blocks.")
    block_count = serializers.IntegerField()
    chunk_state = serializers.ChoiceField(choices=["pending", "running", "ready", "failed"])
    chunk_error = serializers.CharField(allow_blank=True)
    chunked_at = serializers.DateTimeField(allow_null=True)


class BookDetailOutSerializer(BookSummarySerializer):
    chapters = ChapterSummarySerializer(
        many=True, source="chapter_summaries", help_text="Every chapter, in order."
    )


class ChapterListOutSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Chapters of the book in all pages.")
    results = ChapterSummarySerializer(many=True)


class WritingBlockInSerializer(fields.ClosedSerializer):
    content = fields.TextField(trim_whitespace=False, max_length=MAX_BLOCK_CHARS)


class ChapterInSerializer(fields.ClosedSerializer):
    book = fields.IdField()
    title = fields.StrictCharField(max_length=200, allow_blank=True)
    sequence = fields.IntegerField()
    blocks = WritingBlockInSerializer(many=True, allow_empty=True, max_length=MAX_BLOCKS)


class ChapterSaveSerializer(fields.ClosedSerializer):
    book = fields.IdField(required=False, help_text="Must match the chapter's book.")
    title = fields.StrictCharField(max_length=200, allow_blank=True, required=False)
    sequence = fields.IntegerField(required=False)
    blocks = WritingBlockInSerializer(many=True, allow_empty=True, max_length=MAX_BLOCKS)


class WritingAutosaveBlockSerializer(fields.ClosedSerializer):
    id = fields.IdField(required=False, help_text="The block id, or:")
    position = fields.IntegerField(required=False, min_value=0, help_text="Its index.")
    content = fields.TextField(trim_whitespace=False, max_length=MAX_BLOCK_CHARS)

    def validate(self, attrs):
        if ("id" in attrs) == ("position" in attrs):
            raise serializers.ValidationError(gettext("Give exactly one of id or position."))
        return attrs


class WritingAutosaveInSerializer(fields.ClosedSerializer):
    blocks = WritingAutosaveBlockSerializer(many=True, allow_empty=False, max_length=MAX_BLOCKS)


class WritingBlockOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    order = serializers.IntegerField()
    content = serializers.CharField()
    content_hash = serializers.CharField()
    is_dirty = serializers.BooleanField()
    child_count = serializers.IntegerField()


class ChapterOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    book = serializers.IntegerField(source="book_id")
    title = serializers.CharField()
    sequence = serializers.IntegerField()
    version = serializers.IntegerField()
    chunk_state = serializers.ChoiceField(choices=["pending", "running", "ready", "failed"])
    chunk_error = serializers.CharField(allow_blank=True)
    chunked_version = serializers.IntegerField()
    chunked_at = serializers.DateTimeField(allow_null=True)
    parent_count = serializers.IntegerField()
    child_count = serializers.IntegerField()
    blocks = WritingBlockOutSerializer(many=True, source="block_list")


class WritingSearchInSerializer(fields.ClosedSerializer):
    query = fields.QueryTextField()
    book = fields.IdField(required=False, allow_null=True)
    chapters = fields.ListField(
        child=fields.IdField(), required=False, max_length=MAX_SEARCH_CHAPTERS
    )
    top_k = fields.IntegerField(required=False, default=10, min_value=1, max_value=MAX_TOP_K)
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
    lexical = serializers.FloatField(
        help_text="Best full-text rank of the parent's children relative to the query's best "
        "(0 to 1; 0 in a degraded answer)."
    )
    score = serializers.FloatField(
        help_text="raw_score (times sqrt(median_size / parent size) when normalised) + "
        "0.03 * lexical."
    )


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

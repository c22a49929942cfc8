from enum import StrEnum

class DegradedReasonEnum(StrEnum):
    EMBEDDING_FAILED = "embedding_failed"
    EMBEDDING_TIMEOUT = "embedding_timeout"
    EMBEDDING_UNAVAILABLE = "embedding_unavailable"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class RetrievedByEnum(StrEnum):
    HYBRID = "hybrid"
    LEXICAL = "lexical"
    LEXICAL_FALLBACK = "lexical_fallback"
    RANGE = "range"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)

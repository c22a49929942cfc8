from enum import StrEnum

class MemoryUnderstoodAppliedEnum(StrEnum):
    FILTER = "filter"
    NONE = "none"
    RANK = "rank"

    def __str__(self) -> str:
        return str(self.value)

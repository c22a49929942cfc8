from enum import StrEnum

class MemoryUnderstoodAppliedEnum(StrEnum):
    FILTER = "filter"
    NONE = "none"
    RANGE = "range"
    RANK = "rank"

    def __str__(self) -> str:
        return str(self.value)

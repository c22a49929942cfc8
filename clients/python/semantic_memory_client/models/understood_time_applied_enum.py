from enum import StrEnum

class UnderstoodTimeAppliedEnum(StrEnum):
    FILTER = "filter"
    RANK = "rank"

    def __str__(self) -> str:
        return str(self.value)

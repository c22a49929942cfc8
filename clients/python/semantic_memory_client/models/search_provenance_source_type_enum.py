from enum import StrEnum

class SearchProvenanceSourceTypeEnum(StrEnum):
    ACTIVITY = "activity"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ActivitiesListStatus(StrEnum):
    ACTIVE = "active"
    CANCELLED = "cancelled"
    DRAFT = "draft"
    FINISHED = "finished"

    def __str__(self) -> str:
        return str(self.value)

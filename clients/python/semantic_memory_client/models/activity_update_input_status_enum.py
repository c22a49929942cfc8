from enum import StrEnum

class ActivityUpdateInputStatusEnum(StrEnum):
    ACTIVE = "active"
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class TargetTypeEnum(StrEnum):
    ACTIVITY = "activity"
    MESSAGE = "message"

    def __str__(self) -> str:
        return str(self.value)

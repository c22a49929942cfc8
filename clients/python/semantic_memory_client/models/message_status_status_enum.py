from enum import StrEnum

class MessageStatusStatusEnum(StrEnum):
    CREATED = "created"
    UNCHANGED = "unchanged"

    def __str__(self) -> str:
        return str(self.value)

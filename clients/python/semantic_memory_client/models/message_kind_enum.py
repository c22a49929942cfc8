from enum import StrEnum

class MessageKindEnum(StrEnum):
    MESSAGE = "message"
    SUMMARY = "summary"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class MemoryMessagesListKind(StrEnum):
    MESSAGE = "message"
    SUMMARY = "summary"

    def __str__(self) -> str:
        return str(self.value)

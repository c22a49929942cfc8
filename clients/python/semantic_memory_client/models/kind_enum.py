from enum import StrEnum

class KindEnum(StrEnum):
    MESSAGE = "message"
    SUMMARY = "summary"

    def __str__(self) -> str:
        return str(self.value)

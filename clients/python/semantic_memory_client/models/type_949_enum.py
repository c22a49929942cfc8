from enum import StrEnum

class Type949Enum(StrEnum):
    MESSAGE = "message"
    SUMMARY = "summary"

    def __str__(self) -> str:
        return str(self.value)

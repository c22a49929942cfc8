from enum import StrEnum

class ExportErrorLineTypeEnum(StrEnum):
    ERROR = "error"

    def __str__(self) -> str:
        return str(self.value)

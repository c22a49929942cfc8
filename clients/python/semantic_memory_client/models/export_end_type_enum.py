from enum import StrEnum

class ExportEndTypeEnum(StrEnum):
    END = "end"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ExportRowTypeEnum(StrEnum):
    ROW = "row"

    def __str__(self) -> str:
        return str(self.value)

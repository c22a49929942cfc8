from enum import StrEnum

class ReadAsEnum(StrEnum):
    RANGE = "range"
    SIMILARITY = "similarity"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class DefaultOperatorEnum(StrEnum):
    AND = "and"
    OR = "or"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class StateEnum(StrEnum):
    FAILING = "failing"
    OK = "ok"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)

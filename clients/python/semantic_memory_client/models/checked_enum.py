from enum import StrEnum

class CheckedEnum(StrEnum):
    PROBE = "probe"
    RECENT_CALLS = "recent calls"

    def __str__(self) -> str:
        return str(self.value)

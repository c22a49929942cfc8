from enum import StrEnum

class IntentEnum(StrEnum):
    CHAT = "CHAT"
    CREATE = "CREATE"
    EXPLORE = "EXPLORE"
    MANAGE = "MANAGE"
    PARTNER = "PARTNER"

    def __str__(self) -> str:
        return str(self.value)

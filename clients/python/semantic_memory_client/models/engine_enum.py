from enum import StrEnum

class EngineEnum(StrEnum):
    LLM = "llm"
    OFFLINE = "offline"

    def __str__(self) -> str:
        return str(self.value)

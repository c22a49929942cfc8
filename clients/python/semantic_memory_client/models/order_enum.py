from enum import StrEnum

class OrderEnum(StrEnum):
    RELEVANCE = "relevance"
    STORY = "story"

    def __str__(self) -> str:
        return str(self.value)

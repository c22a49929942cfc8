from enum import StrEnum

class LanguageEnum(StrEnum):
    EN = "en"
    MIXED = "mixed"
    UND = "und"
    ZH = "zh"

    def __str__(self) -> str:
        return str(self.value)

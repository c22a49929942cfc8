from enum import StrEnum

class UnderstoodPlaceAppliedEnum(StrEnum):
    LOCATION = "location"
    RADIUS = "radius"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)

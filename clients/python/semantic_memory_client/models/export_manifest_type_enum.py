from enum import StrEnum

class ExportManifestTypeEnum(StrEnum):
    MANIFEST = "manifest"

    def __str__(self) -> str:
        return str(self.value)

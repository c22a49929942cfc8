from enum import StrEnum

class IndexStateEnum(StrEnum):
    FAILED = "failed"
    INDEXED = "indexed"
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)

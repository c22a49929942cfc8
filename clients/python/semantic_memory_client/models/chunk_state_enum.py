from enum import StrEnum

class ChunkStateEnum(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    READY = "ready"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class AgentUserEventsKind(StrEnum):
    ACTIVITY_REMINDER = "activity_reminder"
    DAILY_DIGEST = "daily_digest"
    DEADLINE_REMINDER = "deadline_reminder"
    INTEREST_SPIKE = "interest_spike"

    def __str__(self) -> str:
        return str(self.value)

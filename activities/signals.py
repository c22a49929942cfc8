"""Signal receivers: refresh copied vectors (indexing is queued by the services)."""

from __future__ import annotations

from activities.models import Activity
from activities.working_memory import working_memory_refresh_for_activities


def vectors_reembedded(sender, pks, **kwargs) -> None:
    """Refresh the interest vectors copied from activities that ``rag_reembed`` re-embedded."""
    if sender is Activity:
        working_memory_refresh_for_activities(activity_ids=pks)

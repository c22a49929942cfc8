"""Signal receivers: enqueue indexing after a text change; erase a user's data."""

from __future__ import annotations

from activities.text import TEXT_FIELDS


def activity_saved(sender, instance, created, update_fields=None, raw=False, **kwargs):
    """Enqueue indexing when the embedded text may have changed (the task re-checks the hash).

    Saves limited to fields outside the embedded text (participant counts, index state) never
    enqueue; other saves compare the text's hash with the stored one first.
    """
    if raw:
        return  # fixture loading: the loader embeds in batches itself
    if update_fields is not None and not set(update_fields) & set(TEXT_FIELDS):
        return
    from activities.indexing import is_current
    from activities.tasks import enqueue_index

    if created or not is_current(instance):
        enqueue_index(instance.pk)


def erase_user_data(sender, user, **kwargs) -> dict[str, int]:
    """Delete a user's participations and working memory; return the counts removed.

    ``interest_vectors`` counts the stored interest vector entries, the user data the working
    memory row holds (its preferences are derived from the participations).
    """
    from activities.models import Participation, WorkingMemory

    memories = WorkingMemory.objects.filter(user=user)
    interest_vectors = sum(len(m.interest_vectors) for m in memories)
    participations, _ = Participation.objects.filter(user=user).delete()
    memories.delete()
    return {"participations": participations, "interest_vectors": interest_vectors}


def vectors_reembedded(sender, pks, **kwargs) -> None:
    """Refresh the interest vectors copied from activities that ``rag_reembed`` re-embedded."""
    from activities.models import Activity
    from activities.services import working_memory_refresh_for_activities

    if sender is Activity:
        working_memory_refresh_for_activities(activity_ids=pks)

"""Signal receivers: enqueue indexing after a text change; refresh copied vectors."""

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


def vectors_reembedded(sender, pks, **kwargs) -> None:
    """Refresh the interest vectors copied from activities that ``rag_reembed`` re-embedded."""
    from activities.models import Activity
    from activities.services import working_memory_refresh_for_activities

    if sender is Activity:
        working_memory_refresh_for_activities(activity_ids=pks)

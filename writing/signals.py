"""Keep merged parents consistent when a story block is deleted (also from the admin)."""

from __future__ import annotations


def block_deleting(sender, instance, **kwargs):
    """Delete the parents that include this block and mark their other blocks dirty.

    A merged parent spans several blocks; once one of them goes, the parent's text is
    wrong, so it goes too and the remaining blocks are re-chunked by the next task.
    """
    from writing.models import ParentChunk, StoryBlock

    parents = ParentChunk.objects.filter(segments__block=instance)
    StoryBlock.objects.filter(segments__parent__in=parents).exclude(pk=instance.pk).update(
        is_dirty=True
    )
    parents.delete()

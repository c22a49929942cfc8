"""Keep merged parents consistent when a story block is deleted outside the services."""

from __future__ import annotations

from writing.models import ParentChunk, StoryBlock


def block_deleting(sender, instance, **kwargs):
    """Delete the parents that still include this block and mark their other blocks dirty.

    ``services.chapter_save`` first detaches the parents that also hold surviving blocks
    (they stay searchable until the chunking task replaces them), so from there this only
    sees parents made of deleted blocks. A block deleted any other way (a shell, a cascade)
    takes its merged parents with it: their text would be wrong, and the next chunking run
    rebuilds the remaining blocks.
    """
    parents = ParentChunk.objects.filter(segments__block=instance)
    StoryBlock.objects.filter(segments__parent__in=parents).exclude(pk=instance.pk).update(
        is_dirty=True
    )
    parents.delete()

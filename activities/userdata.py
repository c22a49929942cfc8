"""The user data the activities app holds, declared to ``config.userdata`` (erasure and export).

A user's data here: the activities they created (drafts included) with their vectors, their own
participations and ratings, and their working memory (interest vectors, learned preferences).

An activity the user created goes with them, like ``DELETE /api/activities/{id}/``: other
users' participations in it go too (``others_participations``; they are part of that activity),
and the working memory of everyone who rated it +1 is rebuilt without its vector. The places the
user held in other people's activities are freed (``current_participants`` goes down).
"""

from __future__ import annotations

from django.db.models import F, Q

from activities.models import Activity, Participation, WorkingMemory
from activities.working_memory import working_memory_refresh
from config.userdata import Kind, UserData


def _erase_participations(user) -> None:
    """Delete the user's participations and free the places they held in others' activities."""

    mine = Participation.objects.filter(user=user)
    held = list(mine.exclude(activity__creator=user).values_list("activity_id", flat=True))
    mine.delete()
    # One participation per (user, activity): one decrement per activity is exact.
    Activity.objects.filter(pk__in=held, current_participants__gt=0).update(
        current_participants=F("current_participants") - 1
    )


def _erase_activities(user) -> None:
    """Delete the user's activities; rebuild the working memory of those who liked one."""

    liked_by = sorted(
        set(
            Participation.objects.filter(activity__creator=user, feedback=1)
            .exclude(user=user)
            .values_list("user_id", flat=True)
        )
    )
    Activity.objects.filter(creator=user).delete()
    for user_id in liked_by:
        working_memory_refresh(user_id=user_id)


def _texts(user):
    """Yield the embedded texts of every activity the user created (cached by indexing): the
    listing's and its kind's (type and tags, ``Activity.meta_embedding``)."""

    for activity in Activity.objects.filter(creator=user).iterator(chunk_size=500):
        yield activity.embedding_text()
        yield from activity.extra_vector_texts().values()


def declaration() -> UserData:
    """Return the activities app's declaration of a user's data."""

    return UserData(
        "activities",
        kinds=(
            Kind(
                "participations",
                Participation,
                "user",
                erase=_erase_participations,
                description="the user's places in activities, with their ratings",
            ),
            Kind(
                "interest_vectors",
                WorkingMemory,
                "user",
                count=lambda user: sum(
                    len(m.interest_vectors) for m in WorkingMemory.objects.filter(user=user)
                ),
                erased_with="working_memories",
                description="interest vector entries in the user's working memory",
            ),
            Kind("working_memories", WorkingMemory, "user"),
            Kind(
                "others_participations",
                Participation,
                lambda user: Participation.objects.filter(activity__creator=user).exclude(
                    user=user
                ),
                erased_with="activities",
                description="other users' places in the user's activities (go with them)",
            ),
            Kind(
                "activity_vectors",
                Activity,
                lambda user: Activity.objects.filter(creator=user).filter(
                    Q(embedding__isnull=False) | Q(meta_embedding__isnull=False)
                ),
                erased_with="activities",
            ),
            Kind(
                "activities",
                Activity,
                "creator",
                erase=_erase_activities,
                description="activities the user created, drafts included",
            ),
        ),
        texts=_texts,
        tasks={
            "activities.tasks.activity_index": Activity,
            "activities.tasks.enqueue_index_many": Activity,  # retries (config.work)
        },
    )

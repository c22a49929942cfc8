from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def warm_search() -> None:
    """Run one search as nobody (rag.warmup): the first user's search is then a warm one.

    Then embed the off-topic gate's examples and the need examples read beside them: the
    search reaches the gate only when it finds candidates, so on an empty catalogue the first
    real search would embed them instead.
    """
    # Imported here: the search modules import models, which need the app registry.
    from activities.search import activities_search
    from activities.search_relevance import INTENT_OFF, INTENT_ON, NEED_EXAMPLES
    from rag import intent
    from rag.warmup import PROBE_TEXT

    near = {"location": {"lat": 31.2304, "lng": 121.4737, "radiusInKm": 50}}
    activities_search(semantic_query=PROBE_TEXT, filters=near)
    if intent.provider_answering():
        intent.example_vectors(INTENT_ON)
        intent.example_vectors(INTENT_OFF)
        intent.example_vectors(NEED_EXAMPLES)


class ActivitiesConfig(AppConfig):
    name = "activities"
    verbose_name = _("Activities")

    def ready(self):
        # Imported here, not at the top: these modules import models, which need the app registry.
        from activities import signals, userdata
        from activities.search_relevance import relevance_corpus, relevance_evidence
        from activities.selectors import activity_rating_target
        from activities.tasks import INDEX_WORK
        from config import work
        from config.userdata import register
        from rag import calibration, rating_targets
        from rag.signals import vectors_reembedded
        from rag.warmup import register as warm_up_with

        work.register(INDEX_WORK)  # reconciled by config.tasks.work_reconcile
        register(userdata.declaration())
        # memory's ratings of an activity find it through this (business apps never import
        # each other).
        rating_targets.register("activity", activity_rating_target)
        vectors_reembedded.connect(signals.vectors_reembedded, dispatch_uid="activities.reembedded")
        warm_up_with(warm_search)
        # manage.py rag_calibrate: the corpus, and the lexical-evidence rule the search uses
        calibration.register_corpus("activities", relevance_corpus, relevance_evidence)

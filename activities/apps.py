from django.apps import AppConfig


class ActivitiesConfig(AppConfig):
    name = "activities"
    verbose_name = "Activities"

    def ready(self):
        from django.db.models.signals import post_save

        from activities import signals, userdata
        from activities.models import Activity
        from activities.search import relevance_corpus
        from activities.tasks import INDEX_WORK
        from rag import relevance, work
        from rag.signals import vectors_reembedded
        from rag.userdata import register

        work.register(INDEX_WORK)  # reconciled by rag.tasks.work_reconcile
        post_save.connect(signals.activity_saved, sender=Activity, dispatch_uid="activities.saved")
        register(userdata.declaration())
        vectors_reembedded.connect(signals.vectors_reembedded, dispatch_uid="activities.reembedded")
        relevance.register_corpus("activities", relevance_corpus)  # manage.py rag_calibrate

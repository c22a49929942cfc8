from django.apps import AppConfig
from django.db.models.signals import pre_delete
from django.utils.translation import gettext_lazy as _


class WritingConfig(AppConfig):
    name = "writing"
    verbose_name = _("Writing")

    def ready(self):
        # Imported here, not at the top: these modules import models, which need the app registry.
        from config import work
        from config.userdata import register
        from writing import signals, userdata
        from writing.models import StoryBlock
        from writing.tasks import CHUNK_WORK

        work.register(CHUNK_WORK)  # reconciled by config.tasks.work_reconcile
        pre_delete.connect(signals.block_deleting, sender=StoryBlock, dispatch_uid="writing.block")
        register(userdata.declaration())

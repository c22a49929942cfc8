"""Messages of Django's admin and django-q2 that their zh_Hans catalogs lack.

Listed here (``gettext_noop``: nothing is translated at import) so that ``makemessages`` keeps
them in locale/zh_Hans; Django looks in LOCALE_PATHS before the libraries' own catalogs, so
their pages are Chinese throughout. Check after upgrading Django or django-q2: a string the
library renames is simply shown in English again (tests/platform/test_admin_language.py).
"""

from django.utils.translation import gettext_noop

DJANGO_ADMIN = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("After you’ve created a user, you’ll be able to edit more user options."),
)

DJANGO_Q = (
    gettext_noop("Tasks"),
    gettext_noop("Task"),
    gettext_noop("Task id"),
    gettext_noop("32-character task identifier."),
    gettext_noop("Name"),
    gettext_noop("Optional human-readable name for lookup and display."),
    gettext_noop("Function"),
    gettext_noop("Dotted import path to the callable, e.g. myapp.tasks.job."),
    gettext_noop("Hook"),
    gettext_noop("Optional dotted path to a callback that receives the task result."),
    gettext_noop("Arguments"),
    gettext_noop("Pickled positional arguments (tuple)."),
    gettext_noop("Keyword arguments"),
    gettext_noop("Pickled keyword arguments (dict)."),
    gettext_noop("Result"),
    gettext_noop("Pickled return value or error payload."),
    gettext_noop("Group"),
    gettext_noop("Optional group id to aggregate related tasks."),
    gettext_noop("Cluster"),
    gettext_noop("Name of the cluster that executed this task."),
    gettext_noop("Started at"),
    gettext_noop("When the worker started executing the task."),
    gettext_noop("Stopped at"),
    gettext_noop("When the worker finished (success or failure)."),
    gettext_noop("Success"),
    gettext_noop("False if the task raised an exception or timed out."),
    gettext_noop("Attempt count"),
    gettext_noop("How many times execution was attempted."),
    gettext_noop("Optional label to identify this schedule in the admin."),
    gettext_noop("e.g. module.tasks.function"),
    gettext_noop("e.g. module.tasks.result_function"),
    gettext_noop("Cron"),
    gettext_noop("How often this task should be enqueued."),
    gettext_noop("Intended date kwarg"),
    gettext_noop("Last task id"),
    gettext_noop("Id of the last task spawned from this schedule (read-only)."),
    gettext_noop("Name of the target cluster"),
    gettext_noop("When this schedule runs next (stored in UTC)."),
    gettext_noop("Lock until"),
    gettext_noop("Prevent any cluster from pulling until"),
    gettext_noop("Payload"),
    gettext_noop("Signed serialized task package (do not edit manually)."),
    gettext_noop("Short result"),
    gettext_noop("Time Taken"),
)

"""Time bounds of ``manage.py serve`` that its clusters and its system checks share.

This module imports nothing: ``serving.checks`` is imported while Django populates the apps
(``serving.apps``), before ``serving.clusters`` (django-q2's cluster, its models) can be.
"""

# serve waits this much longer than a cluster's own stop budget (``Q_STOP_TIMEOUT``) before it
# kills what is left of the cluster; a web server's graceful stop may take as long.
STOP_MARGIN_SECONDS = 2.0

"""A test-only app: a model extending ``rag.models.Embedded`` and URLs that exercise the errors.

Installed only by ``config.settings_test``; it has no migrations, so the test database gets its
tables from ``migrate --run-syncdb`` (which pytest-django's test database creation runs).
"""

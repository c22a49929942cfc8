"""``manage.py serve``: gunicorn's configuration, the warm-up and the worker clusters.

Above every app: nothing in config, rag or the apps imports this package (pyproject.toml,
import-linter). docs/SERVING.md says what runs where and why.
"""

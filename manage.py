#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

from django.core.management import execute_from_command_line

from config import embedded_db


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The explicit step that starts the embedded PostgreSQL (DATABASE_URL unset): the settings
    # only read where it listens.
    embedded_db.ensure_started()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

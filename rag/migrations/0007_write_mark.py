"""rag_write_mark: the primary's WAL position after each user's last write (config.replicas).

Raw SQL: a ``pg_lsn`` column, UNLOGGED (only the primary reads it; after a crash the marks are
gone and searches read a replica that may lag a moment, never wrong data). No model: it holds
a position, not a user's data, and is replaced at each write.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("rag", "0006_relevance_cuts")]

    operations = [
        migrations.RunSQL(
            "CREATE UNLOGGED TABLE IF NOT EXISTS rag_write_mark ("
            " user_id bigint PRIMARY KEY, lsn pg_lsn NOT NULL, at timestamptz NOT NULL)",
            "DROP TABLE IF EXISTS rag_write_mark",
        )
    ]

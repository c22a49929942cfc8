"""Store each message's tsvector in a generated column and index that column.

Hybrid search counted the query's words over the user's latest 2,000 turns (the common-word
rule and the BM25 weights) by building ``to_tsvector`` of each turn on every query: about
50 ms for 788 turns. ``search_tsv`` is computed by PostgreSQL from ``search_text`` whenever a
row is written or its text edited, so it cannot go stale; the GIN index moves to it.

The column is not a model field (memory.models explains why); only SQL reads it.
"""

from django.db import migrations

ADD = [
    "ALTER TABLE memory_chatmessage ADD COLUMN search_tsv tsvector"
    " GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, COALESCE(search_text, ''))) STORED",
    "CREATE INDEX memory_msg_tsv ON memory_chatmessage USING gin (search_tsv)",
]
DROP = [
    "DROP INDEX IF EXISTS memory_msg_tsv",
    "ALTER TABLE memory_chatmessage DROP COLUMN IF EXISTS search_tsv",
]


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0007_editable_memory'),
    ]

    operations = [
        migrations.RunSQL(ADD, reverse_sql=DROP),
        migrations.RemoveIndex(model_name='chatmessage', name='memory_msg_fts'),
    ]

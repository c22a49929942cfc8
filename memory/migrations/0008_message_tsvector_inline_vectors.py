"""Store each message's tsvector in a generated column, and keep its embedding in the row.

Hybrid search counted the query's words over the user's latest 2,000 turns (the common-word
rule and the BM25 weights) by building ``to_tsvector`` of each turn on every query: about
50 ms for 788 turns. ``search_tsv`` is computed by PostgreSQL from ``search_text`` whenever a
row is written or its text edited, so it cannot go stale; the GIN index moves to it. The column
is not a model field (memory.models explains why); only SQL reads it.

A turn's row is about 2.6 kB, over the 2 kB at which PostgreSQL starts to move long values out
of line: the embedding (1.5 kB, storage ``external``) went to the TOAST table first, so the
exact nearest-neighbour path of ``match_conversations`` fetched one TOAST value per row (788
rows: 7 ms, against 0.8 ms inline). ``rag.db.InlineVectors`` (MAIN storage, a row target of
8160 bytes, as for activities) keeps rows up to 8 kB whole.

Set before the column is added: adding a stored generated column rewrites the table (and
rebuilds its indexes, HNSW included) under an exclusive lock, which also brings the existing
rows inline. On a large table, run it in a maintenance window.
"""

from django.db import migrations

from rag.db import InlineVectors

FORWARD = [
    "ALTER TABLE memory_chatmessage ADD COLUMN search_tsv tsvector"
    " GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, COALESCE(search_text, ''))) STORED",
    "CREATE INDEX memory_msg_tsv ON memory_chatmessage USING gin (search_tsv)",
]
BACKWARD = [
    "DROP INDEX IF EXISTS memory_msg_tsv",
    "ALTER TABLE memory_chatmessage DROP COLUMN IF EXISTS search_tsv",
]


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0007_editable_memory'),
    ]

    operations = [
        InlineVectors("chatmessage", "embedding"),
        migrations.RunSQL(FORWARD, reverse_sql=BACKWARD),
        migrations.RemoveIndex(model_name='chatmessage', name='memory_msg_fts'),
    ]

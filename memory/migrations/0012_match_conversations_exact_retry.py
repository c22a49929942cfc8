"""``match_conversations`` keeps the rules of ``rag.search.vector_search`` for SQL clients.

The services search through ``vector_search`` (``memory.search.nearest_messages``); this function
stays for other clients of the database (docs/memory.md). Two of its rules now match:

- HNSW returning fewer than ``match_count`` rows (an iterative scan ends at
  ``hnsw.max_scan_tuples`` before enough rows pass a selective filter) is searched again
  exactly, so ``match_count`` rows come back whenever that many pass the filter.
- Its HNSW settings no longer outlive the call: the ``SET`` clauses make PostgreSQL restore the
  caller's ``hnsw.ef_search`` and ``hnsw.iterative_scan`` when the function returns, which also
  confines the ``set_config(.., true)`` inside it to the function.
"""

import importlib

from django.db import migrations

PREDICATE = """
        m.user_id = f_user
        AND m.embedding IS NOT NULL
        AND (f_chat IS NULL OR m.chat_id = f_chat)
        AND (f_role IS NULL OR m.role = f_role)
        AND (f_kind IS NULL OR m.kind = f_kind)
        AND (f_since IS NULL OR m.ts >= f_since)
        AND (f_until IS NULL OR m.ts < f_until)
"""

CREATE = f"""
CREATE OR REPLACE FUNCTION match_conversations(
    query_embedding vector,
    match_count integer,
    filter jsonb DEFAULT '{{}}'::jsonb
)
RETURNS TABLE (
    id bigint,
    message_id varchar,
    content text,
    similarity double precision,
    ts timestamptz,
    chat_id varchar,
    role varchar,
    kind varchar
)
LANGUAGE plpgsql VOLATILE
SET hnsw.ef_search = 40
SET hnsw.iterative_scan = 'off'
AS $fn$
#variable_conflict use_column
DECLARE
    f_user bigint := (filter->>'user_id')::bigint;
    f_chat text := filter->>'chat_id';
    f_role text := filter->>'role';
    f_kind text := filter->>'kind';
    f_since timestamptz := (filter->>'since')::timestamptz;
    f_until timestamptz := (filter->>'until')::timestamptz;
    f_ef integer := coalesce((filter->>'ef_search')::integer, 100);
    f_exact_max integer := coalesce((filter->>'exact_max_rows')::integer, 5000);
    f_path text := filter->>'path';
    n_rows integer;
    hnsw_ids bigint[];
BEGIN
    IF f_user IS NULL THEN
        RAISE EXCEPTION 'match_conversations: filter.user_id is required';
    END IF;
    IF match_count IS NULL OR match_count <= 0 THEN
        RETURN;
    END IF;
    IF f_path IS NULL THEN
        SELECT count(*) INTO n_rows FROM (
            SELECT 1 FROM memory_chatmessage m WHERE {PREDICATE} LIMIT f_exact_max + 1
        ) passing;
        f_path := CASE WHEN n_rows <= f_exact_max THEN 'exact' ELSE 'hnsw' END;
    END IF;
    IF f_path = 'hnsw' THEN
        PERFORM set_config('hnsw.ef_search', greatest(f_ef, match_count)::text, true);
        PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);
        SELECT array_agg(s.id) INTO hnsw_ids FROM (
            SELECT m.id FROM memory_chatmessage m
            WHERE {PREDICATE}
            ORDER BY m.embedding <=> query_embedding
            LIMIT match_count
        ) s;
        IF coalesce(cardinality(hnsw_ids), 0) >= match_count THEN
            RETURN QUERY
            SELECT m.id, m.message_id, m.content,
                   (1 - (m.embedding <=> query_embedding))::double precision AS similarity,
                   m.ts, m.chat_id, m.role, m.kind
            FROM memory_chatmessage m
            WHERE m.id = ANY(hnsw_ids)
            ORDER BY similarity DESC, m.ts DESC, m.message_id;
            RETURN;
        END IF;
        -- Fewer than match_count from the index may still mean that many pass: exactly.
    END IF;
    RETURN QUERY
    SELECT m.id, m.message_id, m.content,
           (1 - (m.embedding <=> query_embedding))::double precision,
           m.ts, m.chat_id, m.role, m.kind
    FROM memory_chatmessage m
    WHERE {PREDICATE}
    ORDER BY (m.embedding <=> query_embedding) + 0, m.ts DESC, m.message_id
    LIMIT match_count;
END
$fn$;
"""

# Back to the function of migration 0002 (the SET clauses go with CREATE OR REPLACE).
PREVIOUS = importlib.import_module("memory.migrations.0002_match_conversations").CREATE


class Migration(migrations.Migration):
    dependencies = [("memory", "0011_verbose_names")]

    operations = [migrations.RunSQL(CREATE, PREVIOUS)]

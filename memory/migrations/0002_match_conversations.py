"""The SQL function ``match_conversations(query_embedding, match_count, filter)``.

Semantic search runs on it, and other clients can call it over SQL. ``filter`` (jsonb):
``user_id`` (the internal user pk, required), optional ``chat_id``, ``role``, ``kind``,
``since`` (inclusive), ``until`` (exclusive), and tuning keys ``ef_search``,
``exact_max_rows`` and ``path`` ("exact" or "hnsw"; chosen here when absent).

The filter is applied before the nearest-neighbour search: when at most ``exact_max_rows``
rows pass it, they are all scored exactly (the ``+ 0`` hides the distance from the HNSW
opclass so the planner uses the filter's indexes); otherwise the HNSW index is scanned with
``hnsw.iterative_scan = relaxed_order`` (set transaction-locally by ``set_config(.., true)``)
so the scan continues until ``match_count`` rows pass, and the rows are re-sorted.
Ties are broken by ``ts desc, message_id``.
"""

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
    IF f_path = 'exact' THEN
        RETURN QUERY
        SELECT m.id, m.message_id, m.content,
               (1 - (m.embedding <=> query_embedding))::double precision,
               m.ts, m.chat_id, m.role, m.kind
        FROM memory_chatmessage m
        WHERE {PREDICATE}
        ORDER BY (m.embedding <=> query_embedding) + 0, m.ts DESC, m.message_id
        LIMIT match_count;
    ELSE
        PERFORM set_config('hnsw.ef_search', greatest(f_ef, match_count)::text, true);
        PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);
        RETURN QUERY
        SELECT s.* FROM (
            SELECT m.id, m.message_id, m.content,
                   (1 - (m.embedding <=> query_embedding))::double precision AS similarity,
                   m.ts, m.chat_id, m.role, m.kind
            FROM memory_chatmessage m
            WHERE {PREDICATE}
            ORDER BY m.embedding <=> query_embedding
            LIMIT match_count
        ) s
        ORDER BY s.similarity DESC, s.ts DESC, s.message_id;
    END IF;
END
$fn$;
"""

DROP = "DROP FUNCTION IF EXISTS match_conversations(vector, integer, jsonb);"


class Migration(migrations.Migration):
    dependencies = [("memory", "0001_initial")]

    operations = [migrations.RunSQL(CREATE, DROP)]

"""``rag.search.fulltext_search`` on segmented Chinese text, and the query parser on the DB."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag.search import fulltext_search
from rag.text import parse_query, segment_for_index
from tests.testapp.models import Doc

pytestmark = pytest.mark.django_db

TEXTS = {
    "plain_hotpot": "我不吃辣，想找一家清淡的火锅店",
    "spicy_hotpot": "这家火锅很辣，适合爱吃辣的人",
    "hike": "周末去爬山，不吃辣的朋友也可以来",
    "sichuan": "四川火锅推荐",
    "lots_of_hotpot": "火锅火锅，还是火锅！今晚吃火锅",
    "walk": "今天天气不错，我们去公园散步，晚上也许吃火锅",
}


@pytest.fixture
def docs(db):
    """One Doc per entry of TEXTS (category = its key), with segmented search text."""
    return {
        key: Doc.objects.create(category=key, text=text, search_text=segment_for_index(text))
        for key, text in TEXTS.items()
    }


def found(query: str, **kwargs) -> list[str]:
    hits, _ = fulltext_search(Doc.objects.all(), query, k=10, **kwargs)
    return [hit.obj.category for hit in hits]


def test_quoted_phrase_and_term_match_only_the_right_row(docs):
    assert found('"不吃辣" AND 火锅') == ["plain_hotpot"]


def test_minus_excludes_rows_with_the_term(docs):
    assert sorted(found("火锅 -辣")) == ["lots_of_hotpot", "sichuan", "walk"]


def test_default_operator_and_requires_every_term(docs):
    assert found("爬山 火锅") == []


def test_default_operator_or_accepts_any_term(docs):
    assert sorted(found("爬山 四川", default_operator="or")) == ["hike", "sichuan"]


def test_denser_matches_rank_first(docs):
    assert found("火锅")[0] == "lots_of_hotpot"


def test_scores_are_descending_and_ranks_count_from_one(docs):
    hits, _ = fulltext_search(Doc.objects.all(), "火锅", k=10)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))


def test_k_limits_the_results(docs):
    assert len(found("火锅")) == 5
    hits, _ = fulltext_search(Doc.objects.all(), "火锅", k=2)
    assert len(hits) == 2


def test_report_carries_the_parsed_query(docs):
    _, report = fulltext_search(Doc.objects.all(), "火锅 -辣", k=10)
    assert (report.path, report.query) == ("fulltext", "'火锅' & !'辣'")


def test_query_without_searchable_terms_returns_nothing(docs):
    hits, report = fulltext_search(Doc.objects.all(), " ？！ ", k=10)
    assert (hits, report.query) == ([], "")


def test_queryset_filter_applies(docs):
    hits, _ = fulltext_search(Doc.objects.filter(category="walk"), "火锅", k=10)
    assert [h.obj.category for h in hits] == ["walk"]


def test_fulltext_query_can_use_the_gin_index(docs):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(
            "EXPLAIN SELECT id FROM testapp_doc WHERE "
            "to_tsvector('simple'::regconfig, COALESCE(search_text, '')) @@ "
            "to_tsquery('simple'::regconfig, %s)",
            [parse_query("火锅")],
        )
        plan = " ".join(row[0] for row in cursor.fetchall())
    assert "testapp_doc_search_text_gin" in plan


TSQUERY_CHARS = st.sampled_from(list("\"'\\&|!:*()<>-“” \t\n\x00abc火锅不吃辣ANDORNOT"))
ANY_QUERY = st.one_of(
    st.text(TSQUERY_CHARS, max_size=40),
    st.text(max_size=40),
    st.lists(st.sampled_from(["AND", "OR", "NOT", "-", "(", ")", '"', "火锅", "a:*"])).map(
        " ".join
    ),
)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=ANY_QUERY, operator=st.sampled_from(["and", "or"]))
def test_parsed_query_is_always_valid_tsquery(db, text, operator):
    tsquery = parse_query(text, default_operator=operator)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT to_tsquery('simple', %s)::text", [tsquery])
            cursor.fetchone()
    except DatabaseError as exc:  # pragma: no cover - the failure being looked for
        pytest.fail(f"{text!r} -> {tsquery!r}: {exc}")

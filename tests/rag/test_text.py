"""Tests for rag.text: segmentation and the tsquery parser (pure, no Django, no database)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag import term_ranking
from rag import text as rag_text
from rag.text import STOPWORDS, parse_query, segment_for_index, segment_query

# --- a small tsquery validator (the database-backed check lives elsewhere) -------------------

_TSQ_TOKEN = re.compile(
    r"\s*(?:(?P<lit>'(?:[^'\\]|''|\\.)*')|(?P<op><->|<\d+>|[&|!()])|(?P<bad>.))"
)


def _tsquery_tokens(query: str) -> list[tuple[str, str]]:
    tokens = []
    pos = 0
    query = query.rstrip()
    while pos < len(query):
        match = _TSQ_TOKEN.match(query, pos)
        assert match is not None and match.group("bad") is None, f"bad char at {pos}: {query!r}"
        kind = "lit" if match.group("lit") is not None else match.group("op")
        tokens.append((kind, match.group(kind if kind == "lit" else "op")))
        pos = match.end()
    return tokens


def _literal_value(literal: str) -> str:
    return re.sub(r"''|\\(.)", lambda m: "'" if m.group(0) == "''" else m.group(1), literal[1:-1])


def assert_valid_tsquery(query: str) -> list[str]:
    """Assert query is "" or a well-formed tsquery of quoted literals; return the lexemes."""
    assert isinstance(query, str)
    assert "\x00" not in query
    if query == "":
        return []
    tokens = _tsquery_tokens(query)
    lexemes: list[str] = []
    pos = 0

    def expr() -> None:
        nonlocal pos
        unary()
        while pos < len(tokens) and tokens[pos][0] in ("&", "|") or _is_phrase_op(pos):
            pos += 1
            unary()

    def unary() -> None:
        nonlocal pos
        while pos < len(tokens) and tokens[pos][0] == "!":
            pos += 1
        assert pos < len(tokens), f"missing operand at end: {query!r}"
        kind, value = tokens[pos]
        pos += 1
        if kind == "lit":
            lexeme = _literal_value(value)
            assert lexeme and not any(ch.isspace() for ch in lexeme), query
            lexemes.append(lexeme)
        elif kind == "(":
            expr()
            assert pos < len(tokens) and tokens[pos][0] == ")", f"unclosed paren: {query!r}"
            pos += 1
        else:
            raise AssertionError(f"operand expected, got {value!r}: {query!r}")

    def _is_phrase_op(i: int) -> bool:
        return i < len(tokens) and tokens[i][0] != "lit" and tokens[i][0].startswith("<")

    expr()
    assert pos == len(tokens), f"trailing tokens: {query!r}"
    return lexemes


def test_validator_rejects_broken_queries():
    for bad in ["'a' &", "& 'a'", "('a'", "'a')", "a", "'a' 'b'", "!", "()", "'a' <-> "]:
        try:
            assert_valid_tsquery(bad)
        except AssertionError:
            continue
        raise AssertionError(f"validator accepted {bad!r}")


# --- segmentation -------------------------------------------------------------------------------


def test_segment_for_index_uses_search_mode_and_normalises():
    out = segment_for_index("我喜欢吃四川菜。Hello, World! 3.14\x00，ＡＢＣ")
    tokens = out.split(" ")
    assert "四川" in tokens and "四川菜" in tokens  # search mode adds sub-words
    assert {"hello", "world", "3.14", "abc"} <= set(tokens)
    assert "。" not in tokens and "," not in tokens and "，" not in tokens
    assert "\x00" not in out and "  " not in out
    assert out == out.strip()


def test_segment_for_index_empty_and_punctuation_only():
    assert segment_for_index("") == ""
    assert segment_for_index("  ，。！?!... \n\t") == ""


def test_segment_query_precise_mode():
    assert segment_query("不吃辣火锅") == ["不吃", "辣", "火锅"]
    assert segment_query("What did I say?") == ["what", "did", "i", "say"]
    assert segment_query("") == []


def test_subwords_mirror_jieba_search_mode():
    # Phrase distances rely on this: cut_for_search == sub-words + word for each precise word.
    for sample in ["中华人民共和国国务院总理在北京人民大会堂发表讲话", "我喜欢吃四川菜和重庆火锅"]:
        expected = list(rag_text._kept(rag_text.tokenizer.cut_for_search(sample)))
        rebuilt = [
            token
            for word in rag_text._kept(rag_text.tokenizer.cut(sample))
            for token in (*rag_text._subwords(word), word)
        ]
        assert rebuilt == expected


def test_stopwords_cover_both_languages():
    assert {"the", "a", "what", "did", "is"} <= STOPWORDS
    assert {"的", "了", "吗", "呢", "是", "我", "你", "在", "和"} <= STOPWORDS


# --- parse_query examples -----------------------------------------------------------------------


def test_bare_chinese_run_is_segmented_with_and():
    assert parse_query("不吃辣火锅") == "'不吃' & '辣' & '火锅'"


def test_default_operator_or():
    assert parse_query("不吃辣火锅", default_operator="or") == "'不吃' | '辣' | '火锅'"
    assert parse_query("a b AND c", default_operator="or") == "'a' | ('b' & 'c')"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("火锅 -昨天", "'火锅' & !'昨天'"),
        ("-昨天 火锅", "'火锅' & !'昨天'"),
        ("火锅 烧烤 -昨天", "('火锅' | '烧烤') & !'昨天'"),
        # An OR written keeps its meaning.
        ("火锅 OR -昨天", "'火锅' | !'昨天'"),
        ("-昨天 OR 火锅", "!'昨天' | '火锅'"),
    ],
)
def test_an_exclusion_narrows_under_the_default_or(text, expected):
    assert parse_query(text, default_operator="or") == expected


def test_quoted_phrase_and_operator():
    assert parse_query('"不吃辣" AND 火锅') == "('不吃' <-> '辣') & '火锅'"
    assert parse_query("“不吃辣” or 火锅") == "('不吃' <-> '辣') | '火锅'"
    assert parse_query('"new york"') == "'new' <-> 'york'"


def test_phrase_distance_accounts_for_search_mode_subwords():
    # The index holds "我 火锅 吃火锅", so 吃火锅 sits two positions after 我.
    assert segment_for_index("我吃火锅") == "我 火锅 吃火锅"
    assert parse_query('"我吃火锅"') == "'我' <2> '吃火锅'"


def test_keywords_are_case_insensitive_and_symbolic():
    assert parse_query("a and b Or c") == "('a' & 'b') | 'c'"
    assert parse_query("a && b || c") == "('a' & 'b') | 'c'"


def test_not_and_minus():
    assert parse_query("火锅 NOT 辣") == "'火锅' & !'辣'"
    assert parse_query("火锅 -辣") == "'火锅' & !'辣'"
    assert parse_query("NOT NOT 辣") == "'辣'"
    assert parse_query("NOT (a OR b)") == "!('a' | 'b')"


def test_parentheses_and_precedence():
    assert parse_query("(a OR b) c") == "('a' | 'b') & 'c'"
    assert parse_query("a OR b c") == "'a' | ('b' & 'c')"
    assert parse_query("((a)) AND ((b OR (c)))") == "'a' & ('b' | 'c')"


def test_broken_input_is_repaired():
    assert parse_query("((a") == "'a'"
    assert parse_query("a))) b") == "'a' & 'b'"
    assert parse_query("a AND") == "'a'"
    assert parse_query("OR a") == "'a'"
    assert parse_query("a AND OR b") == "'a' | 'b'"
    assert parse_query('"unterminated phrase') == "'unterminated' <-> 'phrase'"
    assert parse_query('"" a') == "'a'"
    assert parse_query("a () b") == "'a' & 'b'"


def test_empty_queries():
    for query in ["", "   ", "NOT", "AND", "OR", "()", '""', "-", "&|!:*()<>", "，。！？", "\x00"]:
        assert parse_query(query) == "", query


def test_special_characters_are_quoted_and_escaped():
    query = parse_query("it's a\\b c:*")
    assert_valid_tsquery(query)
    assert "'it'" in query and "'c'" in query
    assert rag_text.quote_lexeme("o'k\\") == "'o''k\\\\'"
    assert rag_text.quote_lexeme("a\x00b") == "'ab'"


def test_drop_stopwords():
    assert parse_query("what did I say about 四川菜", drop_stopwords=True) == "'say' & '四川菜'"
    # Stop words inside a quoted phrase are kept.
    assert parse_query('"我的" 火锅', drop_stopwords=True) == "('我' <-> '的') & '火锅'"
    # A query of stop words only keeps them rather than becoming empty.
    assert parse_query("的 了 吗", drop_stopwords=True) == "'的' & '了' & '吗'"


def test_never_raises_on_odd_arguments():
    assert parse_query(None) == ""  # type: ignore[arg-type]
    assert parse_query("a b", default_operator="bogus") == "'a' & 'b'"


def test_deep_nesting_and_long_input_are_bounded():
    deep = "(" * 1500 + "a" + ")" * 1500
    assert assert_valid_tsquery(parse_query(deep)) == ["a"]
    # Input beyond MAX_QUERY_CHARS is ignored.
    assert parse_query("a" + " " * rag_text.MAX_QUERY_CHARS + "b") == "'a'"
    assert_valid_tsquery(parse_query("NOT " * 5000 + "a"))
    assert_valid_tsquery(parse_query("火锅 " * 5000))


# --- property tests -----------------------------------------------------------------------------

_PIECES = [
    "AND", "and", "OR", "or", "NOT", "not", "&&", "||", "(", ")", '"', "“", "”", "-", "'",
    "\\", "&", "|", "!", ":", "*", "<", ">", "<->", ":*", "\x00", " ", "\t", "\n", "火锅",
    "不吃辣", "我吃火锅", "的", "hello", "it's", "C++", "3.14", "ＡＢＣ", "🙂", "é", "\u200b",
]  # fmt: skip

_queries = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.sampled_from("\"'\\&|!:*()<>-“” \x00火锅不吃辣aAnNdDoOrRtT"), max_size=40),
    st.lists(st.sampled_from(_PIECES), max_size=20).map(" ".join),
    st.lists(st.sampled_from(_PIECES), max_size=20).map("".join),
)


@settings(max_examples=300, deadline=None)
@given(query=_queries, default_operator=st.sampled_from(["and", "or"]), drop=st.booleans())
def test_parse_query_always_returns_valid_tsquery(query, default_operator, drop):
    # Call the internal parser so a bug cannot hide behind parse_query's catch-all.
    op = "&" if default_operator == "and" else "|"
    result = rag_text._parse(query, op, drop)
    assert result == parse_query(query, default_operator=default_operator, drop_stopwords=drop)
    assert_valid_tsquery(result)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_segment_for_index_is_clean(text):
    out = segment_for_index(text)
    assert isinstance(out, str)
    assert "\x00" not in out
    assert out == " ".join(out.split())  # single spaces, no other whitespace


def test_matching_words_split_a_made_up_word_into_its_dictionary_pieces():
    # jieba's HMM makes "办卡花" of the question; the turn has "办" and "张卡": "卡" must be asked.
    assert "办卡花" in segment_query("办卡花了多少钱")
    words = rag_text.matching_words("办卡花了多少钱")
    assert {"办", "卡", "花", "钱"} <= set(words) and "办卡花" not in words


def test_matching_words_bring_the_sub_words_search_mode_indexes():
    words = rag_text.matching_words("怎么控制它吃零食")
    assert "零食" in words and "零食" in segment_for_index("给它买了零食").split()


# --- term ranking over candidate texts -----------------------------------------------------------

_RANKED_TEXTS = st.lists(
    st.sampled_from(
        [
            "周五下班K歌局·夜场",
            "#114",
            "桌游",
            "小局",
            "策略桌游",
            " ",
            "\u3000",
            "ＫＴＶ",
            "火锅局",
        ]
    ),
    max_size=8,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    text=_RANKED_TEXTS,
    terms=st.lists(st.sampled_from(["桌游", "k歌", "夜场", "ktv", "火锅", "局"]), min_size=1),
)
def test_terms_held_are_those_of_the_whole_texts_segmentation(text, terms):
    whole = set(segment_for_index(text).split())
    assert rag_text.words_holding(text, terms) == {t for t in terms if t in whole}


def test_a_piece_holding_no_term_is_not_segmented(monkeypatch):
    rag_text._piece_words.cache_clear()
    cut = []
    original = rag_text.tokenizer.cut_for_search
    monkeypatch.setattr(
        rag_text.tokenizer, "cut_for_search", lambda s, *a, **k: cut.append(s) or original(s)
    )
    assert rag_text.words_holding("周末编织局·新手场 #404 编织 安静", ["编织"]) == {"编织"}
    assert cut == ["周末编织局·新手场", "编织"]


def test_pieces_shared_by_texts_are_segmented_once(monkeypatch):
    rag_text._piece_words.cache_clear()
    cut = []
    original = rag_text.tokenizer.cut_for_search
    monkeypatch.setattr(
        rag_text.tokenizer, "cut_for_search", lambda s, *a, **k: cut.append(s) or original(s)
    )
    term_ranking.term_ranking("", {1: "桌游之夜 #1 桌游", 2: "桌游之夜 #2 桌游"}, terms=["桌游"])
    assert cut == ["桌游之夜", "桌游"]


def test_term_ranking_puts_rarer_words_first_and_leaves_out_texts_naming_none():
    documents = {1: "火锅 聚餐", 2: "桌游 火锅", 3: "徒步", 4: "火锅"}
    # 桌游 is held by one document, 火锅 by three: the document with both leads.
    assert term_ranking.term_ranking("", documents, terms=["桌游", "火锅"]) == [2, 1, 4]


def test_ranking_a_pool_from_held_terms_counts_frequency_within_that_pool():
    documents = {1: "火锅 聚餐", 2: "桌游 火锅", 3: "徒步", 4: "火锅", 5: "桌游"}
    terms = ["桌游", "火锅"]
    held = term_ranking.held_terms(documents, terms)
    pool = {key: documents[key] for key in (1, 2, 4)}
    # Within the pool 桌游 is rarer than 火锅 (one document against three), as term_ranking
    # of the pool alone counts it; over all five they would be equally common.
    ranked = term_ranking.rank_held({key: held[key] for key in pool}, terms)
    assert ranked == term_ranking.term_ranking("", pool, terms=terms) == [2, 1, 4]

"""Chinese/English segmentation and a forgiving full-text query parser.

PostgreSQL's ``simple`` text-search configuration splits on whitespace and punctuation only, so
Chinese must be segmented before it reaches the database. Stored text goes through
:func:`segment_for_index` (jieba search mode, which also emits the dictionary sub-words of long
words) and is indexed with ``to_tsvector('simple', col)``. User queries go through
:func:`parse_query`, whose result is passed to ``to_tsquery('simple', %s)``.

Both sides normalise identically: NFKC (full-width letters and digits become ASCII), lowercase,
control characters and NUL removed, whitespace and punctuation/symbol-only tokens dropped.

Query syntax accepted by :func:`parse_query` (anything else is treated as a search term):

* bare terms; Chinese runs are segmented, e.g. ``不吃辣火锅`` -> ``'不吃' & '辣' & '火锅'``;
* ``"quoted phrases"`` (also ``“...”``) -> lexemes joined by ``<->``. When a lexeme has search-mode
  sub-words in the index, the distance becomes ``<N>`` so the phrase still matches the index;
* ``AND`` / ``&&``, ``OR`` / ``||`` (case-insensitive), ``NOT x`` and ``-x``, parentheses;
* adjacent terms are joined with the default operator; AND binds tighter than OR.

Broken input (dangling operators, unbalanced parentheses, empty phrases, stray quotes, NUL) is
repaired, never rejected. Every lexeme is emitted as a quoted tsquery literal, so no input
character can produce a tsquery syntax error.
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from rag.jieba_dict import is_loaded, tokenizer, warm_up

__all__ = [
    "STOPWORDS",
    "excludes",
    "is_loaded",
    "matching_words",
    "parse_query",
    "query_spans",
    "words_holding",
    "segment_for_index",
    "segment_query",
    "warm_up",
]

log = logging.getLogger(__name__)


_STOPWORD_TEXT = """
    a an the and or but if of to in on at by for with about from as into than then so
    is are was were be been being am do does did done have has had can could would should
    will shall may might must what which who whom whose when where why how
    i me my mine you your yours he him his she her it its we us our they them their
    this that these those there here any some all just
    的 了 吗 呢 吧 啊 呀 嘛 哦 么 是 我 你 您 他 她 它 我们 你们 他们 她们 在 和 与 及 跟 或
    也 就 都 而 还 又 把 被 给 对 从 向 这 那 这个 那个 这些 那些 个 之 其 着 过 地 得 等
    什么 怎么 怎样 哪 哪里 哪个
"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())

# PostgreSQL ignores longer words (MAXSTRLEN is 2047 bytes); dropping them keeps both sides equal.
MAX_LEXEME_BYTES = 2046
# A search box never needs more; bounding it bounds jieba's work and the tsquery size.
MAX_QUERY_CHARS = 4096
# Deeper parentheses are flattened so hostile input cannot exhaust the recursion limit.
MAX_DEPTH = 32


def _prepare(text: str) -> str:
    """Return text NFKC-normalised and lowercased, without control characters and surrogates."""
    text = unicodedata.normalize("NFKC", text).lower()
    # The common case, checked in C: every character other than whitespace is printable
    # (str.isprintable is False for exactly the categories removed below, and for separators,
    # which are whitespace), so nothing is removed.
    if all(part.isprintable() for part in text.split()):
        return text
    return "".join(
        ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cs", "Cf", "Co", "Cn")
    )


def _keep(token: str) -> bool:
    """Return whether a token carries searchable content (not whitespace/punctuation/symbols)."""
    if len(token.encode("utf-8", "ignore")) > MAX_LEXEME_BYTES:
        return False
    return any(not ch.isspace() and unicodedata.category(ch)[0] not in "PSZ" for ch in token)


def _kept(tokens) -> Iterator[str]:
    """Yield the searchable parts of ``tokens`` as they come (jieba's cuts are generators)."""
    for token in tokens:
        # jieba never emits inner whitespace in practice; splitting makes it a guarantee.
        yield from (part for part in token.split() if _keep(part))


def _search_mode(prepared: str) -> list[str]:
    """Return the searchable lexemes of prepared text (:func:`_prepare`) in jieba search mode."""
    warm_up()
    return list(_kept(tokenizer.cut_for_search(prepared)))


def segment_for_index(text: str) -> str:
    """Return text segmented in jieba search mode as space-separated lexemes for a tsvector."""
    return " ".join(_search_mode(_prepare(text)))


@functools.lru_cache(maxsize=20_000)
def index_words(text: str) -> frozenset[str]:
    """Return the lexemes of ``text`` in search mode, as a set (cached per process).

    Rankings over candidate pools segment the same stored texts query after query (60 per
    activity search: 20 ms of jieba); the dictionary is fixed once loaded, so the result of a
    text never changes.
    """
    return frozenset(segment_for_index(text).split())


@functools.lru_cache(maxsize=20_000)
def _piece_words(piece: str) -> frozenset[str]:
    """Return the lexemes of one whitespace-free piece of prepared text (cached per process).

    The pieces of stored texts recur where whole texts do not: a title's words, tags, types and
    vibes are shared by many rows whose texts differ in one piece (a serial, a place).
    """
    return frozenset(_search_mode(piece))


def words_holding(text: str, terms: list[str]) -> frozenset[str]:
    """Return the ``terms`` that are :func:`index_words` of ``text``.

    jieba cuts the runs between whitespace independently (a word never spans whitespace), so
    the words of a text are the union of the words of its whitespace-separated pieces, and a
    word is a substring of its piece: only the pieces holding a term as a substring are
    segmented, each through a cache. At a million generated activities every candidate's text
    was new to the per-text cache, and segmenting the 60 candidates of a search whole took
    about 13 ms of CPU per search (docs/SCALING.md).
    """
    found: set[str] = set()
    for piece in _prepare(text).split():
        held = [term for term in terms if term in piece]
        if held:
            words = _piece_words(piece)
            found.update(term for term in held if term in words)
    return frozenset(found)


def segment_query(text: str) -> list[str]:
    """Return the lexemes of text segmented in jieba precise mode."""
    return list(query_words(text))


def query_words(text: str) -> Iterator[str]:
    """Yield the lexemes of :func:`segment_query` one by one, segmenting only as far as asked.

    A caller that stops at the first word of some kind (``all``, ``any``) segments a long text
    no further than that word.
    """
    warm_up()
    return _kept(tokenizer.cut(_prepare(text)))


def matching_words(text: str) -> list[str]:
    """Return the lexemes of a query that can meet an index made by :func:`segment_for_index`.

    jieba's HMM joins a run of characters its dictionary does not split into a made-up word,
    differently in a question and in the turn it asks about: "那只猫叫什么" gives "猫叫", "捡到
    一只小橘猫" gives "小橘" and "猫"; "办卡花了多少钱" gives "办卡花", "办了张卡" gives "张卡".
    Such a word rarely meets its counterpart, so the content word inside it ("猫", "卡") is
    lost. A word the dictionary does not know is therefore replaced by its dictionary pieces
    (jieba without the HMM: "猫" and "叫", "办", "卡" and "花"), and a known word longer than
    two characters brings the sub-words search mode indexes ("吃零食": "零食"), as the index does.
    """
    out: list[str] = []
    for word in segment_query(text):
        if len(word) > 1 and not word.isascii() and not tokenizer.FREQ.get(word):
            out.extend(_kept(tokenizer.cut(word, HMM=False)))
        else:
            out.extend(_subwords(word))
            out.append(word)
    return list(dict.fromkeys(out))


def cut_as_written(text: str) -> Iterator[str]:
    """Yield the pieces of ``text`` in jieba precise mode, unnormalised: they join back into
    ``text`` (for cutting a text between words for display; a caller may stop early)."""
    warm_up()
    return tokenizer.cut(text)


def _subwords(word: str) -> list[str]:
    """Return the extra tokens ``Tokenizer.cut_for_search`` emits before word (mirrors jieba)."""
    count = tokenizer.FREQ.get
    grams = []
    if len(word) > 2:
        grams += [word[i : i + 2] for i in range(len(word) - 1) if count(word[i : i + 2])]
    if len(word) > 3:
        grams += [word[i : i + 3] for i in range(len(word) - 2) if count(word[i : i + 3])]
    return list(_kept(grams))


# --- AST ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lex:
    text: str


@dataclass(frozen=True)
class Phrase:
    lexemes: tuple[str, ...]
    gaps: tuple[int, ...]  # gaps[i] is the position distance between lexemes i and i + 1


@dataclass(frozen=True)
class Op:
    op: str  # "&" or "|"
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Not:
    child: Node


Node = Lex | Phrase | Op | Not


def _combine(op: str, items: list[Node | None]) -> Node | None:
    """Return items joined by op, skipping empty operands and flattening nested same-op nodes."""
    children: list[Node] = []
    for item in items:
        if isinstance(item, Op) and item.op == op:
            children.extend(item.children)
        elif item is not None:
            children.append(item)
    if not children:
        return None
    return children[0] if len(children) == 1 else Op(op, tuple(children))


def _negate(node: Node | None) -> Node | None:
    if node is None:
        return None
    return node.child if isinstance(node, Not) else Not(node)


# --- tokenizer ------------------------------------------------------------------------------

_TOKEN_RE = re.compile(
    r"""
      (?P<lparen>\()
    | (?P<rparen>\))
    | "(?P<phrase>[^"]*)"?          # an unterminated quote runs to the end of the input
    | “(?P<cphrase>[^”]*)”?
    | (?P<word>[^\s()"“”]+)
    | (?P<other>.)                  # whitespace and stray closing quotes
    """,
    re.VERBOSE | re.DOTALL,
)
_KEYWORDS = {"and": "AND", "&&": "AND", "or": "OR", "||": "OR", "not": "NOT"}


def _tokenize(text: str) -> list[tuple[str, str]]:
    """Split query text into (kind, value) tokens; kinds: ( ) AND OR NOT TERM PHRASE."""
    tokens: list[tuple[str, str]] = []
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup
        if kind == "lparen":
            tokens.append(("(", ""))
        elif kind == "rparen":
            tokens.append((")", ""))
        elif kind in ("phrase", "cphrase"):
            tokens.append(("PHRASE", match.group(kind)))
        elif kind == "word":
            word = match.group(kind)
            if word.lower() in _KEYWORDS:
                tokens.append((_KEYWORDS[word.lower()], ""))
            elif excludes(word):
                tokens.append(("NOT", ""))
                tokens.append(("TERM", word.lstrip("-")))
            else:
                tokens.append(("TERM", word))
    return tokens


def excludes(word: str) -> bool:
    """Return whether a query word is an exclusion ("-火锅": NOT 火锅)."""
    return word.startswith("-") and bool(word.lstrip("-"))


def query_spans(text: str) -> list[tuple[str, str, int, int]]:
    """Return the syntax tokens of query text as :func:`parse_query` cuts it, with their spans.

    Each is ``(kind, value, start, end)``, ``kind`` one of ``(``, ``)``, ``PHRASE`` (a quoted
    phrase, its quotes in the span) and ``WORD`` (as written: a caller judges keywords and
    exclusions, :data:`_KEYWORDS`, :func:`excludes`); whitespace is in no token. Characters are
    NFKC-normalised one for one, as :func:`_prepare` reads them (a full-width quote or bracket
    is one), so the spans are spans of ``text``.
    """
    folded = "".join(_one_for_one(ch) for ch in text[:MAX_QUERY_CHARS])
    spans = []
    for match in _TOKEN_RE.finditer(folded):
        kind = match.lastgroup
        if kind == "other":
            continue
        name = {"lparen": "(", "rparen": ")", "word": "WORD"}.get(kind, "PHRASE")
        spans.append((name, match.group(), match.start(), match.end()))
    return spans


def _one_for_one(ch: str) -> str:
    """Return ``ch`` NFKC-normalised when that is one character, else ``ch``."""
    folded = unicodedata.normalize("NFKC", ch)
    return folded if len(folded) == 1 else ch


# --- parser ---------------------------------------------------------------------------------

_OPERAND_START = {"TERM", "PHRASE", "(", "NOT"}


class _Parser:
    """Recursive descent over the grammar below; every production tolerates missing pieces.

    query   := or_expr (")" or_expr)*      stray ")" are skipped
    or_expr := and_expr (("OR" | implicit) and_expr)*
    and_expr:= unary (("AND" | implicit) unary)*
    unary   := "NOT"* primary
    primary := TERM | PHRASE | "(" or_expr ")"?
    """

    def __init__(self, tokens: list[tuple[str, str]], default_op: str, drop_stopwords: bool):
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.default_op = default_op
        self.drop_stopwords = drop_stopwords

    def peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def parse(self) -> Node | None:
        parts = []
        while self.pos < len(self.tokens):
            start = self.pos
            parts.append(self.or_expr())
            if self.pos == start:  # only a stray ")" stops or_expr without consuming
                self.pos += 1
        return _combine(self.default_op, parts)

    def or_expr(self) -> Node | None:
        items = [self.and_expr()]
        # With OR as the default operator an exclusion joined implicitly still narrows, as web
        # search reads it ("火锅 -昨天": 火锅 and not 昨天, not "火锅 or anything without 昨天");
        # "a OR -b" keeps the OR written.
        excluded: list[Node | None] = []
        first_join = None
        while True:
            kind = self.peek()
            if kind == "OR":
                self.pos += 1
                items.append(self.and_expr())
            elif self.default_op == "|" and kind in _OPERAND_START:
                node = self.and_expr()
                (excluded if isinstance(node, Not) else items).append(node)
            else:
                break
            first_join = first_join or kind
        if isinstance(items[0], Not) and len(items) > 1 and first_join != "OR":
            excluded.append(items.pop(0))  # "-昨天 火锅": the exclusion written first
        return _combine("&", [_combine("|", items), *excluded])

    def and_expr(self) -> Node | None:
        items = [self.unary()]
        while True:
            kind = self.peek()
            if kind == "AND":
                self.pos += 1
            elif not (self.default_op == "&" and kind in _OPERAND_START):
                break
            items.append(self.unary())
        return _combine("&", items)

    def unary(self) -> Node | None:
        negate = False
        while self.peek() == "NOT":  # a loop, not recursion: "NOT NOT ... x" may be long
            self.pos += 1
            negate = not negate
        node = self.primary()
        return _negate(node) if negate else node

    def primary(self) -> Node | None:
        kind = self.peek()
        if kind == "TERM":
            self.pos += 1
            return self.term(self.tokens[self.pos - 1][1])
        if kind == "PHRASE":
            self.pos += 1
            return self.phrase(self.tokens[self.pos - 1][1])
        if kind == "(":
            self.pos += 1
            if self.depth >= MAX_DEPTH:
                return None  # too deep: the "(" is dropped; the group's terms follow as siblings
            self.depth += 1
            node = self.or_expr()
            self.depth -= 1
            if self.peek() == ")":
                self.pos += 1
            return node
        return None  # an operator or ")" where an operand belongs: the operand is missing

    def term(self, word: str) -> Node | None:
        lexemes = segment_query(word)
        if self.drop_stopwords:
            lexemes = [lex for lex in lexemes if lex not in STOPWORDS]
        return _combine(self.default_op, [Lex(lex) for lex in lexemes])

    def phrase(self, text: str) -> Node | None:
        lexemes = segment_query(text)
        if len(lexemes) <= 1:
            return Lex(lexemes[0]) if lexemes else None
        # The index holds search-mode sub-words before each word, which shifts positions.
        gaps = tuple(1 + len(_subwords(lex)) for lex in lexemes[1:])
        return Phrase(tuple(lexemes), gaps)


# --- rendering ------------------------------------------------------------------------------


def quote_lexeme(lexeme: str) -> str:
    """Return lexeme as a quoted tsquery literal (quotes doubled, backslashes escaped)."""
    lexeme = lexeme.replace("\x00", "")
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def render(node: Node | None) -> str:
    """Return the tsquery text of an AST node ("" for None)."""
    if node is None:
        return ""
    if isinstance(node, Lex):
        return quote_lexeme(node.text)
    if isinstance(node, Phrase):
        out = quote_lexeme(node.lexemes[0])
        for gap, lexeme in zip(node.gaps, node.lexemes[1:], strict=True):
            out += (" <-> " if gap == 1 else f" <{gap}> ") + quote_lexeme(lexeme)
        return out
    if isinstance(node, Not):
        return "!" + _wrapped(node.child)
    return f" {node.op} ".join(_wrapped(child) for child in node.children)


def _wrapped(node: Node) -> str:
    text = render(node)
    return f"({text})" if isinstance(node, Op | Phrase) else text


def parse_query(text: str, *, default_operator: str = "and", drop_stopwords: bool = False) -> str:
    """Return a ``to_tsquery('simple', ...)`` string for arbitrary user input, or "" if empty.

    Never raise: unknown default operators fall back to "and", and an unexpected internal error
    is logged and yields "" rather than breaking the search request.
    """
    try:
        default_op = "|" if str(default_operator).strip().lower() in ("or", "|") else "&"
        if not isinstance(text, str):
            text = "" if text is None else str(text)
        return _parse(text, default_op, drop_stopwords)
    except Exception:  # noqa: BLE001 - the contract is "never raise"; keep the request alive.
        log.exception("parse_query failed for %r", text[:200] if isinstance(text, str) else text)
        return ""


def _parse(text: str, default_op: str, drop_stopwords: bool) -> str:
    tokens = _tokenize(_prepare(text[:MAX_QUERY_CHARS]))
    node = _Parser(tokens, default_op, drop_stopwords).parse()
    if node is None and drop_stopwords:
        # Dropping stop words must not turn "what is it" into an empty query.
        node = _Parser(tokens, default_op, False).parse()
    return render(node)

"""The writer's journey over real HTTP: write a book, list it, open it, page it, search it.

On the journey service (``manage.py serve``, tests/journeys/conftest.py: a worker chunks a
chapter after its POST answered, so the journey waits until her list shows both chapters of
each book chunked). Alice writes a book in Chinese and one in English through the API; each test
follows one step of her journey in both.
"""

from __future__ import annotations

import pytest

from writing.demo import FIXTURE, parse_chapters

# Starts the service in other processes, whose clock the test cannot move.
pytestmark = [pytest.mark.slow, pytest.mark.real_clock]
# A worker chunks (and embeds) a chapter after its POST answered.
CHUNKED_WITHIN_SECONDS = 90

# 西游记 chapter 1 (writing/fixtures): the stone monkey is born of a rock on 花果山 (one
# paragraph of 512 characters: one parent of two children), then, later, the Monkey King
# grieves that he must die one day.
_FIRST = parse_chapters(FIXTURE.read_text(encoding="utf-8"))[0][1]
ENGLISH = {
    "The lighthouse": [
        "The storm reached the island just after dusk. Waves climbed the black rocks below "
        "the tower and the wind tore the shutters from the cottage. Martha Quill had kept the "
        "light for thirty years, and she knew the sound of a bad night.",
        # One parent of about 700 characters: two or three children.
        "At nine o'clock the great lamp flickered and went dark. Martha climbed the spiral "
        "stairs with a box of tools, her lantern swinging against the wall. At the top she "
        "found the wick burnt through and the brass burner cracked by the cold. Her fingers "
        "were numb and the glass rattled in its frame with every gust. She replaced the burner "
        "with the spare from the cupboard, trimmed a fresh wick, and lit the lamp again before "
        "the fishing boats lost their way. The beam swept out across the water once more. "
        "Then she sat on the top step, drank the cold tea from her flask, and listened to the "
        "gulls sheltering under the gallery until the rain eased and the sky turned grey.",
        "By morning the sea had calmed. Three boats came home safely into the harbour, and "
        "the fishermen left a basket of bread and smoked fish at her door.",
    ],
    "The bakery": [
        "On Baker Street the ovens were lit at four. Tom kneaded the dough for the morning "
        "loaves while his sister counted the coins from yesterday's sales.",
        "Customers queued in the rain for cinnamon rolls. An old man asked for the same rye "
        "loaf he had bought every Tuesday for twenty years, and Tom wrapped it in brown paper.",
    ],
}
# ``passage``: words of the query's own sentence; ``elsewhere``: words of the same parent
# far from it, which only the window around the small match brings back.
BOOKS = {
    "zh": {
        "title": "西游记（节选）",
        "chapters": {"石猴出世": _FIRST[5:9], "美猴王忧恼": _FIRST[27:30]},
        "query": "山顶的仙石迸裂，产出一个石卵，见风化作一个石猴",
        "finds": "石猴出世",
        "passage": "产一石卵",
        "elsewhere": "势镇汪洋",
    },
    "en": {
        "title": "Tales of the Coast",
        "chapters": ENGLISH,
        "query": "she replaced the cracked brass burner and lit the lamp again",
        "finds": "The lighthouse",
        "passage": "She replaced the burner",
        "elsewhere": "At nine o'clock",
    },
}
LANGUAGES = list(BOOKS)


@pytest.fixture(scope="module")
def written(service):
    """Alice's two books, written through the API; return ``{language: {"book", "chapters"}}``.

    Chapters are posted last first (sequence 2, then 1): listings must follow the sequence.
    """
    out = {}
    for lang, spec in BOOKS.items():
        book = service.post("/api/books/", "alice", {"title": spec["title"]})
        assert book.status_code == 201, book.text
        chapters = {}
        items = list(spec["chapters"].items())
        for sequence, (title, paragraphs) in reversed(list(enumerate(items, start=1))):
            body = {
                "book": book.json()["id"],
                "title": title,
                "sequence": sequence,
                "blocks": [{"content": p} for p in paragraphs],
            }
            response = service.post("/api/chapters/", "alice", body)
            assert response.status_code == 201, response.text
            chapters[title] = response.json()
        out[lang] = {"book": book.json(), "chapters": chapters}
    ids = {entry["book"]["id"] for entry in out.values()}

    def chunked():
        listing = service.get("/api/books/", "alice").json()["results"]
        states = [b["chunking"] for b in listing if b["id"] in ids]
        return len(states) == len(ids) and all(s["ready"] == 2 for s in states)

    service.wait_until(chunked, CHUNKED_WITHIN_SECONDS, what="every chapter chunked")
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_writer_finds_the_book_in_their_list_chunked(service, written, lang):
    listing = service.get("/api/books/", "alice").json()
    assert listing["count"] == len(BOOKS)
    (item,) = [b for b in listing["results"] if b["id"] == written[lang]["book"]["id"]]
    assert item["chapter_count"] == 2
    assert item["chunking"] == {"pending": 0, "running": 0, "ready": 2, "failed": 0}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_writer_opens_the_book_with_its_chapters_in_order(service, written, lang):
    book = service.get(f"/api/books/{written[lang]['book']['id']}/", "alice").json()
    chapters = BOOKS[lang]["chapters"]
    assert [c["title"] for c in book["chapters"]] == list(chapters)
    assert [c["length"] for c in book["chapters"]] == [
        sum(len(p) for p in paragraphs) for paragraphs in chapters.values()
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_writer_pages_through_the_chapters(service, written, lang):
    url = f"/api/books/{written[lang]['book']['id']}/chapters/"
    pages = [service.get(url, "alice", params={"limit": 1, "offset": i}).json() for i in (0, 1)]
    assert [page["count"] for page in pages] == [2, 2]
    assert [page["results"][0]["title"] for page in pages] == list(BOOKS[lang]["chapters"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_writer_opens_a_chapter_with_its_blocks(service, written, lang):
    title, paragraphs = next(iter(BOOKS[lang]["chapters"].items()))
    chapter_id = written[lang]["chapters"][title]["id"]
    chapter = service.get(f"/api/chapters/{chapter_id}/", "alice").json()
    assert [b["content"] for b in chapter["blocks"]] == paragraphs
    assert chapter["chunk_state"] == "ready"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_search_returns_the_parent_window_around_the_small_match(service, written, lang):
    spec = BOOKS[lang]
    body = {"query": spec["query"], "book": written[lang]["book"]["id"], "top_k": 3}
    response = service.post("/api/writing/search", "alice", body)
    assert response.status_code == 200, response.text
    assert response.json()["degraded"] is False
    best = response.json()["results"][0]
    assert best["chapter_id"] == written[lang]["chapters"][spec["finds"]]["id"]
    child = best["children"][0]
    assert len(best["text"]) > child["end"] - child["start"]  # a small match, a big window
    assert spec["passage"] in best["text"] and spec["elsewhere"] in best["text"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_another_writer_cannot_open_the_book(service, written, lang):
    book_id = written[lang]["book"]["id"]
    for path in (f"/api/books/{book_id}/", f"/api/books/{book_id}/chapters/"):
        response = service.get(path, "bob")
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "NOT_FOUND"


def test_another_writer_lists_no_books(service, written):
    assert service.get("/api/books/", "bob").json() == {"count": 0, "results": []}

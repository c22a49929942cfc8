from django.urls import path

from writing import staff, views

urlpatterns = [
    path("api/books/", views.BookListView.as_view(), name="writing-books"),
    path("api/books/<int:book_id>/", views.BookDetailView.as_view(), name="writing-book"),
    path(
        "api/books/<int:book_id>/chapters/",
        views.BookChapterListView.as_view(),
        name="writing-book-chapters",
    ),
    path("api/chapters/", views.ChapterListView.as_view(), name="writing-chapters"),
    path(
        "api/chapters/<int:chapter_id>/", views.ChapterDetailView.as_view(), name="writing-chapter"
    ),
    path(
        "api/chapters/<int:chapter_id>/autosave",
        views.ChapterAutosaveView.as_view(),
        name="writing-chapter-autosave",
    ),
    path("api/writing/search", views.WritingSearchView.as_view(), name="writing-search"),
    path("staff/writing/", staff.index, name="writing-staff-index"),
    path("staff/writing/chapters/<int:chapter_id>/", staff.chapter_inspect, name="writing-inspect"),
    path("staff/writing/books/<int:book_id>/search/", staff.book_search, name="writing-playground"),
]

"""Typing the page: article, thread, listing or other, and how sure it is an article.

The only writers of ``page_type`` (the other phases record findings for them).
This ``__init__`` imports nothing: the stages are gathered in ``extract/__init__``.
"""

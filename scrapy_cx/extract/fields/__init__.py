"""The article's fields read once the text is chosen: title, dates, authors, lead
image, language, fingerprint, and a listing's links for crawlers.

This ``__init__`` imports nothing: the stages are gathered in ``extract/__init__``.
"""

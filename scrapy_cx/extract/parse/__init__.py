"""Reading a page: bytes -> text -> one lxml tree -> its metadata and its lines.

The first phase; everything later reads what it makes (``Page.meta``, ``PageLines``).
This ``__init__`` imports nothing: the stages are gathered in ``extract/__init__``
(the phases call into one another, so roots that re-exported would form circles).
"""

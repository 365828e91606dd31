"""Choosing the text: which of the walk's lines are the page's main text.

The regions over the lines, the stages that replace ``page.selection`` (main text,
lead, a page of headlines, a thread's posts, the sections of a page that is not one
article) and what the text's lines are (their kinds, the related links).
This ``__init__`` imports nothing: the stages are gathered in ``extract/__init__``.
"""

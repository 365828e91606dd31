"""Rendering the chosen text: its lines rebuilt as a tree of blocks, written as HTML
and Markdown, with the pictures it shows.

This ``__init__`` imports nothing: the stage is gathered in ``extract/__init__``.
"""

"""Spiders a project subclasses: :class:`NewsSpider`, a news crawler that finds the
news itself (``-a site=``), or crawls given pages (``urls=``, ``dir=``, ``start_url=``)."""

from __future__ import annotations

from ._news import NewsSpider

__all__ = ["NewsSpider"]

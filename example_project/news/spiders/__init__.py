"""Spiders of the example project (``scrapy list`` shows them)."""

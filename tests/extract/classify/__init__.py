"""Tests of scrapy_cx/extract/classify/, one module per module."""

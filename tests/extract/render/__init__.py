"""Tests of scrapy_cx/extract/render/, one module per module."""

"""Tests of scrapy_cx/extract/content/, one module per module."""

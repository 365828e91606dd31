"""Tests of scrapy_cx/extract/parse/, one module per module."""

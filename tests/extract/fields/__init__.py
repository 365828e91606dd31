"""Tests of scrapy_cx/extract/fields/, one module per module."""

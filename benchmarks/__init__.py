"""Accuracy and speed benchmarks of scrapy-cx against the shared bench sets."""

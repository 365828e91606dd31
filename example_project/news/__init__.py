"""Example Scrapy project for scrapy-cx: a ``news`` spider whose items are extracted articles."""

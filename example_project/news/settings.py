# Scrapy settings for the scrapy-cx example project.
#
# Everything scrapy-cx needs is the ADDONS line: it enables the middleware that
# extracts an article from every HTML response, the spider middleware that
# turns `{"url": response.url}` into a full article item, the pipeline that
# drops what is not an article, and the cx/* stats.
#
#     https://docs.scrapy.org/en/latest/topics/settings.html

import scrapy

BOT_NAME = "news"

SPIDER_MODULES = ["news.spiders"]
NEWSPIDER_MODULE = "news.spiders"

ADDONS = {"scrapy_cx.Addon": 500}

# Crawl responsibly by identifying yourself on the user-agent.
USER_AGENT = "scrapy-cx-example/0.1 (+https://github.com/scrapy-cx/scrapy-cx)"

# Obey robots.txt rules on real sites (file:// pages have none to obey).
ROBOTSTXT_OBEY = True

# Polite defaults for real news sites: one request at a time per site, at least
# a second apart, slower still when the site slows down (AutoThrottle).
# Local files (the bundled pages, -a dir=) go through their own download slot
# without delay: see DOWNLOAD_SLOTS and the spider.
CONCURRENT_REQUESTS_PER_DOMAIN = 1
DOWNLOAD_DELAY = 1
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1
AUTOTHROTTLE_MAX_DELAY = 30
AUTOTHROTTLE_TARGET_CONCURRENCY = 1.0
DOWNLOAD_SLOTS = {"local-files": {"concurrency": 8, "delay": 0}}
DOWNLOAD_TIMEOUT = 30
RETRY_TIMES = 1

# Disable the Telnet console: nothing here needs it.
TELNETCONSOLE_ENABLED = False

LOG_LEVEL = "INFO"

# Export text as UTF-8, not \uXXXX escapes (Chinese articles stay readable).
FEED_EXPORT_ENCODING = "utf-8"

# The asyncio reactor Scrapy's project template sets (the default from 2.13).
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# Scrapy 2.7-2.11 warn unless the request fingerprinter is pinned to the
# current implementation; 2.12 made it the only one and deprecated the setting.
if tuple(int(part) for part in scrapy.__version__.split(".")[:2]) < (2, 12):
    REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"

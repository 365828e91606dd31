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

# Crawl responsibly by identifying yourself on the user-agent: before crawling
# real sites, add a page where site owners can reach you, e.g.
# "scrapy-cx-example/0.1 (+https://your.site/crawler-contact)".
USER_AGENT = "scrapy-cx-example/0.1"

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

# --- distributed (scrapy-redis) ---
# Several `scrapy crawl news` processes, on one machine or many, share one
# request queue and one dupefilter in Redis when CX_REDIS_URL (or REDIS_URL,
# scrapy-redis's own name) is set; without it, nothing below applies:
#
#     pip install 'scrapy-cx[redis]'
#     export CX_REDIS_URL=redis://127.0.0.1:6379/0
#     scrapy crawl news -a start_url=https://example.com/ -a follow=1 -O part-1.jsonl &
#     scrapy crawl news -a start_url=https://example.com/ -a follow=1 -O part-2.jsonl &
#
# Each article is exported exactly once, to Redis, even when a process dies
# mid-crawl: requests are leased, not popped (a dead process's requests are
# fetched again by another after CX_REDIS_LEASE_TIMEOUT seconds), and
# ExportOnce records each URL and its item in one atomic step. Write them out:
#     python -m scrapy_cx.distributed "$CX_REDIS_URL" news -o articles.jsonl
# (the -O feeds of the processes hold each article at most once; a killed
# process loses the lines it had not flushed, Redis does not).
# The queue and the dupefilter are kept after the crawl (SCHEDULER_PERSIST), so
# a stopped crawl resumes where it was and one process finishing does not wipe
# the queue of the others. To crawl the same site again from scratch:
#     redis-cli -u "$CX_REDIS_URL" del news:requests news:requests:leases \
#         news:requests:deliveries news:dupefilter news:exported news:articles
# See docs/scale.rst.
import os as _os  # noqa: E402 - this block is meant to be copied whole

_CX_REDIS_URL = _os.environ.get("CX_REDIS_URL") or _os.environ.get("REDIS_URL")
if _CX_REDIS_URL:
    REDIS_URL = _CX_REDIS_URL
    CX_REDIS_URL = _CX_REDIS_URL  # with -s CX_DEDUP=True, reposts are found across processes
    SCHEDULER = "scrapy_cx.distributed.Scheduler"  # scrapy-redis's, waiting out Redis outages
    SCHEDULER_QUEUE_CLASS = "scrapy_cx.distributed.LeasedQueue"
    DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
    SCHEDULER_PERSIST = True
    # Start URLs go through the shared dupefilter too (Scrapy sends them with
    # dont_filter=True, which would make every process fetch every start URL);
    # LeaseAcks acknowledges each leased request once it is done.
    SPIDER_MIDDLEWARES = {
        **globals().get("SPIDER_MIDDLEWARES", {}),
        "scrapy_cx.distributed.SharedStartRequests": 50,
        "scrapy_cx.distributed.LeaseAcks": 10,
    }
    DOWNLOADER_MIDDLEWARES = {
        **globals().get("DOWNLOADER_MIDDLEWARES", {}),
        "scrapy_cx.distributed.LeaseAcks": 10,
    }
    # Each article once in Redis (news:articles), whichever process fetched it.
    ITEM_PIPELINES = {
        **globals().get("ITEM_PIPELINES", {}),
        "scrapy_cx.distributed.ExportOnce": 900,
    }
    # An idle process waits this long for the others to refill the queue.
    EXTENSIONS = {**globals().get("EXTENSIONS", {}), "scrapy_cx.distributed.IdleClose": 500}
    CX_REDIS_IDLE_CLOSE = 30  # seconds; -s CX_REDIS_IDLE_CLOSE=5 for small crawls
    CX_REDIS_LEASE_TIMEOUT = 600  # seconds before a dead process's requests go to another

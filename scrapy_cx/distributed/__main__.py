"""``python -m scrapy_cx.distributed REDIS_URL SPIDER [-o FILE]``: export the articles."""

import sys

from ._shared import main

sys.exit(main())

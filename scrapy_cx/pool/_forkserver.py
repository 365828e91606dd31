"""What the pool's fork server imports: the extractor, warmed once for all workers.

A worker forked from the server inherits what it built: the imports, and the
first-use costs of an extraction (:func:`~._start.warm_up_extractor`) and of
dateparser's locales (:func:`~._start.warm_up_locales`, seconds per process).
Built in each worker instead, they were paid again by every worker and every
replacement. Importing this module does that work: it is the fork server's
preload (``_start.WARM_PRELOAD``), imported nowhere else.
"""

import logging

from ._start import warm_up_extractor, warm_up_locales

try:
    warm_up_extractor()
    warm_up_locales()
except Exception:  # noqa: BLE001 - each worker warms itself, as without a fork server
    logging.getLogger(__name__).exception("scrapy-cx: the fork server's warm-up failed")

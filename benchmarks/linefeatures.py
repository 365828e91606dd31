"""The learned labeller's line features (issue 38), for the benchmarks' learners.

They live in the core (scrapy_cx.extract.content._features), which computes them
at extraction time: training on this module's rows and running on the core's is
then the same arithmetic by construction.
"""

from scrapy_cx.extract.content._features import (
    MATRIX_NAMES,
    NAMES,
    line_matrix,
    page_features,
)

__all__ = ["MATRIX_NAMES", "NAMES", "line_matrix", "page_features"]

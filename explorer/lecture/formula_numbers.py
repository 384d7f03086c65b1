"""A vector's numbers as the formula walkthrough writes them: one precision a row, as many as fit a line.

A teacher checks them by hand, so a row never mixes precisions ('[0.296, 0.17, −1.57]' read as numbers
of different accuracy), never writes "−0", and says how many entries a shortened row leaves out.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QFontMetrics

from explorer.ui.i18n import tr

SHORT = 8  # vector entries shown before "show all": enough to check by hand, few enough for a projector
# The fewest entries a vector's row keeps when fewer fit its line: a row of two lines (zoomed type, a
# narrow dock) showed half as many steps unscrolled, and "[1.9, 1.8, −0.2, … (32 in all)]" still reads.
LEAST_SHOWN = 3

def format_numbers(values: np.ndarray, decimals: int, limit: int | None = None) -> str:
    """'[0.710, 1.400, 2.125]': the same decimals for every entry of the row, as few as its entries need
    (at most ``decimals``: '[1, 2, 3]' for whole numbers), −∞ as such, '…' past ``limit``.

    One count for the whole row: dropping each entry's own trailing zeros wrote '[0.296, 0.17, −1.57]',
    which reads as numbers of different precision (a teacher's walk-through, 2026-12-03)."""
    shown = values if limit is None or len(values) <= limit else values[:limit]
    finite = [float(x) for x in shown if not np.isneginf(x)]
    places = max((_places(x, decimals) for x in finite), default=0)

    def one(x: float) -> str:
        if np.isneginf(x):
            return "−∞"
        text = f"{x:.{places}f}"
        if float(text) == 0.0:
            text = text.lstrip("-")  # never "−0.000"
        return text.replace("-", "−")
    more = "" if len(shown) == len(values) else tr(", … ({n} in all)", n=len(values))
    return "[" + ", ".join(one(float(x)) for x in shown) + more + "]"


def _places(x: float, decimals: int) -> int:
    """The decimals ``x`` needs at ``decimals`` places once its trailing zeros are dropped."""
    text = f"{x:.{decimals}f}"
    return len(text.rstrip("0").partition(".")[2]) if "." in text else 0


def fitted_count(values: np.ndarray, decimals: int, metrics: QFontMetrics, width: int) -> int:
    """The most entries (``LEAST_SHOWN`` … ``SHORT``) of ``values`` whose row fits ``width`` px on one line
    in ``metrics``' font."""
    for count in range(min(SHORT, len(values)), LEAST_SHOWN, -1):
        if metrics.horizontalAdvance(format_numbers(values, decimals, count)) <= width:
            return count
    return min(LEAST_SHOWN, len(values))

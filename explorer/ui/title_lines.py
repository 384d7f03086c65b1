"""A short title on one line or two: where it may break, and the lines that fit a width.

Shared by the painted views whose titles sit over narrow maps side by side (the Step tab's maps, the
workbench's three head grids): zoomed twice at 1024 × 768 their one-line titles were cut to "Decoder self
(mask…". Chinese has no spaces, so a title may also break between two CJK characters.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui


def breaks(text: str) -> list[int]:
    """Where ``text`` may wrap: at its spaces, and between two CJK characters (Chinese has no spaces)."""
    cjk = [ch >= "\u2e80" for ch in text]
    return [i for i in range(1, len(text)) if text[i] == " " or (cjk[i - 1] and cjk[i])]


def two_line_splits(text: str, metrics: QtGui.QFontMetricsF) -> list[list[str]]:
    """Every way to put ``text`` on two lines: first those before a bracket (its words stay whole:
    "交叉注意力" over "（编码器–解码器）", not "交叉注意力（编" over "码器–解码器）"), each kind the
    most even first (it reads best)."""
    at = breaks(text)
    stripped = [text[i:].lstrip() for i in at]
    splits = [[text[:i].strip(), rest.strip()] for i, rest in zip(at, stripped)]
    before_bracket = [rest[:1] in ("(", "（") for rest in stripped]
    order = sorted(range(len(splits)), key=lambda k: (not before_bracket[k], abs(
        metrics.horizontalAdvance(splits[k][0]) - metrics.horizontalAdvance(splits[k][1]))))
    return [splits[k] for k in order]


def fit_lines(text: str, metrics: QtGui.QFontMetricsF, width: float) -> list[str]:
    """``text`` whole on one line where it fits ``width`` px, else on two lines that both fit, else its
    widest fitting first part over the rest cut with "…" (an empty text: no lines)."""
    if not text:
        return []
    if metrics.horizontalAdvance(text) <= width:
        return [text]
    splits = two_line_splits(text, metrics)
    for lines in splits:
        if max(metrics.horizontalAdvance(line) for line in lines) <= width:
            return lines
    fitting = [s for s in splits if metrics.horizontalAdvance(s[0]) <= width]
    first, rest = max(fitting, key=lambda s: len(s[0])) if fitting else ("", text)
    cut = metrics.elidedText(rest, QtCore.Qt.TextElideMode.ElideRight, max(1.0, width))
    return [first, cut] if first else [cut]

"""The statistics line's fitting (explorer/attention/text_fit.fit_parts) finds what trying every length
from the longest down found: the same text, English and Chinese, at every width and zoom tried. It halves
the range instead (a head switch at 1024 × 768 under the formula dock laid the text out ~30 times)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics

from explorer.attention import text_fit
from explorer.attention.panel import unbreakable
from explorer.attention.text_fit import ELLIPSIS, GAP, SEPARATOR, fit_parts, wrapped_height

ENGLISH = ("Layer 1, head 3:", "entropy 2.11 bits (uniform 3.17)", "·", "mean max weight 0.479", "·",
           "mean |i−j| 2.76", "·", "diagonal 4%", "·", "previous token 14%", "·", "to </s> 3%")
CHINESE = ("第 1 层，第 3 个头：", "熵 2.11 比特（均匀 3.17）", "·", "平均最大权重 0.479", "·", "平均 |i−j| 2.76", "·",
           "对角线 4%", "·", "前一个词元 14%", "·", "指向 </s> 3%")


def longest_first(text: str, metrics: QFontMetrics, width: int, max_lines: int) -> str:
    """The reference: every number of first parts tried, from all of them down."""
    room = wrapped_height("\n".join("X" * max_lines), metrics, width)
    if wrapped_height(text, metrics, width) <= room:
        return text
    parts = text.split(GAP)
    body = parts[1:] if len(parts) > 1 else parts
    for end in range(len(body), 0, -1):
        kept = body[:end]
        while len(kept) > 1 and kept[-1] == SEPARATOR:
            kept = kept[:-1]
        candidate = GAP.join(kept + ([ELLIPSIS] if end < len(body) else []))
        if wrapped_height(candidate, metrics, width) <= room:
            return candidate
    return GAP.join(body[:1] + [ELLIPSIS])


def test_halving_finds_what_trying_every_length_found(qapp, monkeypatch):
    calls = []
    original = text_fit.wrapped_height
    monkeypatch.setattr(text_fit, "wrapped_height", lambda *a: calls.append(1) or original(*a))
    cut = tried = 0
    for points in (9.0, 15.9):
        font = QFont()
        font.setPointSizeF(points)
        metrics = QFontMetrics(font)
        for words in (ENGLISH, CHINESE):
            for n in (4, len(words)):
                text = unbreakable(GAP.join(words[:n]))
                for width in range(60, 1500, 47):
                    for lines in (1, 2):
                        expected = longest_first(text, metrics, width, lines)
                        assert fit_parts(text, metrics, width, lines) == expected, (points, n, width, lines)
                        cut += expected.endswith(ELLIPSIS)
                        tried += 1
    assert cut >= tried // 4  # most widths cut the line somewhere: the search was exercised, not skipped
    assert len(calls) < 4 * tried, len(calls)  # ~2 + log2(parts) layouts a fit, not one per length tried

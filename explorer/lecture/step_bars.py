"""The next-piece probabilities of one decoding step as horizontal bars, the chosen piece marked.

Bars are drawn on an absolute 0–100 % scale, so a confident step and a hesitant one look different,
and an "all others" bar holds the rest of the softmax: the bars on screen always add up to 1,
which is the point of a softmax the class should see. A chosen piece outside the top k (beam search may
take one) gets a row of its own with its rank.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.tokens import distinct_pieces, elide
from explorer.ui.i18n import tr
from explorer.ui.style import ACCENT, MUTED

BAR = "#9db4d6"  # the other candidates: light, so the chosen piece's accent stands out on a projector
OTHERS = "#c8c8c8"


class ProbabilityBars(QtWidgets.QWidget):
    """Rows of (piece, probability); ``set_step`` fills them, ``rows()`` reads them back for tests."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        # (label, probability, kind) with kind "chosen", "other" (a candidate) or "rest" (all others)
        self._rows: list[tuple[str, float, str]] = []
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(80)

    def set_step(self, pieces, probs, chosen: str, chosen_prob: float, chosen_rank: int) -> None:
        """The top-k ``pieces`` and ``probs`` of a step (best first) and the piece the search took."""
        rows = []
        listed = [*pieces, *([] if chosen in pieces else [chosen])]
        labels = dict(zip(listed, distinct_pieces(listed)))  # two pieces never read alike ("▁今天", "今天")
        for piece, p in zip(pieces, probs):
            mark, kind = ("✓ ", "chosen") if piece == chosen else ("", "other")
            rows.append((mark + labels[piece], float(p), kind))
        if chosen not in pieces:  # beam search kept a less probable piece: show where it stood
            rows.append((f"✓ {labels[chosen]} (#{chosen_rank + 1})", float(chosen_prob), "chosen"))
        listed = sum(float(p) for p in probs) + (0.0 if chosen in pieces else float(chosen_prob))
        rows.append((tr("all others"), max(0.0, 1.0 - listed), "rest"))
        self._rows = rows
        self.setToolTip("\n".join(f"{label}: {p:.2%}" for label, p, _ in rows))
        self.update()

    def clear(self) -> None:
        self._rows = []
        self.setToolTip("")
        self.update()

    def rows(self) -> list[tuple[str, float, str]]:
        """What is drawn: (label, probability, 'chosen' | 'other' | 'rest'), top to bottom."""
        return list(self._rows)

    def shown_rows(self) -> tuple[list[tuple[str, float, str]], QtGui.QFont]:
        """The rows drawn at the widget's height, and their font. Short of room (a zoomed font, a
        dock under the tab), the least likely candidates join "all others" rather than the text
        shrinking below the app's: at zoom +2 the labels used to come out smaller than at zoom 0."""
        font = QtGui.QFont(self.font())
        line = QtGui.QFontMetricsF(font).height()
        fit = max(2, int((self.height() - 4) // (line * 1.05)))
        rows = self._rows
        if len(rows) > fit:
            kept = [r for r in rows if r[2] == "chosen"]
            for r in rows:
                if r[2] == "other" and len(kept) < fit - 1:
                    kept.append(r)
            kept.sort(key=lambda r: rows.index(r))
            rest = 1.0 - sum(p for _, p, _ in kept)
            rows = kept + [(tr("all others"), max(0.0, rest), "rest")]
        if len(rows) * line > self.height() - 4:  # not even two rows fit: only then a smaller font
            font.setPointSizeF(max(6.0, font.pointSizeF() * (self.height() - 4) / (len(rows) * line)))
        return rows, font

    def sizeHint(self) -> QtCore.QSize:  # Qt override
        line = QtGui.QFontMetrics(self.font()).height()
        return QtCore.QSize(320, int(line * 1.35 * min(max(len(self._rows), 4), 7)) + 8)

    def minimumSizeHint(self) -> QtCore.QSize:  # Qt override
        return QtCore.QSize(200, 80)

    def paintEvent(self, event) -> None:  # Qt override
        painter = QtGui.QPainter(self)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QtGui.QPalette.ColorRole.Base))
        if not self._rows:
            painter.setPen(QtGui.QColor(MUTED))
            painter.drawText(self.rect(), QtCore.Qt.AlignmentFlag.AlignCenter, tr("No step to show"))
            return
        rows, font = self.shown_rows()
        metrics = QtGui.QFontMetricsF(font)
        row_h = min(metrics.height() * 1.4, (self.height() - 4) / len(rows))
        painter.setFont(font)
        bold_metrics = QtGui.QFontMetricsF(self._bold(font))
        label_w = min(max(bold_metrics.horizontalAdvance(elide(r[0], 22)) for r in rows) + 12,
                      0.4 * self.width())
        value_w = metrics.horizontalAdvance("100.0 %") + 10
        bar_w = max(10.0, self.width() - label_w - value_w - 8)
        text = palette.color(QtGui.QPalette.ColorRole.WindowText)
        for i, (label, p, kind) in enumerate(rows):
            top = 2 + i * row_h
            label_rect = QtCore.QRectF(4, top, label_w - 8, row_h)
            painter.setPen(QtGui.QColor(ACCENT) if kind == "chosen" else text)
            painter.setFont(self._bold(font) if kind == "chosen" else font)
            painter.drawText(label_rect, QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter,
                             metrics.elidedText(label, QtCore.Qt.TextElideMode.ElideRight, label_rect.width()))
            colour = {"chosen": ACCENT, "other": BAR, "rest": OTHERS}[kind]
            bar = QtCore.QRectF(label_w, top + row_h * 0.15, max(1.0, bar_w * min(max(p, 0.0), 1.0)), row_h * 0.7)
            painter.fillRect(bar, QtGui.QColor(colour))
            value = f"{p * 100:.1f} %"
            painter.setPen(QtGui.QColor(ACCENT) if kind == "chosen" else text)
            painter.drawText(QtCore.QRectF(bar.right() + 4, top, value_w + bar_w, row_h),
                             QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter, value)
        painter.end()

    @staticmethod
    def _bold(font: QtGui.QFont) -> QtGui.QFont:
        bold = QtGui.QFont(font)
        bold.setBold(True)
        return bold

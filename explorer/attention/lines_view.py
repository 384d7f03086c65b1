"""The bertviz-style "head view": query tokens on the left, key tokens on the right, one line per pair.

A line's opacity is the attention weight, and each head has its own colour, so several heads can be
compared on one sentence. Hovering a token isolates its lines (the others fade to a trace) and shades
the tokens on the other side by how much weight they receive. Painted with QPainter on a plain widget:
a few thousand antialiased lines cost a few milliseconds, and the same code paints into an SVG.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Signal

from explorer.attention.lines_heads import HeadSwatches, head_color
from explorer.attention.tokens import display_piece, elide
from explorer.ui.plot_titles import BASE_POINT_SIZE

FADE = 0.07  # opacity factor of the lines that do not touch the hovered token


class _LinesCanvas(QtWidgets.QWidget):
    """The painted area; all geometry comes from :meth:`layout_tokens` so painting and hit-testing agree."""

    def __init__(self, owner: "LinesView") -> None:
        super().__init__(owner)
        self._owner = owner
        self.setMouseTracking(True)
        self.setMinimumSize(320, 200)

    def paintEvent(self, event) -> None:  # Qt override
        painter = QtGui.QPainter(self)
        try:
            self._owner.render_to(painter, QtCore.QRectF(self.rect()))
        finally:
            painter.end()

    def mouseMoveEvent(self, event) -> None:  # Qt override
        hit = self._owner.token_at(event.position())
        self._owner.highlight_token(*hit) if hit else self._owner.highlight_token("query", None)

    def leaveEvent(self, event) -> None:  # Qt override
        self._owner.highlight_token("query", None)


class LinesView(HeadSwatches, QtWidgets.QWidget):
    """Lines from every query to every key of one layer; one colour per head."""

    heads_changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._weights = np.zeros((0, 0, 0), dtype=np.float32)
        self._rows: list[str] = []
        self._cols: list[str] = []
        self._titles = ("Query", "Key")
        self._visible: set[int] = set()
        self._highlight: tuple[str, int] | None = None
        self._font_scale = 1.0

        self._swatch_bar = QtWidgets.QHBoxLayout()
        self._swatch_bar.setSpacing(4)
        self._swatches: list[QtWidgets.QToolButton] = []
        all_button = QtWidgets.QToolButton(text="All")
        all_button.clicked.connect(lambda: self._set_heads_from_user(set(range(self.n_heads))))
        none_button = QtWidgets.QToolButton(text="None")
        none_button.clicked.connect(lambda: self._set_heads_from_user(set()))
        top = QtWidgets.QHBoxLayout()
        top.addWidget(QtWidgets.QLabel("Heads:"))
        top.addLayout(self._swatch_bar)
        top.addStretch(1)
        top.addWidget(all_button)
        top.addWidget(none_button)
        self.canvas = _LinesCanvas(self)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(top)
        layout.addWidget(self.canvas, 1)

    # ----------------------------------------------------------------------------------- public API
    @property
    def n_heads(self) -> int:
        return int(self._weights.shape[0])

    def set_layer(self, arr, row_labels, col_labels, row_title: str = "Query", col_title: str = "Key") -> None:
        """Show one layer: ``arr`` is (H, Q, K); rows are queries (left), columns keys (right)."""
        arr = np.asarray(arr, dtype=np.float32)
        if arr.ndim != 3 or arr.shape[1:] != (len(row_labels), len(col_labels)):
            raise ValueError(f"layer {arr.shape} does not match {len(row_labels)}×{len(col_labels)} labels")
        had = self.n_heads
        self._weights = arr
        self._rows, self._cols = [str(s) for s in row_labels], [str(s) for s in col_labels]
        self._titles = (row_title, col_title)
        if arr.shape[0] != had:
            self._rebuild_swatches()
            self._visible = set(range(arr.shape[0]))
        self._visible = {h for h in self._visible if h < arr.shape[0]}
        self._highlight = None
        self._sync_swatches()
        self.canvas.update()

    def set_heads(self, visible) -> None:
        """Show only these heads (0-based)."""
        self._visible = {int(h) for h in visible if 0 <= int(h) < self.n_heads}
        self._sync_swatches()
        self.canvas.update()

    def visible_heads(self) -> set[int]:
        return set(self._visible)

    def highlight_token(self, side: str, index: int | None) -> None:
        """Isolate the lines of token ``index`` on ``side`` ('query' or 'key'); None clears."""
        if side not in ("query", "key"):
            raise ValueError("side must be 'query' or 'key'")
        new = None if index is None else (side, int(index))
        if new != self._highlight:
            self._highlight = new
            self.canvas.update()

    def highlighted(self) -> tuple[str, int] | None:
        return self._highlight

    def labels(self) -> tuple[list[str], list[str]]:
        """The query and key labels as drawn (display pieces, elided when long)."""
        return ([elide(display_piece(s)) for s in self._rows], [elide(display_piece(s)) for s in self._cols])

    def line_alphas(self) -> np.ndarray:
        """(H, Q, K) opacity of every line in [0, 1]: the weight, 0 for hidden heads, faded off-hover."""
        alphas = np.clip(self._weights, 0.0, 1.0).copy()
        hidden = [h for h in range(self.n_heads) if h not in self._visible]
        alphas[hidden] = 0.0
        if self._highlight is not None:
            side, index = self._highlight
            keep = np.zeros(alphas.shape[1:], dtype=bool)
            if side == "query":
                keep[index, :] = True
            else:
                keep[:, index] = True
            alphas[:, ~keep] *= FADE
        return alphas

    def set_font_scale(self, f: float) -> None:
        self._font_scale = max(0.5, float(f))
        for button in self._swatches:
            button.setProperty("styled_on", None)  # their style sheets carry the type size: set anew
        self._sync_swatches()
        self.canvas.update()

    # ----------------------------------------------------------------------------- geometry, paint
    def _fonts(self) -> tuple[QtGui.QFont, QtGui.QFont]:
        font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * 1.1 * self._font_scale)
        bold = QtGui.QFont(font)
        bold.setBold(True)
        return font, bold

    def layout_tokens(self, rect: QtCore.QRectF):
        """Label rectangles of queries and keys, the x of both line ends, and the title baseline."""
        font, bold = self._fonts()
        metrics = QtGui.QFontMetricsF(bold)
        labels = [elide(display_piece(s)) for s in self._rows + self._cols] or [""]
        label_w = max(metrics.horizontalAdvance(s) for s in labels) + 12
        # Each side is as wide as its column title too, so a narrow canvas shortens the lines, not the titles.
        side_w = max([label_w] + [metrics.horizontalAdvance(t) + 12 for t in self._titles])
        title_h = metrics.height() * 1.8
        n = max(len(self._rows), len(self._cols), 1)
        pitch = min((rect.height() - title_h - 8) / n, metrics.height() * 2.6)
        gap = max(120.0, min(rect.width() - 2 * side_w - 20, 520.0))
        x_query = rect.center().x() - gap / 2
        x_key = x_query + gap
        left = x_query - label_w
        # Centre the block (titles + rows) a little above the middle, so short sentences do not
        # hang at the top of an empty canvas.
        spare = max(0.0, rect.height() - title_h - n * pitch)
        top = rect.top() + title_h + 0.4 * spare

        def column(count: int, x0: float) -> list[QtCore.QRectF]:
            return [QtCore.QRectF(x0, top + i * pitch, label_w, pitch) for i in range(count)]

        return column(len(self._rows), left), column(len(self._cols), x_key), x_query, x_key, top

    def token_at(self, pos: QtCore.QPointF) -> tuple[str, int] | None:
        queries, keys, *_ = self.layout_tokens(QtCore.QRectF(self.canvas.rect()))
        for side, rects in (("query", queries), ("key", keys)):
            for i, r in enumerate(rects):
                if r.contains(pos):
                    return side, i
        return None

    def render_to(self, painter: QtGui.QPainter, rect: QtCore.QRectF) -> None:
        """Paint the whole view into ``rect``; used by the widget and by the SVG/PNG export."""
        palette = self.palette()
        painter.fillRect(rect, palette.color(QtGui.QPalette.ColorRole.Base))
        if self.n_heads == 0:
            return
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        font, bold = self._fonts()
        queries, keys, x_query, x_key, top = self.layout_tokens(rect)
        alphas = self.line_alphas()
        # Opacity is the weight; the width grows with it too, so strong links read from the back row.
        pen = QtGui.QPen()
        pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
        for h in sorted(self._visible):
            color = head_color(h)
            for i, j in zip(*np.nonzero(alphas[h] >= 1.0 / 255.0)):
                color.setAlphaF(float(alphas[h, i, j]))
                pen.setColor(color)
                pen.setWidthF((1.5 + 3.0 * float(self._weights[h, i, j])) * self._font_scale)
                painter.setPen(pen)
                painter.drawLine(QtCore.QPointF(x_query + 4, queries[i].center().y()),
                                 QtCore.QPointF(x_key - 4, keys[j].center().y()))
        self._paint_received_weight(painter, queries, keys)
        text = palette.color(QtGui.QPalette.ColorRole.WindowText)
        row_labels, col_labels = self.labels()
        for side, rects, shown, align in (
            ("query", queries, row_labels, QtCore.Qt.AlignmentFlag.AlignRight),
            ("key", keys, col_labels, QtCore.Qt.AlignmentFlag.AlignLeft),
        ):
            for i, r in enumerate(rects):
                on = self._highlight == (side, i)
                painter.setFont(bold if on else font)
                painter.setPen(text)
                inner = r.adjusted(6, 0, -6, 0)
                painter.drawText(inner, int(align | QtCore.Qt.AlignmentFlag.AlignVCenter), shown[i])
        painter.setFont(bold)
        painter.setPen(text)
        band = QtGui.QFontMetricsF(bold).height() * 1.8
        painter.drawText(QtCore.QRectF(x_query - 406, top - band, 400, band),
                         int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter),
                         self._titles[0])
        painter.drawText(QtCore.QRectF(x_key + 6, top - band, 400, band),
                         int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter),
                         self._titles[1])

    def _paint_received_weight(self, painter, queries, keys) -> None:
        # Shade the other side's tokens by the weight flowing to/from the hovered token, so the
        # strongest partner stands out even where lines cross.
        if self._highlight is None or not self._visible:
            return
        side, index = self._highlight
        heads = sorted(self._visible)
        if side == "query":
            weights, rects = self._weights[heads, index, :], keys
        else:
            weights, rects = self._weights[heads, :, index], queries
        strength = np.clip(weights.mean(axis=0), 0.0, 1.0)
        base = head_color(heads[0]) if len(heads) == 1 else QtGui.QColor("#555555")
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        for r, s in zip(rects, strength):
            color = QtGui.QColor(base)
            color.setAlphaF(float(s) * 0.75)
            painter.setBrush(color)
            painter.drawRoundedRect(r.adjusted(2, 1, -2, -1), 3, 3)

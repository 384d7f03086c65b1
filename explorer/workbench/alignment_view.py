"""Word alignment of the current sentence, read from cross-attention: source words on top, the translation's
words below, a line for each link. Layer and head (or the layer's mean) and the shifted variant of Chen
et al. 2020 are chosen here; the links are ``model.analysis.alignment.align`` (NumPy only), so this view
draws exactly what ``attention-explorer align`` writes, and exports it in the same Pharaoh ``i-j`` form.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.ui.flow_layout import FlowLayout
from explorer.ui.i18n import N_, tr
from explorer.ui.style import make_muted
from explorer.workbench.export_file import export_to
from model.analysis.alignment import WORD_START, align, pharaoh, spaceless, word_ids
from model.records import AttentionMaps

LINE_COLOR = "#1f5fbf"
MARGIN, ROW_H = 16, 28
WORD_GAP = 12  # px between two words of a row at the least
MIN_POINTS = 6.0  # the smallest type a row of words is shrunk to


def words(pieces) -> list[str]:
    """The words the pieces spell, in the order of ``word_ids`` (special tokens dropped)."""
    out: list[str] = []
    for piece, w in zip(pieces, word_ids(pieces)):
        if w < 0:
            continue
        if w == len(out):
            out.append("")
        out[w] += piece.replace(WORD_START, "")
    return out


class AlignmentCanvas(QtWidgets.QWidget):
    """Two rows of words and straight lines between linked ones."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.source: list[str] = []
        self.target: list[str] = []
        self.links: set[tuple[int, int]] = set()
        self.setMinimumHeight(140)

    def set_alignment(self, source: list[str], target: list[str], links: set[tuple[int, int]]) -> None:
        self.source, self.target, self.links = source, target, links
        self.update()

    def row_font(self, items: list[str]) -> QtGui.QFont:
        """The font a row of words is drawn in: the widget's, made smaller (to 6 pt at least) where the
        words and a gap between each would not fit the row side by side."""
        font = QtGui.QFont(self.font())
        room = self.width() - 2 * MARGIN
        if room <= 0 or font.pointSizeF() <= 0:
            return font
        for _ in range(3):  # the gaps do not shrink with the type: a second look settles it
            need = sum(QtGui.QFontMetricsF(font).horizontalAdvance(w) + WORD_GAP for w in items)
            if need <= room or font.pointSizeF() <= MIN_POINTS:
                break
            text = need - WORD_GAP * len(items)
            font.setPointSizeF(max(MIN_POINTS, font.pointSizeF() * (room - WORD_GAP * len(items)) / max(text, 1.0)))
        return font

    def word_rects(self) -> tuple[list[QtCore.QRectF], list[QtCore.QRectF]]:
        """Boxes of the source words (top row) and target words (bottom row), each as wide as its word and
        a gap, the row's spare width shared out evenly. Boxes of one width for all cut long words at
        zoom +2: "because" was drawn ")ecaus(" between "mat" and "it" (a walk-through at 1024 × 768)."""
        def row(items: list[str], y: float) -> list[QtCore.QRectF]:
            metrics = QtGui.QFontMetricsF(self.row_font(items))
            widths = [metrics.horizontalAdvance(w) + WORD_GAP for w in items]
            room = self.width() - 2 * MARGIN
            spare = (room - sum(widths)) / max(len(items), 1)
            if spare < 0:  # still too wide at the smallest font: shares of the row by word width
                widths, spare = [w * room / sum(widths) for w in widths], 0.0
            rects, x = [], float(MARGIN)
            for w in widths:
                rects.append(QtCore.QRectF(x, y, w + spare, ROW_H))
                x += w + spare
            return rects
        return row(self.source, MARGIN), row(self.target, self.height() - MARGIN - ROW_H)

    def segments(self) -> list[tuple[int, int, QtCore.QPointF, QtCore.QPointF]]:
        """(source word, target word, start, end) of every drawn line: bottom of the one box to the other's top."""
        src, tgt = self.word_rects()
        out = []
        for s, t in sorted(self.links):
            if s < len(src) and t < len(tgt):
                a, b = src[s], tgt[t]
                out.append((s, t, QtCore.QPointF(a.center().x(), a.bottom()), QtCore.QPointF(b.center().x(), b.top())))
        return out

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.setPen(QtGui.QPen(QtGui.QColor(LINE_COLOR), 3))
        for _, _, a, b in self.segments():
            p.drawLine(a, b)
        p.setPen(self.palette().color(QtGui.QPalette.ColorRole.WindowText))
        src, tgt = self.word_rects()
        for items, rects in ((self.source, src), (self.target, tgt)):
            p.setFont(self.row_font(items))
            for text, rect in zip(items, rects):
                p.drawText(rect, QtCore.Qt.AlignmentFlag.AlignCenter, text)
        p.end()


class AlignmentView(QtWidgets.QWidget):
    """Controls (layer, head or mean, shifted) above the canvas; ``pharaoh_text()`` is what Export writes."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.maps: AttentionMaps | None = None
        self.layer_combo = QtWidgets.QComboBox()
        self.head_combo = QtWidgets.QComboBox()
        self.shift_check = QtWidgets.QCheckBox("Shifted (Chen et al. 2020)")
        self.shift_check.setToolTip("Link each target word through the decoding step that reads it as input "
                                    "(the next step), not the step that produced it")
        self.export_button = QtWidgets.QPushButton("Export Pharaoh…")
        self.links_label = QtWidgets.QLabel("")
        self.links_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        # Wrapped between links: one line as long as the sentence set the Workbench's minimum width too.
        self.links_label.setWordWrap(True)
        self.canvas = AlignmentCanvas()
        self.note = QtWidgets.QLabel("Translate a sentence to see its word alignment.")
        # The controls wrap, as the run bars do: in one row they asked ~690 px, more than the Workbench has
        # beside the sentence column at 1024 × 768, and a tab widget takes its widest page's minimum.
        bar = QtWidgets.QWidget()
        flow = FlowLayout(bar)
        for w in (QtWidgets.QLabel("Layer:"), self.layer_combo, QtWidgets.QLabel("Head:"), self.head_combo,
                  self.shift_check, self.export_button):
            flow.addWidget(w)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(bar)
        layout.addWidget(self.note)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.links_label)
        self.saved_label = make_muted(QtWidgets.QLabel(""))  # where the last export went
        self.saved_label.setWordWrap(True)
        self.saved_label.hide()
        layout.addWidget(self.saved_label)
        self.layer_combo.currentIndexChanged.connect(lambda _: self._update())
        self.head_combo.currentIndexChanged.connect(lambda _: self._update())
        self.shift_check.toggled.connect(lambda _: self._update())
        self.export_button.clicked.connect(self._export_dialog)
        self.export_button.setEnabled(False)

    def set_maps(self, maps: AttentionMaps | None) -> None:
        """Show the alignment of this sentence; the layer/head choice stays when the model's shape does."""
        old = self.maps
        self.maps = maps
        if maps is not None and (old is None or (old.n_layers, old.n_heads) != (maps.n_layers, maps.n_heads)):
            for combo, items in ((self.layer_combo, [str(i + 1) for i in range(maps.n_layers)]),
                                 # "Mean" as the Attention tab's box says it: one Chinese text, 平均, for
                                 # "mean" and "Mean" made a switch back to English read "Mean" here.
                                 (self.head_combo, [tr("Mean")] + [str(i + 1) for i in range(maps.n_heads)])):
                combo.blockSignals(True)
                combo.clear()
                combo.addItems(items)
                combo.blockSignals(False)
            self.layer_combo.setCurrentIndex(maps.n_layers - 1)  # the last layer aligns best in most models
        self._update()

    def choose(self, layer: int, head: int | None, shift: bool = False) -> None:
        """Select 0-based ``layer`` and ``head`` (None: the layer's mean) and the variant."""
        self.layer_combo.setCurrentIndex(layer)
        self.head_combo.setCurrentIndex(0 if head is None else head + 1)
        self.shift_check.setChecked(shift)
        self._update()

    def target_pieces(self) -> tuple[str, ...]:
        m = self.maps
        return m.predicted_tokens if m.predicted_tokens else m.target_tokens[1:] + ("</s>",)

    def links(self) -> set[tuple[int, int]]:
        m = self.maps
        if m is None or self.layer_combo.currentIndex() < 0:
            return set()
        layer, head = self.layer_combo.currentIndex(), self.head_combo.currentIndex()
        cross = m.cross[layer].mean(0) if head <= 0 else m.cross[layer, head - 1]
        return align(np.asarray(cross), m.source_tokens, self.target_pieces(), shift=self.shift_check.isChecked())

    def pharaoh_text(self) -> str:
        return pharaoh(self.links())

    def _update(self) -> None:
        m = self.maps
        self.note.setVisible(m is None)
        self.export_button.setEnabled(m is not None)
        if m is None:
            self.canvas.set_alignment([], [], set())
            self.links_label.setText("")
            return
        links = self.links()
        self.canvas.set_alignment(words(m.source_tokens), words(self.target_pieces()), links)
        text = tr("Pharaoh (source-target): {links}", links=pharaoh(links))
        if any(spaceless(p) for p in self.target_pieces()):  # no spaces, so no words to find: say what counts
            text += "   " + tr("(Chinese and Japanese output: each piece counts as a word)")
        self.links_label.setText(text)

    def _export_dialog(self) -> None:
        said = export_to(self, N_("Export alignment"), "alignment.txt", "Pharaoh links (*.txt *.align)", self.export)
        if said:
            self.saved_label.setText(said)
            self.saved_label.show()

    def export(self, path: str) -> None:
        """The Pharaoh links of the sentence shown, one line, to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.pharaoh_text() + "\n")

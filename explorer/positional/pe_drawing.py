"""What the positional-encoding tab draws from its settings (a mixin of ``PositionalEncodingView``).

The table and PE·PEᵀ from the encoding (explorer/positional/encoding.py), each chosen dimension as a wave
through its integer positions with a legend entry in its colour (the same colour marks its column in the
table), and the sentence-length marks on all three.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.lines_view import head_color
from explorer.positional.encoding import frequency, pe_similarity, sinusoidal_pe, sinusoidal_pe_at, wavelength
from explorer.ui.i18n import tr


class PositionalDrawing:
    """Expects ``PositionalEncodingView``'s settings (``_positions``, ``_d_model``, ``_layout``, ``_dims``,
    ``_sentence``), plots and images, marks, spin boxes, ``_dims_edit`` and ``_legend``."""

    def _add_legend_entry(self, color: QtGui.QColor, name: str) -> None:
        entry = QtWidgets.QWidget()
        row = QtWidgets.QHBoxLayout(entry)
        row.setContentsMargins(0, 0, 12, 0)
        row.setSpacing(4)
        dot = QtWidgets.QLabel("\u25cf")
        palette = dot.palette()
        palette.setColor(QtGui.QPalette.ColorRole.WindowText, color)
        dot.setPalette(palette)
        label = QtWidgets.QLabel(name)
        label.setObjectName("legend-name")
        row.addWidget(dot)
        row.addWidget(label)
        self._legend.addWidget(entry)

    def _recompute(self) -> None:
        n, d = self._positions, self._d_model
        self._pe = sinusoidal_pe(n, d, self._layout)
        self._sim = pe_similarity(self._pe)
        self.pe_image.setImage(self._pe, autoLevels=False, levels=(-1.0, 1.0))
        self.pe_image.setRect(QtCore.QRectF(-0.5, -0.5, d, n))
        self.pe_plot.setRange(xRange=(-0.5, d - 0.5), yRange=(-0.5, n - 0.5), padding=0)
        self.sim_image.setImage(self._sim, autoLevels=False)
        # PE·PEᵀ peaks at d_model/2 on the diagonal (each sin²+cos² pair adds 1).
        self.sim_bar.setLevels((float(self._sim.min()), float(self._sim.max())))
        self.sim_image.setRect(QtCore.QRectF(-0.5, -0.5, n, n))
        self.sim_plot.setRange(xRange=(-0.5, n - 0.5), yRange=(-0.5, n - 0.5), padding=0)
        self._draw_curves()
        self._update_markers()
        for spin, value in ((self._d_spin, d), (self._n_spin, n)):
            spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(False)
        self._dims_edit.setText(", ".join(map(str, self._dims)))

    def _draw_curves(self) -> None:
        self.curve_plot.clear()
        while self._legend.count():
            entry = self._legend.takeAt(0).widget()
            entry.setParent(None)  # off screen now; deleteLater alone waits for the event loop
            entry.deleteLater()
        self.curve_plot.addItem(self._region)
        for line in self._dim_lines:
            self.pe_plot.removeItem(line)
        self._dim_lines = []
        positions = np.arange(self._positions)
        # The model only ever sees integer positions (the dots); the thin line is the underlying wave,
        # drawn finely so that fast dimensions do not look like zig-zags.
        fine = np.linspace(0.0, self._positions - 1, 10 * self._positions)
        fine_pe = sinusoidal_pe_at(fine, self._d_model, self._dims, self._layout)
        for k, dim in enumerate(self._dims):
            color = head_color(k)
            kind = "sin" if frequency(dim, self._d_model, self._layout)[1] else "cos"
            name = tr("dim {dim} ({kind}, λ≈{wavelength:.3g})", dim=dim, kind=kind,
                      wavelength=float(wavelength(dim, self._d_model, self._layout)))
            wave = QtGui.QColor(color)
            wave.setAlphaF(0.55)
            self.curve_plot.plot(fine, fine_pe[:, k], pen=pg.mkPen(wave, width=1.5))
            self.curve_plot.plot(positions, self._pe[:, dim], pen=None, symbol="o", symbolSize=5,
                                 symbolBrush=color, symbolPen=None, name=name)
            self._add_legend_entry(QtGui.QColor(color), name)
            # The same colour marks the dimension's column in the table, tying the two plots together.
            line = pg.InfiniteLine(pos=dim, angle=90, pen=pg.mkPen(color, width=3))
            self.pe_plot.addItem(line)
            self._dim_lines.append(line)
        self.curve_plot.setXRange(0, self._positions - 1, padding=0.01)

    def _update_markers(self) -> None:
        n = min(self._sentence, self._positions)
        visible = n > 0
        for item in (self._pe_line, self._sim_h, self._sim_v, self._region):
            item.setVisible(visible)
        if visible:
            self._pe_line.setValue(n - 0.5)
            self._sim_h.setValue(n - 0.5)
            self._sim_v.setValue(n - 0.5)
            self._region.setRegion((0, n - 1))
        self._len_spin.blockSignals(True)
        self._len_spin.setValue(self._sentence)
        self._len_spin.blockSignals(False)

    def marker_positions(self) -> dict[str, float | None]:
        """Where the sentence-length marks sit (for tests); None when hidden."""
        if not self._pe_line.isVisible():
            return {"pe": None, "similarity": None, "curves": None}
        return {"pe": self._pe_line.value(), "similarity": self._sim_h.value(),
                "curves": tuple(self._region.getRegion())}

    def legend_entries(self) -> list[str]:
        """The legend's labels, in order."""
        return [self._legend.itemAt(i).widget().findChild(QtWidgets.QLabel, "legend-name").text()
                for i in range(self._legend.count())]

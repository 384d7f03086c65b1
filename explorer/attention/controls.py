"""The control row of the attention panel: kind, layer, head, mean over heads, colour map, export.

Layers and heads are shown 1-based, as in the paper's figures ("layer 5, head 2"); the API speaks
0-based, like the arrays. The widget only binds; the panel owns the state and decides what it means.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets
from PySide6.QtCore import Signal

from explorer.ui.colormaps import colormap_names
from explorer.ui.i18n import N_, tr
from model.records import KINDS

KIND_LABELS = {"encoder": "Encoder self", "decoder": "Decoder masked self", "cross": "Encoder–decoder cross"}
# What the same controls say when the window is narrow (a 1024-px projector, or a large font).
SHORT_LABELS = {"encoder": "Encoder", "decoder": "Decoder", "cross": "Cross", "mean": "Mean"}
MEAN_LABEL = "Mean over heads"
# Spin-box prefixes that replace the Layer / Head captions when narrow; translated where set ("层 ", "头 ").
COMPACT_PREFIXES = (N_("L "), N_("H "))
EXPORT_FORMATS = (("png", "Image (PNG)…"), ("svg", "Vector image (SVG)…"),
                  ("csv", "Shown matrix (CSV)…"), ("npz", "All maps (NPZ)…"))


class _Shortenable:
    """A button with a long and a short label; the row decides which all of them show (``set_short``).

    Its minimum width is the short label's, so long labels no longer set the window's minimum width:
    the window fits a 1024-px screen, and the long labels come back when there is room for all of them.
    """

    def _init_labels(self, long: str, short: str) -> None:
        self._long, self._short = long, short
        self.setText(long)
        # Preferred, not a push button's Minimum: the layout may then shrink it to the short label.
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Preferred, self.sizePolicy().verticalPolicy())

    def width_for(self, text: str) -> int:
        """The size hint's width with ``text`` shown, computed without changing the label: setText here
        would post a layout request from inside layout, over and over."""
        fm = self.fontMetrics()
        return super().sizeHint().width() - fm.horizontalAdvance(self.text()) + fm.horizontalAdvance(text)

    # The labels are kept in English and translated when shown, so a language switch re-measures them.
    def long_width(self) -> int:
        return self.width_for(tr(self._long))

    def short_width(self) -> int:
        return self.width_for(tr(self._short))

    def set_short(self, short: bool) -> None:
        text = tr(self._short if short else self._long)
        if text != self.text():
            self.setText(text)

    def minimumSizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(self.short_width(), super().minimumSizeHint().height())


class ShortenableButton(_Shortenable, QtWidgets.QPushButton):
    def __init__(self, long: str, short: str) -> None:
        super().__init__()
        self._init_labels(long, short)


class ShortenableCheckBox(_Shortenable, QtWidgets.QCheckBox):
    def __init__(self, long: str, short: str) -> None:
        super().__init__()
        self._init_labels(long, short)


class AttentionControls(QtWidgets.QWidget):
    """Kind buttons, layer/head spin boxes, a mean box; ``extras`` holds the colour-map combo and export."""

    changed = Signal()  # the user changed kind, layer, head or mean
    colormap_changed = Signal(str)
    export_requested = Signal(str)  # "png" | "svg" | "csv" | "npz"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._kind_group = QtWidgets.QButtonGroup(self)
        self._kind_group.setExclusive(True)
        kinds = QtWidgets.QHBoxLayout()
        kinds.setSpacing(0)
        for i, kind in enumerate(KINDS):
            button = ShortenableButton(KIND_LABELS[kind], SHORT_LABELS[kind])
            button.setCheckable(True)
            button.setToolTip(f"{KIND_LABELS[kind]}-attention (PageUp/PageDown)")
            button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
            self._kind_group.addButton(button, i)
            kinds.addWidget(button)
        self._kind_group.button(0).setChecked(True)
        self._kind_group.idClicked.connect(lambda _id: self.changed.emit())

        self.layer_spin = self._spin("Layer (Up/Down)")
        self.head_spin = self._spin("Head (Left/Right)")
        self.mean_box = ShortenableCheckBox(MEAN_LABEL, SHORT_LABELS["mean"])
        self.mean_box.setToolTip("Average the heads of the layer (M)")
        self.mean_box.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.mean_box.toggled.connect(self._on_mean)
        self.cmap_combo = QtWidgets.QComboBox()
        self.cmap_combo.addItems(colormap_names())
        self.cmap_combo.setProperty("i18n_skip", True)  # matplotlib's names; the code reads them back
        self.cmap_combo.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.cmap_combo.currentTextChanged.connect(self.colormap_changed)
        # A push button with a menu draws its arrow in room of its own; a tool button's popup arrow sat in
        # its corner, against the "t" of "Export".
        export = self.export_button = QtWidgets.QPushButton("Export")
        export.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        menu = QtWidgets.QMenu(export)
        for fmt, label in EXPORT_FORMATS:
            menu.addAction(label, lambda fmt=fmt: self.export_requested.emit(fmt))
        export.setMenu(menu)

        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(4, 4, 4, 4)
        row.addLayout(kinds)
        row.addSpacing(16)
        self._spin_labels = []
        for label, widget in (("Layer", self.layer_spin), ("Head", self.head_spin)):
            self._spin_labels.append(QtWidgets.QLabel(label))
            row.addWidget(self._spin_labels[-1])
            row.addWidget(widget)
        row.addWidget(self.mean_box)
        row.addStretch(1)
        # Colour map and export live in a separate little widget that the panel puts in the corner
        # of its tab bar, which has room to spare; one long row would not fit a 1280-px projector
        # at a large font.
        self.extras = QtWidgets.QWidget()
        extras = QtWidgets.QHBoxLayout(self.extras)
        extras.setContentsMargins(4, 0, 4, 2)
        extras.addWidget(QtWidgets.QLabel("Colours"))
        extras.addWidget(self.cmap_combo)
        extras.addWidget(export)
        self._shortenable = [*self._kind_group.buttons(), self.mean_box]
        self.set_limits(1, 1)

    def _widths(self) -> tuple[int, int, int]:
        """The row's width with long labels, with short ones, and compact (short labels, and the
        "Layer"/"Head" captions folded into the spin boxes as "L"/"H"), whatever it shows now."""
        row = self.layout()
        base = row.sizeHint().width() - sum(w.sizeHint().width() for w in self._shortenable)
        fm = self.fontMetrics()
        for label, spin in zip(self._spin_labels, (self.layer_spin, self.head_spin)):
            base -= fm.horizontalAdvance(spin.prefix())
            if label.isVisibleTo(self):
                base -= label.sizeHint().width() + row.spacing()
        captions = sum(label.sizeHint().width() + row.spacing() for label in self._spin_labels)
        folded = sum(fm.horizontalAdvance(tr(p)) for p in COMPACT_PREFIXES)
        long = base + captions + sum(w.long_width() for w in self._shortenable)
        short = base + captions + sum(w.short_width() for w in self._shortenable)
        return long, short, short - captions + folded

    def resizeEvent(self, event) -> None:
        """Long labels on every button when they all fit on the row, else short ones on every
        button; on a narrower row still (a 1024-px projector at a large font) the compact form."""
        long, short, _compact = self._widths()
        width = event.size().width()
        for w in self._shortenable:
            w.set_short(width < long)
        compact = width < short
        for label, spin, prefix in zip(self._spin_labels, (self.layer_spin, self.head_spin), COMPACT_PREFIXES):
            label.setVisible(not compact)
            spin.setPrefix(tr(prefix) if compact else "")
        super().resizeEvent(event)

    def minimumSizeHint(self) -> QtCore.QSize:  # Qt override
        return QtCore.QSize(self._widths()[2], super().minimumSizeHint().height())

    def _spin(self, tip: str) -> QtWidgets.QSpinBox:
        spin = QtWidgets.QSpinBox()
        spin.setToolTip(tip)
        spin.setKeyboardTracking(False)
        # The arrow keys belong to the panel's shortcuts; the spin boxes are for the mouse and typing.
        spin.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)
        spin.valueChanged.connect(lambda _v: self.changed.emit())
        return spin

    def _on_mean(self, on: bool) -> None:
        self.head_spin.setEnabled(not on)
        self.changed.emit()

    # ----------------------------------------------------------------------------------- public API
    def set_limits(self, n_layers: int, n_heads: int) -> None:
        for spin, n in ((self.layer_spin, n_layers), (self.head_spin, n_heads)):
            spin.blockSignals(True)
            spin.setRange(1, max(1, n))
            spin.setSuffix(f" / {max(1, n)}")
            spin.blockSignals(False)

    def set_state(self, kind: str, layer: int, head: int, mean: bool) -> None:
        """Show a 0-based state without emitting ``changed``."""
        widgets = (self._kind_group, self.layer_spin, self.head_spin, self.mean_box)
        for w in widgets:
            w.blockSignals(True)
        self._kind_group.button(KINDS.index(kind)).setChecked(True)
        self.layer_spin.setValue(layer + 1)
        self.head_spin.setValue(head + 1)
        self.mean_box.setChecked(mean)
        self.head_spin.setEnabled(not mean)
        for w in widgets:
            w.blockSignals(False)

    def state(self) -> tuple[str, int, int, bool]:
        """(kind, layer, head, mean) as shown, 0-based."""
        kind = KINDS[max(0, self._kind_group.checkedId())]
        return kind, self.layer_spin.value() - 1, self.head_spin.value() - 1, self.mean_box.isChecked()

    def set_colormap(self, name: str) -> None:
        self.cmap_combo.blockSignals(True)
        if self.cmap_combo.findText(name) < 0:
            self.cmap_combo.addItem(name)
        self.cmap_combo.setCurrentText(name)
        self.cmap_combo.blockSignals(False)

    def kind_button(self, kind: str) -> QtWidgets.QAbstractButton:
        return self._kind_group.button(KINDS.index(kind))

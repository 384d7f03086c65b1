"""The Train tab's probe replay: every probe snapshot of a run, a slider to scrub back through them,
and the probe sentence's attention in the same panel the explorer uses.

Apart from the panel because it is the one part of the tab that keeps history: a class can replay how
a head formed long after the step that formed it, while the panel only binds buttons to the run.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.panel import AttentionPanel
from explorer.ui import style
from explorer.ui.elided_label import ElidedLabel
from explorer.ui.i18n import tr
from model.records import Translation

# Probe snapshots are kept for replay; past this many every other one is dropped, which keeps the
# whole history's span (a head forming early stays visible) at a bounded memory cost.
MAX_SNAPSHOTS = 400
# Shorter than this many lines of the app's text, the maps leave the statistics and the pieces' legend
# out (the statistics go to the step label's tooltip): at 1024 x 768 zoomed twice (~20 lines) the two
# took the room the map needed to show its "Query: target token" title whole. At fonts x1 there (~26
# lines) and at a desk (1600 x 1000, 27 lines or more) they stay.
COMPACT_BELOW_LINES = 23


class ProbeReplay(QtWidgets.QWidget):
    """The replay row (heading, slider, label) above the attention panel of the current snapshot.

    The panel is built with the run's first probe, or when a caller asks for it (``attention``): hidden
    until then anyway, it was built with every window (the window's construction 176 → 119 ms without it,
    offscreen), and most sessions never train. ``built`` is emitted then, so the window can put its texts
    into the language."""

    built = QtCore.Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._snapshots: list[tuple[int, Translation]] = []
        self._attention: AttentionPanel | None = None
        self._font_scale: float | None = None
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setEnabled(False)
        self.slider.setToolTip("Scrub back through the probe snapshots to replay how the heads formed")
        self.slider.valueChanged.connect(self.show_snapshot)
        self.label = ElidedLabel("No probe yet")  # a long prediction ends in "…", never widens the tab
        self.label.elided.connect(lambda _cut: self._update_tooltip())
        scrub = QtWidgets.QHBoxLayout()
        scrub.addWidget(style.make_heading(QtWidgets.QLabel("Probe replay")))
        scrub.addWidget(self.slider, 2)
        scrub.addWidget(self.label, 3)
        self._layout = QtWidgets.QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addLayout(scrub)
        self._compact = False

    @property
    def attention(self) -> AttentionPanel:
        """The probe's attention panel (built on first use)."""
        if self._attention is None:
            panel = self._attention = AttentionPanel()
            panel.set_maps(None, empty_text="The probe sentence's attention appears here as the model trains")
            self._layout.addWidget(panel, 1)
            panel.state_changed.connect(self._update_tooltip)  # another head: other statistics
            # Hidden until the first probe: empty, it still took half of a 768-px screen's height from
            # the form and the curves.
            panel.hide()
            if self._font_scale is not None:
                panel.set_font_scale(self._font_scale)
            panel.set_compact(self._compact)
            self.built.emit()
        return self._attention

    def is_built(self) -> bool:
        return self._attention is not None

    def maps_shown(self) -> bool:
        """Whether the maps are on the row (a run has sent a probe)."""
        return self._attention is not None and not self._attention.isHidden()

    def set_font_scale(self, f: float) -> None:
        self._font_scale = f
        if self._attention is not None:
            self._attention.set_font_scale(f)

    def is_compact(self) -> bool:
        """Whether the maps show without their statistics and legend (a short replay row)."""
        return self._compact

    def snapshots(self) -> list[tuple[int, Translation]]:
        """(step, probe Translation) of every kept snapshot, oldest first."""
        return list(self._snapshots)

    def clear(self) -> None:
        """Forget every snapshot and hide the maps, for a new run."""
        self._snapshots.clear()
        self._update_slider()
        if self._attention is not None:
            self._attention.set_maps(None)
            self._attention.hide()

    def add(self, step: int, translation: Translation) -> bool:
        """Keep a snapshot; follow it if the slider was on the newest one. True for a run's first."""
        first = not self._snapshots
        follow = first or self.slider.value() == len(self._snapshots) - 1
        self._snapshots.append((step, translation))
        if len(self._snapshots) > MAX_SNAPSHOTS:
            self._snapshots = self._snapshots[:-1:2] + self._snapshots[-1:]
            if not follow:  # keep pointing at (about) the snapshot the user is looking at
                self.slider.setValue(self.slider.value() // 2)
        self._update_slider()
        if first:
            self.attention.show()
            # The demo's picture is the cross-attention of the last layer (the anti-diagonal of
            # "reverse"); after that the user's choice of kind, layer and head is kept.
            self.attention.set_maps(translation.attention)
            self.attention.set_state("cross", translation.attention.n_layers - 1, 0)
        if follow:
            self.show_snapshot(len(self._snapshots) - 1)
        else:  # the one looked at stays, but "(1 of 30)" must count the new one too
            self._set_label(self.slider.value())
        return first

    def show_snapshot(self, index: int) -> None:
        """Show snapshot ``index``; the attention panel keeps its kind, layer and head."""
        if not 0 <= index < len(self._snapshots):
            return
        if self.slider.value() != index:
            self.slider.setValue(index)  # comes back here through valueChanged
            return
        self.attention.set_maps(self._snapshots[index][1].attention)
        self._set_label(index)

    def _set_label(self, index: int) -> None:
        step, translation = self._snapshots[index]
        self.label.setText(tr("Step {step}  ({i} of {n}):  {source}  →  {text}", step=step, i=index + 1,
                              n=len(self._snapshots), source=translation.source,
                              text=translation.text or tr("(nothing)")))
        self._update_tooltip()  # the text changed: the tooltip's first part may have

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        self.fit()

    def changeEvent(self, event) -> None:  # Qt override: a zoom changes the lines' height, not ours
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self.fit()

    def fit(self) -> None:
        """Drop the text under the maps when the row is short (see COMPACT_BELOW_LINES). Decided on the
        row's own height, which the splitter sets, so showing or hiding the text never undoes itself."""
        line = QtGui.QFontMetrics(QtWidgets.QApplication.font()).height()
        compact = self.height() < COMPACT_BELOW_LINES * line
        if compact != self._compact:
            self._compact = compact
            if self._attention is not None:  # else the panel takes it when built
                self._attention.set_compact(compact)
            self._update_tooltip()

    def _update_tooltip(self) -> None:
        """The whole step line where the row cut it, and the statistics where the maps had no room."""
        parts = [self.label.full_text()] if self.label.is_elided() else []
        if self._compact and self._snapshots:
            parts.append(self.attention.statistics_text())
        self.label.setToolTip("\n\n".join(parts))

    def _update_slider(self) -> None:
        n = len(self._snapshots)
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, n - 1))
        self.slider.blockSignals(False)
        self.slider.setEnabled(n > 1)
        if not n:
            self.label.setText(tr("No probe yet"))

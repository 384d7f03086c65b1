"""The attention explorer area: controls, the Head / All heads / Lines views, statistics, export.

The panel owns one piece of state, (kind, layer, head, mean), and pushes the slice it selects into
the three views; the views never talk to each other. Keyboard (while the focus is anywhere inside
the panel, plots included): Left/Right = previous/next head, Up/Down = previous/next layer (Up moves
towards layer 1, the top row of the grid), PageUp/PageDown = previous/next attention kind, M = toggle
the mean over heads. Stepping the head leaves the mean; steps stop at the ends rather than wrap.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Signal

from explorer.attention import export
from explorer.attention.controls import AttentionControls
from explorer.attention.head_grid import HeadGridView
from explorer.attention.heatmap import MIN_CANVAS_LINES, HeatmapView
from explorer.attention.lines_view import LinesView
from explorer.attention.panel_export import PanelExport
from explorer.attention.panel_keys import KeyboardNavigation
from explorer.attention.panel_text import PanelTextFit, unbreakable
from explorer.attention.panel_views import PanelViews
from explorer.attention.tokens import LEGEND
from explorer.ui.i18n import tr
from explorer.ui.steady_row import SteadyRow
from model.records import KINDS, AttentionMaps

EMPTY_TEXT = "Translate a sentence to see its attention"
BUSY_OPACITY = 0.3  # stale maps stay as a faint backdrop, so the layout does not jump while waiting
VIEWS = ("head", "grid", "lines")


class AttentionPanel(PanelViews, PanelExport, KeyboardNavigation, PanelTextFit, QtWidgets.QWidget):
    """Everything needed to look at one sentence's attention maps."""

    state_changed = Signal()
    # Forwarded from the controls and the grid: the window's other features connect here, not to those widgets.
    colormap_changed = Signal(str)
    head_menu_requested = Signal(int, int, object)  # (layer, head), the global QPoint of a right-click
    cell_clicked = Signal(int, int)  # (query, key) of the head's map: the formula walkthrough follows it

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._maps: AttentionMaps | None = None
        self._kind, self._layer, self._head, self._mean = KINDS[0], 0, 0, False
        self._cmap_name = "viridis"
        self._title = "Attention"
        self._stats_text = ""
        self._busy = False
        self._compact = False
        self._fitted_for: tuple | None = None  # what the labels under the map were last fitted to …
        self._spare_seen_fuller: float | None = None  # … and the least map spare seen then with more text
        self.export_dir = export.default_export_dir()  # where the next export dialog opens

        self.controls = AttentionControls()
        self.heatmap = HeatmapView()
        self.heatmap.min_canvas_lines = MIN_CANVAS_LINES  # the main map never collapses under a dock
        self.grid = HeadGridView()
        self._lines = LinesView()
        self._lines_pending: tuple | None = None  # the Lines view's next layer and heads, kept while hidden
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.addTab(self.heatmap, "Head")
        self.tabs.addTab(self.grid, "All heads")
        self.tabs.addTab(self._lines, "Lines")
        self.tabs.currentChanged.connect(lambda _index: self._lines_pending and self._update_lines())
        self.tabs.setCornerWidget(self.controls.extras, QtCore.Qt.Corner.TopRightCorner)
        self.stats_label = QtWidgets.QLabel(" ")
        self.stats_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # "</s>" is not a tag
        self.stats_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stats_label.setContentsMargins(8, 2, 8, 2)
        self.stats_label.setWordWrap(True)  # a long line must never set the window's minimum width
        self.empty_label = QtWidgets.QLabel(tr(EMPTY_TEXT))
        self.empty_label.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setEnabled(False)  # the palette's disabled text: quiet, but readable
        self.empty_label.setWordWrap(True)  # a long hint (the Train tab's) must not widen the window
        self.legend_label = QtWidgets.QLabel(unbreakable(tr(LEGEND)))  # never breaks inside "</s>"
        self.legend_label.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.legend_label.setWordWrap(True)
        self.legend_label.setEnabled(False)  # quiet: a key to the labels, not a result
        self.legend_label.setContentsMargins(8, 0, 8, 2)

        content = self._content = QtWidgets.QWidget()
        content_layout = QtWidgets.QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.setSpacing(0)
        content_layout.addWidget(self.tabs, 1)
        # A new head's statistics re-lay out the window only when their height changes (steady_row.py).
        self._stats_row = SteadyRow(self.stats_label)
        content_layout.addWidget(self._stats_row)
        content_layout.addWidget(self.legend_label)
        self._dim = QtWidgets.QGraphicsOpacityEffect(content)
        self._dim.setOpacity(BUSY_OPACITY)
        self._dim.setEnabled(False)
        content.setGraphicsEffect(self._dim)
        # The text under the map is refitted when the room changes (a dock, a resize) and when the
        # zoomed font arrives, which Qt hands the labels a turn of the event loop after the zoom.
        content.installEventFilter(self)
        self.stats_label.installEventFilter(self)
        self._stack = QtWidgets.QStackedWidget()
        self._stack.addWidget(self.empty_label)
        self._stack.addWidget(content)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.controls)
        layout.addWidget(self._stack, 1)

        self.controls.changed.connect(self._on_controls)
        self.controls.colormap_changed.connect(self.set_colormap)
        self.controls.export_requested.connect(self.export_dialog)
        self.grid.head_clicked.connect(self._on_head_clicked)
        self.controls.colormap_changed.connect(self.colormap_changed)  # after the panel's own set_colormap
        self.grid.head_menu_requested.connect(self.head_menu_requested)
        self.heatmap.cell_clicked.connect(self.cell_clicked)
        # The plot takes its new size after the panel's resize (pyqtgraph lays its scene out later): the
        # legend's room is judged again then.
        self.heatmap.plot.vb.sigResized.connect(self._fit_text)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.install_shortcuts()
        self.set_font_scale(1.0)
        self.set_maps(None)

    # ----------------------------------------------------------------------------------- public API
    def set_maps(self, maps: AttentionMaps | None, empty_text: str | None = None) -> None:
        """Show a sentence's maps (None: the empty state, saying ``empty_text`` if given). Keeps
        kind/layer/head where still valid."""
        if empty_text is not None:
            self.empty_label.setText(empty_text)
        self._maps = maps
        self._grid_shows: tuple[int, str] | None = None  # (id of the maps, kind) the grid was given
        self.controls.setEnabled(maps is not None)
        self.controls.extras.setEnabled(maps is not None)
        if maps is None:
            self._stack.setCurrentWidget(self.empty_label)
            return
        self._stack.setCurrentIndex(1)
        self.controls.set_limits(maps.n_layers, maps.n_heads)
        before = self.state()
        self._layer = min(self._layer, maps.n_layers - 1)
        self._head = min(self._head, maps.n_heads - 1)
        self._refresh()
        if self.state() != before:
            self.state_changed.emit()

    def maps(self) -> AttentionMaps | None:
        return self._maps

    def set_state(self, kind: str, layer: int, head: int, mean: bool = False) -> None:
        """Select a map; layer and head are 0-based and clamped to the maps' size."""
        if kind not in KINDS:
            raise ValueError(f"unknown attention kind {kind!r}; expected one of {KINDS}")
        layer, head = max(0, int(layer)), max(0, int(head))
        if self._maps is not None:
            layer = min(layer, self._maps.n_layers - 1)
            head = min(head, self._maps.n_heads - 1)
        new = (kind, int(layer), int(head), bool(mean))
        if new == self.state():
            return
        self._kind, self._layer, self._head, self._mean = new
        self._refresh()
        self.state_changed.emit()

    def state(self) -> tuple[str, int, int, bool]:
        """(kind, layer, head, mean), 0-based."""
        return self._kind, self._layer, self._head, self._mean

    def set_view(self, name: str) -> None:
        """Show the 'head' (heatmap), 'grid' (all heads) or 'lines' tab."""
        self.tabs.setCurrentIndex(VIEWS.index(name))

    def view(self) -> str:
        return VIEWS[self.tabs.currentIndex()]

    def current_matrix(self) -> np.ndarray:
        """What the Head view displays: one head's (rows, cols) map, or the mean over heads."""
        if self._maps is None:
            return np.zeros((0, 0), dtype=np.float32)
        layer = self._maps.of_kind(self._kind)[self._layer]
        return layer.mean(axis=0, dtype=np.float32) if self._mean else layer[self._head].copy()

    def set_colormap(self, name: str) -> None:
        self._cmap_name = name
        self.controls.set_colormap(name)
        self.heatmap.set_colormap(name)
        self.grid.set_colormap(name)

    def colormap_name(self) -> str:
        return self.heatmap.colormap_name()

    def set_marked_cell(self, cell: tuple[int, int] | None) -> None:
        """Outline ``cell`` (query, key) on the head's map, None for none: the one the formula is about."""
        self.heatmap.set_marked_cell(cell)

    def set_font_scale(self, f: float) -> None:
        """Scale all text; 1.5–2 for a projector."""
        for view in (self.heatmap, self.grid, self.lines):
            view.set_font_scale(f)
        # Ordinary widgets (controls, tabs, the statistics line) follow the application font, which
        # the main window scales; only the empty-state message is set, to stand out from it.
        big = QtGui.QFont(QtWidgets.QApplication.font())
        big.setPointSizeF(big.pointSizeF() * 1.5)
        self.empty_label.setFont(big)

    def statistics_text(self) -> str:
        """The statistics line as plain text (the label itself holds unbreakable spaces)."""
        return self._stats_text

    def set_busy(self, busy: bool) -> None:
        """Dim the maps and say so while a new sentence is being translated: they are stale."""
        self._busy = bool(busy)
        self._dim.setEnabled(self._busy)
        # The note is shorter than the statistics it stands in for: their room is kept, or the map
        # would grow for the wait and shrink back with the answer (steady_row.py).
        self._stats_row.hold(self._busy)
        self._fit_text()

    def set_compact(self, compact: bool) -> None:
        """Only the plots (presentation mode): the statistics and the legend give their room up."""
        self._compact = bool(compact)
        self._stats_row.setVisible(not compact)
        self._fit_text()

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if event.type() in (QtCore.QEvent.Type.Resize, QtCore.QEvent.Type.FontChange):
            self._fit_text()
        return super().eventFilter(watched, event)

    def is_dimmed(self) -> bool:
        return self._dim.isEnabled()

    def retranslate(self) -> None:
        """Make the titles and the statistics line again, in the language just installed."""
        self.legend_label.setText(unbreakable(tr(LEGEND)))
        self._grid_shows = None
        self._refresh()
        self.set_busy(self._busy)

    # ------------------------------------------------------------------------------------ internals
    def _on_controls(self) -> None:
        self.set_state(*self.controls.state())

    def _on_head_clicked(self, layer: int, head: int) -> None:
        self.set_state(self._kind, layer, head, False)
        self.set_view("head")

"""The Lines view's heads: each head's colour, and the row of chips that shows or hides it (a mixin of
``LinesView``). Kept apart from lines_view.py, which holds the layer shown and paints it; the colours are
also the positional tab's (pe_drawing.py), through ``head_color``.
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

from explorer.ui.i18n import tr
from explorer.ui.style import BASE_POINT_SIZE as WIDGET_POINT_SIZE

# Tableau-like qualitative colours: distinct for the paper's 8 heads and still distinguishable at 16.
HEAD_COLORS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#8c6d31", "#7b4173", "#3182bd",
)


def head_color(head: int) -> QtGui.QColor:
    """The colour of head ``head`` (0-based); cycles through hues past the table."""
    if head < len(HEAD_COLORS):
        return QtGui.QColor(HEAD_COLORS[head])
    return QtGui.QColor.fromHsvF((head * 0.618034) % 1.0, 0.75, 0.8)


class HeadSwatches:
    """Expects ``LinesView``'s ``_swatch_bar``, ``_swatches``, ``_visible``, ``_font_scale``, ``n_heads``,
    ``set_heads()`` and ``heads_changed``."""

    def _rebuild_swatches(self) -> None:
        for button in self._swatches:
            self._swatch_bar.removeWidget(button)
            button.setParent(None)  # off screen now; deleteLater alone waits for the event loop
            button.deleteLater()
        self._swatches = []
        for h in range(self.n_heads):
            button = QtWidgets.QToolButton(text=f"H{h + 1}")
            button.setCheckable(True)
            button.setToolTip(tr("Show or hide head {h}", h=h + 1))
            button.toggled.connect(lambda on, h=h: self._toggle_head(h, on))
            self._swatch_bar.addWidget(button)
            self._swatches.append(button)

    def _sync_swatches(self) -> None:
        for h, button in enumerate(self._swatches):
            on = h in self._visible
            if button.property("styled_on") == on:
                continue  # setStyleSheet re-polishes the button: costly, so only on a change
            button.setProperty("styled_on", on)
            button.blockSignals(True)
            button.setChecked(on)
            button.blockSignals(False)
            color = head_color(h)
            fg = "white" if on else color.name()
            bg = color.name() if on else "transparent"
            # The size is written out: a style sheet's font is fixed when it is applied, so the chips kept
            # the unzoomed size under zoom and in presentation mode while the "Heads:" beside them grew.
            button.setStyleSheet(f"QToolButton {{ background: {bg}; color: {fg}; border: 2px solid "
                                 f"{color.name()}; border-radius: 4px; padding: 1px 6px; font-weight: bold; "
                                 f"font-size: {WIDGET_POINT_SIZE * self._font_scale:.2f}pt; }}")

    def _toggle_head(self, head: int, on: bool) -> None:
        visible = set(self._visible)
        visible.add(head) if on else visible.discard(head)
        self._set_heads_from_user(visible)

    def _set_heads_from_user(self, visible: set[int]) -> None:
        self.set_heads(visible)
        self.heads_changed.emit()

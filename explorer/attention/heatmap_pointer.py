"""Where the pointer is on a heatmap, and the cell the formula dock works on (a mixin of ``HeatmapView``).

Hovering a cell boxes it in red, emphasises its two labels and reads its weight out under the map; a click
says which cell (the formula walkthrough follows it). The marked cell is outlined white inside black, to be
seen on every colour map, and its labels stay emphasised while the pointer is elsewhere.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from explorer.attention.tokens import display_piece
from explorer.ui.i18n import tr


class HeatmapPointer:
    """Expects ``HeatmapView``'s ``_values``, ``_masked``, ``_raw_rows``, ``_raw_cols``, ``_row_noun``,
    ``_col_noun``, ``_hover_cell``, ``_hover_box``, ``_marked_cell``, ``_mark_boxes``, ``_left``,
    ``_bottom``, ``plot``, ``canvas``, ``readout``, ``hovered``, ``cell_clicked`` and ``_apply_titles``."""

    def set_marked_cell(self, cell: tuple[int, int] | None) -> None:
        """Outline (row, col) until told otherwise (None: no mark); a cell outside the matrix shown
        is not drawn, but is kept for the next matrix."""
        self._marked_cell = None if cell is None else (int(cell[0]), int(cell[1]))
        self._place_mark()

    def marked_cell(self) -> tuple[int, int] | None:
        """The outlined cell, if it is drawn on the current matrix."""
        return self._marked_cell if self._mark_boxes[0].isVisible() else None

    def _place_mark(self) -> None:
        rows, cols = self._values.shape
        cell = self._marked_cell
        shown = cell is not None and 0 <= cell[0] < rows and 0 <= cell[1] < cols
        for box in self._mark_boxes:
            if shown:
                box.setRect(QtCore.QRectF(cell[1] - 0.5, cell[0] - 0.5, 1.0, 1.0))
            box.setVisible(shown)
        if self._hover_cell is None:
            self._rest_highlight()

    def _rest_highlight(self) -> None:
        """With no cell under the mouse, the labels of the marked cell (the one the formula dock works)
        stay emphasised: the mouse goes over to the dock, and the map should still say which token is
        meant (a teacher's walk-through found them gone the moment the mouse left the map)."""
        cell = self.marked_cell()
        self._left.set_highlight(None if cell is None else cell[0])
        self._bottom.set_highlight(None if cell is None else cell[1])

    def hover_text_at(self, row: int, col: int) -> str:
        """The read-out for cell (row, col), naming the raw pieces; '' outside the matrix."""
        rows, cols = self._values.shape
        if not (0 <= row < rows and 0 <= col < cols):
            return ""
        # The axes' notation (see tokens.py), so the read-out names a piece exactly as the tick does; rows
        # and columns counted from 1, as layers, heads and the formula panel count them (it said "query 4"
        # of the cell this called "row 3").
        head = tr("{row_noun} '{row_piece}' (row {row}) → {col_noun} '{col_piece}' (col {col}): ",
                  row_noun=self._row_noun, row_piece=display_piece(self._raw_rows[row]), row=row + 1,
                  col_noun=self._col_noun, col_piece=display_piece(self._raw_cols[col]), col=col + 1)
        if self._masked[row, col]:
            return head + tr("masked (future position)")
        return head + f"{self._values[row, col]:.4f}"

    def cell_at_scene_pos(self, scene_pos) -> tuple[int, int] | None:
        """(row, col) under a scene position, or None outside the matrix."""
        if not self.plot.vb.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.plot.vb.mapSceneToView(scene_pos)
        row, col = int(np.floor(point.y() + 0.5)), int(np.floor(point.x() + 0.5))
        rows, cols = self._values.shape
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def _on_mouse_clicked(self, event) -> None:
        cell = self.cell_at_scene_pos(event.scenePos())
        if cell is not None:
            self.cell_clicked.emit(*cell)

    def scene_pos_of_cell(self, row: int, col: int) -> QtCore.QPointF:
        """The scene position of a cell's centre (the inverse of :meth:`cell_at_scene_pos`)."""
        return self.plot.vb.mapViewToScene(QtCore.QPointF(col, row))

    def on_mouse_moved(self, scene_pos) -> None:
        """Scene mouse-move handler: update the read-out, the hover box and the axis emphasis."""
        self._set_hover(self.cell_at_scene_pos(scene_pos))

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Leave:
            self._set_hover(None)
        elif watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize:
            # After the canvas has laid its plot out: the titles are fitted to the new sizes.
            QtCore.QTimer.singleShot(0, self, self._apply_titles)
        return super().eventFilter(watched, event)

    def _set_hover(self, cell: tuple[int, int] | None) -> None:
        if cell == self._hover_cell:
            return
        self._hover_cell = cell
        if cell is None:
            self._hover_box.hide()
            self._rest_highlight()
            self.readout.setText(" ")
            return
        row, col = cell
        self._hover_box.setRect(QtCore.QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
        self._hover_box.show()
        self._left.set_highlight(row)
        self._bottom.set_highlight(col)
        text = self.hover_text_at(row, col)
        self.readout.setText(text)
        self.hovered.emit(text)

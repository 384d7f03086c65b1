"""The clock view's arrangement: how many clocks to a row, their titles over them or beside them, and the
position strip shown or not, chosen for the canvas' size from the titles as wrapped (ClockView's base).

Split from clock_view.py, which keeps the clocks' content (strip, table; the faces and hands are
clock_faces.py's); this part only measures and places. A title is measured as laid out (words whole where
they fit: WRAPS), and its row is that tall: a row fitted to other text than the title shows ran the title
into its clock.
"""

from __future__ import annotations

import math

from PySide6 import QtCore

from explorer.positional.fitting import with_units, wrap_titles_alike

COLUMNS = 4  # clocks per row where the canvas has the height for two rows
STRIP_PX = 64  # the position strip's height: its axis and the band's note, at most
PAD = 14  # px a clock's cell loses to the plots' margins and the layout's spacing (measured: 12-14)
SHORT_CANVAS = 4 * STRIP_PX  # px: a canvas shorter than this gives the strip's height to the clocks
# How titles may wrap, tried in turn until some arrangement fits: (a number kept with its unit, lines
# broken between words only). Under the formula dock at zoom +2 the cells are ~78 px, narrower than
# "58,470 个位置"; there the number and its unit part, and only where even a word is too wide (a
# narrower tab still) do words break anywhere, as Qt does, rather than stick out over the next clock.
WRAPS = ((True, True), (False, True), (False, False))


class ClockArrangement:
    """fit_titles and its helpers, for a QWidget with ``canvas``, ``strip``, ``clocks`` (dicts with "plot"
    and "title"), ``_text``, ``_point_size``, ``_columns`` and ``_fit_queued``."""

    def columns(self) -> int:
        """Clocks per row, as arranged for the canvas' size (fit_titles)."""
        return self._columns

    def fit_titles(self) -> None:
        """Arrange the clocks for the canvas: the number per row, and titles over the clocks or beside
        them, that give the clocks the largest radius with every title whole (wrapped to its room, then
        0.8 × smaller at most), measured at the titles' size for each arrangement.

        Four per row, titles over the clocks, suit a full-height tab. Under the formula dock the canvas
        has ~160 px, where two rows of four under two-line titles left clocks of 8 px radius drawn into
        their titles; there the titles go beside the clocks (the cells are wide and flat) and the
        position strip gives its height to the clocks (an unseen position still tints the faces, and
        the note above says it).
        """
        if not getattr(self, "clocks", None) or not self.canvas.isVisible() or self.canvas.height() < 60:
            return  # measured when shown (showEvent): a hidden tab's canvas has a stale or default size
        # The search below sets every title ~8 times (~25 ms): done again only when what it depends on
        # changed, not on every resize, show or redraw that leaves the canvas as it was.
        key = (self.canvas.width(), self.canvas.height(), self._point_size, self._text.name(),
               tuple(clock["title"] for clock in self.clocks), getattr(self, "_placed", None) is None)
        if key == getattr(self, "_fitted", None) and not key[-1]:
            return
        strip = self.canvas.height() >= SHORT_CANVAS
        width = self.canvas.width()
        height = self.canvas.height() - (STRIP_PX + PAD if strip else 0) - 8
        count = len(self.clocks)
        tried = []  # (radius, the titles' height, columns, side)
        for wrap in WRAPS:
            for columns in sorted({min(count, c) for c in (COLUMNS, 2 * COLUMNS, 3, 2)}, reverse=True):
                rows = math.ceil(count / columns)
                cell_w, cell_h = width / columns - PAD, height / rows - PAD
                for side in (False, True):
                    radius, tall = self._try(side, cell_w, cell_h, wrap=wrap)
                    if radius is not None:
                        tried.append((radius, tall, columns, side))
            if tried:
                break
        if tried:
            # Of the arrangements within 15 % of the largest clocks, the one with the flattest titles: at
            # zoom +2 eight narrow columns gave clocks 15 % larger under titles of five lines.
            largest = max(t[0] for t in tried)
            best = min((t for t in tried if t[0] >= 0.85 * largest), key=lambda t: (t[1], -t[0]))
        else:  # nothing fits whole: the most columns, the titles over the clocks
            best = (0.0, 0.0, min(count, 2 * COLUMNS), False)
        _, _, columns, side = best
        rows = math.ceil(count / columns)
        self._place(columns, side, strip)
        self._try(side, width / columns - PAD, height / rows - PAD, keep=True, wrap=wrap)
        self._fitted = key[:-1] + (False,)  # as placed now

    def _try(self, side: bool, cell_w: float, cell_h: float, keep: bool = False,
             wrap: tuple[bool, bool] = WRAPS[0]) -> tuple[float | None, float]:
        """The clocks' radius (px) in cells of cell_w × cell_h with titles over them or beside them (None
        when a title would not fit its cell whole), and the tallest title's height as wrapped (``wrap``:
        one of WRAPS). ``keep``: set the plots' title rows and columns for it."""
        room = 0.6 * cell_w if side else cell_w
        tall = wide = 0.0
        units, whole = wrap
        wrap_titles_alike([clock["plot"] for clock in self.clocks],
                          [with_units(clock["title"]) if units else clock["title"] for clock in self.clocks],
                          self._text.name(), self._point_size, room, max_lines=4, whole=whole)
        for clock in self.clocks:
            text = clock["plot"].titleLabel.item.boundingRect()
            tall, wide = max(tall, text.height()), max(wide, text.width())
        if side:
            diameter = min(cell_h, cell_w - wide - 4)
            fits = tall <= cell_h and wide <= room + 1
        else:
            diameter = min(cell_w, cell_h - tall)
            fits = wide <= cell_w + 1
        if keep:
            for clock in self.clocks:
                grid, label = clock["plot"].layout, clock["plot"].titleLabel
                grid.setRowFixedHeight(0, 0 if side else tall)
                label.setMaximumHeight(cell_h if side else tall)
                grid.setColumnFixedWidth(3, math.ceil(wide) if side else 0)
        return (diameter / 2.3 if fits and diameter > 0 else None), tall  # the view shows -1.15..1.15

    def _place(self, columns: int, side: bool, strip: bool) -> None:
        """Clocks ``columns`` to a row, their titles over them or beside them, the strip shown or not.

        Moved in the canvas' grid itself: pyqtgraph's own removeItem takes an item out of the scene too,
        and the canvas, laid out again without it, shrank to a corner of the view."""
        if (columns, side, strip) == getattr(self, "_placed", None):
            return
        self._placed = (columns, side, strip)
        self._columns = columns
        grid = self.canvas.ci.layout
        for item in [self.strip] + [clock["plot"] for clock in self.clocks]:
            self._grid_remove(item)
        if strip:
            grid.addItem(self.strip, 0, 0, 1, columns)
        self.strip.setVisible(strip)
        for n, clock in enumerate(self.clocks):
            grid.addItem(clock["plot"], 1 + n // columns, n % columns)
            plot_grid, label = clock["plot"].layout, clock["plot"].titleLabel
            plot_grid.removeItem(label)
            if side:
                plot_grid.addItem(label, 2, 3)
            else:
                plot_grid.addItem(label, 0, 0, 1, 3)
        for row in range(grid.rowCount()):  # rows left empty by fewer rows take no height
            grid.setRowStretchFactor(row, 0 if row == 0 else 1)

    def _grid_remove(self, item) -> None:
        grid = self.canvas.ci.layout
        for index in range(grid.count()):
            if grid.itemAt(index) is item:
                grid.removeAt(index)
                return

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize and not self._fit_queued:
            # After the resize, not inside it: moving plots between rows while Qt lays the scene out
            # for the new size crashed (a removed item still in the layout pass).
            self._fit_queued = True
            QtCore.QTimer.singleShot(0, self, self._queued_fit)
        return super().eventFilter(watched, event)

    def _queued_fit(self) -> None:
        self._fit_queued = False
        self.fit_titles()

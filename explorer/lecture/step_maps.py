"""The two maps of the step view: decoder masked self-attention growing one row per step, and the
cross-attention rows so far with the current step's row boxed over the source.

Both keep the frame of the finished translation (T rows; T or S columns) from the first step, so the
cells do not jump in size as rows arrive: the rows still to come are empty space, not zeros, and their
pieces are not named yet (the class should not read the answer before the model has chosen it).

The two share the tab's width by what their key labels need (``share_width``), not half and half: on a
1024-px projector zoomed twice, half of it left the cross-attention's eleven source words 16 px each,
and the axis set them in 10-pt type, every other one; they also share one colour bar. The
cross-attention's keys come first: they are the words the class reads the boxed row against, while the
decoder's keys repeat its own rows' labels.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.heatmap import CELL_NUMBERS_MAX
from explorer.attention.mask_overlay import highlight_box
from explorer.lecture.step_heatmap import StepHeatmap
from explorer.ui.i18n import tr
from model.records import AttentionMaps

HIGHLIGHT = "#ff3b30"  # the heatmap's hover red: "this row is the step now"
CROSS_MAX_SHARE = 0.65  # of the width, when the two cannot both have their labels' room


def head_matrix(maps: AttentionMaps, kind: str, layer: int, head: int | None) -> np.ndarray:
    """The (rows, cols) map of one head, or the mean over heads when head is None."""
    arr = maps.of_kind(kind)[layer]
    return arr.mean(axis=0) if head is None else arr[head]


class StepMaps(QtWidgets.QWidget):
    """Decoder self-attention (t × t) beside cross-attention (t × S) after step t (1-based).

    The two maps are built when the tab is first shown or a caller asks for one (``decoder``, ``cross``):
    they were a fifth of the window's construction (~45 ms), and many sessions never open the tab. Until
    then the view keeps what it is told (step, colour map, zoom) and what it would draw (``shown_*``);
    ``built`` is emitted then, so the window can put the new maps' texts into the current language."""

    built = QtCore.Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._decoder: StepHeatmap | None = None
        self._cross: StepHeatmap | None = None
        self._colormap: str | None = None
        self._maps: AttentionMaps | None = None
        self._shared_for: tuple | None = None  # what the maps' widths were last shared for (share_width)
        self._args: tuple = (None, 0, None, 0)
        self._font_scale: float | None = None
        self._shown = (np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32))
        self._layout = QtWidgets.QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)

    @property
    def decoder(self) -> StepHeatmap:
        self._build()
        return self._decoder

    @property
    def cross(self) -> StepHeatmap:
        self._build()
        return self._cross

    def is_built(self) -> bool:
        return self._decoder is not None

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._build()
        super().showEvent(event)

    def _build(self) -> None:
        if self._decoder is not None:
            return
        self._decoder, self._cross = StepHeatmap(), StepHeatmap()
        self._box = highlight_box(HIGHLIGHT, 9)
        self._box.hide()
        self._cross.add_overlay(self._box)
        # One colour bar, the cross-attention's at the right, for both: the same 0–1 scale and colour
        # map; the decoder's own took 80 of its ~250 px at zoom +2, which its keys needed.
        self._decoder.drop_colour_bar()
        self._layout.addWidget(self._decoder, 1)
        self._layout.addWidget(self._cross, 1)
        # What the view was told before it had maps, in the order the window tells it.
        if self._colormap is not None:
            self.set_colormap(self._colormap)
        if self._font_scale is not None:
            self.set_font_scale(self._font_scale)
        if self._maps is not None:
            self.set_step(*self._args)
        self.built.emit()

    def set_step(self, maps: AttentionMaps | None, layer: int, head: int | None, step: int) -> None:
        """Show the maps after ``step`` pieces have been chosen (1..T); head None = mean over heads."""
        self._maps, self._args = maps, (maps, layer, head, step)
        if maps is None or step < 1:
            self._shown = (np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32))
            if self.is_built():
                self._box.hide()
            return
        n_target, n_source = len(maps.target_tokens), len(maps.source_tokens)
        t = min(step, n_target)
        dec = head_matrix(maps, "decoder", layer, head)[:t, :t]
        cross = head_matrix(maps, "cross", layer, head)[:t]
        self._shown = (dec.astype(np.float32), cross.astype(np.float32))
        if not self.is_built():
            return  # drawn when built, from the same arguments
        rows = maps.target_tokens[:t]
        self.decoder.cell_numbers_max = self._numbers_max(n_target, n_target)
        self.cross.cell_numbers_max = self._numbers_max(n_target, n_source)
        self.decoder.short_title = tr("Masked self-attention")
        self.cross.short_title = tr("Cross-attention")
        self.decoder.set_matrix(dec, rows, rows, masked=maps.masked("decoder")[:t, :t],
                                title=tr("Decoder masked self-attention"),
                                row_title=tr("Query (decoder input)"), col_title=tr("Key (decoder input)"))
        self.cross.set_matrix(cross, rows, maps.source_tokens,
                              title=tr("Cross-attention over the source"),
                              row_title=tr("Query (decoder input)"), col_title=tr("Key (source)"))
        # The finished translation's frame: the rows to come are room, so cells keep their size.
        self.decoder.set_frame(n_target, n_target)
        self.cross.set_frame(n_target, n_source)
        self._box.setRect(QtCore.QRectF(-0.5, t - 1.5, n_source, 1.0))
        self._box.show()
        self.share_width(n_target, n_source)

    def share_width(self, n_target: int, n_source: int) -> None:
        """Stretch the two maps so each has a line of its key labels' type per column (what the axis
        needs to write every label upright, unshrunk), the rest in proportion; short of that, the
        cross-attention first, up to CROSS_MAX_SHARE of the width. Measured on the maps as laid out:
        the room around each map's cells (axes, colour bar) does not change with its width."""
        views = (self.decoder, self.cross)
        if any(v.plot.vb.width() < 2 for v in views):
            return  # not laid out yet: the first resize shares it
        # Once per translation, width, zoom and the maps' widths as laid out (a share that changed them is
        # measured again, so it settles as before): measured at each step, with that step's row labels (a
        # longer piece widens the axis), the line between the maps moved as the steps played.
        key = (id(self._maps), n_target, n_source, self.width(), self._font_scale,
               *(v.canvas.width() for v in views))
        if key == self._shared_for:
            return
        self._shared_for = key
        cell = QtGui.QFontMetricsF(self.cross.key_font()).height()
        needs = [v.canvas.width() - v.plot.vb.width() + n * cell for v, n in zip(views, (n_target, n_source))]
        total = self.width() - self._layout.spacing()
        if sum(needs) <= total:
            widths = needs
        else:
            cross = min(needs[1], CROSS_MAX_SHARE * total)
            widths = [total - cross, cross]
        for i, width in enumerate(widths):
            self._layout.setStretch(i, max(1, round(width)))

    @staticmethod
    def _numbers_max(rows: int, cols: int) -> int:
        """Numbers in the cells by the finished frame's size, so they do not vanish at step 13; whether
        they fit the cells is the heatmap's to judge, at the cells' size as drawn (a stale guess made
        here dropped the cross row's numbers in presentation mode)."""
        return CELL_NUMBERS_MAX if max(rows, cols) <= CELL_NUMBERS_MAX else 0

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        if self._maps is not None and self.is_built():  # the cells changed size: numbers may now fit, or no longer
            QtCore.QTimer.singleShot(0, self, lambda: self.set_step(*self._args))

    def shown_decoder(self) -> np.ndarray:
        """The decoder self-attention drawn now, (t, t): the final map's first t rows and columns."""
        return self._shown[0].copy()

    def shown_cross(self) -> np.ndarray:
        """The cross-attention rows drawn now, (t, S); the last is the current step's, boxed."""
        return self._shown[1].copy()

    def highlighted_row(self) -> int | None:
        """The cross-attention row boxed as the current step (the last row drawn), or None."""
        return self._shown[1].shape[0] - 1 if self._shown[1].size else None

    def set_colormap(self, name: str) -> None:
        self._colormap = name
        if self.is_built():
            self.decoder.set_colormap(name)
            self.cross.set_colormap(name)

    def set_font_scale(self, f: float) -> None:
        self._font_scale = max(0.5, float(f))
        if not self.is_built():
            return
        self.decoder.set_font_scale(f)
        self.cross.set_font_scale(f)
        if self._maps is not None:  # the labels' type changed the room they need: share again
            QtCore.QTimer.singleShot(0, self, lambda: self.set_step(*self._args))

"""What the attention panel shows for its state (a mixin of ``AttentionPanel``): the selected slice pushed
into the Head view with its titles, the All heads mosaic with its outline, the Lines view (brought up to
date only when shown) and the statistics line; and the title of what is shown. The panel itself builds
the widgets and owns the state; this file is what one state looks like.
"""

from __future__ import annotations

import numpy as np

from explorer.attention.head_stats import format_statistics, head_statistics
from explorer.attention.lines_view import LinesView
from explorer.ui.i18n import tr
from model.records import KIND_TITLES

# Which tokens sit on which axis; the cross-attention labels are the classic place to get this wrong.
AXIS_TITLES = {
    "encoder": ("Query: source token", "Key: source token"),
    "decoder": ("Query: target token (decoder input)", "Key: target token (earlier positions)"),
    "cross": ("Query: target token (decoder input)", "Key: source token (encoder output)"),
}
LINE_TITLES = {
    "encoder": ("Queries (source)", "Keys (source)"),
    "decoder": ("Queries (target)", "Keys (target)"),
    "cross": ("Queries (target)", "Keys (source)"),
}


class PanelViews:
    """Expects ``AttentionPanel``'s ``_maps``, ``_kind``, ``_layer``, ``_title``, ``_stats_text``, ``_grid_shows``,
    ``_lines``, ``_lines_pending``, ``controls``, ``heatmap``, ``grid``, ``tabs``, ``state()``, ``view()``,
    ``current_matrix()`` and ``_fit_text()``."""

    def title(self) -> str:
        """What the current view shows, e.g. 'Encoder self-attention — layer 2, head 3'."""
        view = self.view()
        if self._maps is None:
            return tr("Attention")
        kind_title = tr(KIND_TITLES[self._kind])
        if view == "grid":
            return self.grid.title()
        if view == "lines":
            heads = sorted(self.lines.visible_heads())
            numbers = ", ".join(str(h + 1) for h in heads)
            if len(heads) == self._maps.n_heads:
                which = tr("all {n} heads", n=len(heads))
            elif not heads:
                which = tr("no heads")
            else:
                which = tr("head {h}", h=numbers) if len(heads) == 1 else tr("heads {list}", list=numbers)
            return tr("{kind} — layer {layer}, {which}", kind=kind_title, layer=self._layer + 1, which=which)
        return self._title

    def _refresh(self) -> None:
        """Push the selected slice into every view, the controls and the statistics line."""
        self.controls.set_state(*self.state())
        maps = self._maps
        if maps is None:
            return
        kind, layer, head, mean = self.state()
        rows, cols = maps.labels(kind)
        masked = maps.masked(kind)
        which = tr("mean of {n} heads", n=maps.n_heads) if mean else tr("head {h}", h=head + 1)
        kind_title = tr(KIND_TITLES[kind])
        title = self._title = tr("{kind} — layer {layer}, {which}", kind=kind_title, layer=layer + 1, which=which)
        removed = not mean and maps.is_removed(kind, layer, head)
        if removed:  # its zeros are no weights (explorer/translate/ablation.py): hatched all over, like a mask
            title = self._title = tr("{title} — REMOVED (ablated)", title=title)
        shown_masked = np.ones_like(masked) if removed else masked
        matrix = self.current_matrix()
        row_title, col_title = (tr(t) for t in AXIS_TITLES[kind])
        self.heatmap.set_matrix(matrix, rows, cols, masked=shown_masked if shown_masked.any() else None,
                                title=title, row_title=row_title, col_title=col_title)
        if self._grid_shows != (id(maps), kind):  # the mosaic depends on the kind alone, not layer/head
            self.grid.set_maps(maps.of_kind(kind), masked if masked.any() else None, title=kind_title)
            self.grid.set_removed({(a, b) for k, a, b in maps.removed if k == kind})
            self._grid_shows = (id(maps), kind)
        # The mosaic shows every head; its title says which one the outline marks.
        self.grid.set_title(tr("{kind}: layer {layer} {which} outlined", kind=kind_title, layer=layer + 1, which=which))
        self.grid.set_selected(layer, None if mean else head)
        # The Lines view draws a line per pair of pieces and head: set while hidden, it cost 0.2–0.5 ms of
        # every head switch in the Head view (11.4 against 11.7–11.9 ms with the repaint, an 11-piece
        # sentence, alternating); it takes the current layer when it is shown or read.
        self._lines_pending = (maps.of_kind(kind)[layer], rows, cols, *(tr(t) for t in LINE_TITLES[kind]),
                               range(maps.n_heads) if mean else {head})
        if self.tabs.currentWidget() is self._lines:
            self._update_lines()
        stats = tr("removed (ablated)") if removed else format_statistics(head_statistics(matrix, masked, cols))
        head_name = tr("Layer {layer}, {which}:", layer=layer + 1, which=which)
        self._stats_text = f"{head_name}   {stats}"
        self._fit_text()

    @property
    def lines(self) -> LinesView:
        """The Lines view, brought up to date with the panel's state first (it is not, while hidden)."""
        if self._lines_pending is not None:
            self._update_lines()
        return self._lines

    def _update_lines(self) -> None:
        *layer, heads = self._lines_pending
        self._lines_pending = None
        self._lines.set_layer(*layer)
        self._lines.set_heads(heads)

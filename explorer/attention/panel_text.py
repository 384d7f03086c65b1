"""The statistics line and the legend under the attention map, fitted to the room the map leaves them
(a mixin of ``AttentionPanel``).

The map keeps most of the panel's height: the statistics take one line or two and shorten their parts
(explorer/attention/text_fit.py), the legend goes first. What the map can spare is measured on the plot
itself, and held steady against the plot's own answer to a line given or taken.
"""

from __future__ import annotations

from explorer.attention.text_fit import fit_below_map, fit_parts, wrapped_height
from explorer.attention.tokens import LEGEND
from explorer.ui.i18n import tr

BUSY_TEXT = "Translating…  (the maps shown are the previous sentence's)"


def unbreakable(stats: str) -> str:
    """A line (the statistics, the legend) with line breaks allowed only between its parts
    (separated by three spaces): Qt would otherwise
    break inside "</s>" (after the slash), "|i−j|" or between a number and its unit. Inside a part,
    spaces become no-break spaces and word joiners (U+2060, invisible) glue the other characters."""
    parts = stats.split("   ")
    return "   ".join("\u2060".join(p.replace(" ", "\u00a0")) for p in parts)


class PanelTextFit:
    """Expects ``AttentionPanel``'s ``stats_label``, ``legend_label``, ``_content``, ``_stats_row``,
    ``heatmap``, ``_maps``, ``_busy``, ``_compact``, ``_stats_text``, ``_fitted_for``, ``_spare_seen_fuller``
    and ``view()``."""

    def _fit_text(self) -> None:
        """The statistics (or the busy note) and the legend as the room under the map allows
        (explorer/attention/text_fit.py): the map keeps most of the panel's height."""
        stats = tr(BUSY_TEXT) if self._busy else unbreakable(self._stats_text) or " "
        legend = unbreakable(tr(LEGEND))
        label = self.stats_label
        margins = label.contentsMargins()
        width = self._content.width() - margins.left() - margins.right()
        extra = margins.top() + margins.bottom() + self.legend_label.contentsMargins().bottom()
        fit = fit_below_map(stats, legend, label.fontMetrics(), width, self._content.height(),
                            self._stats_text, tr(LEGEND), extra, self._settled_spare(stats, width))
        if label.text() != fit.stats:
            label.setText(fit.stats)
            self._stats_row.refit()  # now, not a turn later: the map's height follows in this layout pass
        label.setToolTip(fit.tooltip)
        self.legend_label.setVisible(fit.legend_shown and not self._compact)

    def _settled_spare(self, stats: str, width: int) -> float | None:
        """_map_spare, as measured while the legend or the statistics' second line showed, where nothing
        else has changed since. The map's plot answers a line given way by more than the line's height
        (its row labels grow, the keys' room moves), so a spare measured without the line is too large:
        at 1024 × 768 under the formula dock the statistics' second line and the map's height flipped a
        frame at a time and never settled."""
        measured = self._map_spare(stats, width)
        fitted_for = (stats, width, self._content.height(), self.stats_label.font().key(), self.view())
        if fitted_for != self._fitted_for:
            self._fitted_for, self._spare_seen_fuller = fitted_for, None
        if measured is None:
            return None
        spare, fuller = measured
        if fuller:
            seen = self._spare_seen_fuller
            self._spare_seen_fuller = spare if seen is None else min(seen, spare)
        elif self._spare_seen_fuller is not None:
            spare = min(spare, self._spare_seen_fuller)
        return spare

    def _map_spare(self, stats: str, width: int) -> tuple[float, bool] | None:
        """The Head map's plot height over its readable one, as it would be with the legend hidden and the
        statistics (``stats``, at ``width``) on one line, so that the answer does not flip with what it
        decides; and whether either shows now. None for the other views, or before the map is laid out."""
        plot = self.heatmap.plot.vb.height()
        if self.view() != "head" or self._maps is None or plot < 1:
            return None
        legend, metrics = self.legend_label, self.stats_label.fontMetrics()
        shown = legend.height() - legend.contentsMargins().bottom() if legend.isVisible() else 0
        second = (wrapped_height(self.stats_label.text(), metrics, width)
                  - wrapped_height(fit_parts(stats, metrics, width, 1), metrics, width))
        spare = plot + shown + max(0, second) - self.heatmap.readable_plot_height()
        return spare, legend.isVisible() or second > 0

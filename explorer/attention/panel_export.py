"""Export for the attention panel: the shown view as PNG/SVG, the maps as NPZ, the Head view's matrix
as CSV, and the panel's own export button's dialog. A mixin of AttentionPanel, which provides the
views, ``state()``, ``view()``, ``title()`` and ``current_matrix()``; apart because writing files is a
job of its own, and the formats live in :mod:`explorer.attention.export`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtWidgets

from explorer.attention import export
from explorer.ui.i18n import tr


class PanelExport:
    """File output of the attention panel."""

    def suggested_file_name(self, fmt: str) -> str:
        """A file name that says what the file holds, e.g. attention_cross_L2_H3.png."""
        if fmt == "npz":
            return "attention_maps.npz"
        which = "mean" if self._mean else f"H{self._head + 1}"
        if fmt in ("png", "svg") and self.view() == "grid":
            return f"attention_{self._kind}_all_heads.{fmt}"
        if fmt in ("png", "svg") and self.view() == "lines":
            return f"attention_{self._kind}_L{self._layer + 1}_lines.{fmt}"
        return f"attention_{self._kind}_L{self._layer + 1}_{which}.{fmt}"

    def export_image(self, path: str) -> None:
        """The current view as .png or .svg (the Head and All-heads views include their labels)."""
        view = self.view()
        if view == "lines":
            size = self.lines.canvas.size()
            if size.width() < 50 or size.height() < 50:
                size = QtCore.QSize(900, 600)  # never shown yet: pick a sensible figure size
            # The Lines view draws no title on screen (the controls say it); a file needs one.
            export.export_painted(self.lines.render_to, size, path, title=self.title(), caption=self.title())
        else:
            shown = self.heatmap if view == "head" else self.grid
            # A tab shown just now re-fits its title only once the event loop runs; the file must
            # not carry a title cut for the size the hidden tab had.
            shown.fit_titles()
            export.export_graphics_item(shown.canvas.ci, path, title=self.title())

    def export_npz(self, path: str) -> None:
        """All three kinds of maps with their tokens (see :func:`explorer.attention.export.export_npz`)."""
        if self._maps is None:
            raise RuntimeError("no attention maps to export")
        export.export_npz(self._maps, path)

    def export_csv(self, path: str, pieces: str = "raw") -> None:
        """The matrix of the Head view, headed by the raw pieces or (``pieces="shown"``) the window's."""
        if self._maps is None:
            raise RuntimeError("no attention maps to export")
        rows, cols = self._maps.labels(self._kind)
        export.export_csv(self.current_matrix(), rows, cols, path, pieces)

    def export_dialog(self, fmt: str) -> None:
        shown_csv = tr("CSV table, pieces as shown (*.csv)")
        filters = {"png": tr("PNG image (*.png)"), "svg": tr("SVG image (*.svg)"),
                   "csv": tr("CSV table, raw pieces (*.csv)") + ";;" + shown_csv, "npz": tr("NumPy archive (*.npz)")}
        start = str(Path(self.export_dir) / self.suggested_file_name(fmt))
        path, chosen = QtWidgets.QFileDialog.getSaveFileName(self, tr("Export attention"), start, filters[fmt])
        if not path:
            return
        self.export_dir = str(Path(path).parent)
        csv_pieces = "shown" if chosen == shown_csv else "raw"
        try:
            {"png": self.export_image, "svg": self.export_image,
             "csv": lambda p: self.export_csv(p, csv_pieces), "npz": self.export_npz}[fmt](path)
        except (OSError, ValueError, RuntimeError) as exc:
            QtWidgets.QMessageBox.warning(self, tr("Export failed"), str(exc))

"""File › Export for the main window: ask where, remember the folder, write, report.

Apart from the window because none of it is layout: it is the dialog dance around the attention
panel's own writers (``export_image``, ``export_csv``, ``export_npz``), and the other tabs' views as drawn.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from explorer.ui.i18n import tr


def export_view(window) -> None:
    """The shown view as PNG or SVG: the attention panel's own figure on the Attention tab, else the tab as
    it is on screen (Ctrl+E on the clock hands, the workbench or Compare saved the hidden head map)."""
    shown = window.tabs.currentWidget()
    if shown is window.attention_stack:
        path = save_path(window, tr("Export view"), tr("PNG image (*.png);;SVG image (*.svg)"), ".png")
        if path:
            _write(window, lambda: window.attention_panel.export_image(path), path)
        return
    from explorer.attention.export import export_widget

    name = window.tabs.tabText(window.tabs.currentIndex()).replace("&", "")
    slug = re.sub(r"\W+", "-", name.lower()).strip("-") or "view"
    # PNG only: a tab painted into an SVG lost widgets and drew the curves' dots as dashes (QSvgGenerator
    # records pyqtgraph's cached symbols badly); the attention maps have vector writers of their own.
    path = save_path(window, tr("Export view"), tr("PNG image (*.png)"), ".png", slug)
    if path and not path.lower().endswith(".png"):
        path = str(Path(path).with_suffix(".png"))
    if path:
        _write(window, lambda: export_widget(shown, path, title=name), path)


def export_attention(window) -> None:
    """The shown maps as a NumPy archive (every head) or the shown matrix as CSV."""
    shown_csv = tr("CSV of the shown matrix, pieces as shown (*.csv)")
    path, chosen = save_path_and_filter(window, tr("Export attention"), ";;".join(
        (tr("NumPy archive (*.npz)"), tr("CSV of the shown matrix, raw pieces (*.csv)"), shown_csv)), ".npz")
    if not path:
        return
    panel = window.attention_panel
    if path.lower().endswith(".csv"):
        pieces = "shown" if chosen == shown_csv else "raw"  # the header says which
        _write(window, lambda: panel.export_csv(path, pieces), path)
    else:
        _write(window, lambda: panel.export_npz(path), path)


def save_path(window, title: str, filters: str, default_suffix: str, stem: str = "") -> str:
    """A file name from the save dialog, starting in the last export folder; '' when cancelled. ``stem``:
    the file name offered (default: the attention panel's, which names kind, layer and head)."""
    return save_path_and_filter(window, title, filters, default_suffix, stem)[0]


def save_path_and_filter(window, title: str, filters: str, default_suffix: str, stem: str = "") -> tuple[str, str]:
    """:func:`save_path` and the filter chosen in the dialog."""
    panel, settings = window.attention_panel, window.settings
    folder = str(settings.value("last_export_dir", panel.export_dir))
    if not Path(folder).is_dir():
        folder = panel.export_dir
    suffix = default_suffix.lstrip(".")
    start = str(Path(folder) / (f"{stem}.{suffix}" if stem else panel.suggested_file_name(suffix)))
    path, chosen = QFileDialog.getSaveFileName(window, title, start, filters)
    if path:
        panel.export_dir = str(Path(path).parent)
        settings.setValue("last_export_dir", panel.export_dir)
    if path and not Path(path).suffix:
        # Respect the filter picked in the dialog when the user typed a bare name.
        suffix = chosen.rsplit("*", 1)[-1].rstrip(")") if "*" in chosen else default_suffix
        path += suffix
    return path, chosen


def _write(window, write, path: str) -> None:
    try:
        write()
    except (OSError, ValueError, RuntimeError) as exc:
        if window.show_dialogs:
            message = tr("Could not write {path}:\n{error}", path=path, error=exc)
            QMessageBox.critical(window, tr("Export failed"), message)
        return
    window.show_status(tr("Saved {path}", path=str(path)))

"""File › Translate a file…: the window's side of it (the dialog lives in explorer.translate.file_dialog)."""

from __future__ import annotations


def open_translate_file(window) -> None:
    """Show the dialog (one per window, kept so a translation in flight survives closing it)."""
    from explorer.translate.file_dialog import TranslateFileDialog

    dialog = getattr(window, "translate_file_dialog", None)
    if dialog is None:
        info = lambda: window.controller.info  # noqa: E731 - read when a file is chosen, not now
        dialog = window.translate_file_dialog = TranslateFileDialog(
            model_path_of=lambda: info().path if info() is not None else None,
            beam_of=window.translate_panel.beam_spin.value, parent=window)
    dialog.show()
    dialog.raise_()


def shutdown_translate_file(window) -> None:
    dialog = getattr(window, "translate_file_dialog", None)
    if dialog is not None:
        dialog.shutdown()

"""What the main window does with its worker's answers: a model loaded, a translation, an error, busy or
not (a mixin of ``MainWindow``). The views are told in one place, so a stale map never stays beside a new
sentence or an error.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from explorer.ui.i18n import N_, tr
from explorer.window.model_messages import model_message
from explorer.window.models_menu import mark_loaded

TRANSLATE_FAILED = N_("No attention to show: the sentence could not be translated")  # N_: in the catalogue


def capitalised(message: str) -> str:
    """The model's messages start in lower case, to follow a file name on the command line; a status line
    or an inline error is a sentence of its own."""
    return message[:1].upper() + message[1:]


class WindowResponses:
    """Expects MainWindow's panels, labels, actions, ``controller``, ``presentation``, ``recent`` and
    ``_model_name``/``_title``."""

    def _on_model_loaded(self, info) -> None:
        self.info_panel.set_info(info)
        self.device_label.setText(tr("Device: {device}", device=info.device))
        name = self._model_name(info)
        mark_loaded(self, info.path)
        self.setWindowTitle(self._title(info))
        self.show_status(tr("Loaded {name}", name=name))
        self.pe_tab.set_model(info)
        self.translate_panel.set_model_ready(True)
        if self._remember_recent and Path(info.path).is_dir():
            self.recent.add(info.path)
        # A new model makes the shown maps stale; translate the sentence again so the views match.
        if self.translate_panel.text():
            self.translate_panel.request_translation()

    def _on_translation(self, translation) -> None:
        self.translate_panel.set_translation(translation)
        maps = translation.attention
        self.attention_panel.set_maps(maps)
        n_source = len(maps.source_tokens) if maps is not None else len(translation.source_pieces) + 1
        self.pe_tab.set_sentence_length(n_source)
        self.attention_stack.setCurrentWidget(self.attention_panel)
        self._set_exports_enabled(maps is not None)
        self.presentation.show_translation(translation.text)
        self.show_status(tr("Ready"))

    def _on_error(self, kind: str, message: str) -> None:
        # The model's messages are English; the common ones have a translation (by their form when they
        # have varying parts: model_messages.py), the rest stay as they are.
        message = model_message(message) if message else tr("Error")
        if kind == "translate":  # a line of its own under the sentence (a load error names its folder first)
            message = capitalised(message)
        self.show_status(message.splitlines()[0])
        if kind == "translate":
            # The maps on screen belong to the previous sentence; beside this error they would
            # read as its attention, so they go.
            self.translate_panel.show_error(message)
            self.timing_label.setText("")  # the time of the translation that is gone with them
            self.attention_panel.set_maps(None, empty_text=tr(TRANSLATE_FAILED))
            self._set_exports_enabled(False)
            self.presentation.show_translation("")
            return
        if self.controller.info is None:
            self._set_no_model(tr("No model loaded"))
        if self.show_dialogs:
            QMessageBox.critical(self, tr("Could not open the model"), message)

    # -- helpers -----------------------------------------------------------------------------

    def show_status(self, text: str) -> None:
        """The status line; while the worker is busy it says so, and shows ``text`` afterwards."""
        self._status = text
        if not self.controller.is_busy:
            self.state_label.setText(text)

    def _on_busy(self, busy: bool) -> None:
        self._busy_look.set_busy(busy)  # the look itself only after a noticeable wait (busy_look.py)
        if not busy:
            self.state_label.setText(self._status)  # what was said meanwhile, the look shown or not

    def _show_busy(self, busy: bool) -> None:
        if busy:  # the end of a wait restores the status line in _on_busy, shown look or not
            self.state_label.setText(tr("Working…"))
        self.attention_panel.set_busy(busy)
        self.translate_panel.set_busy(busy, stoppable=self.controller.translating)

    def _on_no_default_model(self) -> None:
        self._set_no_model(tr("No model loaded"))
        self.show_status(tr("No model loaded"))

    def _set_no_model(self, message: str, loading: bool = False) -> None:
        if loading:  # the status bar says what the empty state says, never "Ready" meanwhile
            self.show_status(message)
        self.empty_state.set_message(message, loading=loading)
        self.attention_stack.setCurrentWidget(self.empty_state)
        self.translate_panel.set_model_ready(False)
        self._set_exports_enabled(False)

    def _set_exports_enabled(self, enabled: bool) -> None:
        self.export_view_action.setEnabled(enabled)
        self.export_data_action.setEnabled(enabled)

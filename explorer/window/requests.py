"""What the main window asks its controller for: a model (the built-in one, a folder, a checkpoint from the
Train tab), a translation or a stop; and where a request to train goes (a mixin of ``MainWindow``). Kept apart
from ``responses.py``, which handles the answers, and from the window's assembly.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from explorer.ui.i18n import tr
from explorer.window.responses import capitalised

EMPTY_INPUT = "type a sentence to translate: the text is empty"  # model.decoding.decode's words, translated


class WindowRequests:
    """Expects MainWindow's ``controller``, ``settings``, ``show_dialogs``, ``translate_panel``, ``tabs``,
    ``attention_stack``, ``state_label``, ``_status``, ``_busy_look``, ``train_requested``, ``show_status()``,
    ``show_tab()`` and ``_set_no_model()``."""

    def load_default_model(self) -> None:
        self._set_no_model(tr("Loading the built-in model…"), loading=True)
        self.controller.load_default_model()

    def open_model(self, path: str | Path) -> None:
        """Load a model folder; errors keep the current model (see ``_on_error``)."""
        self.show_status(tr("Loading {path}…", path=str(path)))
        if self.controller.info is None:
            self._set_no_model(tr("Loading the model…"), loading=True)
        self.controller.load_model(str(path))
        if self.controller.info is not None:
            # The maps and translation shown are the old model's from now on: dimmed at once, not after
            # the busy look's delay (they stood undimmed for ~0.5 s). The worker's busy end restores them.
            self._busy_look.show_now()
            self.state_label.setText(self._status)  # "Loading …" says more than the look's "Working…"

    def open_trained(self, path: str, sentence: str = "") -> None:
        """Load a checkpoint from the Train tab and show it, translating the run's probe sentence."""
        if sentence:
            # The sentence the run was watched on is in the language the model learned (digits for
            # the synthetic tasks); it is translated as soon as the model is loaded.
            self.translate_panel.set_text(sentence)
        self.open_model(path)
        self.tabs.setCurrentWidget(self.attention_stack)

    def choose_model(self) -> None:
        start = str(self.settings.value("last_model_parent", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, tr("Open model folder"), start)
        if path:
            self.settings.setValue("last_model_parent", str(Path(path).parent))
            self.open_model(path)

    def translate(self, text: str, beam_size: int = 1) -> int:
        """Queue a translation; its request id, or 0 for empty text, which is refused here: the translation
        and views on screen stay (they still match each other and the timing beside them)."""
        if not text.strip():
            message = capitalised(tr(EMPTY_INPUT))
            self.translate_panel.show_note(message)
            self.show_status(message)
            return 0
        return self.controller.translate(text, beam_size, self.translate_panel.sentence_for(text))

    def stop_translation(self) -> None:
        """Stop the translation under way; the one on screen, its views and its timing stay."""
        self.controller.stop()
        self._busy_look.set_busy(False)  # what is shown is current again, though the worker ends its batch first
        self.show_status(tr("Translation stopped: the one shown is the sentence before"))
        self.state_label.setText(self._status)

    def request_train(self) -> None:
        """Go to the Train tab when one is installed; otherwise explain the command line."""
        self.train_requested.emit()
        if not self.show_tab("Train") and self.show_dialogs:
            QMessageBox.information(
                self,
                tr("Train a model"),
                tr("Train a model from the command line:\n\n    attention-explorer train --help\n\n"
                   "then open the folder it writes with File › Open model folder…"),
            )

"""The Train form's run folder (a mixin of ``TrainForm``): where a run writes its checkpoints (named after
the corpus and time-stamped until the user picks a folder) and the run a resume continues, whose corpus
the form then shows. Kept apart from the fields and the request they build, which are the form's job.
"""

from __future__ import annotations

import time
from pathlib import Path

from explorer.training.defaults import RUNS_ROOT
from model.choices import UserError


class RunFolder:
    """Expects ``TrainForm``'s ``out_field``, ``resume_field``, ``src_field``, ``tgt_field``, ``tsv_field``,
    ``corpus_combo``, ``task_combo``, ``ding_combo``, ``corpus_kind()``, ``_auto_out`` and ``_setting_out``."""

    def output_folder(self) -> str:
        return self.out_field.path()

    def _settle_out_folder(self) -> None:
        """The output folder as a run starts (``TrainForm.request``), unless the user chose one."""
        if self._auto_out:
            self._refresh_out()  # a fresh time stamp, so two runs never share a folder
        resume = self.resume_field.path()
        if resume and self._auto_out:
            # Continue in the run folder that holds the checkpoint, as the command line does.
            folder = Path(resume)
            self._setting_out = True
            self.out_field.set_path(str(folder if (folder / "LATEST").is_file() else folder.parent))
            self._setting_out = False

    def _on_resume_chosen(self) -> None:
        """Show the chosen run's corpus in the corpus fields: a resumed run reads only files it is given
        (model.training.run.check_saved_corpora), so the form names them, where the user can see and change
        them, instead of the run's train_config.json naming them unseen."""
        from model.safe_json import read_json

        folder = Path(self.resume_field.path()).expanduser()
        latest = folder / "LATEST"
        try:
            step = folder / latest.read_text(encoding="utf-8").strip() if latest.is_file() else folder
            saved = read_json(step / "train_config.json", UserError, max_bytes=1 << 20)
        except (OSError, UserError, ValueError):
            return  # no run settings there: the fields stay as they are, and Start says what is missing
        if not isinstance(saved, dict):
            return
        kind = "tsv" if saved.get("tsv") else "files" if saved.get("src") and saved.get("tgt") else None
        if kind is None:
            return
        self.corpus_combo.setCurrentIndex(self.corpus_combo.findData(kind))
        if kind == "tsv":
            self.tsv_field.set_path(str(saved["tsv"]))
        else:
            self.src_field.set_path(str(saved["src"]))
            self.tgt_field.set_path(str(saved["tgt"]))

    def _run_name(self) -> str:
        kind = self.corpus_kind()
        if kind == "task":
            return self.task_combo.currentText()
        if kind == "ding":
            return "ding-de-en" if self.ding_combo.currentData() else "ding-en-de"
        path = self.src_field.path() if kind == "files" else self.tsv_field.path()
        return Path(path).stem or kind

    def _refresh_out(self) -> None:
        if self._auto_out:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self._setting_out = True
            self.out_field.set_path(str(RUNS_ROOT / f"{self._run_name()}-{stamp}"))
            self._setting_out = False

    def _on_out_changed(self, text: str) -> None:
        # Any change not made by _refresh_out is the user's (typed, browsed or set by a script);
        # clearing the field hands it back to the default.
        if not self._setting_out:
            self._auto_out = not text.strip()

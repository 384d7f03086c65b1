"""What the Train tab does with its worker's reports: a run's first record, its progress, checkpoints,
probe snapshots, notes and errors (a mixin of ``TrainPanel``). The panel builds the tab and drives the
run; this file turns what comes back into the log, the numbers, the curves and the replay.
"""

from __future__ import annotations

from explorer.training.model_errors import model_error
from explorer.training.model_lines import model_line
from explorer.ui.i18n import N_, tr, translate
from model.records import TrainProgress, Translation

# The probe's maps' share of the tab's height once a run has sent its first probe. The class watches
# the maps form; on a short tab (a 768-px projector) the top keeps only the log's last lines, the buttons
# and the numbers (the curves scroll): at 60 % there the map was ~105 px tall, its "Query: target token"
# title cut to "Query: tar…". A taller tab (a desk) keeps room for the curves.
MAPS_SHARE, SHORT_TAB_MAPS_SHARE, SHORT_TAB_PX = 0.6, 0.72, 800


class TrainResponses:
    """Expects ``TrainPanel``'s ``_state``, ``_pending``, ``_out_dir``, ``_probe_sentence``, ``_checkpoint``,
    ``_outcome``, ``last_record``, ``stats``, ``curves``, ``replay``, ``split``, ``open_button``, ``log()``,
    ``show_error()``, ``latest_checkpoint()``, ``_set_state()`` and ``record_received``."""

    def _begin_run(self) -> None:
        """The new run has reported: the views and the checkpoint are its own from now on."""
        self._out_dir, self._probe_sentence = self._pending
        self._pending = None
        self._checkpoint, self._outcome = "", ""
        self.curves.clear()
        self.stats.clear()
        self.replay.clear()
        self.split.setSizes([10_000, 1])

    def _on_record(self, p: TrainProgress) -> None:
        refused = self._pending is not None and p.event == "error"  # before the run's first report
        if self._pending is not None and not refused:
            self._begin_run()
        self.last_record = p
        if not refused:  # the numbers on screen stay the previous run's
            self.stats.update_from(p)
            self.curves.add(p)
        if p.event == "start":  # the run's English report of its data, in the window's language
            self.log(model_line(p.message))
        elif p.event == "probe" and p.probe is not None and p.probe.attention is not None:
            self._add_snapshot(p.step, p.probe)
        elif p.event == "valid":
            bleu = f", BLEU {p.valid_bleu:.1f}" if p.valid_bleu is not None else ""
            self.log(tr("Step {step}: valid loss {loss:.3f}{bleu}", step=p.step, loss=p.valid_loss, bleu=bleu))
        elif p.event in ("checkpoint", "done", "stopped"):
            self._checkpoint = p.checkpoint or self._checkpoint
            word = tr({"checkpoint": N_("Checkpoint"), "done": N_("Finished; saved"),
                       "stopped": N_("Stopped; saved")}[p.event])
            what = f"{word} {p.checkpoint}" if p.checkpoint else model_line(p.message)
            self.log(tr("Step {step}: {what}", step=p.step, what=what))
            self.open_button.setEnabled(bool(self.latest_checkpoint()))
            if p.event != "checkpoint":
                self._outcome = (tr("Finished at step {step}", step=p.step) if p.event == "done"
                                 else tr("Stopped at step {step}", step=p.step))
        elif p.event == "error":
            self._outcome = tr("Failed")
            # The worker's own sentences have entries (translate); the model's messages of a known form
            # are said again (model_error); any other error is shown as it came, in English.
            message = translate(model_error(p.message))
            self.show_error(message)
            self.log(tr("Error: {message}", message=message), error=True)
        if self._state == "preparing" and p.event not in ("error", "done", "stopped"):
            self._set_state("training")
        elif self._state == "paused" and not refused:
            # The pause takes hold at the worker's next step: the steps reported after the click are the
            # run's too ("Paused at step 230" stood beside a step counter of 240).
            self._set_state("paused")
        self.record_received.emit(p)

    def _on_note(self, note: str | tuple[str, dict]) -> None:
        # The worker writes its notes in English, the catalogue's source: the log shows them in the
        # window's language (a note with no entry stays as it came). A note with a folder or an error
        # in it comes as (template, arguments), formatted here: tr() keeps a memory of what it made,
        # which only the GUI thread may touch.
        if isinstance(note, tuple):
            template, args = note
            self.log(tr(template, **args))
        else:
            self.log(translate(note))

    def _on_finished(self) -> None:
        self._pending = None  # a refused run: the next Start begins afresh
        self._set_state("idle")

    def _add_snapshot(self, step: int, translation: Translation) -> None:
        if self.replay.add(step, translation):
            # The first probe: hand the maps most of the height (the form had it until now).
            top, bottom = self.split.sizes()
            total = top + bottom
            maps = round((SHORT_TAB_MAPS_SHARE if total < SHORT_TAB_PX else MAPS_SHARE) * total)
            if bottom < maps - 1:
                self.split.setSizes([total - maps, maps])

"""The Train tab: the form, the live views, and real tiny training runs driven from the window.

The end-to-end tests train the tiny preset on the reverse task for a few seconds each; the form and
view tests use hand-made records. torch is imported only inside the one test that patches the loss.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from explorer.training.curves import StatsStrip, TrainingCurves, format_duration
from explorer.training.panel import TrainPanel
from explorer.training.worker import BUILDING_DING, TrainRequest, device_choices, error_record
from explorer.window.main_window import MainWindow
from model.records import TrainProgress

RUN_TIMEOUT_MS = 60_000


def configure(panel: TrainPanel, out: Path, steps: int = 400, probe_every: int = 10) -> None:
    """A tiny reverse run through the widgets' own setters, as a user would fill the form."""
    form = panel.form
    form.corpus_combo.setCurrentText("Synthetic task")
    form.task_combo.setCurrentText("reverse")
    form.preset_combo.setCurrentText("tiny")
    form.task_size_spin.setValue(2000)
    form.warmup_spin.setValue(50)
    form.batch_spin.setValue(1024)
    form.max_steps_spin.setValue(steps)
    form.valid_every_spin.setValue(0)
    form.checkpoint_every_spin.setValue(0)
    form.probe_every_spin.setValue(probe_every)
    form.out_field.edit.setText(str(out))


def record(event: str = "step", step: int = 10, **kw) -> TrainProgress:
    base = {"max_steps": 100, "epoch": 0, "loss": 2.5, "lr": 1e-3, "tokens_per_s": 5000.0, "elapsed_s": 12.0,
            "eta_s": 30.0}
    base.update(kw)
    return TrainProgress(step=step, event=event, **base)


@pytest.fixture
def panel(qtbot):
    p = TrainPanel()
    qtbot.addWidget(p)  # closing it joins the worker thread (see TrainPanel.closeEvent)
    return p


def run_until_idle(qtbot, panel: TrainPanel) -> None:
    qtbot.waitUntil(panel.is_idle, timeout=RUN_TIMEOUT_MS)


# -- the form and the views (no training) ---------------------------------------------------------


def test_form_defaults_follow_the_corpus_and_validate_the_model(panel):
    form = panel.form
    form.corpus_combo.setCurrentText("Synthetic task")
    assert form.preset_combo.currentText() == "tiny" and form.probe_sentence() == "3 1 4 1 5 9 2 6"
    assert form.probe_every_spin.value() == 25 and "reverse-" in form.output_folder()
    form.task_combo.setCurrentText("dates")
    assert "March" in form.probe_sentence()
    form.corpus_combo.setCurrentText("Two aligned files")
    assert form.preset_combo.currentText() == "small" and form.probe_sentence() == ""
    form.heads_spin.setValue(5)  # 256 is not divisible by 5
    assert "divisible" in form.model_error.text() and not panel.start_button.isEnabled()
    assert panel.start() is False
    form.heads_spin.setValue(8)
    assert form.model_error.text() == "" and panel.start_button.isEnabled()
    assert panel.start() is False  # no files chosen: a message, and still idle
    assert "source-language" in panel.error_text() and panel.is_idle()


def test_form_builds_requests_for_devices_and_keeps_a_chosen_folder(panel, tmp_path):
    form = panel.form
    configure(panel, tmp_path / "run")
    form.set_devices(device_choices([(0, "H200", 139.8), (1, "H200", 139.8)]))
    labels = [form.device_combo.itemText(i) for i in range(form.device_combo.count())]
    assert labels == ["CPU", "GPU 0: H200 (140 GiB)", "GPU 1: H200 (140 GiB)", "All GPUs (2)"]
    assert form.device_combo.currentData() == "cuda:0"  # the first GPU unless the user chose
    form.set_device("all:2")
    request = form.request()
    assert isinstance(request, TrainRequest)
    assert (request.n_gpus, request.config.device, request.config.task) == (2, "cuda", "reverse")
    assert request.config.length_buckets is False  # digit tasks train on mixed-length batches
    assert request.config.out_dir == str(tmp_path / "run")  # set by the user: not replaced
    assert device_choices([(0, "A100", 40.0)]) == [("cuda:0", "GPU 0: A100 (40 GiB)")]


def test_label_smoothing_and_shared_embedding_reach_the_run(panel, tmp_path):
    form = panel.form
    configure(panel, tmp_path / "run")
    cfg = form.request().config
    assert cfg.label_smoothing == 0.1 and cfg.model.share_embeddings is True  # the paper's defaults
    form.smoothing_spin.setValue(0.0)
    form.share_check.setChecked(False)
    cfg = form.request().config
    assert cfg.label_smoothing == 0.0 and cfg.model.share_embeddings is False
    form.preset_combo.setCurrentText("small")  # a preset brings back its own (shared) embedding
    assert form.share_check.isChecked() and form.request().config.model.share_embeddings is True


def test_cpu_bf16_device_choice_asks_for_cpu_autocast(panel, tmp_path):
    form = panel.form
    configure(panel, tmp_path / "run")
    form.set_devices(device_choices([(0, "H200", 139.8)], cpu_bf16=True))
    labels = [form.device_combo.itemText(i) for i in range(form.device_combo.count())]
    assert labels == ["CPU", "CPU, bf16 math (faster)", "GPU 0: H200 (140 GiB)"]
    assert form.device_combo.currentData() == "cuda:0"  # a GPU still comes first when there is one
    form.set_device("cpu-bf16")
    cfg = form.request().config
    assert (cfg.device, cfg.cpu_amp) == ("cpu", True)
    form.set_device("cpu")
    assert form.request().config.cpu_amp is False


def test_curves_and_stats_show_what_the_records_carry(qtbot):
    curves, stats = TrainingCurves(), StatsStrip()
    qtbot.addWidget(curves)
    qtbot.addWidget(stats)
    for p in (record(step=10, loss=3.0), record(step=20, loss=2.0, lr=2e-3),
              record("valid", step=20, valid_loss=2.2, valid_bleu=12.5), record(step=30, loss=math.nan)):
        curves.add(p)
        stats.update_from(p)
    steps, losses = curves.series("train")
    assert steps.tolist() == [10, 20] and losses.tolist() == [3.0, 2.0]  # the NaN point is left out
    assert curves.series("valid")[1].tolist() == [2.2] and curves.series("bleu")[1].tolist() == [12.5]
    assert curves.series("lr")[1][1] == pytest.approx(2e-3)
    assert stats.value("step") == "30 / 100" and stats.value("bleu") == "12.5"
    assert stats.value("eta") == "0:30" and stats.value("speed") == "5,000"
    assert (format_duration(None), format_duration(3725)) == ("–", "1:02:05")
    curves.clear()
    assert curves.series("train")[0].size == 0


def test_a_narrow_strip_sets_each_title_beside_its_value_when_that_takes_fewer_lines(qtbot):
    """Beside the form on a projector each pair had a row of its own, title above value: the strip took
    six rows of two lines and pushed the curves below the fold. There, a title beside its value halves
    that; wide, where the pairs share a row, each title stays above its value."""
    stats = StatsStrip()
    qtbot.addWidget(stats)
    stats.update_from(record(step=30, loss=2.0))
    stats.resize(1400, 100)
    stats.show()
    qtbot.waitExposed(stats)
    assert not stats.side_by_side()
    narrow = max(stats.fontMetrics().horizontalAdvance(t) for t in ("Valid BLEU", "Train loss")) + 90
    stats.resize(narrow, 400)
    qtbot.waitUntil(stats.side_by_side, timeout=1000)
    QApplication.processEvents()
    line = stats.fontMetrics().lineSpacing()
    boxes = [box for box in stats._boxes.values() if not box.isHidden()]
    assert all(box.sizeHint().height() < 1.6 * line for box in boxes)  # one line a pair, not two
    assert stats.layout().heightForWidth(narrow) < 1.5 * line * len(boxes)
    stats.update_from(record(step=12_345, loss=2.0))  # a wider number: each pair still whole
    assert stats.side_by_side()
    assert all(box.sizeHint().width() <= narrow for box in stats._boxes.values() if not box.isHidden())


def test_error_records_from_the_worker_show_their_message(panel, qtbot):
    oom = ("the GPU ran out of memory at step 3 with batches of 4096 tokens; try fewer batch tokens "
           "(e.g. 2048).")
    panel.runner.worker.progress.emit(error_record(oom, step=3))
    panel.runner.worker.finished.emit()
    assert panel.error_text() == oom and panel.is_idle() and panel.start_button.isEnabled()
    assert any("ran out of memory" in line for line in panel.log_lines())
    panel.runner.worker.progress.emit(record("error", step=7, message="training stopped: the loss became nan"))
    assert "loss became nan" in panel.error_text() and panel.state_label.text() == "Failed"


# -- real runs -------------------------------------------------------------------------------------


def test_a_run_from_the_window_pauses_stops_scrubs_and_opens(qtbot, tmp_path):
    window = MainWindow(show_dialogs=False, remember_recent=False)
    qtbot.addWidget(window)
    panel = window.train_panel
    out = tmp_path / "run"
    configure(panel, out)
    steps: list[int] = []
    events: list[str] = []
    panel.record_received.connect(lambda p: (events.append(p.event), p.event == "step" and steps.append(p.step)))
    assert panel.start() and panel.state() == "preparing"
    qtbot.waitUntil(lambda: len(panel.snapshots()) >= 2, timeout=RUN_TIMEOUT_MS)
    assert events[0] == "start" and steps == sorted(steps) and len(set(steps)) == len(steps)

    panel.pause()
    assert "Paused" in panel.state_label.text() and panel.pause_button.text() == "Resume"
    qtbot.wait(300)  # the step in flight when pause was pressed may still report
    seen = len(steps)
    qtbot.wait(500)
    assert len(steps) == seen, "training went on while paused"
    panel.resume()
    qtbot.waitUntil(lambda: len(steps) > seen, timeout=10_000)
    panel.stop()
    assert panel.state() == "stopping"
    run_until_idle(qtbot, panel)
    final = panel.last_record
    assert final.event == "stopped" and Path(final.checkpoint, "model.safetensors").is_file()
    assert panel.state_label.text().startswith("Stopped at step") and panel.error_text() == ""

    # Replay: default to the last layer's cross-attention, keep the user's choice while scrubbing.
    snaps = panel.snapshots()
    assert panel.attention.state()[:2] == ("cross", snaps[0][1].attention.n_layers - 1)
    assert panel.snapshot_slider.value() == len(snaps) - 1  # followed the run live
    panel.attention.set_state("cross", 0, 1)
    last = panel.attention.current_matrix()
    panel.snapshot_slider.setValue(0)
    assert panel.attention.state()[:3] == ("cross", 0, 1)
    first = panel.attention.current_matrix()
    assert first.shape != last.shape or not np.allclose(first, last)
    assert f"Step {snaps[0][0]} " in panel.snapshot_label.text()

    with qtbot.waitSignal(window.controller.model_loaded, timeout=RUN_TIMEOUT_MS) as loaded:
        panel.open_button.click()
    assert Path(loaded.args[0].path) == Path(final.checkpoint)
    assert window.tabs.currentWidget() is window.attention_stack
    assert window.translate_panel.text() == "3 1 4 1 5 9 2 6"  # the probe, translated by the explorer


def test_missing_corpus_and_unwritable_folder_show_a_message(panel, qtbot, tmp_path):
    configure(panel, tmp_path / "run")
    form = panel.form
    form.corpus_combo.setCurrentText("Two aligned files")
    form.src_field.edit.setText(str(tmp_path / "missing.en"))
    form.tgt_field.edit.setText(str(tmp_path / "missing.de"))
    # Said under the corpus before Start, and Start refuses: no run folder made for nothing, no "Failed".
    assert "corpus file not found" in form.corpus_error.text() and "missing.en" in form.corpus_error.text()
    assert not panel.start() and not (tmp_path / "run").exists()
    assert panel.is_idle() and panel.state_label.text() != "Failed"
    (tmp_path / "missing.en").write_text("one\n", encoding="utf-8")  # written meanwhile: Start looks again
    assert not panel.start() and "missing.de" in form.corpus_error.text()  # the next one
    form.corpus_combo.setCurrentText("Synthetic task")
    assert form.corpus_error.isHidden() and panel.start_button.isEnabled()

    # A path below a regular file cannot be created, even by root (who ignores chmod).
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    configure(panel, blocker / "run")
    assert panel.start()
    run_until_idle(qtbot, panel)
    assert "cannot write to the output folder" in panel.error_text()
    assert panel.is_idle() and panel.state_label.text() == "Failed"


def test_a_nan_loss_stops_the_run_with_its_message(panel, qtbot, tmp_path, monkeypatch):
    import torch

    import model.training.train

    monkeypatch.setattr(model.training.train, "step_loss", lambda *a, **k: torch.tensor(float("nan")))
    configure(panel, tmp_path / "run", steps=20)
    assert panel.start()
    run_until_idle(qtbot, panel)
    assert "loss became nan" in panel.error_text()
    assert panel.last_record.event == "error" and panel.start_button.isEnabled()


def test_closing_the_window_while_training_asks_then_saves_and_joins(qtbot, tmp_path, monkeypatch):
    window = MainWindow(show_dialogs=True, remember_recent=False)
    qtbot.addWidget(window)
    panel = window.train_panel
    out = tmp_path / "run"
    configure(panel, out, steps=100_000, probe_every=0)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.Yes)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.last_record is not None and panel.last_record.event == "step",
                    timeout=RUN_TIMEOUT_MS)
    window.close()
    assert asked and not panel.runner.thread.isRunning()
    latest = out / (out / "LATEST").read_text().strip()
    assert (latest / "model.safetensors").is_file()


def test_the_train_modules_do_not_import_torch_until_a_run_starts():
    code = ("import sys, explorer.training.panel, explorer.window.main_window\n"
            "bad = [m for m in sys.modules if m == 'torch' or m.startswith('torch.')]\n"
            "assert not bad, bad[:5]\n")
    result = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True,
                            env={"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": ".", "PATH": ""},
                            cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr


# -- the worker's routing, run on this thread (coverage cannot follow the worker's QThread) --------


def test_worker_builds_ding_routes_all_gpus_and_reports_failures(tmp_path, monkeypatch):
    import model.corpus.ding_corpus
    import model.training.run
    import model.training.torchrun
    from explorer.training.worker import TrainWorker
    from model.config import PRESETS, TrainConfig
    from model.errors import CorpusError

    calls: dict = {}

    def fake_build(out_dir, reverse=False, **kw):
        calls["ding"] = (Path(out_dir), reverse)

    def fake_training(cfg, control, resume=None):
        calls["cfg"], calls["stopped"] = cfg, control.stopped
        if cfg.tsv == "boom":
            raise RuntimeError("kaboom")
        if cfg.tsv == "bad":
            raise CorpusError("bad.tsv holds no tab-separated pairs")
        yield record("start", step=0, message="ready")
        yield record("done", step=5, checkpoint=str(tmp_path / "run" / "step-00000005"))

    def fake_distributed(cfg, n_gpus, control, resume=None):
        calls["n_gpus"] = n_gpus
        yield record("error", step=3, message="worker 1 crashed (exit code -9); the last checkpoint is intact")

    monkeypatch.setattr(model.corpus.ding_corpus, "build_ding_corpus", fake_build)
    monkeypatch.setattr(model.training.run, "run_training", fake_training)
    monkeypatch.setattr(model.training.torchrun, "run_distributed", fake_distributed)
    worker = TrainWorker()
    seen: list[TrainProgress] = []
    notes: list[str] = []
    worker.progress.connect(seen.append)
    worker.note.connect(notes.append)
    cfg = TrainConfig(out_dir=str(tmp_path / "run"), model=PRESETS["tiny"])

    worker.run(TrainRequest(cfg, ding_reverse=True))  # German→English: source files are .de
    data = tmp_path / "run" / "data"
    assert calls["ding"] == (data, True) and (BUILDING_DING, {"folder": str(data)}) in notes
    built = calls["cfg"]
    assert (built.src, built.tgt, built.valid_src) == (str(data / "train.de"), str(data / "train.en"),
                                                       str(data / "valid.de"))
    assert [p.event for p in seen] == ["start", "done"]

    seen.clear()
    worker.run(TrainRequest(cfg.replace(task="reverse"), n_gpus=2))
    assert calls["n_gpus"] == 2 and "crashed" in seen[-1].message and seen[-1].event == "error"

    for tsv, expected in (("boom", "Unexpected error: RuntimeError: kaboom"),
                          ("bad", "bad.tsv holds no tab-separated pairs")):
        seen.clear()
        worker.run(TrainRequest(cfg.replace(tsv=tsv)))
        assert [p.event for p in seen] == ["error"] and seen[0].message == expected

    worker.reset()
    worker.stop()  # before the run has made its control: applied the moment it exists
    worker.run(TrainRequest(cfg.replace(task="reverse")))
    assert calls["stopped"] is True


def test_a_refused_start_keeps_the_previous_runs_curves_and_replay(panel, qtbot, tmp_path):
    from tests.explorer.conftest import make_translation
    previous = tmp_path / "previous"
    (previous / "step-00000020").mkdir(parents=True)
    (previous / "LATEST").write_text("step-00000020")
    # The previous run, as its records reached the panel.
    configure(panel, previous)
    for p in (record("start", step=0, message="started"), record(step=10, loss=3.0), record(step=20, loss=2.0),
              record("probe", step=20, probe=make_translation("3 1 4")),
              record("stopped", step=20, checkpoint=str(previous / "step-00000020"))):
        panel.runner.worker.progress.emit(p)
    panel.runner.worker.finished.emit()
    assert panel.curves.series("train")[1].tolist() == [3.0, 2.0] and len(panel.snapshots()) == 1
    assert panel.latest_checkpoint() == str(previous / "step-00000020") and panel.stats.value("step") == "20 / 100"

    # Start again in the same folder (not resuming): the worker refuses it.
    assert panel.start()
    run_until_idle(qtbot, panel)
    assert "already holds a training run" in panel.error_text() and panel.state_label.text() == "Failed"
    assert panel.curves.series("train")[1].tolist() == [3.0, 2.0]  # still the previous run's
    assert len(panel.snapshots()) == 1 and panel.stats.value("step") == "20 / 100"
    assert panel.latest_checkpoint() == str(previous / "step-00000020") and panel.open_button.isEnabled()
    # A start in another folder says that folder, not the previous run's (it is refused there too)
    other = tmp_path / "other"
    (other / "step-00000005").mkdir(parents=True)
    (other / "LATEST").write_text("step-00000005")
    configure(panel, other)
    assert panel.start()
    assert panel.log_lines()[-1].endswith(f"Starting a run in {other}")
    run_until_idle(qtbot, panel)


def test_the_probe_maps_are_built_with_the_first_probe_taking_the_zoom_and_layout_told_before(panel, qtbot):
    """Hidden until a run's first probe, the probe's attention panel is built then (not with every
    window), with the zoom and the compact layout the replay row was given meanwhile."""
    from tests.explorer.conftest import make_translation
    replay = panel.replay
    assert not replay.is_built() and not replay.maps_shown()
    panel.set_font_scale(1.44)
    replay.resize(600, 120)  # a short row: the maps' text goes (compact)
    replay.fit()
    assert replay.is_compact() and not replay.is_built()
    panel.runner.worker.progress.emit(record("probe", step=20, probe=make_translation("3 1 4")))
    assert replay.is_built() and replay.maps_shown() and len(panel.snapshots()) == 1
    assert panel.attention.heatmap._font_scale == pytest.approx(1.44) and panel.attention._compact
    assert panel.attention.heatmap.row_labels()  # the probe's maps, drawn
    replay.clear()  # a new run: no maps until its first probe
    assert not replay.maps_shown() and replay.snapshots() == []


def _wheel(widget, notches: int = -3) -> None:
    """Turn the mouse wheel ``notches`` (negative: towards the user, i.e. scroll down) over ``widget``."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_scrolls_the_form_and_changes_a_field_only_when_it_has_focus(panel, qtbot):
    panel.resize(900, 420)  # short: the form scrolls
    panel.show()
    qtbot.waitExposed(panel)
    spin, combo, bar = panel.form.batch_spin, panel.form.preset_combo, panel._scroll.verticalScrollBar()
    assert bar.maximum() > 0
    spin.setValue(1536)
    preset = combo.currentIndex()
    panel.start_button.setFocus()
    _wheel(spin)
    _wheel(combo)
    assert spin.value() == 1536 and combo.currentIndex() == preset  # the fields kept their values
    assert bar.value() > 0  # and the form scrolled instead
    assert spin.focusPolicy() == Qt.FocusPolicy.StrongFocus  # a wheel turn does not focus it either
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    _wheel(spin, notches=1)
    assert spin.value() == 1536 + 256  # focused: the wheel is the field's


def test_a_started_run_keeps_readable_curves_and_maps_on_a_1024_screen(window, qtbot):
    from tests.explorer.conftest import make_translation
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.size().height() == 768)
    assert window.show_tab("Train")
    panel = window.train_panel
    # A run's first records, as the worker sends them: the first probe shows the maps and hands them
    # most of the tab's height (TrainPanel._add_snapshot), which squeezed the curves to ~20-px strips.
    for p in (record("start", step=0, message="started"), record(step=10, loss=3.0),
              record("probe", step=10, probe=make_translation("3 1 4 1 5 9 2 6"))):
        panel.runner.worker.progress.emit(p)
    assert panel.attention.isVisible()
    curves = panel.curves
    for plot in (curves.loss_plot, curves.lr_plot, curves.bleu_plot):
        qtbot.waitUntil(lambda plot=plot: plot.size().height() >= 120)
    # The maps keep their own minimum (the attention panel's), so a longer probe's cells stay readable.
    assert panel.attention.height() >= 300


def test_paused_names_the_step_the_run_stopped_at_not_the_step_of_the_click(panel):
    """The pause takes hold at the worker's next step: the header read "Paused at step 230" beside a step
    counter of 240 (a walk-through at 1024 × 768)."""
    panel._pending = None
    panel._set_state("training")
    panel._on_record(record(step=230))
    panel._set_state("paused")  # the click
    assert panel.state_label.text() == "Paused at step 230"
    panel._on_record(record(step=240))  # the steps the worker finished before it saw the pause
    assert panel.state_label.text() == "Paused at step 240" and panel.pause_button.text() == "Resume"

"""The Train log in Chinese: the training run's own English lines (its data report, a stop before the
first step) and the worker's notes with a folder or an error in them are said in the window's language.

The model writes its lines in English (it never imports Qt); explorer/training/model_lines.py knows
their forms. These tests make the lines with the model's own functions, so a change of wording there
fails here rather than reaching the Chinese log in English (issue 31's screenshot set: "task reverse:
2000 generated pairs; …" in the Chinese Train log).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.training.model_lines import model_line
from explorer.training.panel import TrainPanel
from explorer.training.worker import BUILDING_DING, NO_GPU_LIST, error_message, error_record
from explorer.ui import i18n
from model.records import TrainProgress

RUN_TIMEOUT_MS = 60_000
ENGLISH = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture
def chinese():
    i18n.install_language("zh_CN")
    yield
    i18n.install_language("en")


def english_words(text: str, *allowed: str) -> list[str]:
    """The Latin words of ``text`` once the parts that are data (folders, a task's name) are taken out."""
    for part in allowed:
        text = text.replace(part, " ")
    return ENGLISH.findall(text)


def corpus_reports(tmp_path: Path) -> list[str]:
    """What model.training.data reports for a task, a clean corpus and one with every kind of bad line."""
    from model.config import TrainConfig
    from model.training.data import Corpus, load_corpora, read_tsv

    _, _, task = load_corpora(TrainConfig(out_dir=str(tmp_path / "r"), task="reverse", task_size=300, n_valid=20))
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("a\tb\nno tab here\n\tb\na\t\n" + "x" * 1001 + "\ty\nc\td\n", encoding="utf-8")
    skipped = read_tsv(tsv).report()
    many = Corpus([("a", "b")], [(n, "empty source") for n in range(1, 14)], "many.tsv").report()
    clean = Corpus([("a", "b")], [], "clean.tsv").report()
    return [task, skipped, many, clean]


def test_the_models_data_report_is_said_in_chinese(tmp_path, chinese):
    from model.config import PRESETS, TrainConfig
    from model.training.data import split
    from model.training.prepare import prepare_data
    from model.training.tasks import make_task

    reports = corpus_reports(tmp_path)
    assert "generated pairs" in reports[0] and "skipped 4 (line 2: expected 2" in reports[1]
    assert ", … 3 more)" in reports[2]  # the model's forms, as this test knows them
    cfg = TrainConfig(out_dir=str(tmp_path / "r"), task="reverse", model=PRESETS["tiny"], vocab_size=40)
    train, valid = split(make_task("reverse", 300, seed=1), 20, seed=1)
    data = prepare_data(cfg, train, valid)
    for report in reports:
        line = model_line(f"{report}; {data.report}")  # the start record's message (model/training/run.py)
        assert english_words(line, str(tmp_path), "pairs.tsv", "many.tsv", "clean.tsv", "reverse") == [], line
    assert model_line(f"{reports[0]}; {data.report}").startswith("任务 reverse：生成了 300 个句对；")


def test_lines_of_other_forms_pass_unchanged(chinese):
    odd = "training stopped: the loss became nan at step 3; the last checkpoint is intact"
    assert model_line(odd) == odd
    assert model_line("stopped before the first step; nothing was written") == "在第一步之前就停止了；没有写入任何内容"
    assert model_line("saved /runs/a/step-00000010") == "已保存 /runs/a/step-00000010"


def test_the_workers_notes_with_a_folder_or_an_error_are_logged_in_chinese(qtbot, chinese):
    panel = TrainPanel()
    qtbot.addWidget(panel)
    panel.runner.note.emit((BUILDING_DING, {"folder": "/runs/ding/data"}))
    assert panel.log_lines()[-1].endswith("正在 /runs/ding/data 中构建 Ding 语料（需要约一分钟）…")
    panel.runner.note.emit((NO_GPU_LIST, {"error": "no driver"}))
    assert panel.log_lines()[-1].endswith("无法列出 GPU：no driver")
    # Pausing and resuming say so in the window's language too (they were plain English).
    panel._set_state("training")
    panel.pause()
    panel.resume()
    assert [line.split("  ", 1)[1] for line in panel.log_lines()[-2:]] == ["已暂停", "已继续"]


def test_the_workers_out_of_memory_message_is_said_in_chinese(qtbot, chinese):
    class OutOfMemoryError(RuntimeError):  # torch.cuda's, by name (the worker does not import torch)
        pass

    panel = TrainPanel()
    qtbot.addWidget(panel)
    panel.runner.worker.progress.emit(error_record(error_message(OutOfMemoryError("CUDA out of memory")), step=3))
    panel.runner.worker.finished.emit()
    assert panel.error_text().startswith("GPU 显存不足")
    assert panel.log_lines()[-1].split("  ", 1)[1] == f"错误：{panel.error_text()}"


def test_the_chinese_train_log_holds_no_english_line_after_a_run_starts(qtbot, tmp_path, chinese):
    panel = TrainPanel()
    qtbot.addWidget(panel)
    form = panel.form
    form.corpus_combo.setCurrentIndex(form.corpus_combo.findData("task"))
    form.task_combo.setCurrentText("reverse")
    form.preset_combo.setCurrentText("tiny")
    form.task_size_spin.setValue(500)
    form.max_steps_spin.setValue(100_000)
    form.valid_every_spin.setValue(0)
    form.checkpoint_every_spin.setValue(0)
    form.probe_every_spin.setValue(0)
    out = tmp_path / "run"
    form.out_field.edit.setText(str(out))
    started: list[TrainProgress] = []
    panel.record_received.connect(lambda p: p.event == "start" and started.append(p))
    assert panel.start()
    qtbot.waitUntil(lambda: bool(started), timeout=RUN_TIMEOUT_MS)
    panel.stop()
    qtbot.waitUntil(panel.is_idle, timeout=RUN_TIMEOUT_MS)
    panel.shutdown()  # joins the worker's thread now
    assert "generated pairs" in started[0].message  # the model's English, as it came
    lines = [line.split("  ", 1)[1] for line in panel.log_lines()]
    assert any(line.startswith("任务 reverse：生成了 500 个句对") for line in lines), lines
    for line in lines:  # the start, the data report, the stop and its checkpoint (a folder: data)
        assert english_words(re.sub(re.escape(str(out)) + r"\S*", " ", line), "reverse") == [], line

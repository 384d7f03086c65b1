"""Choosing a run to resume fills in its corpus: a resumed run reads only files it is given (#27)."""

from __future__ import annotations

import json

from explorer.training.form import TrainForm


def _run(tmp_path, settings: dict):
    run = tmp_path / "run"
    (run / "step-00000010").mkdir(parents=True)
    (run / "LATEST").write_text("step-00000010", encoding="utf-8")
    (run / "step-00000010" / "train_config.json").write_text(json.dumps(settings), encoding="utf-8")
    return run


def test_the_runs_files_are_named_in_the_form_and_reach_the_request(qtbot, tmp_path):
    form = TrainForm(("reverse",), ding_available=False)
    qtbot.addWidget(form)
    src, tgt = tmp_path / "data" / "train.en", tmp_path / "data" / "train.de"
    run = _run(tmp_path, {"src": str(src), "tgt": str(tgt), "task": ""})
    form.resume_field.set_path(str(run))
    form.resume_field.edited.emit()
    assert form.corpus_kind() == "files"
    assert (form.src_field.path(), form.tgt_field.path()) == (str(src), str(tgt))
    request = form.request()
    assert (request.config.src, request.config.tgt) == (str(src), str(tgt)) and request.resume == str(run)


def test_a_task_run_or_a_folder_without_settings_leaves_the_fields_alone(qtbot, tmp_path):
    form = TrainForm(("reverse",), ding_available=False)
    qtbot.addWidget(form)
    before = form.corpus_kind()
    form.resume_field.set_path(str(_run(tmp_path, {"task": "reverse", "src": ""})))
    form.resume_field.edited.emit()
    form.resume_field.set_path(str(tmp_path / "nothing-here"))
    form.resume_field.edited.emit()
    assert form.corpus_kind() == before and form.src_field.path() == ""

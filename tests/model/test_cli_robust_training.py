"""``train``, ``info`` and ``--resume`` given folders and files that are not what they seem: each ends in one line
on stderr and exit code 2, and nothing of the user's is deleted, moved or written beside.

Found by an attack on the CLI: ``--out docs`` deleted docs/STOP, ``--resume MODEL`` wrote a run into the folder
that holds the model, and hand-edited config.json, train_state.pt, LATEST and train_config.json files ended
in tracebacks or in messages that named neither the file nor the field.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import torch

from model.cli import main
from model.training import state as train_state
from model.training.control import PAUSE, STOP, clear_controls
from tests.conftest import train_tiny

STEP = "step-00000020"
FAST = ["--warmup", "1", "--valid-every", "0", "--batch-tokens", "256"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A run of 20 steps with checkpoints at 10 and 20 (LATEST, log.jsonl, .lock beside them)."""
    return train_tiny(tmp_path_factory.mktemp("robust") / "run", steps=20, checkpoint_every=10)


@pytest.fixture
def run(finished, tmp_path) -> Path:
    shutil.copytree(finished, tmp_path / "run")
    return tmp_path / "run"


def _tree(folder: Path) -> dict[str, str]:
    """Every file under folder with a hash of its bytes: what "nothing changed" means."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "Traceback" not in err[0], err
    return err[0]


# 1. --out: a folder of the user's files is no run folder


def test_out_folder_of_the_users_files_is_refused_and_its_stop_kept(tmp_path, capsys):
    argv = ["train", "--task", "reverse", "--preset", "tiny", "--max-steps", "2", "--checkpoint-every", "0", *FAST]
    for extra in ({}, {"notes.txt": "mine"}):  # a STOP and PAUSE of the user's alone are the user's files too
        docs = tmp_path / f"docs{len(extra)}"
        docs.mkdir()
        for name, text in {STOP: "important", PAUSE: "also mine", **extra}.items():
            (docs / name).write_text(text)
        before = _tree(docs)
        for more in ([], ["--overwrite"]):  # --overwrite starts over a run; there is none here to start over
            line = _refused(argv + ["--out", str(docs), *more], capsys)
            assert f"--out {docs} holds other files and no run; choose a new or empty folder" in line
            assert _tree(docs) == before  # STOP and PAUSE still there, no LATEST, log.jsonl, .lock or step-*
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(argv + ["--out", str(empty)]) == 0  # an empty folder is as good as a new one
    assert (empty / "LATEST").read_text().strip() == "step-00000002"


def test_stop_and_pause_are_cleared_only_in_a_run_folder(tmp_path, run):
    docs = tmp_path / "docs"
    docs.mkdir()
    for folder in (docs, run):
        (folder / STOP).write_text("x")
        (folder / PAUSE).write_text("x")
    clear_controls(docs)
    assert (docs / STOP).read_text() == "x" and (docs / PAUSE).read_text() == "x"
    clear_controls(run)  # left over from the run's last stop, they would end the next one at once
    assert not (run / STOP).exists() and not (run / PAUSE).exists()


# 2. --resume without --out: only a run folder, or a step-* checkpoint inside one, names where to write


def test_resume_of_a_model_without_training_state_writes_nothing(run, tmp_path, capsys):
    models = tmp_path / "w2"
    shutil.copytree(run / STEP, models / "mdl")
    (models / "mdl" / "train_state.pt").unlink()  # as `average` or `import-marian` write a model
    line = _refused(["train", "--resume", str(models / "mdl"), "--task", "reverse", "--max-steps", "25"], capsys)
    assert f"{models / 'mdl'} holds a model but no training state (train_state.pt) to resume" in line
    assert f"--resume {models / 'mdl'} --out NEW_FOLDER" in line
    assert sorted(p.name for p in models.iterdir()) == ["mdl"]  # no step-*, LATEST, log.jsonl, .lock beside it


def test_resume_of_a_checkpoint_copied_out_of_its_run_writes_nothing(run, tmp_path, capsys):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "notes.txt").write_text("mine")
    for name in ("mm", STEP):  # named step-* or not, it lies among the user's files, not in a run
        shutil.copytree(run / STEP, shelf / name)
        before = _tree(shelf)
        line = _refused(["train", "--resume", str(shelf / name), "--max-steps", "25"], capsys)
        assert f"{shelf / name} is a checkpoint outside its run folder" in line and "--out NEW_FOLDER" in line
        assert _tree(shelf) == before
    # Inside its run, a step-* checkpoint still continues that run.
    assert main(["train", "--resume", str(run / "step-00000010"), "--max-steps", "22", *FAST]) == 0
    assert (run / "LATEST").read_text().strip() == "step-00000022"


# 3. config.json's "meta"


@pytest.mark.parametrize("meta, field", [("x", "'meta' must be an object"), ({"step": "abc"}, "meta.step"),
                                         ({"step": float("nan")}, "meta.step"), ({"epoch": 1.5}, "meta.epoch"),
                                         ({"elapsed_s": "long"}, "meta.elapsed_s")])
def test_meta_of_the_wrong_type_is_one_line_naming_file_and_field(run, tmp_path, capsys, meta, field):
    config = run / STEP / "config.json"
    data = json.loads(config.read_text())
    data["meta"] = meta
    config.write_text(json.dumps(data))  # NaN as the bare NaN that Python's json reads back
    before = _tree(run)
    assert field in _refused(["info", "--model", str(run)], capsys) and str(config) in _refused(
        ["info", "--model", str(run)], capsys)
    for argv in (["train", "--resume", str(run), "--max-steps", "25"],
                 ["train", "--resume", str(run), "--task", "copy", "--out", str(tmp_path / "new"), "--max-steps", "25"],
                 ["train", "--resume", str(run / STEP), "--max-steps", "25"]):
        line = _refused(argv, capsys)
        assert str(config) in line and field in line, line
    assert _tree(run) == before  # the lock file too: refused before the run took it
    assert not (tmp_path / "new").exists() and not (tmp_path / ".lock").exists()


# 4. train_state.pt whose parts have the right types but do not belong to the model


def _bad_optimizer(s):
    s["optimizer"] = {"state": {}, "param_groups": []}


def _bad_rng(s):
    s["torch_rng"] = torch.zeros(3, dtype=torch.uint8)


def _bad_moment(s):
    s["optimizer"]["state"][0]["exp_avg"] = torch.zeros(2, 2)


def _bad_param_count(s):
    s["optimizer"]["param_groups"][0]["params"] = [0, 1]


@pytest.mark.parametrize("damage, why", [
    (_bad_optimizer, "its optimizer has 0 parameter groups, the run's has 1"),
    (_bad_rng, "torch_rng holds 3 bytes, a CPU random state"),
    (_bad_moment, "the optimizer's exp_avg of parameter 0 is (2, 2)"),
    (_bad_param_count, "its optimizer covers 2 parameters"),
])
def test_a_train_state_that_does_not_fit_is_one_line_and_changes_nothing(run, capsys, damage, why):
    path = run / STEP / "train_state.pt"
    state = torch.load(path, weights_only=True)
    damage(state)
    torch.save(state, path)
    before = _tree(run)
    line = _refused(["train", "--resume", str(run), "--max-steps", "25"], capsys)
    assert f"{path} does not fit this model: {why}" in line
    assert _tree(run) == before


def test_torchs_own_refusal_at_restore_is_one_line(run, capsys, monkeypatch):
    """What check_state_fits does not foresee still ends in one line, not in torch's traceback."""
    path = run / STEP / "train_state.pt"
    state = torch.load(path, weights_only=True)
    _bad_optimizer(state)
    torch.save(state, path)
    monkeypatch.setattr(train_state, "check_state_fits", lambda *_: None)
    assert main(["train", "--resume", str(run), "--max-steps", "25"]) == 2
    err = capsys.readouterr().err  # the corpus report came first: restore runs once the data is ready
    line = err.strip().splitlines()[-1]
    assert "Traceback" not in err and line.startswith("error: ")
    assert f"{path} does not fit this model: loaded state dict has a different number of parameter groups" in line
    assert (run / "LATEST").read_text().strip() == STEP


# 5. LATEST that names no checkpoint


@pytest.mark.parametrize("latest, problem", [
    ("step-00000099", "names step-00000099, which is missing"),
    ("", "is empty"),
    ("..", "names '..', which is not a checkpoint folder inside"),
])
def test_a_broken_latest_is_named_with_the_checkpoints_that_exist(run, capsys, latest, problem):
    (run / "LATEST").write_text(latest + "\n")
    for argv in (["info", "--model", str(run)], ["train", "--resume", str(run), "--max-steps", "25"]):
        line = _refused(argv, capsys)
        assert f"{run / 'LATEST'} {problem}" in line and "checkpoints here: step-00000010, step-00000020" in line
    assert (run / "LATEST").read_text() == latest + "\n"


def test_latest_saying_dot_dot_never_opens_the_folder_above(run, tmp_path, capsys):
    """A run folder inside a model folder: ".." once resolved to that model."""
    outer = tmp_path / "outer"
    shutil.copytree(run / STEP, outer)
    shutil.move(str(run), outer / "run")
    (outer / "run" / "LATEST").write_text("..\n")
    assert "names '..'" in _refused(["info", "--model", str(outer / "run")], capsys)


# 6. train_config.json


def _saved(run: Path, **changes) -> str:
    data = json.loads((run / STEP / "train_config.json").read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("content, message", [
    (lambda run: json.dumps({"model": "x"}), "'model' must be an object of the model's sizes, got 'x'"),
    (lambda run: json.dumps({"max_steps": "x"}), "is not a training config of this app: it has no 'model' section"),
    (lambda run: _saved(run, max_steps="x"), "max_steps must be a whole number or null, got 'x'"),
    (lambda run: _saved(run, seed=1.5), "seed must be a whole number, got 1.5"),
    (lambda run: _saved(run, lr_scale=float("nan")), "lr_scale must be a finite number"),
    (lambda run: _saved(run, stages="ab"), "stages must be a list of objects"),
    (lambda run: _saved(run, model={"colour": 1}), "model: unknown model config fields: colour"),
])
def test_train_config_errors_name_the_file_and_the_field(run, capsys, content, message):
    path = run / STEP / "train_config.json"
    path.write_text(content(run))
    before = _tree(run)
    line = _refused(["train", "--resume", str(run), "--max-steps", "25"], capsys)
    assert str(path) in line and message in line, line
    assert _tree(run) == before

"""Bad input to every command ends with one line on stderr and exit code 2, before anything heavy runs.

(``--screenshot`` with a bad model folder: tests/explorer/test_app.py.)

A hostile config.json (d_model 10^9) once allocated for 110 s and 5.5 GB before failing; here each bad
model folder must be refused before a tensor is read, which the tests check by making reading fail.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from model import checkpoint
from model.cli import main
from model.errors import CheckpointError


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "Traceback" not in err[0], err
    return err[0]


@pytest.fixture
def copy_model(tiny_model_dir, tmp_path):
    def make(name: str) -> Path:
        shutil.copytree(tiny_model_dir, tmp_path / name)
        return tmp_path / name
    return make


def _edit_config(folder: Path, **changes) -> None:
    data = json.loads((folder / "config.json").read_text())
    for key, value in changes.items():
        if value is _DROP:
            del data["model"][key]
        else:
            data["model"][key] = value
    (folder / "config.json").write_text(json.dumps(data))


_DROP = object()


@pytest.mark.parametrize("changes, message", [
    ({"d_model": 1e9}, "d_model must be a whole number, got 1000000000.0"),
    ({"d_model": 10**9}, "d_model must be between 1 and 8,192, got 1,000,000,000"),
    ({"n_layers": 10**6}, "n_layers must be between 1 and 64"),
    ({"vocab_size": 2 * 10**6}, "vocab_size must be between 1 and 1,000,000"),
    ({"d_model": 256.0}, "d_model must be a whole number, got 256.0"),
    ({"d_model": "256"}, "d_model must be a whole number, got '256'"),
    ({"n_heads": True}, "n_heads must be a whole number, got True"),
    ({"d_ff": 0}, "d_ff must be between 1"),
    ({"n_heads": 3}, "must be divisible by n_heads (3)"),
    ({"dropout": 1.0}, "dropout must be in [0, 1)"),
    ({"dropout": "0.1"}, "dropout must be a number"),
    ({"share_embeddings": "yes"}, "share_embeddings must be true or false"),
    ({"d_model": _DROP}, "lacks d_model"),
    ({"d_ff": 128}, "config.json implies"),  # shapes from the header disagree with the config
])
def test_bad_config_is_refused_before_any_tensor_is_read(changes, message, copy_model, monkeypatch, capsys):
    folder = copy_model("bad")
    _edit_config(folder, **changes)

    def no_reading(*_a, **_k):
        raise AssertionError("the weights were read although the config was bad")
    monkeypatch.setattr(checkpoint, "load_file", no_reading)
    assert main(["info", "--model", str(folder)]) == 2
    assert message in _one_line_error(capsys)


def test_tensor_names_and_dtypes_come_from_the_header(copy_model):
    from safetensors.torch import load_file, save_file
    folder = copy_model("names")
    tensors = load_file(folder / "model.safetensors")
    name = sorted(tensors)[0]
    save_file({("renamed." + k if k == name else k): v for k, v in tensors.items()}, folder / "model.safetensors")
    with pytest.raises(CheckpointError, match=f"missing \\['{name}'\\], unexpected \\['renamed.{name}'\\]"):
        checkpoint.load_model(folder)
    save_file({k: (v.to(torch.int32) if k == name else v) for k, v in tensors.items()}, folder / "model.safetensors")
    with pytest.raises(CheckpointError, match=f"{name} is I32, expected floating-point"):
        checkpoint.load_model(folder)


def test_a_bad_config_exits_2_in_a_fresh_process(copy_model):
    folder = copy_model("huge")
    _edit_config(folder, d_model=10**9, n_layers=10**6)
    r = subprocess.run([sys.executable, "-m", "model.cli", "translate", "--model", str(folder), "hi"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "between 1 and 64" in r.stderr, r.stderr


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch /tmp/attention-explorer-pwned-resume",))


def test_hostile_train_state_is_refused_before_the_corpus_is_read(tiny_model_dir, tmp_path, monkeypatch, capsys):
    run = tmp_path / "run"
    shutil.copytree(tiny_model_dir, run / "step-00000060")
    (run / "LATEST").write_text("step-00000060")
    with open(run / "step-00000060" / "train_state.pt", "wb") as fh:
        pickle.dump({"optimizer": _Evil()}, fh)
    import model.training.run

    def no_corpus(*_a, **_k):
        raise AssertionError("the corpus was read before the checkpoint was checked")
    monkeypatch.setattr(model.training.run, "load_corpora", no_corpus)
    assert main(["train", "--resume", str(run), "--max-steps", "70"]) == 2
    line = _one_line_error(capsys)
    assert "refused to load" in line and "weights_only" not in line and "False" not in line
    assert not os.path.exists("/tmp/attention-explorer-pwned-resume")
    torch.save({"step": 1}, run / "step-00000060" / "train_state.pt")  # plain, but not ours
    assert main(["train", "--resume", str(run), "--max-steps", "70"]) == 2
    assert "is not a training state of this app (it lacks optimizer" in _one_line_error(capsys)


def test_train_out_refuses_a_folder_that_holds_a_run(tiny_model_dir, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(tiny_model_dir, run / "step-00000060")
    (run / "LATEST").write_text("step-00000060")
    argv = ["train", "--task", "reverse", "--preset", "tiny", "--out", str(run), "--max-steps", "2",
            "--warmup", "1", "--valid-every", "0", "--checkpoint-every", "0"]
    assert main(argv) == 2
    line = _one_line_error(capsys)
    assert f"{run} already holds a training run" in line and f"--resume {run}" in line and "--overwrite" in line
    assert (run / "LATEST").read_text() == "step-00000060"  # untouched
    (run / "LATEST").unlink()  # step-* folders alone are a run as well
    assert main(argv) == 2
    _one_line_error(capsys)
    assert main(argv + ["--overwrite"]) == 0  # for those who mean it
    assert (run / "LATEST").read_text().strip() == "step-00000002"


def test_non_utf8_stdin_gets_the_corpus_error(monkeypatch, capsys):
    class Stdin(io.TextIOWrapper):
        def isatty(self):
            return False
    monkeypatch.setattr(sys, "stdin", Stdin(io.BytesIO(b"I love apples.\nBad \xff byte.\n"), encoding="latin-1"))
    assert main(["translate", "--model", "/nonexistent"]) == 2
    assert "stdin is not UTF-8 text (bad byte at line 2)" in _one_line_error(capsys)


@pytest.mark.parametrize("argv, message", [
    (["translate", "--model", "MISSING", "hi"], "model folder not found"),
    (["translate", "--model", "FILE", "hi"], "not a model folder (it is a file)"),
    (["translate", "--save-attention", "a.npz", "one", "two"], "exactly one sentence"),
    (["evaluate", "--model", "MISSING", "--src", "FILE", "--ref", "FILE"], "not found"),
    (["evaluate", "--src", "MISSING", "--ref", "FILE"], "not found"),
    (["info", "--model", "EMPTY"], "has no config.json"),
    (["average", "MISSING", "FILE", "--out", "OUT"], "model folder not found"),
    (["train", "--task", "reverse"], "--out DIR is required"),
    (["train", "--out", "OUT"], "give a corpus"),
    (["train", "--resume", "MISSING"], "model folder not found"),
    (["data", "ding", "--out", "OUT", "--ding", "MISSING"], "Ding dictionary not found"),
    (["data", "tatoeba", "--out", "OUT", "--tsv", "MISSING"], "not found"),
    (["data", "augment", "--out", "OUT", "--n", "-1", "--no-ding"], "need n >= 0"),
])
def test_every_command_reports_user_errors_in_one_line(argv, message, tmp_path, capsys):
    (tmp_path / "file.txt").write_text("x\n")
    (tmp_path / "empty").mkdir()
    paths = {"MISSING": tmp_path / "missing", "FILE": tmp_path / "file.txt", "EMPTY": tmp_path / "empty",
             "OUT": tmp_path / "out"}
    assert main([str(paths.get(a, a)) for a in argv]) == 2
    assert message in _one_line_error(capsys)


def test_odd_arguments_and_terminals_get_one_line(tmp_path, tiny_model_dir, capsys):
    """From an attack on the command line: each of these ended in a traceback (or a segfault)."""
    model = ["--model", str(tiny_model_dir)]
    # Bytes that are not UTF-8 in an argument (Python keeps them as lone surrogates).
    assert main(["translate", *model, "caf" + b"\xe9".decode("utf-8", "surrogateescape")]) == 2
    assert "not UTF-8 text" in _one_line_error(capsys)
    # --remove-heads that names nothing was a silent no-op.
    for spec in ("", ","):
        assert main(["translate", *model, "--remove-heads", spec, "1 2 3"]) == 2
        assert "names no head" in _one_line_error(capsys)
    # α = 1000 overflowed ((5 + |Y|) / 6)^α; 5,000 OpenMP threads crashed the process.
    for argv, option in ((["evaluate", "--src", "a", "--ref", "b", "--alpha", "1000"], "--alpha"),
                         (["train", "--task", "reverse", "--out", str(tmp_path / "r"), "--threads", "5000"],
                          "--threads")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        err = capsys.readouterr().err.strip()
        assert exc.value.code == 2 and f"argument {option}" in err and "\n" not in err
        assert not (tmp_path / "r").exists()


def test_a_terminal_that_cannot_show_the_translation_gets_one_line(tiny_model_dir, capsys, monkeypatch):
    class Ascii(io.TextIOWrapper):
        def isatty(self):
            return False
    out = Ascii(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr("model.cli.commands.translate_texts",
                        lambda a, loaded, texts: sys.stdout.write("我爱苹果。\n") and 0)
    assert main(["translate", "--model", str(tiny_model_dir), "I love apples."]) == 2
    assert "PYTHONIOENCODING=utf-8" in _one_line_error(capsys)

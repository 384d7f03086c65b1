"""The attack on files, options and faults (issue 27) as a table: every row is an input, the one line it must
get, its exit code, and a check on disk that nothing saved was lost.

Each row builds its input in a fresh folder beside a finished run (``run/``, two checkpoints) and a copy of
the tiny model (``model/``); after the command, both folders must hold exactly the bytes they held before
(except rows that are meant to write, which say what they write).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import torch

from model.cli import main
from tests.conftest import train_tiny

CPU_ONLY = not torch.cuda.is_available()


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    return train_tiny(tmp_path_factory.mktemp("attack") / "run", steps=20, checkpoint_every=10)


def _files(tmp: Path, run: Path, model: Path):
    """Inputs the rows name: two aligned files, one with odd line breaks, a folder, a plain file."""
    (tmp / "a.txt").write_text("1 2 3\n4 5 6\n", encoding="utf-8")
    (tmp / "odd.txt").write_text("1\u2028 2 3\n4\u0085 5 6\n", encoding="utf-8")
    (tmp / "plain").write_text("x")
    return {"run": str(run), "model": str(model), "a": str(tmp / "a.txt"), "odd": str(tmp / "odd.txt"),
            "dir": str(tmp), "file": str(tmp / "plain"), "tmp": str(tmp)}


def _deep_config(model: Path) -> None:
    (model / "config.json").write_text("[" * 200_000 + "]" * 200_000)


def _long_int(model: Path) -> None:
    (model / "config.json").write_text('{"format": "attention-explorer/1", "model": {"vocab_size": '
                                       + "9" * 5001 + "}}")


def _bad_latest(run: Path) -> None:
    (run / "LATEST").write_bytes(b"\xff\xfe\x00step")


def _deep_train_config(run: Path) -> None:
    latest = run / (run / "LATEST").read_text().strip()
    (latest / "train_config.json").write_text("{" + '"a":{' * 100_000 + "}" * 100_001)


# (id, argv with {placeholders}, exit code, fragment of the one line, damage done to a copy first, writes)
ROWS = [
    ("keep-0", ["train", "--task", "reverse", "--out", "{run}", "--overwrite", "--keep", "0"], 2, "--keep", None),
    ("keep-neg", ["train", "--task", "reverse", "--out", "{run}", "--keep", "-1"], 2, "--keep", None),
    ("report-every-0", ["train", "--task", "reverse", "--out", "{tmp}/new", "--report-every", "0"], 2,
     "--report-every", None),
    ("threads-neg", ["train", "--task", "reverse", "--out", "{tmp}/new", "--threads", "-1"], 2, "--threads", None),
    ("seed-neg", ["train", "--task", "reverse", "--out", "{tmp}/new", "--seed", "-1"], 2, "--seed", None),
    ("seed-23-digits", ["train", "--task", "reverse", "--out", "{tmp}/new", "--seed", "1" * 23], 2, "--seed", None),
    ("lr-nan", ["train", "--task", "reverse", "--out", "{tmp}/new", "--lr-scale", "nan"], 2, "--lr-scale", None),
    ("out-is-file", ["train", "--task", "reverse", "--out", "{file}", "--max-steps", "2"], 2, "is a file", None),
    ("run-exists", ["train", "--task", "reverse", "--out", "{run}", "--max-steps", "2"], 2,
     "already holds a training run", None),
    ("beam-0", ["evaluate", "--model", "{model}", "--src", "{a}", "--ref", "{a}", "--beam", "0"], 2, "--beam", None),
    ("beam-neg", ["translate", "--model", "{model}", "--beam", "-1", "1 2"], 2, "--beam", None),
    ("hyp-out-folder", ["evaluate", "--model", "{model}", "--src", "{a}", "--ref", "{a}", "--hyp-out", "{dir}"], 2,
     "is a folder", None),
    ("hyp-out-missing-dir", ["evaluate", "--model", "{model}", "--src", "{a}", "--ref", "{a}", "--hyp-out",
                             "{tmp}/no/such/h.txt"], 2, "does not exist", None),
    ("save-attention-folder", ["translate", "--model", "{model}", "--save-attention", "{dir}", "1 2"], 2,
     "is a folder", None),
    ("odd-breaks-align", ["evaluate", "--model", "{model}", "--src", "{odd}", "--ref", "{a}", "--beam", "1"], 0,
     "", None),
    ("config-deep", ["info", "--model", "{model}"], 2, "nests deeper", _deep_config),
    ("config-long-int", ["info", "--model", "{model}"], 2, "digits", _long_int),
    ("latest-not-utf8", ["info", "--model", "{run}"], 2, "not UTF-8", _bad_latest),
    ("train-config-deep", ["train", "--resume", "{run}", "--max-steps", "30"], 2, "nests deeper",
     _deep_train_config),
]
if CPU_ONLY:
    ROWS += [(f"device-cuda-{cmd}", argv, 2, "CPU-only build", None) for cmd, argv in (
        ("translate", ["translate", "--model", "{model}", "--device", "cuda", "1 2"]),
        ("evaluate", ["evaluate", "--model", "{model}", "--src", "{a}", "--ref", "{a}", "--device", "cuda"]),
        ("info", ["info", "--model", "{model}", "--device", "cuda"]),
        ("heads", ["heads", "stats", "--model", "{model}", "--src", "{a}", "--device", "cuda"]),
        ("align", ["align", "--model", "{model}", "--src", "{a}", "--device", "cuda"]),
        ("train", ["train", "--task", "reverse", "--out", "{tmp}/new", "--device", "cuda"]),
    )]


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_attack_row(row, tmp_path, finished_run, tiny_model_dir, capsys):
    name, argv, code, fragment, damage = row
    run, model = tmp_path / "run", tmp_path / "model"
    shutil.copytree(finished_run, run)
    shutil.copytree(tiny_model_dir, model)
    if damage is not None:
        damage(run if "{run}" in " ".join(argv) else model)
    before = (_tree(run), _tree(model))
    values = _files(tmp_path, run, model)
    args = [a.format(**values) for a in argv]
    try:
        got = main(args)
    except SystemExit as exc:  # argparse refuses option values itself
        got = exc.code
    out, err = capsys.readouterr()
    assert got == code, (name, err)
    if code:
        line = err.strip()
        assert fragment in line and "\n" not in line and "Traceback" not in line, (name, err)
    else:
        assert "2 sentences" in out  # the odd line breaks did not split a pair
    assert (_tree(run), _tree(model)) == before, f"{name}: a saved file changed"
    assert not (tmp_path / "new").exists(), f"{name}: a run folder was left behind"


def test_huge_finite_weights_are_refused_at_load(tmp_path, tiny_model_dir, capsys):
    from safetensors.torch import load_file, save_file
    model = tmp_path / "model"
    shutil.copytree(tiny_model_dir, model)
    tensors = load_file(str(model / "model.safetensors"))
    save_file({k: v * 1e30 if v.is_floating_point() else v for k, v in tensors.items()},
              str(model / "model.safetensors"), metadata={"format": "attention-explorer/1"})
    for argv in (["translate", "--model", str(model), "--beam", "1", "1 2 3"],
                 ["translate", "--model", str(model), "--beam", "4", "1 2 3"]):
        assert main(argv) == 2
        line = capsys.readouterr().err.strip()
        assert "values as large as" in line and "\n" not in line

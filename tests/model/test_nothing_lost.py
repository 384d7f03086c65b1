"""Nothing saved is lost: pruning after --overwrite, --keep bounds, and lines split as wc -l splits them."""

from __future__ import annotations

import json

import pytest

from model.checkpoint import LATEST, load_model, resolve
from model.cli import main
from model.corpus.lines import read_lines, split_lines
from model.errors import CorpusError, UserError
from model.training.data import load_corpora
from tests.conftest import train_tiny


def _steps(run):
    return sorted(p.name for p in run.glob("step-*"))


def test_overwrite_keeps_the_new_runs_checkpoints(tmp_path):
    run = tmp_path / "run"
    train_tiny(run, steps=40, checkpoint_every=10, keep_checkpoints=5)
    assert _steps(run) == [f"step-{s:08d}" for s in (10, 20, 30, 40)]
    # A new, shorter run in the same folder: its step 20 sorts below the old run's 30 and 40.
    train_tiny(run, steps=20, checkpoint_every=10, keep_checkpoints=5, seed=2)
    assert _steps(run) == ["step-00000010", "step-00000020"]  # the old run's folders are gone, the new kept
    assert (run / LATEST).read_text().strip() == "step-00000020"
    assert resolve(run).is_dir() and load_model(run).meta["step"] == 20
    runs = {json.loads((p / "config.json").read_text())["meta"]["run"] for p in run.glob("step-*")}
    assert len(runs) == 1 and "" not in runs


def test_keep_counts_this_runs_checkpoints_and_never_drops_the_newest(tmp_path):
    run = train_tiny(tmp_path / "run", steps=50, checkpoint_every=10, keep_checkpoints=2)
    assert _steps(run) == ["step-00000040", "step-00000050"]
    run1 = train_tiny(tmp_path / "one", steps=30, checkpoint_every=10, keep_checkpoints=1)
    assert _steps(run1) == ["step-00000030"] and resolve(run1).name == "step-00000030"


def test_a_checkpoint_of_unknown_origin_is_left_alone(tmp_path):
    run = tmp_path / "run"
    train_tiny(run, steps=10, checkpoint_every=10)
    stray = run / "step-00009999"
    stray.mkdir()
    (stray / "config.json").write_text("{not json")
    train_tiny(run, steps=20, checkpoint_every=10, keep_checkpoints=1, seed=3)
    assert stray.is_dir() and (run / "step-00000020").is_dir()


@pytest.mark.parametrize("keep", ["0", "-1", "x"])
def test_keep_below_one_is_refused_before_anything_is_touched(tmp_path, capsys, keep):
    run = train_tiny(tmp_path / "run", steps=10, checkpoint_every=10)
    before = _steps(run)
    with pytest.raises(SystemExit) as exc:
        main(["train", "--task", "reverse", "--preset", "tiny", "--out", str(run), "--overwrite",
              "--keep", keep, "--max-steps", "5"])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and "argument --keep" in err and "\n" not in err
    assert _steps(run) == before


def test_keep_zero_in_a_config_is_refused():
    from model.config import TrainConfig
    with pytest.raises(UserError, match="at least 1"):
        TrainConfig(out_dir="x", keep_checkpoints=0)


# Python's str.splitlines breaks at each of these; wc -l and the other side's file do not.
ODD_BREAKS = ["\u0085", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


def test_split_lines_breaks_at_newline_only():
    text = "".join(f"a{c}b\n" for c in ODD_BREAKS) + "last\r\n"
    assert split_lines(text) == [f"a{c}b" for c in ODD_BREAKS] + ["last"]
    assert split_lines("") == [] and split_lines("\n") == [""] and split_lines("x") == ["x"]


def test_corpus_pairs_stay_aligned_across_odd_line_breaks(tmp_path):
    src, tgt = tmp_path / "a.en", tmp_path / "a.de"
    src.write_text("One\u2028more.\nTwo.\nThree.\n", encoding="utf-8")
    tgt.write_text("Eins.\nZwei\u0085!\nDrei.\n", encoding="utf-8")
    assert len(read_lines(src)) == len(read_lines(tgt)) == 3
    from model.config import TrainConfig
    train, _, _ = load_corpora(TrainConfig(out_dir=str(tmp_path / "r"), src=str(src), tgt=str(tgt),
                                           valid_src=str(src), valid_tgt=str(tgt)))
    assert [t for _, t in train][-1] == "Drei." and len(train) == 3


def test_evaluate_scores_as_many_pairs_as_wc_counts(tmp_path, tiny_model_dir, capsys):
    src, ref = tmp_path / "s.txt", tmp_path / "r.txt"
    src.write_text("1 2 3\n4\u2028 5 6\n7 8 9\n", encoding="utf-8")
    ref.write_text("3 2 1\n6 5 4\n9 8 7\n", encoding="utf-8")
    assert main(["evaluate", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(ref),
                 "--beam", "1"]) == 0
    assert "3 sentences" in capsys.readouterr().out


def test_read_lines_refuses_in_one_line(tmp_path):
    (tmp_path / "bin").write_bytes(b"a\x00b\n")
    (tmp_path / "latin1").write_bytes(b"ok\ncaf\xe9\n")
    for name, message in (("bin", "binary"), ("latin1", "line 2"), ("missing", "not found"), (".", "folder")):
        with pytest.raises(CorpusError, match=message):
            read_lines(tmp_path / name)


@pytest.mark.parametrize("command", ["evaluate", "translate"])
def test_output_paths_are_checked_before_the_work(tmp_path, tiny_model_dir, capsys, monkeypatch, command):
    src = tmp_path / "s.txt"
    src.write_text("1 2 3\n", encoding="utf-8")
    blocker = tmp_path / "file"
    blocker.write_text("x")

    def never(*_a, **_k):
        raise AssertionError("the model was loaded before the output path was checked")
    monkeypatch.setattr("model.cli.commands.load_model_arg", never)
    for bad, message in ((tmp_path, "is a folder"), (blocker / "out.txt", "does not exist"),
                         (tmp_path / "no" / "out.txt", "does not exist")):
        if command == "evaluate":
            argv = ["evaluate", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(src),
                    "--hyp-out", str(bad)]
        else:
            argv = ["translate", "--model", str(tiny_model_dir), "--save-attention", str(bad), "1 2 3"]
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert message in err and "\n" not in err


@pytest.mark.parametrize("argv, option", [
    (["train", "--task", "reverse", "--report-every", "0"], "--report-every"),
    (["train", "--task", "reverse", "--threads", "-1"], "--threads"),
    (["train", "--task", "reverse", "--seed", "-1"], "--seed"),
    (["train", "--task", "reverse", "--seed", "12345678901234567890123"], "--seed"),
    (["train", "--task", "reverse", "--dropout", "1.5"], "--dropout"),
    (["train", "--task", "reverse", "--lr-scale", "nan"], "--lr-scale"),
    (["evaluate", "--src", "a", "--ref", "b", "--beam", "0"], "--beam"),
    (["evaluate", "--src", "a", "--ref", "b", "--beam", "-1"], "--beam"),
    (["translate", "--beam", "0", "x"], "--beam"),
])
def test_option_values_out_of_range_are_one_line(tmp_path, capsys, argv, option):
    if argv[0] == "train":
        argv = [*argv, "--out", str(tmp_path / "run")]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err.strip() and "\n" not in err.strip()
    assert not (tmp_path / "run").exists()


def test_resume_keeps_the_runs_own_intervals(tmp_path, capsys):
    run = tmp_path / "run"
    base = ["--vocab-size", "60", "--warmup", "10", "--batch-tokens", "512", "--valid-every", "0"]
    assert main(["train", "--task", "reverse", "--preset", "tiny", "--out", str(run), "--max-steps", "20",
                 "--checkpoint-every", "5", "--keep", "2", *base]) == 0
    assert _steps(run) == ["step-00000015", "step-00000020"]
    # No --checkpoint-every / --keep now: the run's own 5 and 2, not the defaults 500 and 5.
    assert main(["train", "--resume", str(run), "--max-steps", "30"]) == 0
    assert _steps(run) == ["step-00000025", "step-00000030"]


def test_a_killed_writers_temporaries_are_cleaned_at_the_next_start(tmp_path):
    from model.files import remove_stale_temps
    run = tmp_path / "run"
    run.mkdir()
    dead = 2**22 + 12345  # above the default pid_max of 4,194,304: no such process
    (run / f".tmp-step-00000030-{dead}").mkdir()
    (run / f".LATEST.{dead}.abcd1234.tmp").write_text("x")
    live = run / f".tmp-step-00000040-{__import__('os').getpid()}"
    live.mkdir()
    assert len(remove_stale_temps(run)) == 2
    assert [p.name for p in run.iterdir()] == [live.name]

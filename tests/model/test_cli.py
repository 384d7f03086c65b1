"""The command line end to end: train on a small corpus, translate --json, evaluate, info, errors."""

import json
import subprocess
import sys

import numpy as np
import pytest

from model.cli import main


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    words = ["the cat", "a dog", "the house", "my friend", "the weather", "a tree"]
    german = ["die Katze", "ein Hund", "das Haus", "mein Freund", "das Wetter", "ein Baum"]
    places = [("here", "hier"), ("there", "dort"), ("big", "gross"), ("small", "klein"), ("old", "alt")]
    rows = [f"{e} is {p} .\t{g} ist {q} ." for e, g in zip(words, german) for p, q in places] * 4
    rows.insert(3, "broken line without a tab")
    (d / "corpus.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    code = main(["train", "--tsv", str(d / "corpus.tsv"), "--out", str(d / "run"), "--preset", "tiny",
                 "--vocab-size", "60", "--max-steps", "30", "--warmup", "10", "--batch-tokens", "512",
                 "--valid-every", "15", "--checkpoint-every", "15"])
    assert code == 0
    return d


def test_train_writes_checkpoints(trained_run, capsys):
    run = trained_run / "run"
    assert (run / "LATEST").read_text().strip() == "step-00000030"
    assert {p.name for p in (run / "step-00000030").iterdir()} >= {"config.json", "model.safetensors",
                                                                    "spm.model", "train_state.pt"}
    def refuse(word):  # strict JSON (issue 31): no bare NaN / Infinity
        raise ValueError(f"log.jsonl is not strict JSON: {word}")
    rows = [json.loads(x, parse_constant=refuse) for x in (run / "log.jsonl").read_text().splitlines()]
    assert any(r["loss"] is None for r in rows)  # the first records' loss, before a window closes
    assert [r["event"] for r in rows if r["event"] == "valid"] == ["valid", "valid"]


def test_translate_json_and_npz(trained_run, capsys):
    npz = trained_run / "att.npz"
    code = main(["translate", "--model", str(trained_run / "run"), "--json", "--beam", "2",
                 "--save-attention", str(npz), "the cat is here ."])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    s, t = len(out["source_tokens"]), len(out["target_tokens"])
    assert out["shapes"] == {"encoder_self": [2, 4, s, s], "decoder_self": [2, 4, t, t], "cross": [2, 4, t, s]}
    assert out["source_tokens"][-1] == "</s>" and out["target_tokens"][0] == "<s>"
    with np.load(npz) as z:
        assert z["encoder_self"].shape == (2, 4, s, s) and z["cross"].shape == (2, 4, t, s)
        assert list(z["source_tokens"]) == out["source_tokens"]


def test_info_and_evaluate(trained_run, capsys, tmp_path):
    assert main(["info", "--model", str(trained_run / "run")]) == 0
    text = capsys.readouterr().out
    vocab = json.loads((trained_run / "run" / "step-00000030" / "config.json").read_text())["model"]["vocab_size"]
    assert "d_model: 64" in text and "n_heads: 4" in text and f"vocabulary: {vocab}" in text
    assert 20 < vocab <= 60
    (tmp_path / "s.en").write_text("the cat is here .\na dog is here .\n")
    (tmp_path / "r.de").write_text("die Katze ist hier .\nein Hund ist hier .\n")
    assert main(["evaluate", "--model", str(trained_run / "run"), "--src", str(tmp_path / "s.en"),
                 "--ref", str(tmp_path / "r.de"), "--json", "--beam", "1"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["sentences"] == 2 and 0 <= res["bleu"] <= 100 and 0 <= res["chrf"] <= 100


USER_ERRORS = [
    (["translate", "--model", "/nonexistent/model", "hello"], "model folder not found"),
    (["train", "--src", "/nonexistent.en", "--tgt", "/nonexistent.de", "--out", "OUT", "--preset", "tiny"],
     "corpus file not found"),
    (["train", "--task", "reverse", "--out", "OUT", "--preset", "tiny", "--device", "cuda:7"], "no CUDA GPU"),
    (["train", "--task", "reverse", "--out", "OUT", "--preset", "tiny", "--heads", "5"], "divisible"),
]


@pytest.mark.parametrize("argv,message", USER_ERRORS)
def test_user_errors_are_one_line(argv, message, tmp_path, capfd):
    argv = [a.replace("OUT", str(tmp_path / "o")) for a in argv]
    assert main(argv) == 2
    err = capfd.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err
    assert not (tmp_path / "o").exists()  # a refused run makes no folder


def test_a_user_error_is_one_line_from_a_fresh_process_too(tmp_path):
    """What the import of the commands may print (warnings, logging) reaches stderr only in a process of
    its own; one case is enough for that (the others run in-process above: ~1.5 s each saved)."""
    argv, message = USER_ERRORS[0]
    r = subprocess.run([sys.executable, "-m", "model.cli", *argv], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_empty_sentence_error(trained_run, capsys):
    assert main(["translate", "--model", str(trained_run / "run"), "   "]) == 2
    assert "empty" in capsys.readouterr().err


def _background_train(out, *extra):
    """`train --task reverse` in a child process that would run for an hour unless stopped."""
    argv = [sys.executable, "-m", "model.cli", "train", "--preset", "tiny", "--max-steps", "1000000",
            "--report-every", "5", "--checkpoint-every", "0", "--valid-every", "0", "--threads", "1", *extra]
    argv += ["--resume", str(out)] if (out / "LATEST").exists() else ["--task", "reverse", "--out", str(out)]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:  # wait until it trains
        if " loss " in line:  # a step report: the model is training
            return proc
    pytest.fail(f"training never reported a step (exit {proc.wait()})")


def _finish(proc) -> tuple[str, int]:
    """(the rest of its stderr, its exit code)."""
    rest = proc.stderr.read()
    return rest, proc.wait(timeout=120)


@pytest.mark.slow  # two background trainings in child processes (~12 s): .ci/run runs it
def test_stop_file_and_ctrl_c_end_a_background_run_with_a_checkpoint(tmp_path):
    import signal
    out = tmp_path / "run"
    (out).mkdir()
    # Stale, from an earlier run that ended before its first checkpoint (its log is there): it must not
    # stop the new one at once. (A STOP among other files and no run is the user's: that folder is refused.)
    (out / "log.jsonl").write_text("")
    (out / "STOP").touch()
    proc = _background_train(out)
    assert not (out / "STOP").exists()
    (out / "STOP").touch()
    rest, code = _finish(proc)
    assert code == 0, rest
    first = (out / "LATEST").read_text().strip()
    assert int(first.split("-")[1]) >= 5 and not (out / "STOP").exists()

    proc = _background_train(out)  # resumes; Ctrl-C now stops it the same way, with a checkpoint
    proc.send_signal(signal.SIGINT)
    rest, code = _finish(proc)
    assert code == 0 and "saving a checkpoint" in rest, rest
    second = (out / "LATEST").read_text().strip()
    assert second > first

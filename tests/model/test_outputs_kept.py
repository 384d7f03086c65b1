"""An output never replaces what the user has: a run or model folder named as --out, the command's own input
file, a corpus already built; and legal names too long for a temporary still write. (An attack on the
command line, 2026-12-06: each of these exited 0 and lost the user's files.)"""

from __future__ import annotations

import pytest

from model.cli import main
from model.files import temp_name, write_atomic, write_folder_atomic
from tests.conftest import train_tiny


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    return err


def _tree(folder):
    return sorted((str(p.relative_to(folder)), p.read_bytes() if p.is_file() else b"")
                  for p in folder.rglob("*"))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return train_tiny(tmp_path_factory.mktemp("outputs") / "run", steps=20, checkpoint_every=10)


def test_average_never_replaces_a_folder_that_holds_files(run, tmp_path, capsys):
    steps = sorted(str(p) for p in run.glob("step-*"))
    before = _tree(run)
    assert main(["average", *steps, "--out", str(run)]) == 2  # the run being averaged
    assert "already holds files" in _one_line(capsys) and _tree(run) == before
    note = tmp_path / "notes.txt"
    note.write_text("keep")
    assert main(["average", *steps, "--out", str(note)]) == 2
    assert "is a file" in _one_line(capsys) and note.read_text() == "keep"
    assert not list(tmp_path.glob(".old-*"))
    assert main(["average", steps[0], steps[0], "--out", str(tmp_path / "avg")]) == 2  # one checkpoint, twice
    assert "at least two different checkpoints" in _one_line(capsys)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["average", *steps, "--out", str(empty)]) == 0  # an empty folder is a new one
    assert (empty / "model.safetensors").is_file()


def test_import_marian_never_replaces_a_folder_that_holds_files(run, tmp_path, capsys, monkeypatch):
    def never(*_a, **_k):
        raise AssertionError("the import ran before --out was checked")
    monkeypatch.setattr("model.marian.load.import_marian", never)
    before = _tree(run)
    assert main(["import-marian", str(tmp_path), "--out", str(run)]) == 2
    assert "already holds files" in _one_line(capsys) and _tree(run) == before


@pytest.mark.parametrize("command", ["translate", "evaluate-ref", "evaluate-src", "align"])
def test_an_output_that_is_the_commands_own_input_is_refused_before_the_work(
        command, tmp_path, tiny_model_dir, capsys, monkeypatch):
    text = tmp_path / "in.txt"
    text.write_text("1 2 3\n4 5 6\n", encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("3 2 1\n6 5 4\n", encoding="utf-8")

    def never(*_a, **_k):
        raise AssertionError("the model was loaded before the output path was checked")
    monkeypatch.setattr("model.cli.commands.load_model_arg", never)
    monkeypatch.setattr("model.cli.align.load_model_arg", never)
    model = ["--model", str(tiny_model_dir)]
    argv = {"translate": ["translate", *model, "--file", str(text), "--out", str(text)],
            "evaluate-ref": ["evaluate", *model, "--src", str(other), "--ref", str(text), "--hyp-out", str(text)],
            "evaluate-src": ["evaluate", *model, "--src", str(text), "--ref", str(other), "--hyp-out", str(text)],
            "align": ["align", *model, "--src", str(text), "--out", str(text)]}[command]
    assert main(argv) == 2
    assert "is the --" in _one_line(capsys)
    assert text.read_text(encoding="utf-8") == "1 2 3\n4 5 6\n"


@pytest.mark.parametrize("option", ["align", "heads"])
def test_align_and_head_statistics_check_their_output_before_the_work(option, tmp_path, tiny_model_dir, capsys,
                                                                     monkeypatch):
    src = tmp_path / "s.txt"
    src.write_text("1 2 3\n", encoding="utf-8")

    def never(*_a, **_k):
        raise AssertionError("the model was loaded before the output path was checked")
    monkeypatch.setattr(f"model.cli.{option}.load_model_arg", never)
    for bad, message in ((tmp_path, "is a folder"), (tmp_path / "no" / "x.csv", "does not exist")):
        argv = (["align", "--model", str(tiny_model_dir), "--src", str(src), "--out", str(bad)] if option == "align"
                else ["heads", "stats", "--model", str(tiny_model_dir), "--src", str(src), "--csv", str(bad)])
        assert main(argv) == 2
        assert message in _one_line(capsys)


def test_a_corpus_folder_is_not_overwritten_without_overwrite(tmp_path, capsys):
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("".join(f"I see {n} cats.\tIch sehe {n} Katzen.\n" for n in range(40)), encoding="utf-8")
    out = tmp_path / "corpus"
    out.mkdir()
    (out / "train.en").write_text("my own corpus\n")
    argv = ["data", "tatoeba", "--tsv", str(tsv), "--out", str(out), "--valid", "5", "--test", "5"]
    assert main(argv) == 2
    assert "--overwrite" in _one_line(capsys) and (out / "train.en").read_text() == "my own corpus\n"
    assert main(argv + ["--overwrite"]) == 0  # for those who mean it
    assert (out / "train.en").read_text() != "my own corpus\n"


def test_a_legal_long_name_writes_though_its_temporary_would_be_too_long(tmp_path):
    name = "y" * 245 + ".txt"  # 249 bytes: legal; ".NAME.PID.HEX.tmp" was not
    write_atomic(tmp_path / name, "text")
    assert (tmp_path / name).read_text() == "text" and len(list(tmp_path.iterdir())) == 1
    folder = write_folder_atomic(tmp_path / ("z" * 250), lambda tmp: (tmp / "a").write_text("1"))
    assert (folder / "a").read_text() == "1" and len(list(tmp_path.iterdir())) == 2
    # Two long names with one head still get temporaries of their own.
    assert temp_name("é" * 200 + "a") != temp_name("é" * 200 + "b")
    assert len(temp_name("é" * 200).encode()) < 100 and temp_name("short.txt") == "short.txt"


def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path, capsys):
    assert main(["translate", "--out", str(tmp_path / ("x" * 256)), "1 2 3"]) == 2
    assert "file name is too long (256 bytes; at most 255)" in _one_line(capsys)
    assert main(["average", "a", "b", "--out", str(tmp_path / ("x" * 256))]) == 2
    assert "too long" in _one_line(capsys)


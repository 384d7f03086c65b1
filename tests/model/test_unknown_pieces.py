"""Input the vocabulary cannot read is said plainly, on the command line and in the record the window shows."""

from __future__ import annotations

import json

import pytest

from model.checkpoint import REPO_ROOT
from model.cli import main
from model.records import Translation

ASSET = REPO_ROOT / "assets" / "models" / "en-de"
needs_model = pytest.mark.skipif(not (ASSET / "config.json").is_file(), reason="no built-in model shipped")


def test_note_counts_and_grammar():
    pieces = ("▁I", "▁love", "▁", "<unk>", "▁apples", ".")
    assert Translation("x", "y", pieces, ()).unknown_note() == ""
    one = Translation("x", "y", pieces, (), unknown_pieces=1).unknown_note()
    assert one.startswith("1 of 6 pieces is unknown to this model")
    assert Translation("x", "y", pieces, (), unknown_pieces=3).unknown_note().startswith("3 of 6 pieces are unknown")


@needs_model
def test_cli_warns_for_emoji_and_not_for_english(capsys):
    assert main(["translate", "--model", str(ASSET), "--beam", "1", "--json", "I love apples 🍎 and 你好."]) == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    unk = record["source_tokens"].count("<unk>")
    assert unk >= 2 and record["unknown_pieces"] == unk  # the emoji and the Chinese are two runs of <unk>
    n = len(record["source_tokens"]) - 1  # without </s>
    assert f"warning: {unk} of {n} pieces are unknown to this model" in err
    assert main(["translate", "--model", str(ASSET), "--beam", "1", "I love apples."]) == 0
    out, err = capsys.readouterr()
    assert out.strip() and "unknown" not in err

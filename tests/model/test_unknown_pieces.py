"""Input the vocabulary cannot read is said plainly, on the command line and in the record the window shows."""

from __future__ import annotations

import json

import pytest

from model.checkpoint import REPO_ROOT
from model.cli import main
from model.records import Translation

ASSET = REPO_ROOT / "assets" / "models" / "en-de"
needs_model = pytest.mark.skipif(not (ASSET / "config.json").is_file(), reason="no built-in model shipped")


def test_note_counts_characters_and_grammar():
    pieces = ("▁I", "▁love", "▁", "<unk>", "▁apples", ".")
    assert Translation("I love 🍎 apples.", "y", pieces, ()).unknown_note() == ""
    one = Translation("I love 🍎 apples.", "y", pieces, (), unknown_pieces=1).unknown_note()
    assert one.startswith("1 of 13 characters is unknown to this model")  # the spaces not counted
    # One <unk> piece can stand for a whole run: Chinese into the English model is nearly all unknown.
    chinese = Translation("我今天很忙，明天再说。", "y", ("▁", "<unk>", "，", "<unk>"), (), unknown_pieces=2)
    assert chinese.unknown_characters() == (10, 11)
    assert chinese.unknown_note().startswith("10 of 11 characters are unknown to this model")
    # never fewer than one character per <unk> piece, even where normalisation made the known ones longer
    assert Translation("ﬁ x", "y", ("▁fi", "▁", "<unk>"), (), unknown_pieces=1).unknown_characters() == (1, 2)


@needs_model
def test_cli_warns_for_emoji_and_not_for_english(capsys):
    assert main(["translate", "--model", str(ASSET), "--beam", "1", "--json", "I love apples 🍎 and 你好."]) == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    unk = record["source_tokens"].count("<unk>")
    assert unk >= 2 and record["unknown_pieces"] == unk  # the emoji and the Chinese are two runs of <unk>
    assert "warning: 3 of 18 characters are unknown to this model" in err  # 🍎 and 你好, of the 18 not spaces
    assert main(["translate", "--model", str(ASSET), "--beam", "1", "I love apples."]) == 0
    out, err = capsys.readouterr()
    assert out.strip() and "unknown" not in err

"""Per-head statistics equal values worked out by hand on hand-made maps; the CLI writes them."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

from model.analysis.head_stats import average, is_punctuation, map_statistics, sentence_statistics
from model.cli.commands import main
from model.records import AttentionMaps
from model.records.research import STATS

W = np.array([[1.0, 0.0, 0.0],
              [0.5, 0.5, 0.0],
              [0.25, 0.25, 0.5]])
COLS = ("▁a", ".", "</s>")
# Worked out by hand, row by row (rows 0, 1, 2):
BY_HAND = {
    "entropy": (0 + 1 + 1.5) / 3,  # −Σ w log2 w: 0 bits, 1 bit, 0.25·2·2 + 0.5·1 = 1.5 bits
    "confidence": (1 + 0.5 + 0.5) / 3,
    "distance": (0 + 0.5 + (0.25 * 2 + 0.25 * 1)) / 3,
    "previous": (0.5 + 0.25) / 2,  # rows 1 and 2 have a previous key
    "same": (1 + 0.5 + 0.5) / 3,
    "next": 0.0,  # rows 0 and 1: w[0, 1] = w[1, 2] = 0
    "eos": 0.5 / 3,
    "punctuation": (0 + 0.5 + 0.25) / 3,  # the '.' column
}


def test_map_statistics_by_hand():
    got = dict(zip(STATS, map_statistics(W, COLS)))
    assert got == pytest.approx(BY_HAND, abs=1e-12)


def test_cross_attention_shape_and_punctuation_pieces():
    w = np.array([[0.0, 0.2, 0.8], [0.6, 0.4, 0.0]])  # 2 target rows, 3 source keys
    got = dict(zip(STATS, map_statistics(w, ("▁,", "▁Hi", "?!"))))
    assert got["distance"] == pytest.approx((0.2 * 1 + 0.8 * 2 + 0.6 * 1) / 2)
    assert got["next"] == pytest.approx((0.2 + 0.0) / 2) and got["same"] == pytest.approx((0.0 + 0.4) / 2)
    assert got["previous"] == pytest.approx(0.6)  # only row 1 has a previous key
    assert got["punctuation"] == pytest.approx((0.8 + 0.6) / 2) and got["eos"] == 0.0
    assert [is_punctuation(p) for p in ("▁,", "?!", "▁a", "▁", "a.", "«")] == [True, True, False, False, False, True]


def _maps(enc_head0, dec, cross, src=COLS, tgt=("<s>", "▁x", "."), removed=()):
    enc = np.stack([enc_head0, np.eye(len(src))])[None]  # (1 layer, 2 heads, S, S)
    return AttentionMaps(enc.astype(np.float32), np.stack([dec, dec])[None].astype(np.float32),
                         np.stack([cross, cross])[None].astype(np.float32), src, tgt, removed=removed)


def test_average_over_sentences_and_removed_heads():
    dec3 = np.array([[1, 0, 0], [0.5, 0.5, 0], [0, 0, 1.0]])
    cross3 = W
    first = sentence_statistics(_maps(W, dec3, cross3))
    assert dict(zip(STATS, first["encoder"][0, 0])) == pytest.approx(BY_HAND, abs=1e-6)
    assert first["encoder"][0, 1, STATS.index("same")] == pytest.approx(1.0)  # the identity head
    # Second sentence: one target piece, so the decoder has no previous key anywhere (NaN, left out).
    second = sentence_statistics(_maps(np.eye(3), np.ones((1, 1)), np.array([[0, 0, 1.0]]), tgt=("<s>",),
                                       removed=(("cross", 0, 1),)))
    assert math.isnan(second["decoder"][0, 0, STATS.index("previous")])
    assert np.isnan(second["cross"][0, 1]).all()
    table = average([first, second])
    ent = STATS.index("entropy")
    assert table.sentences == 2
    assert table.values["encoder"][0, 0, ent] == pytest.approx((BY_HAND["entropy"] + 0) / 2, abs=1e-6)
    prev = STATS.index("previous")
    assert table.values["decoder"][0, 0, prev] == pytest.approx((0.5 + 0.0) / 2, abs=1e-6)  # first sentence only
    assert table.values["cross"][0, 1, ent] == pytest.approx(BY_HAND["entropy"], abs=1e-6)  # removed once
    assert table.values["cross"][0, 0, STATS.index("eos")] == pytest.approx((0.5 / 3 + 1.0) / 2, abs=1e-6)
    rows = table.rows()
    assert len(rows) == 3 * 1 * 2 and rows[0]["kind"] == "encoder" and rows[0]["layer"] == rows[0]["head"] == 1
    parsed = list(csv.DictReader(io.StringIO(table.csv())))
    assert len(parsed) == 6 and float(parsed[0]["entropy"]) == pytest.approx(rows[0]["entropy"], rel=1e-5)


def test_cli_heads_stats(tiny_model_dir, tmp_path, capsys):
    src = tmp_path / "src.txt"
    src.write_text("3 1 4 1 5\n9 2 6\n\n2 7 1 8\n", encoding="utf-8")
    out = tmp_path / "stats.csv"
    assert main(["heads", "stats", "--model", str(tiny_model_dir), "--src", str(src), "--limit", "2",
                 "--csv", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sentences"] == 2 and data["stats"] == list(STATS)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == len(data["heads"]) == 3 * 2 * 4  # kinds × layers × heads of the tiny preset
    for row, js in zip(rows, data["heads"]):
        assert float(row["confidence"]) == pytest.approx(js["confidence"], rel=1e-5)
        assert 0 < js["confidence"] <= 1 and js["entropy"] >= 0
        if js["kind"] == "decoder":
            assert js["next"] == 0.0  # the causal mask hides the next token
    assert main(["heads", "stats", "--model", str(tiny_model_dir), "--src", str(tmp_path / "none.txt")]) == 2
    assert "cannot read the source file" in capsys.readouterr().err

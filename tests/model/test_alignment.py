"""Alignment from cross-attention: pieces merged to words, argmax links, and AER/precision/recall on a
hand-checked example with sure and possible links; the CLI writes Pharaoh links and scores them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from model.analysis.alignment import align, parse_gold_line, pharaoh, score, word_ids
from model.cli.commands import main
from model.errors import UserError

SRC = ("▁the", "▁ca", "t", "▁sle", "eps", "</s>")
TGT = ("▁die", "▁Kat", "ze", "▁schläft", "</s>")
CROSS = np.array([[0.7, 0.1, 0.1, 0.0, 0.0, 0.1],   # die → the
                  [0.1, 0.3, 0.3, 0.1, 0.1, 0.1],   # Kat → cat (0.6)
                  [0.0, 0.2, 0.1, 0.5, 0.1, 0.1],   # ze alone → sleeps (0.6), but Katze as a word → cat
                  [0.1, 0.0, 0.0, 0.4, 0.4, 0.1],   # schläft → sleeps
                  [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]])  # </s> belongs to no word


def test_pieces_merge_to_words():
    assert word_ids(SRC) == [0, 1, 1, 2, 2, -1]
    assert word_ids(("<s>", "ab", "▁c", "d")) == [-1, 0, 1, 1]  # a first piece without '▁' still starts a word


def test_alignment_by_hand():
    links = align(CROSS, SRC, TGT)
    # Katze: mean of its rows gives cat (0.6 + 0.3) / 2 = 0.45 against sleeps (0.2 + 0.6) / 2 = 0.4.
    assert links == {(0, 0), (1, 1), (2, 2)}
    assert pharaoh(links) == "0-0 1-1 2-2"
    assert align(CROSS[2:3], SRC, ("▁ze",)) == {(2, 0)}  # the piece alone would have gone to sleeps


def test_aer_precision_recall_by_hand():
    for line in ("0-0 1-1 2?1 2-2", "0-0 1-1 2-1 P 2-2 S"):
        sure, possible = parse_gold_line(line)
        assert sure == {(0, 0), (1, 1), (2, 2)} and possible == sure | {(2, 1)}
    gold = [parse_gold_line("0-0 1-1 2?1 2-2")]
    s = score([{(0, 0), (1, 1), (2, 1)}], gold)
    # |A| = 3, |S| = 3, |A∩S| = 2, |A∩P| = 3: precision 3/3, recall 2/3, AER 1 − 5/6.
    assert (s.precision, s.recall, s.aer) == pytest.approx((1.0, 2 / 3, 1 / 6))
    s = score([{(0, 0), (1, 1), (2, 2)}, {(0, 1)}], gold + [parse_gold_line("0-0")])
    # A = 4 links, S = 4, A∩S = 3, A∩P = 3 → precision 3/4, recall 3/4, AER 1 − 6/8.
    assert (s.precision, s.recall, s.aer) == pytest.approx((0.75, 0.75, 0.25))
    with pytest.raises(UserError, match="cannot read alignment link 'x-1'"):
        parse_gold_line("0-0 x-1")


def test_cli_align(tiny_model_dir, tmp_path, capsys):
    src, ref, gold, out = (tmp_path / n for n in ("s.txt", "r.txt", "g.txt", "a.txt"))
    src.write_text("3 1 4\n9 2 6 5\n", encoding="utf-8")
    ref.write_text("4 1 3\n5 6 2 9\n", encoding="utf-8")
    gold.write_text("0-2 1-1 2-0\n0-3 1-2 2-1 3-0\n", encoding="utf-8")  # the reverse task's anti-diagonal
    assert main(["align", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(ref),
                 "--gold", str(gold), "--out", str(out), "--json", "--layer", "2", "--head", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["all"]) == 2 * (4 + 1) and data["chosen"]["layer"] == 2 and data["chosen"]["head"] == 1
    assert data["best"]["aer"] == min(r["aer"] for r in data["all"])
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and len(lines[0].split()) == 3 and len(lines[1].split()) == 4  # one link per target word
    links = [{tuple(map(int, x.split("-"))) for x in line.split()} for line in lines]
    expect = score(links, [parse_gold_line(g) for g in gold.read_text().splitlines()])
    assert data["chosen"]["aer"] == pytest.approx(expect.aer)
    assert main(["align", "--model", str(tiny_model_dir), "--src", str(src), "--layer", "9"]) == 2
    assert "layers 1–2" in capsys.readouterr().err


def test_shifted_alignment_reads_the_next_step():
    # Row t+1 is the step that reads piece t as input (Chen et al. 2020).
    links = align(CROSS, SRC, TGT, shift=True)
    # die → row 1 (Kat: cat 0.6); Katze → rows 2, 3 → sleeps ((0.6 + 0.8) / 2); schläft → row 4 (</s>: no
    # word, the sum over source words is 0 everywhere, so argmax is the first word).
    assert links == {(1, 0), (2, 1), (0, 2)}
    cut = align(CROSS[:2], SRC, TGT, shift=True)  # no row after Katze's pieces or schläft: no links for them
    assert cut == {(1, 0)}


def test_cli_align_shift(tiny_model_dir, tmp_path, capsys):
    from model.checkpoint import load_model
    from model.cli.align import cross_maps
    src, out = tmp_path / "s.txt", tmp_path / "a.txt"
    src.write_text("3 1 4\n9 2 6 5\n", encoding="utf-8")
    assert main(["align", "--model", str(tiny_model_dir), "--src", str(src), "--layer", "2", "--shift",
                 "--out", str(out)]) == 0
    maps = cross_maps(load_model(tiny_model_dir), ["3 1 4", "9 2 6 5"], None)
    expect = [pharaoh(align(c[1].mean(0), s, t, shift=True)) for c, s, t in maps]
    assert out.read_text(encoding="utf-8").splitlines() == expect


def test_chinese_pieces_are_words_of_their_own():
    from model.analysis.alignment import word_ids
    # "我爱苹果。" as the English→Chinese model writes it: no piece after the first carries ▁
    assert word_ids(["<s>", "▁我", "爱", "苹果", "。", "</s>"]) == [-1, 0, 1, 2, 2, -1]
    assert word_ids(["▁I", "▁love", "▁apple", "s", "."]) == [0, 1, 2, 2, 2]  # Latin words as before

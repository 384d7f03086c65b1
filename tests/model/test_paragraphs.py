"""Paragraphs: split by hand-written expectations, every sentence translated and accounted for, loops cut."""

from __future__ import annotations

import pytest

from model.cli import main
from model.decoding.loops import LENGTH_LIMIT, REPEATED, find_loop, guard, max_output_length
from model.paragraphs.split import layout, split_sentences
from tests.model.split_cases import CHINESE, ENGLISH


@pytest.mark.parametrize("text, expected", ENGLISH)
def test_english_splits(text, expected):
    assert split_sentences(text, "en") == expected


@pytest.mark.parametrize("text, expected", CHINESE)
def test_chinese_splits(text, expected):
    assert split_sentences(text, "zh") == expected


def test_layout_keeps_lines_and_paragraphs():
    text = "One. Two.\n\nThree.\nFour! Five?\n"
    shape = layout(text)
    assert shape.sentences == ["One.", "Two.", "Three.", "Four!", "Five?"]
    assert [p.line for p in shape.pieces] == [0, 0, 2, 3, 3]
    assert shape.join(["1.", "2.", "3.", "4!", "5?"]) == "1. 2.\n\n3.\n4! 5?\n"
    assert shape.join(["一。", "二。", "三。", "四！", "五？"], "zh") == "一。二。\n\n三。\n四！五？\n"
    with pytest.raises(ValueError):
        shape.join(["too few"])


def test_find_loop_needs_a_run_the_source_does_not_have():
    die = 5
    assert find_loop([4, die, die, die, die, die, die], [1, 2, 3]) == 2  # one "die" kept
    assert find_loop([4, 6, 7, 6, 7, 6, 7, 6, 7, 8], [1, 2]) == 3  # a repeated bigram, one copy kept
    assert find_loop([4, die, die, die], [1, 2]) is None  # three in a row: not yet a loop
    # "very very very very good": the source repeats too, so the output may
    assert find_loop([9, 9, 9, 9, 8], [7, 7, 7, 7, 6]) is None
    ids, flags = guard([4, die, die, die, die, die, 3], [1, 2, 3], eos=3, max_len=20)
    assert ids == [4, die, 3] and flags == (REPEATED,)
    ids, flags = guard([4, 5, 6, 7], [1, 2], eos=3, max_len=4)
    assert flags == (LENGTH_LIMIT,)
    assert max_output_length(10, 50) == 40 and max_output_length(30, 50) == 80


def test_a_model_forced_to_loop_is_stopped_flagged_and_bounded(tiny_model_dir, monkeypatch):
    from model.checkpoint import load_model
    from model.decoding import decode
    loaded = load_model(tiny_model_dir)
    looped = []

    def loop_forever(model, src, max_len, *a, **k):  # hand-set: always the same piece
        looped.append(max_len)
        return [[7] * max_len for _ in range(src.size(0))]
    monkeypatch.setattr(decode, "greedy", loop_forever)
    # No draft (the PyTorch int8 copy, or the native step once its library is built): the plain search.
    monkeypatch.setattr(decode, "search_copy", lambda loaded: None)
    monkeypatch.setattr(decode, "draft_weights", lambda loaded: None)
    tr = decode.translate(loaded, "1 2 3", beam_size=1)
    n_src = len(tr.source_pieces) + 1
    bound = n_src + 50  # the views: the search's own bound, as the reference tests against generate run it
    assert looped == [bound]
    # The views show what the search did (every looped piece, with its maps) and say so.
    assert tr.flags == (REPEATED,) and len(tr.target_pieces) == bound
    assert tr.attention.cross.shape[2] == bound
    # Text meant to be read is cut where the loop starts.
    from model.paragraphs import translate_text as tt
    bounds = []

    def batches(m, tok, texts, *a, max_len_of=None, **k):
        bounds.extend(max_len_of(len(tok.encode(t)) + 1) for t in texts)
        return [tok.encode(t) + [m.cfg.eos_id] for t in texts], [[7] * 80 for _ in texts]
    monkeypatch.setattr(tt, "decode_batches", batches)
    result = tt.translate_text(loaded, "1 2 3", beam_size=1)
    assert bounds == [max_output_length(n_src, 50)] and bounds[0] < bound  # bounded by the source's length
    assert result.sentences[0].flags == (REPEATED,) and result.sentences[0].text == loaded.tokenizer.decode([7])


def test_five_sentences_in_five_out_in_order(capsys):
    text = "I arrived late. The train was full. Nobody helped me. It was cold. We went home."
    assert main(["translate", "--beam", "1", text]) == 0
    out = capsys.readouterr().out.strip()
    assert len(split_sentences(out, "de")) == 5, out
    assert out.startswith("Ich") and "Zug" in out and out.endswith(".")


def second_output_empty(monkeypatch, loaded) -> None:
    """translate_text's decoding, hand-set: the second text decoded (a sentence, or a long one's part) gives
    nothing but </s>."""
    from model.paragraphs import translate_text as tt
    real = tt.decode_batches

    def second_empty(*a, **k):
        encoded, out = real(*a, **k)
        out[1] = [loaded.model.cfg.eos_id]
        return encoded, out
    monkeypatch.setattr(tt, "decode_batches", second_empty)


def test_an_empty_translation_is_marked_not_dropped(tiny_model_dir, monkeypatch):
    from model.checkpoint import load_model
    from model.paragraphs import translate_text as tt
    loaded = load_model(tiny_model_dir)
    second_output_empty(monkeypatch, loaded)
    result = tt.translate_text(loaded, "1 2 3. 4 5 6. 7 8 9.", beam_size=1)
    assert [s.source for s in result.sentences] == ["1 2 3.", "4 5 6.", "7 8 9."]
    assert result.sentences[1].flags == (tt.EMPTY,) and result.sentences[1].note == "no translation came out"
    assert "[…]" in result.text and len(result.text.split(" ")) >= 3


def test_a_file_of_200_sentences_comes_back_with_200(tmp_path, tiny_model_dir, capsys):
    src, out = tmp_path / "in.txt", tmp_path / "out.txt"
    src.write_text("".join(f"{i % 9 + 1} {i % 7 + 1} {i % 5 + 1}\n" for i in range(200)), encoding="utf-8")
    assert main(["translate", "--model", str(tiny_model_dir), "--beam", "1", "--file", str(src),
                 "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").split("\n")
    assert len(lines) == 201 and lines[-1] == "" and all(lines[:200])
    assert "translated 200/200 sentences" in capsys.readouterr().err


def test_cancel_stops_with_nothing(tiny_model_dir):
    from model.analysis.held_out import Cancelled
    from model.checkpoint import load_model
    from model.paragraphs.translate_text import translate_text
    with pytest.raises(Cancelled):
        translate_text(load_model(tiny_model_dir), "1 2. 3 4.", beam_size=1, should_stop=lambda: True)


def test_out_belongs_to_text_mode(tmp_path, capsys):
    assert main(["translate", "--sentences", "--out", str(tmp_path / "o.txt"), "I love apples."]) == 2
    line = capsys.readouterr().err.strip()
    assert "--out writes text mode's translation" in line and "\n" not in line
    assert not (tmp_path / "o.txt").exists()

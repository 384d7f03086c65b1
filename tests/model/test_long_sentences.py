"""A sentence longer than the model takes is translated in parts, never cut short; warnings stay short."""

from __future__ import annotations

import pytest

from model.cli import main
from model.decoding.decode import MAX_SOURCE_PIECES
from model.paragraphs.too_long import cut_to_fit


def words(text: str) -> int:  # a stand-in tokenizer: one piece per word
    return len(text.split())


def test_a_sentence_that_fits_is_left_as_it_is():
    assert cut_to_fit("  one, two three ", words, 3) == ["  one, two three "]


def test_cuts_go_after_a_clause_then_between_words_then_anywhere():
    text = "a b, c d e; f g h i j k l m n o"
    parts = cut_to_fit(text, words, 5)
    assert parts == ["a b, c d e;", "f g h i j", "k l m n o"]  # the last clause that fits, then words
    assert " ".join(parts) == text and all(words(p) <= 5 for p in parts)
    # "3.5" and "U.S." have no space after their point: no clause ends there
    assert cut_to_fit("it costs 3.5 in the U.S. today", words, 4) == ["it costs 3.5 in", "the U.S. today"]
    assert cut_to_fit("abcdefghij", len, 4) == ["abcd", "efgh", "ij"]  # no space at all
    chinese = "我喜欢吃苹果，他喜欢吃梨。"
    assert cut_to_fit(chinese, len, 8) == ["我喜欢吃苹果，", "他喜欢吃梨。"]  # "，" needs no space after it


def test_a_line_of_a_million_characters_is_cut_quickly_and_whole():
    text = "word " * 200_000
    parts = cut_to_fit(text, words, MAX_SOURCE_PIECES)
    assert len(parts) == 500 and all(words(p) == MAX_SOURCE_PIECES for p in parts)
    assert " ".join(parts) == text.strip()


def test_a_too_long_sentence_is_translated_in_parts_and_flagged(tiny_model_dir, monkeypatch):
    from model.checkpoint import load_model
    from model.decoding.batches import decode_batches
    from model.paragraphs import translate_text as tt
    loaded = load_model(tiny_model_dir)
    tok, eos = loaded.tokenizer, loaded.model.cfg.eos_id
    limit = 12  # the model's bound, small: 400-piece parts took the tiny model 30 s to decode
    monkeypatch.setattr(tt, "MAX_SOURCE_PIECES", limit)
    long = " ".join(str(i % 9 + 1) for i in range(2 * limit + 5))  # one "sentence": no stop
    assert len(tok.encode(long)) > 2 * limit
    seen = []

    def recorded(model, tok, texts, *a, **k):
        seen.append(list(texts))
        return decode_batches(model, tok, texts, *a, **k)
    monkeypatch.setattr(tt, "decode_batches", recorded)
    result = tt.translate_text(loaded, f"1 2 3. {long}", beam_size=1)
    short, split = result.sentences
    assert tt.SPLIT not in short.flags and short.parts == 1 and "too long" not in short.note
    # Every piece of the long sentence reached the model, in parts it takes whole.
    parts = seen[0][1:]
    assert len(parts) == 3 and " ".join(parts) == long
    assert all(len(tok.encode(p)) <= limit for p in parts)
    assert split.flags[0] == tt.SPLIT and split.parts == 3
    assert split.note.startswith("too long for the model: translated in 3 parts")
    # The translation is the parts' own, joined in order: what each gives decoded alone.
    _, alone = decode_batches(loaded.model, tok, parts, 1, max_len_of=lambda n: tt.max_output_length(n, 50))
    expected = [tok.decode([i for i in tt.guard(ids, tok.encode(p) + [eos], eos, len(ids) + 1)[0] if i != eos])
                for p, ids in zip(parts, alone)]
    assert split.text == " ".join(o.strip() for o in expected)
    assert result.text == f"{short.text} {split.text}"


def test_the_window_hears_of_an_empty_part(tiny_model_dir, monkeypatch):
    from model.checkpoint import load_model
    from model.paragraphs import translate_text as tt
    from tests.model.test_paragraphs import second_output_empty
    loaded = load_model(tiny_model_dir)
    second_output_empty(monkeypatch, loaded)
    monkeypatch.setattr(tt, "MAX_SOURCE_PIECES", 12)  # small, so the parts decode quickly
    long = " ".join(str(i % 9 + 1) for i in range(12 + 5))
    (s,) = tt.translate_text(loaded, long, beam_size=1).sentences
    assert s.parts == 2 and s.text.endswith(" […]") and tt.EMPTY_PART in s.flags
    assert "a part of it produced no translation" in s.note


def test_the_command_line_translates_all_of_a_long_sentence(capsys):
    """The report's case: two sentences alike for their first 400 pieces came back alike."""
    start = ", ".join(["the man buys a red apple"] * 80)
    outs = []
    for end in ("and the dog eats the cake.", "and my mother sells her house in Berlin."):
        assert main(["translate", "--beam", "1", f"{start}, {end}"]) == 0
        out, err = capsys.readouterr()
        outs.append(out)
        assert "too long for the model: translated in 2 parts" in err
    assert outs[0] != outs[1]


@pytest.mark.parametrize("length", [50, 5_000])
def test_a_warning_quotes_the_start_of_its_sentence(tmp_path, tiny_model_dir, capsys, monkeypatch, length):
    from model.paragraphs import translate_text as tt

    def looping(m, tok, texts, *a, **k):  # hand-set: every sentence loops
        return [tok.encode(t)[:MAX_SOURCE_PIECES] + [m.cfg.eos_id] for t in texts], [[7] * 80 for _ in texts]
    monkeypatch.setattr(tt, "decode_batches", looping)
    src = tmp_path / "in.txt"
    text = " ".join(str(i % 9 + 1) for i in range(length))  # no run the output's loop could match
    src.write_text(text + "\n", encoding="utf-8")
    assert main(["translate", "--model", str(tiny_model_dir), "--beam", "1", "--file", str(src)]) == 0
    warnings = [w for w in capsys.readouterr().err.splitlines() if "repeated itself" in w]
    assert warnings and all(len(w) < 300 for w in warnings)
    quoted = warnings[0].rsplit(": ", 1)[1]
    assert quoted == text[:80].rstrip() + "…"


def test_evaluation_translates_a_line_longer_than_the_model_takes_whole(tiny_model_dir, monkeypatch):
    """BLEU of a test set with a line past the limit: that line's hypothesis is its whole translation (in
    parts, as text mode gives it), not the translation of its first pieces, scored against a whole reference."""
    from model.card import scores
    from model.checkpoint import load_model
    from model.decoding import batches
    from model.decoding.batches import translate_many
    from model.languages import model_target
    from model.paragraphs import translate_text as tt
    loaded = load_model(tiny_model_dir)
    for module in (batches, scores, tt):
        monkeypatch.setattr(module, "MAX_SOURCE_PIECES", 12)  # small, so the parts decode quickly
    short, long = "3 1 4", " , ".join(["3 1 4 1 5 9"] * 4)
    assert len(loaded.tokenizer.encode(long)) > 12 >= len(loaded.tokenizer.encode(short))
    result, hyps = scores.score(loaded, [short, long], ["4 1 3", "9 5 1 4 1 3"], beam=1)
    cut = translate_many(loaded.model, loaded.tokenizer, [short, long])
    whole = tt.translate_text(loaded, long, beam_size=1, tgt_lang=model_target(loaded.path) or "de",
                              confidence=False)
    assert whole.sentences[0].parts > 1 or len(whole.sentences) > 1
    assert hyps == [cut[0], whole.text] and hyps[1] != cut[1]
    assert result.sentences == 2

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.config import BOS_ID
from model.decoding.beam import Beam
from model.decoding.decode import translate
from model.decoding.search import beam_search, greedy
from model.errors import UserError


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


SENTENCES = ["3 1 4 1 5", "9 2 6", "2 7 1 8 2 8 1 8 2 8"]


def _src(loaded, text):
    ids = loaded.tokenizer.encode(text) + [3]
    return torch.tensor([ids])


def test_beam_one_equals_greedy(loaded):
    for text in SENTENCES:
        src = _src(loaded, text)
        g = greedy(loaded.model, src, src.size(1) + 50)[0]
        b, _ = beam_search(loaded.model, src, 1, src.size(1) + 50)
        assert b == g


def test_cached_equals_uncached(loaded):
    for text in SENTENCES:
        src = _src(loaded, text)
        assert greedy(loaded.model, src, 30, use_cache=True) == greedy(loaded.model, src, 30, use_cache=False)
        # Ids exactly, score to rounding: pytest 9 refuses approx on the nested (ids, score) pair.
        cached_ids, cached_score = beam_search(loaded.model, src, 4, 30, use_cache=True)
        plain_ids, plain_score = beam_search(loaded.model, src, 4, 30, use_cache=False)
        assert cached_ids == plain_ids and cached_score == pytest.approx(plain_score)


def test_cached_step_logits_equal_full_pass(loaded):
    """The incremental decoder gives the same hidden states as the teacher-forced pass."""
    from model.transformer import DecoderState
    m = loaded.model
    src = _src(loaded, "5 5 1 2")
    tgt = torch.tensor([[2, 7, 9, 11, 6]])
    memory, _ = m.encode(src)
    full, _, _ = m.decode(tgt, memory, src)
    state = DecoderState(m, memory)
    steps = [m.decode(tgt[:, i:i + 1], memory, src, state=state)[0] for i in range(tgt.size(1))]
    torch.testing.assert_close(torch.cat(steps, 1), full, atol=1e-5, rtol=0)


def test_batched_greedy_equals_single(loaded):
    srcs = [_src(loaded, t)[0] for t in SENTENCES]
    batch = torch.zeros(len(srcs), max(len(s) for s in srcs), dtype=torch.long)
    for i, s in enumerate(srcs):
        batch[i, : len(s)] = s
    together = greedy(loaded.model, batch, 40)
    alone = [greedy(loaded.model, s[None], 40)[0] for s in srcs]
    assert together == alone


@pytest.mark.parametrize("use_cache", [True, False])
def test_rows_that_have_ended_leave_the_batch(loaded, monkeypatch, use_cache):
    """A batch's finished rows stop being decoded (once a quarter of it is over), and nobody's ids change.

    The tiny model's own endings vary with how its few seconds of training went (on some workers every
    row ran to the bound), so each sentence's </s> is set to come at a step of its own: the model's
    logits, with </s> made certain at that step and impossible before it (never for the last sentence)."""
    from model.decoding import search

    texts = ["9 2", "9 2 6", "3 1 4 1 5", "2 7 1 8 2 8 1 8 2 8"]
    srcs = [_src(loaded, t)[0] for t in texts]
    ends = {tuple(s.tolist()): end for s, end in zip(srcs, (3, 5, 8, None))}  # pieces out, </s> included
    eos = loaded.config.eos_id
    batch = torch.zeros(len(srcs), max(len(s) for s in srcs), dtype=torch.long)
    for i, s in enumerate(srcs):
        batch[i, : len(s)] = s
    rows, step = [], search._step_logits

    def ending(model, memory, src, seqs, *args, **kwargs):
        assert memory.size(0) == src.size(0) == seqs.size(0)
        logits = step(model, memory, src, seqs, *args, **kwargs).clone()
        for i, row in enumerate(src.tolist()):
            end = ends[tuple(t for t in row if t != 0)]
            logits[i, eos] = 1e9 if end == seqs.size(1) else float("-inf")  # seqs: <s> + pieces so far
        return logits

    def counted(*args, **kwargs):
        rows.append(args[3].size(0))
        return ending(*args, **kwargs)

    monkeypatch.setattr(search, "_step_logits", counted)
    together = greedy(loaded.model, batch, 40, use_cache=use_cache)
    monkeypatch.setattr(search, "_step_logits", ending)
    alone = [greedy(loaded.model, s[None], 40, use_cache=use_cache)[0] for s in srcs]
    assert together == alone
    assert [len(ids) for ids in alone] == [3, 5, 8, 40] and [ids[-1] for ids in alone[:3]] == [eos] * 3
    assert len(rows) == 40  # one step per piece of the longest output
    # Every step decodes only rows that had not ended a step before (a quarter of 4 is one row).
    assert rows == [sum(len(ids) > i for ids in alone) for i in range(40)]
    assert rows[0] == 4 and rows[-1] == 1


def test_translation_record(loaded):
    tr = translate(loaded, "3 1 4 1 5", beam_size=4)
    m = tr.attention
    L, H = loaded.config.n_layers, loaded.config.n_heads
    S, T = len(tr.source_pieces) + 1, len(m.target_tokens)
    assert m.source_tokens[-1] == "</s>" and m.target_tokens[0] == "<s>"
    assert m.encoder_self.shape == (L, H, S, S) and m.decoder_self.shape == (L, H, T, T)
    assert m.cross.shape == (L, H, T, S)
    for arr in (m.encoder_self, m.decoder_self, m.cross):
        assert arr.dtype == np.float32
        np.testing.assert_allclose(arr.sum(-1), 1.0, atol=1e-5)
    assert np.all(np.triu(m.decoder_self, k=1) == 0)
    assert m.predicted_tokens[:-1] == m.target_tokens[1:]
    assert tr.text == loaded.tokenizer.decode(loaded.tokenizer.encode(tr.text))
    assert translate(loaded, "3 1 4", capture_attention=False).attention is None


@pytest.mark.parametrize("text,msg", [("", "empty"), ("   \t ", "empty"), ("\x00\x01", "empty"),
                                      ("1 " * 3000, "too long")])
def test_bad_sentences(loaded, text, msg):
    with pytest.raises(UserError, match=msg):
        translate(loaded, text)


def test_odd_unicode_translates(loaded):
    for text in ("3\u200b1 4", "ｓｏｍｅ ｗｉｄｅ", "emoji 😀 3", "e\u0301 1"):
        tr = translate(loaded, text)
        assert tr.attention.cross.shape[-1] == len(tr.source_pieces) + 1


def test_max_length_is_source_plus_50(loaded):
    src = _src(loaded, "3 1")
    out = greedy(loaded.model, src, src.size(1) + 50)[0]
    assert len(out) <= src.size(1) + 50


def test_beam_bookkeeping_hand_checked():
    """Two rows, four pieces (</s> = 3): the best continuations survive, </s> finishes a hypothesis."""
    beam = Beam(2, alpha=0.0)
    logp = torch.log(torch.tensor([[0.0, 0.0, 0.0, 0.1, 0.6, 0.3], [0.0, 0.0, 0.0, 0.1, 0.6, 0.3]]) + 1e-30)
    index = beam.advance(logp)  # row 1 starts at -inf: only row 0 expands
    assert index.tolist() == [0, 0]
    assert beam.seqs.tolist() == [[BOS_ID, 4], [BOS_ID, 5]]
    logp = torch.log(torch.tensor([[0.0, 0.0, 0.0, 0.9, 0.05, 0.05], [0.0, 0.0, 0.0, 0.2, 0.4, 0.4]]) + 1e-30)
    index = beam.advance(logp)
    # candidates: (4,</s>) .54, (5,4) .12, (5,5) .12, (5,</s>) .06, ...: one finished, two continue
    assert [ids for _, ids in beam.finished] == [[4, 3]]
    assert index.tolist() == [1, 1]
    ids, score = beam.result()
    assert ids == [4, 3] and score == pytest.approx(np.log(0.6 * 0.9), rel=1e-5)


def test_translate_runs_on_its_own_thread_count_and_restores_it(loaded, monkeypatch):
    from model.decoding import decode
    seen = []
    real = decode.encode_source  # public, and the first thing a translation does inside the thread setting
    monkeypatch.setattr(decode, "encode_source", lambda *a: seen.append(torch.get_num_threads()) or real(*a))
    before = torch.get_num_threads()
    one = translate(loaded, "3 1 4 1 5", threads=1)
    assert seen == [1] and torch.get_num_threads() == before
    unchanged = translate(loaded, "3 1 4 1 5", threads=None)
    assert seen == [1, before] and unchanged.text == one.text
    with pytest.raises(UserError):
        translate(loaded, "", threads=1)
    assert torch.get_num_threads() == before  # restored after an error too

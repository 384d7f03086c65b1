"""Batched beam search gives each sentence what beam search alone gives it."""

from __future__ import annotations

import torch

from model.checkpoint import load_model
from model.config import EOS_ID
from model.decoding.batches import beam_search_batch, translate_many
from model.decoding.search import beam_search
from model.decoding.threads import eval_threads

SENTENCES = ["1 2 3", "4 5 6 7 8 9", "9", "3 1 4 1 5 9 2 6", "2 7 1 8 2 8", "5 5 5 5"]


def _src(tok, texts, pad_id):
    ids = [tok.encode(t) + [EOS_ID] for t in texts]
    src = torch.full((len(ids), max(map(len, ids))), pad_id, dtype=torch.long)
    for r, row in enumerate(ids):
        src[r, : len(row)] = torch.tensor(row)
    return src, [len(r) for r in ids]


def test_batched_beam_equals_one_sentence_at_a_time(tiny_model_dir):
    loaded = load_model(tiny_model_dir)
    model, tok = loaded.model, loaded.tokenizer
    src, lens = _src(tok, SENTENCES, model.cfg.pad_id)
    for k, extra in ((4, 10), (3, 2)):  # extra 2: the length limit ends some beams before </s>
        batched = beam_search_batch(model, src, k, [n + extra for n in lens], alpha=0.6)
        for (ids, score), text, n in zip(batched, SENTENCES, lens):
            one, _ = _src(tok, [text], model.cfg.pad_id)
            alone_ids, alone_score = beam_search(model, one, k, n + extra, alpha=0.6)
            assert ids == alone_ids
            assert abs(score - alone_score) < 1e-4


def test_translate_many_beam_matches_sentence_by_sentence(tiny_model_dir):
    loaded = load_model(tiny_model_dir)
    many = translate_many(loaded.model, loaded.tokenizer, SENTENCES, beam_size=4, batch_size=4, threads=1)
    seen = []
    single = [translate_many(loaded.model, loaded.tokenizer, [t], beam_size=4, batch_size=1,
                             progress=lambda d, n: seen.append((d, n)))[0] for t in SENTENCES]
    assert many == single
    assert seen == [(1, 1)] * len(SENTENCES)


def test_eval_threads_follow_the_load():
    assert eval_threads(cores=2, load=0.0) == 2
    assert eval_threads(cores=2, load=2.1) == 1   # beside a training run
    assert eval_threads(cores=16, load=4.0) == 12
    assert eval_threads(cores=1, load=9.0) == 1

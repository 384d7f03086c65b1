"""Batched decoding for evaluation: length-sorted sentence batches, greedy or beam search over each.

The one batching of evaluation: BLEU (``translate_many``), the command line's files (model/paragraphs) and
the batched head ablations (model/analysis/batched_ablation.py) all decode these batches, so their outputs
agree exactly.
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.decoding.beam import Beam
from model.decoding.decode import MAX_SOURCE_PIECES
from model.decoding.fast_step import StepRunner
from model.decoding.search import greedy, step_logprobs
from model.decoding.threads import intra_op_threads
from model.transformer import DecoderState, Transformer


@torch.inference_mode()
def beam_search_batch(model: Transformer, src: Tensor, beam_size: int, max_lens: list[int], alpha: float = 0.6,
                      use_cache: bool = True, head_masks: dict[str, Tensor] | None = None,
                      ) -> list[tuple[list[int], float]]:
    """Beam search for B padded sentences at once, src: (B, S) → per sentence what ``beam_search`` returns.

    The B·k hypotheses decode as one batch: one step of a 4-sentence batch costs little more than one step
    of a single sentence on a CPU, whose small per-row matrix products leave the cores idle. Each sentence
    keeps its own ``Beam`` (the same rules as alone); a sentence whose beam is over leaves the batch, so
    the batch shrinks instead of carrying finished rows to the end.
    """
    k = beam_size
    memory, _ = model.encode(src, head_mask=(head_masks or {}).get("encoder"))  # (B, S, D)
    memory, src_k = memory.repeat_interleave(k, 0), src.repeat_interleave(k, 0)  # (B·k, S, D), (B·k, S)
    state = DecoderState(model, memory, src_k) if use_cache else None
    runner = StepRunner.of(model, head_masks) if use_cache else None
    beams = [Beam(k, alpha, src.device, model.cfg.bos_id, model.cfg.eos_id) for _ in range(src.size(0))]
    results: list[tuple[list[int], float] | None] = [None] * len(beams)
    active = list(range(len(beams)))  # sentence of each block of k rows, in row order
    while active:
        seqs = torch.cat([beams[b].seqs for b in active])  # (A·k, t)
        logp = step_logprobs(model, memory, src_k, seqs, state, head_masks, runner)  # (A·k, V)
        keep, index = [], []
        for j, b in enumerate(active):
            rows = beams[b].advance(logp[j * k:(j + 1) * k]) if beams[b].step < max_lens[b] else None
            if rows is None or beams[b].step >= max_lens[b]:
                results[b] = beams[b].result()
            else:
                keep.append(b)
                index.append(rows + j * k)  # the beam's rows within the whole batch
        active = keep
        if not active:
            break
        index_t = torch.cat(index)
        memory, src_k = memory.index_select(0, index_t), src_k.index_select(0, index_t)
        if state is not None:
            state.reorder(index_t)
    return [r for r in results if r is not None]


@torch.inference_mode()
def translate_many(model: Transformer, tok, texts: list[str], beam_size: int = 1, batch_size: int | None = None,
                   alpha: float = 0.6, max_extra: int = 50, threads: int | None = None,
                   progress=None, head_masks: dict[str, Tensor] | None = None) -> list[str]:
    """Batch translation for evaluation; greedy and beam search both run on batches of sentences.

    Sentences are sorted by length so a batch pads little. ``progress(done, total)`` is called after each
    batch. ``threads``: intra-op threads for the call (``eval_threads()`` chooses by the machine's load);
    None leaves them as set, which is what a training run's validation wants. head_masks: heads to
    remove, as for ``greedy``. The output length is the source's + ``max_extra``, as when the scores of the
    model cards were measured (``model.paragraphs`` adds the loop guard for text people read).
    """
    eos = model.cfg.eos_id
    encoded, results = decode_batches(model, tok, texts, beam_size, batch_size, alpha,
                                      lambda n: n + max_extra, threads, progress, head_masks)
    return [tok.decode([t for t in ids if t != eos]) for ids in results]


def decode_batches(model: Transformer, tok, texts: list[str], beam_size: int = 1, batch_size: int | None = None,
                   alpha: float = 0.6, max_len_of=None, threads: int | None = None, progress=None,
                   head_masks: dict[str, Tensor] | None = None, should_stop=None
                   ) -> tuple[list[list[int]], list[list[int]]]:
    """(source ids, generated ids) of each text, decoded in length-sorted batches. ``max_len_of(n)``: the
    output bound for a source of n pieces (default n + 50); ``should_stop()`` is asked between batches."""
    device = next(model.parameters()).device
    if batch_size is None:
        batch_size = 64 if beam_size == 1 else max(1, 64 // beam_size)
    encoded, batches = sentence_batches(model, tok, texts, batch_size, max_len_of)
    out: list[list[int]] = [[] for _ in texts]
    finished = 0
    with torch.inference_mode(), intra_op_threads(threads if device.type == "cpu" else None):
        for idx, src, max_lens in batches:
            if should_stop is not None and should_stop():
                break
            if beam_size == 1:
                results = greedy(model, src, max(max_lens), head_masks=head_masks)  # the batch's longest bound
            else:
                results = [ids for ids, _ in beam_search_batch(model, src, beam_size, max_lens, alpha,
                                                                head_masks=head_masks)]
            for i, ids in zip(idx, results):
                out[i] = list(ids)
            finished += len(idx)
            if progress is not None:
                progress(finished, len(texts))
    return encoded, out


def sentence_batches(model: Transformer, tok, texts: list[str], batch_size: int = 64, max_len_of=None,
                     ) -> tuple[list[list[int]], list[tuple[list[int], Tensor, list[int]]]]:
    """(source ids of each text, [(text indices, padded src (B, S), output bounds)] in length-sorted batches).

    The one batching of evaluation: ``decode_batches`` and the batched head ablations
    (model/analysis/batched_ablation.py) both decode these batches, so their outputs agree exactly.
    ``max_len_of(n)``: the output bound for a source of n pieces (default n + 50).
    """
    device = next(model.parameters()).device
    max_len_of = max_len_of or (lambda n: n + 50)
    eos = model.cfg.eos_id
    # Each tokenizer cleans text its own way (Marian's as Marian does); ids and </s> are the model's.
    encoded = [(tok.encode(t)[: MAX_SOURCE_PIECES] or [tok.unk_id]) + [eos] for t in texts]
    order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
    batches = []
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        src = torch.full((len(idx), max(len(encoded[i]) for i in idx)), model.cfg.pad_id, dtype=torch.long)
        for r, i in enumerate(idx):
            src[r, : len(encoded[i])] = torch.tensor(encoded[i])
        batches.append((idx, src.to(device), [max_len_of(len(encoded[i])) for i in idx]))
    return encoded, batches

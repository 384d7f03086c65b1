"""Greedy and beam search with a key/value cache, and the attention maps behind a translation.

Attention is captured after the search, by one teacher-forced pass over the chosen output: the search
stays on the fast path, and the maps are exactly those of the sentence shown (every beam's maps would
otherwise have to be carried and reordered). Decoding runs under ``torch.inference_mode``, which skips
autograd's bookkeeping on every op: ~10% off a greedy translation, whose steps are many small ops.

``translate`` runs greedy search as an int8 draft checked in fp32 where it can (model/decoding/speculative.py):
the same output as ``greedy``, about twice as fast on a CPU.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np
import torch
from torch import Tensor

from model.checkpoint import LoadedModel
from model.decoding.ablation import removed_of
from model.decoding.beam import Beam
from model.decoding.fast_step import StepRunner
from model.decoding.int8 import search_copy
from model.decoding.loops import guard
from model.decoding.speculative import checked_greedy
from model.decoding.steps import BeamRecorder, decode_steps, step_probabilities
from model.errors import UserError
from model.native import draft_weights
from model.native.rows import NativeRows, RowWeights
from model.records import AttentionMaps, Translation
from model.tokenizer import clean_text
from model.transformer import DecoderState, Transformer

MAX_SOURCE_PIECES = 400
MAX_SOURCE_CHARS = 5000
# Intra-op threads for translating one sentence. Its ops are small (one row per beam), and on the
# 2-core machine we measure on, splitting them over 2 threads made every case slower (greedy 20 pieces:
# 42 ms on 1 thread against 88 ms on 2; beam 4: 106 against 141; 50 pieces: 60 against 121).
DECODE_THREADS = 1


@contextmanager
def intra_op_threads(n: int | None):
    """Run the block with ``n`` torch intra-op threads (None: unchanged), then restore the count.

    PyTorch's CPU builds parallelise with OpenMP, whose thread count is kept per calling thread: a
    translation on the model worker thread does not change a training run's threads on another.
    """
    prev = torch.get_num_threads()
    if n is None or n == prev:
        yield
        return
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(prev)


def _step_logits(model: Transformer, memory: Tensor, src: Tensor, seqs: Tensor,
                 state: DecoderState | None, head_masks: dict[str, Tensor] | None = None,
                 runner: StepRunner | None = None) -> Tensor:
    """Logits of the next piece for each row of seqs (B, t) → (B, V).

    runner: ``StepRunner.of(model, head_masks)`` for a search on ``state``: the same numbers, less Python."""
    if runner is not None and state is not None:
        return runner.logits(seqs[:, -1:], state, head_masks)
    if state is not None:
        hidden, _, _ = model.decode(seqs[:, -1:], memory, src, state=state, head_masks=head_masks)
    else:  # no cache: recompute every position, as a naive implementation would
        hidden, _, _ = model.decode(seqs, memory, src, head_masks=head_masks)
    return model.next_logits(hidden[:, -1])


def step_logprobs(model: Transformer, memory: Tensor, src: Tensor, seqs: Tensor,
                   state: DecoderState | None, head_masks: dict[str, Tensor] | None = None,
                   runner: StepRunner | None = None) -> Tensor:
    """Log-probabilities of the next piece for each row of seqs (B, t) → (B, V)."""
    return _step_logits(model, memory, src, seqs, state, head_masks, runner).float().log_softmax(-1)


@torch.inference_mode()
def greedy(model: Transformer, src: Tensor, max_len: int, use_cache: bool = True,
           head_masks: dict[str, Tensor] | None = None, memory: Tensor | None = None) -> list[list[int]]:
    """src: (B, S) → for each row the generated ids (ending in </s> unless max_len was reached).

    head_masks: {kind: (L, H)} multipliers, 0 removes a head (model/decoding/ablation.py), or (B, L, H)
    with one row per sentence. A head's mask acts on its output after attention, so the key/value cache
    stays valid and ablation keeps it. memory: the encoder's output for src when the caller has it
    already (with the same encoder head masks), (B, S, D).

    A row that has ended leaves the batch once a quarter of the batch has: carried to the end, the
    finished rows of a 64-sentence batch were ~45% of its steps' rows (the held-out sentences of the
    built-in model, whose batches run to their longest output). Each row is computed on its own either
    way, so the ids are the same as one sentence at a time (tests/model/test_decode.py).
    """
    hm = dict(head_masks or {})
    if memory is None:
        memory, _ = model.encode(src, head_mask=hm.get("encoder"))
    eos = model.cfg.eos_id
    state = DecoderState(model, memory, src) if use_cache else None
    runner = StepRunner.of(model, head_masks) if use_cache else None
    alive = list(range(src.size(0)))  # the original row of each row still in the batch
    out: list[list[int]] = [[] for _ in alive]
    ended = torch.zeros(len(alive), dtype=torch.bool, device=src.device)  # rows in the batch that are over
    seqs = torch.full((len(alive), 1), model.cfg.bos_id, dtype=torch.long, device=src.device)
    for _ in range(max_len):
        nxt = _step_logits(model, memory, src, seqs, state, hm, runner).argmax(-1)  # (A,); no softmax needed
        for r, t, over in zip(alive, nxt.tolist(), ended.tolist()):
            if not over:
                out[r].append(t)
        ended |= nxt == eos
        if bool(ended.all()):
            break
        seqs = torch.cat([seqs, nxt[:, None]], dim=1)
        # Leaving costs a copy of every cache: done once a quarter of the batch is over, not per row.
        if int(ended.sum()) * 4 >= len(alive):
            keep = (~ended).nonzero().squeeze(1)
            alive = [alive[i] for i in keep.tolist()]
            if state is not None:
                state.reorder(keep)  # caches, cross K/V and the source mask follow the rows that go on
            memory, src, seqs = memory.index_select(0, keep), src.index_select(0, keep), seqs.index_select(0, keep)
            hm = {k: m.index_select(0, keep) if m.dim() == 3 else m for k, m in hm.items()}  # per-row masks
            ended = ended.index_select(0, keep)
    return out


@torch.inference_mode()
def beam_search(model: Transformer, src: Tensor, beam_size: int, max_len: int, alpha: float = 0.6,
                use_cache: bool = True, memory: Tensor | None = None,
                head_masks: dict[str, Tensor] | None = None, on_step=None,
                native: RowWeights | None = None) -> tuple[list[int], float]:
    """One sentence src: (1, S) → (best ids ending in </s> if finished, length-penalised log-prob).

    memory: the encoder's output for src when the caller has it already (with the same encoder head
    masks), (1, S, D). head_masks: as for ``greedy``. on_step(beam, over): called after every step, for
    the step view's record of the live hypotheses (model/decoding/steps.py). native: ``RowWeights.of(model)``
    to run the steps through the native fp32 rows step (model/native/rows.py): the same search with the
    sums in another order (~1e-6), 2-3× faster; head masks shared by the rows act as in the modules.
    """
    hm = head_masks or {}
    memory, _ = model.encode(src, head_mask=hm.get("encoder")) if memory is None else (memory, None)
    k = beam_size
    beam = Beam(k, alpha, src.device, model.cfg.bos_id, model.cfg.eos_id)
    rows = state = runner = None
    if native is not None and use_cache and src.size(0) == 1 and NativeRows.covers(hm):
        cross_kv = [layer.cross_attn.project_kv(memory) for layer in model.decoder]
        rows = NativeRows(native, cross_kv, k, capacity=max_len, head_masks=hm)  # feeds positions 0 … max_len − 1
    elif use_cache:
        state, runner = DecoderState(model, memory, src, rows=k), StepRunner.of(model, head_masks)
    memory, src_k = memory.expand(k, -1, -1), src.expand(k, -1)
    while beam.step < max_len:
        if rows is not None:
            logp = rows.step(beam.seqs[:, -1]).log_softmax(-1)  # (k, V)
        else:
            logp = step_logprobs(model, memory, src_k, beam.seqs, state, head_masks, runner)  # (k, V)
        index = beam.advance(logp)
        if on_step is not None:
            on_step(beam, index is None)
        if index is None:
            break
        if rows is not None:
            rows.reorder(index)
        elif state is not None:
            state.reorder(index)
    return beam.result()


def _stack(ws: list[Tensor]) -> np.ndarray:
    """L × (1, H, ·, ·) → (L, H, ·, ·) float32 NumPy."""
    return torch.stack([w[0] for w in ws]).float().cpu().numpy()


def capture(model: Transformer, src: Tensor, generated: list[int], head_masks: dict[str, Tensor] | None = None,
            encoded: tuple[Tensor, list[Tensor]] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Teacher-forced pass over <s> + generated[:-1]; returns (L,H,S,S), (L,H,T,T), (L,H,T,S) float32.

    encoded: ``model.encode(src, need_weights=True, head_mask=…)`` when the search already ran it (with
    the same encoder head mask).
    """
    return _capture(model, src, generated, head_masks, encoded)[:3]


def _capture(model: Transformer, src: Tensor, generated: list[int], head_masks: dict[str, Tensor] | None,
             encoded: tuple[Tensor, list[Tensor]] | None, chosen_probs: bool = False):
    """``capture``'s maps and, if asked, each generated piece's probability (T,) from the same pass.

    The probabilities (the confidence tint) used to take a teacher-forced pass of their own over the same
    output (``steps.step_probabilities``); the decoder's output of the capture pass gives them too.
    """
    tgt = torch.tensor([[model.cfg.bos_id] + generated[:-1]], dtype=torch.long, device=src.device)
    hm = head_masks or {}
    with torch.inference_mode():
        memory, enc = encoded or model.encode(src, need_weights=True, head_mask=hm.get("encoder"))
        hidden, dec, cross = model.decode(tgt, memory, src, need_weights=True, head_masks=hm)
        probs = None
        if chosen_probs and generated:
            logits = model.next_logits(hidden[0]).float()  # (T, V)
            chosen = torch.tensor(generated, dtype=torch.long, device=logits.device)
            probs = logits.softmax(-1).gather(1, chosen[:, None])[:, 0].cpu().numpy().astype(np.float32)
    return _stack(enc), _stack(dec), _stack(cross), probs


def encode_source(loaded: LoadedModel, text: str) -> list[int]:
    """Source ids + </s>, with clear errors for empty or oversized input."""
    if not isinstance(text, str):
        raise UserError("the sentence must be text")
    if len(text) > MAX_SOURCE_CHARS:
        raise UserError(f"the sentence is too long ({len(text)} characters; at most {MAX_SOURCE_CHARS}); split it")
    cleaned = clean_text(text)
    if not cleaned:
        raise UserError("type a sentence to translate: the text is empty")
    ids = loaded.tokenizer.encode(text)  # each tokenizer cleans text its own way (Marian's as Marian does)
    if not ids:
        raise UserError("the sentence holds nothing the tokenizer can read")
    if len(ids) > MAX_SOURCE_PIECES:
        raise UserError(f"the sentence is too long ({len(ids)} pieces; at most {MAX_SOURCE_PIECES}); split it")
    return ids + [loaded.config.eos_id]


def translate(loaded: LoadedModel, text: str, beam_size: int = 1, capture_attention: bool = True,
              length_penalty_alpha: float = 0.6, request_id: int = 0, use_cache: bool = True,
              head_masks: dict[str, Tensor] | None = None, max_extra: int = 50,
              threads: int | None = DECODE_THREADS, capture_vectors: bool = False,
              capture_steps: bool = False) -> Translation:
    """Translate one sentence; beam_size 1 is greedy. Max output length = source length + max_extra.

    capture_vectors: also return every head's Q, K, V (``Translation.vectors``) for the formula
    walkthrough; a second pass, so off unless the walkthrough is open. Ignored with head_masks.
    capture_steps: also return the search step by step (``Translation.steps``) for the step view: one
    more decoder pass, and for beam search a snapshot of the beam per step; off unless the view is open.

    threads: torch intra-op threads while translating (see ``DECODE_THREADS``); None leaves them as set.
    """
    if not 1 <= beam_size <= 64:
        raise UserError(f"beam size must be between 1 and 64, got {beam_size}")
    with intra_op_threads(threads):
        return _translate(loaded, text, beam_size, capture_attention, length_penalty_alpha, request_id,
                          use_cache, head_masks, max_extra, capture_vectors, capture_steps)


def _translate(loaded: LoadedModel, text: str, beam_size: int, capture_attention: bool,
               length_penalty_alpha: float, request_id: int, use_cache: bool,
               head_masks: dict[str, Tensor] | None, max_extra: int, capture_vectors: bool = False,
               capture_steps: bool = False) -> Translation:
    model, tok = loaded.model, loaded.tokenizer
    bos, eos = model.cfg.bos_id, model.cfg.eos_id
    ids = encode_source(loaded, text)
    src = torch.tensor([ids], dtype=torch.long, device=loaded.device)
    # The views show what the search does within the source's length + max_extra (as Marian's reference
    # tests run generate); text meant to be read gets the tighter bound of model.decoding.loops.
    max_len = len(ids) + max_extra
    # The int8 draft (model/decoding/speculative.py) changes the speed of greedy search, never its result.
    # The native step drafts where it can (model/native: ~6× faster a step); else the PyTorch int8 copy.
    fast = (draft_weights(loaded) or search_copy(loaded)) if beam_size == 1 and use_cache and not head_masks else None
    captured, encoded, checked_probs = None, None, None
    recorder = BeamRecorder() if capture_steps and beam_size > 1 else None
    if head_masks and beam_size == 1:
        # Ablated heads change the search, not just the maps (the int8 draft has no masks: fp32 here).
        generated, score = greedy(model, src, max_len, use_cache, head_masks)[0], 0.0
    elif beam_size == 1 and fast is not None:
        # One encoder pass serves the search and, after a corrected draft, capture's maps.
        with torch.inference_mode():
            encoded = model.encode(src, need_weights=capture_attention)
        (generated, captured, checked_probs), score = checked_greedy(model, fast, src, max_len,
                                                                    capture_attention, encoded), 0.0
    elif beam_size == 1:
        generated, score = greedy(model, src, max_len, use_cache)[0], 0.0
    else:
        # One encoder pass serves the search and the maps.
        hm = head_masks or {}
        with torch.inference_mode():
            encoded = model.encode(src, need_weights=capture_attention, head_mask=hm.get("encoder"))
        native = RowWeights.of(model) if use_cache else None
        generated, score = beam_search(model, src, beam_size, max_len, length_penalty_alpha, use_cache,
                                       memory=encoded[0], head_masks=head_masks, on_step=recorder,
                                       native=native)
    # The views show exactly what the search produced, a loop included, and flag it; text meant to be read
    # (model.paragraphs: the command line, files) is cut at the loop as well.
    _, flags = guard(generated, ids, eos, max_len)
    out_ids = [i for i in generated if i != eos]
    maps, capture_probs = None, None
    if capture_attention:
        if captured is not None:
            enc, dec, cross = (_stack(ws) for ws in captured)
        else:  # the piece probabilities from the same pass, unless the step view's record has them
            enc, dec, cross, capture_probs = _capture(model, src, generated, head_masks, encoded,
                                                      chosen_probs=checked_probs is None and not capture_steps)
        removed = removed_of(head_masks)
        for kind, layer, head in removed:  # a removed head's weights never reach the output: show none
            {"encoder": enc, "decoder": dec, "cross": cross}[kind][layer, head] = 0.0
        maps = AttentionMaps(enc, dec, cross, tuple(tok.source_pieces(ids)),
                             (tok.start_piece, *tok.pieces(generated[:-1])), tuple(tok.pieces(generated)),
                             removed=removed)
    vectors = None
    if capture_vectors and not head_masks:
        from model.analysis.vectors import capture_vectors as capture_qkv

        tgt = torch.tensor([[bos] + generated[:-1]], dtype=torch.long, device=src.device)
        vectors = capture_qkv(model, src, tgt)
    steps = None
    if capture_steps:
        steps = decode_steps(model, tok, src, generated, beam_size, recorder,
                             encoded[0] if encoded else None, head_masks)
    # How sure the model was of each piece (softmax of its logits, teacher-forced over the output: the
    # numbers the search saw); the step view's record, or the int8 draft's checking pass, has them already.
    if steps is not None:
        probs = steps.chosen_probs
    elif checked_probs is not None:
        probs = checked_probs
    elif capture_probs is not None:
        probs = capture_probs
    else:
        probs = (step_probabilities(model, src, generated, encoded[0] if encoded else None, head_masks,
                                    top_k=1)[2] if generated else ())
    kept = tuple(float(p) for i, p in zip(generated, probs) if i != eos)  # aligned with out_ids
    return Translation(source=text, text=tok.decode(out_ids), source_pieces=tuple(tok.source_pieces(ids[:-1])),
                       target_pieces=tuple(tok.pieces(out_ids)), score=float(score), attention=maps,
                       request_id=request_id, unknown_pieces=ids[:-1].count(tok.unk_id), vectors=vectors,
                       steps=steps, flags=flags, piece_probs=kept)


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


def eval_threads(cores: int | None = None, load: float | None = None) -> int:
    """Intra-op threads for batched evaluation: every core when the machine is idle, fewer when busy.

    Batched steps are large enough to gain from several threads, but next to another busy process (a
    training run) OpenMP threads that wait for a core stall every step: measured on 2 cores beside a
    training run, 2 threads took 1.7 s a beam-4 sentence against far less on 1.
    """
    cores = cores or os.cpu_count() or 1
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = 0.0
    return max(1, min(cores, int(cores - load + 0.5)))


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

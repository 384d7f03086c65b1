"""Greedy and beam search with a key/value cache: the searches behind one translation and a batch's.

Both run under ``torch.inference_mode``, which skips autograd's bookkeeping on every op: ~10% off a greedy
translation, whose steps are many small ops. A search returns piece ids; beam search on the native rows
step can keep the maps behind its result as well (model/decoding/beam_maps.py).
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.decoding.beam import Beam
from model.decoding.beam_maps import BeamTrace, traced
from model.decoding.fast_step import StepRunner, hooked
from model.native.rows import NativeRows, RowWeights
from model.transformer import DecoderState, Transformer


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


def _next_ids(model: Transformer, memory: Tensor, src: Tensor, seqs: Tensor, state: DecoderState | None,
              head_masks: dict[str, Tensor] | None, runner: StepRunner | None) -> Tensor:
    """Greedy's next piece of each row, (B,): the argmax of ``_step_logits``, picked in C by the runner of
    the int8 evaluation copy (``StepRunner.next_ids``)."""
    if runner is not None and state is not None and runner.lib is not None:
        return runner.next_ids(seqs[:, -1:], state, head_masks)
    return _step_logits(model, memory, src, seqs, state, head_masks, runner).argmax(-1)


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

    The int8 evaluation copy, where its C step is built (``eval_weights``: ``evaluate --int8`` on a CPU
    with AVX-512 VNNI), decodes the batch in model/native/eval_step.c instead: the same search, a row
    leaving the step's rows as soon as it ends (nothing is copied there).
    """
    hm = dict(head_masks or {})
    if memory is None:
        memory, _ = model.encode(src, head_mask=hm.get("encoder"))
    native = getattr(model, "eval_weights", None)  # evaluate --int8's C step (model/decoding/int8_eval.py)
    if native is not None and use_cache and not hm:
        return native.greedy([layer.cross_attn.project_kv(memory) for layer in model.decoder], src, max_len)
    eos = model.cfg.eos_id
    state = DecoderState(model, memory, src) if use_cache else None
    runner = StepRunner.of(model, head_masks) if use_cache else None
    alive = list(range(src.size(0)))  # the original row of each row still in the batch
    out: list[list[int]] = [[] for _ in alive]
    ended = torch.zeros(len(alive), dtype=torch.bool, device=src.device)  # rows in the batch that are over
    seqs = torch.full((len(alive), 1), model.cfg.bos_id, dtype=torch.long, device=src.device)
    for _ in range(max_len):
        nxt = _next_ids(model, memory, src, seqs, state, hm, runner)  # (A,); no softmax needed
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
                native: RowWeights | None = None, trace: BeamTrace | None = None) -> tuple[list[int], float]:
    """One sentence src: (1, S) → (best ids ending in </s> if finished, length-penalised log-prob).

    memory: the encoder's output for src when the caller has it already (with the same encoder head
    masks), (1, S, D). head_masks: as for ``greedy``. on_step(beam, over): called after every step, for
    the step view's record of the live hypotheses (model/decoding/steps.py). native: ``RowWeights.of(model)``
    to run the steps through the native fp32 rows step (model/native/rows.py): the same search with the
    sums in another order (~1e-6), 2-3× faster; head masks shared by the rows act as in the modules.
    trace: a ``BeamTrace`` that keeps the native steps' attention weights and log-probabilities and, after
    the search, holds the result's maps and piece probabilities (model/decoding/beam_maps.py).
    """
    hm = head_masks or {}
    memory, _ = model.encode(src, head_mask=hm.get("encoder")) if memory is None else (memory, None)
    k = beam_size
    beam = Beam(k, alpha, src.device, model.cfg.bos_id, model.cfg.eos_id)
    rows = state = runner = None
    # A hook on the decoder's modules (the workbench's Cancel is one) must run: such a model steps
    # through the modules, as StepRunner.of refuses it too.
    if native is not None and use_cache and src.size(0) == 1 and NativeRows.covers(hm) and not hooked(model):
        cross_kv = [layer.cross_attn.project_kv(memory) for layer in model.decoder]
        rows = NativeRows(native, cross_kv, k, capacity=max_len, head_masks=hm)  # feeds positions 0 … max_len − 1
    elif use_cache:
        state, runner = DecoderState(model, memory, src, rows=k), StepRunner.of(model, head_masks)
    trace = traced(trace, rows)
    memory, src_k = memory.expand(k, -1, -1), src.expand(k, -1)
    while beam.step < max_len:
        best = None
        if rows is not None:
            logp = rows.step(beam.seqs[:, -1], trace.buffers() if trace else None,
                             first=beam.step == 0).log_softmax(-1)  # (k, V)
            best = rows.best(logp, beam.scores, 2 * k)  # the same ranking as advance's, in C
        else:
            logp = step_logprobs(model, memory, src_k, beam.seqs, state, head_masks, runner)  # (k, V)
        index = beam.advance(logp, best)
        if trace is not None:
            trace.record(logp, index, beam)
        if on_step is not None:
            on_step(beam, index is None)
        if index is None:
            break
        if rows is not None:
            rows.reorder(index)
        elif state is not None:
            state.reorder(index)
    if trace is not None:
        trace.finish(beam)
    return beam.result()

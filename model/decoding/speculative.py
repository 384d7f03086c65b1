"""Greedy search drafted by the int8 copy of the decoder (model/decoding/int8.py) and checked by the fp32 model.

A translation step is bound by reading the decoder's weights (see model/decoding/int8.py); a pass over many
positions reads them once. So the int8 copy searches first, cheaply, one piece at a time; then a single
fp32 pass gives the fp32 model's choice after every prefix of the draft. Where the two disagree, the
fp32 choice is kept and the draft resumes after it. Every piece is the fp32 model's choice, so the
result is the fp32 greedy translation, as in speculative decoding; the int8 model only decides how much
work each fp32 pass gets. Measured on the built-in model and 150 Ding sentences: 87% need one check.

The fp32 passes run on a key/value cache of the agreed prefix, so each position is checked in fp32 once
(the pass that checks it also gives its probability), and a draft runs a chunk at a time past the
source's length (8 pieces, doubled after each check that agrees), so a correction never redrafts to the
length limit. Both mattered for
long outputs that loop: the 50-piece benchmark sentence (104 pieces out, 5 corrections) had its draft run
295 steps and its whole output checked 5 times; now 140 steps and once (690 → 315 ms, one thread, on the
shared 2-core machine). Numerically the fp32 choices come from passes over several positions rather than
step-by-step ones; the two agree to ~1e-6, which can only matter for a near-exact tie between two pieces.

Beam search is not drafted: the same scheme (an int8 beam search, its prefixes scored in one fp32 pass
packed as a tree, the search replayed on those values) was built and measured; int8 rounding reorders
near-equal candidates often enough that a translation needed 2.3 drafts on average, and it was no
faster than the plain fp32 beam search (6.4 s against 6.0 s of CPU for 60 Ding sentences).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from model.decoding.fast_step import StepRunner
from model.native import NativeDraft, NativeWeights
from model.transformer import DecoderState, Transformer

CHUNK = 8  # pieces a draft runs past the source's length, or past a correction, before a check


def _draft_greedy(fast: Transformer, memory: Tensor, src: Tensor, state: DecoderState, seq: list[int],
                  max_len: int) -> list[int]:
    """Extend ``seq`` (<s> + pieces) greedily with the int8 copy until </s> or max_len pieces in all.

    ``state`` has already been fed ``seq[:state.position]``; the rest is fed first, in one pass.
    """
    seq = list(seq)
    step = torch.tensor([seq[state.position:]], dtype=torch.long, device=src.device)
    runner = StepRunner.of(fast)
    while True:
        if step.size(1) == 1 and runner is not None:
            logits = runner.logits(step, state)
        else:
            hidden, _, _ = fast.decode(step, memory, src, state=state)
            logits = fast.next_logits(hidden[:, -1])
        nxt = int(logits.argmax(-1))
        seq.append(nxt)
        if nxt == fast.cfg.eos_id or len(seq) - 1 >= max_len:
            return seq
        step = torch.tensor([[nxt]], dtype=torch.long, device=src.device)


def _draft_native(draft: NativeDraft, seq: list[int], max_len: int, eos: int) -> list[int]:
    """``_draft_greedy`` through the native step (model/native): the same contract, one C call a piece.
    A step without a finite choice (−1) drafts </s>: the check then puts the fp32 choice there."""
    seq = list(seq)
    for token in seq[draft.position:]:
        nxt = draft.step(token)
    while True:
        seq.append(eos if nxt < 0 else nxt)
        if seq[-1] == eos or len(seq) - 1 >= max_len:
            return seq
        nxt = draft.step(seq[-1])


@torch.inference_mode()
def checked_greedy(model: Transformer, fast: Transformer | NativeWeights, src: Tensor, max_len: int,
                   capture_attention: bool = True, encoded: tuple[Tensor, list[Tensor]] | None = None,
                   ) -> tuple[list[int], tuple | None, np.ndarray]:
    """Greedy search drafted by ``fast`` and checked by ``model``: exactly ``model``'s greedy output.

    fast: the int8 copy (model/decoding/int8.py), or the native step's weights of ``model`` (model/native).

    An fp32 pass over the draft's unchecked positions gives the fp32 choice at each of them at once; at
    the first disagreement the fp32 choice is kept and drafting resumes after it (both caches rewound to
    there). The fp32 pass feeds only positions not checked before, on a key/value cache of the agreed
    prefix: a long output that needs several corrections costs one fp32 pass over its length in all,
    not one per correction.
    src: (1, S). Returns (pieces, (encoder, decoder, cross) lists of (1, H, ·, ·) weights, or None, the
    fp32 probability of each piece (T,)): the checking passes' softmax, the numbers
    ``steps.step_probabilities`` would compute in a pass of its own. The maps come back when one pass
    checked the whole output (most translations); after a correction they are left to ``capture``:
    rows of several passes agree with one pass only to ~1e-7, and the maps must be bit for bit those of
    one teacher-forced pass (an ablation that removes nothing must compare equal).
    encoded: ``model.encode(src, need_weights=capture_attention)`` when the caller has it (it then serves
    ``capture`` too, after a correction, instead of a second encoder pass).
    """
    memory, enc = encoded or model.encode(src, need_weights=capture_attention)
    exact = DecoderState(model, memory, src)
    # The int8 copy projects memory with the fp32 weights themselves (int8.py), so its cross-attention
    # keys and values are these, bit for bit: shared, not computed twice (0.7 ms of a 5-piece sentence).
    if isinstance(fast, NativeWeights) and exact.src_mask is None:
        native = NativeDraft(fast, exact.cross_kv, capacity=max_len + 1)  # positions 0 … max_len − 1 are fed
        draft, drafting = native, lambda seq, limit: _draft_native(native, seq, limit, model.cfg.eos_id)
    else:  # a padded source (the native step masks nothing) drafts in fp32: slower, the same result
        fast = model if isinstance(fast, NativeWeights) else fast
        draft = DecoderState(fast, memory, src, cross_kv=exact.cross_kv)
        drafting = lambda seq, limit: _draft_greedy(fast, memory, src, draft, seq, limit)  # noqa: E731
    seq, checked = [model.cfg.bos_id], 0  # seq[1:1 + checked] agree with fp32 (and exact has fed seq[:checked])
    probs: list[Tensor] = []  # each checked position's fp32 probability of its piece
    passes, maps = 0, None
    eos = model.cfg.eos_id
    # How far a draft runs before it is checked: first to the source's length and a chunk more (where
    # most translations end: one check, which is then also the capture pass), then a chunk at a time, so
    # a draft gone wrong early (a long output that loops) is not drafted to the length limit again and
    # again. Measured on the 50-piece benchmark sentence: drafted to the limit first, 182 draft steps and
    # 471 ms; bounded, 136 steps and 317 ms (an output longer than the first chunk then needs capture's pass).
    limit, chunk = min(max_len, src.size(1) + CHUNK), CHUNK
    while True:
        seq = drafting(seq, limit)
        generated = seq[1:]
        start = exact.position  # == checked: the inputs seq[:checked] are in the fp32 cache
        tgt = torch.tensor([seq[start:-1]], dtype=torch.long, device=src.device)
        # Only a first pass can be the whole output's teacher-forced pass; later ones skip the weights
        # (the explicit attention path: ~1 ms of each ~6 ms check of the 50-piece benchmark sentence).
        hidden, dec, cross = model.decode(tgt, memory, src, need_weights=capture_attention and passes == 0,
                                          state=exact)
        logits = model.next_logits(hidden[0])  # (t, V): positions start … len(generated) - 1
        best = logits.argmax(-1).tolist()  # fp32 choice after each prefix
        wrong = next((j for j in range(len(best)) if best[j] != generated[start + j]), None)
        chosen = torch.tensor(generated[start:] if wrong is None else
                              generated[start:start + wrong] + [best[wrong]], device=logits.device)
        rows = len(best) if wrong is None else wrong + 1
        probs.append(logits[:rows].float().softmax(-1).gather(1, chosen[:, None])[:, 0])
        passes += 1
        if wrong is None and passes == 1 and capture_attention:
            maps = (enc, dec, cross)  # this pass was the whole output's teacher-forced pass
        if wrong is None:
            checked = len(generated)
            if seq[-1] == eos or checked >= max_len:
                break
            # Each check that agrees doubles the next chunk (8, 16, 32 …): a long agreed stretch then
            # costs fewer ~6 ms checks. Measured, one thread, the benchmark's three sentences and the 30
            # longest held-out ones, alternating: 7.22 → 6.97 s in all, the 50-piece one 362 → 334 ms.
            chunk *= 2
            limit = min(max_len, checked + chunk)  # all agreed: draft on from here
            continue
        wrong += start  # as a position of the output
        seq, checked = seq[: wrong + 1] + [best[wrong - start]], wrong + 1
        if seq[-1] == eos or checked >= max_len:
            break
        draft.rewind(wrong + 1)  # the caches keep <s> + the agreed pieces
        exact.rewind(wrong + 1)
        chunk = CHUNK
        limit = min(max_len, checked + chunk)
    if maps is not None and passes > 1:
        maps = None  # the output grew past the first pass (drafting on): its maps are capture's to make
    return seq[1:], maps, torch.cat(probs).cpu().numpy().astype(np.float32)

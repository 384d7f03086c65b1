"""Many head ablations decoded as one batch: the exact BLEU-drop run of head importance in minutes.

Removing one head and translating the test set again, 193 times for the built-in model, spends most of
its time in Python between small matrix products: a greedy step over 64 sentences leaves a CPU's cores
waiting. Here the sentences are decoded once per *group* of ablations instead: each batch of sentences is
repeated once per ablation in the group and every row carries its own head mask (the model takes
(B, L, H) masks), so one step serves them all.

Exactness. Each ablation sees exactly the sentence batches of ``translate_many`` (one batching,
``sentence_batches``), with the same padding and output bound, and every row is computed on its own:
the hypotheses are those of the one-at-a-time path. Rows that have ended leave the batch
(``search.greedy``): out of hundreds of rows a few (an ablation that broke the model) often run to the
output bound, and carried along, the finished rows made a group slower than its ablations one at a time.
An ablation that keeps every encoder head has the full model's encoder output, so groups of decoder and
cross ablations share one encoder pass per sentence batch (computed once for the whole run) rather than
running the encoder again per row.
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.decoding.ablation import Head
from model.decoding.batches import sentence_batches
from model.decoding.search import greedy
from model.decoding.threads import intra_op_threads

ROWS = 512  # decoder rows per step: 8 ablations of a 64-sentence batch (measured: more rows gain little)
BATCH = 64  # sentences per batch: translate_many's greedy batch, so the hypotheses are the same


def group_masks(group: list[list[Head]], rows: int, n_layers: int, n_heads: int,
                device: torch.device) -> dict[str, Tensor]:
    """{kind: (len(group)·rows, L, H)} per-row multipliers: ablation j owns rows j·rows … (j+1)·rows − 1.

    Only the kinds some ablation of the group touches get a mask; the others stay unmasked (None)."""
    masks: dict[str, Tensor] = {}
    for j, removed in enumerate(group):
        for kind, layer, head in removed:
            m = masks.setdefault(kind, torch.ones(len(group) * rows, n_layers, n_heads, device=device))
            m[j * rows:(j + 1) * rows, layer, head] = 0.0
    return masks


def decode_ablations(model, tok, texts: list[str], ablations: list[list[Head]], threads: int | None = None,
                     progress=None, max_extra: int = 50, rows: int = ROWS) -> list[list[str]]:
    """For each ablation (the heads it removes, [] = the full model) the greedy translations of ``texts``,
    as ``translate_many(…, head_masks=head_masks(removed))`` gives them. progress(n): after each group,
    with the number of ablations done so far."""
    cfg = model.cfg
    device = next(model.parameters()).device
    _, batches = sentence_batches(model, tok, texts, BATCH, lambda n: n + max_extra)
    per_group = max(1, rows // BATCH)
    # Groups never mix ablations that touch the encoder with those that do not, so the latter share it.
    keeps_encoder = [i for i, a in enumerate(ablations) if all(h[0] != "encoder" for h in a)]
    touches = [i for i, a in enumerate(ablations) if any(h[0] == "encoder" for h in a)]
    groups = [ids[g:g + per_group] for ids in (keeps_encoder, touches) for g in range(0, len(ids), per_group)]
    out: list[list[str]] = [[""] * len(texts) for _ in ablations]
    memories: dict[int, Tensor] = {}  # sentence batch → the full model's encoder output
    done = 0
    with torch.inference_mode(), intra_op_threads(threads if device.type == "cpu" else None):
        for group in groups:
            shared = all(not any(h[0] == "encoder" for h in ablations[i]) for i in group)
            for b, (idx, src, max_lens) in enumerate(batches):
                n = len(group)
                masks = group_masks([ablations[i] for i in group], len(idx), cfg.n_layers, cfg.n_heads, device)
                memory = None
                if shared:
                    if b not in memories:
                        memories[b] = model.encode(src)[0]
                    memory = memories[b].repeat(n, 1, 1)  # (n·B, S, D)
                generated = greedy(model, src.repeat(n, 1), max(max_lens), head_masks=masks, memory=memory)
                for j, i in enumerate(group):
                    for r, t in enumerate(idx):
                        ids = generated[j * len(idx) + r]
                        out[i][t] = tok.decode([x for x in ids if x != cfg.eos_id])
            done += len(group)
            if progress is not None:
                progress(done)
    return out


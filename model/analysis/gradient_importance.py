"""Gradient head importance (Michel et al. 2019, section 4.1): the fast first look before the exact run.

Every head's output is multiplied by a gate ξ = 1; a head's importance is how much the teacher-forced
loss of a sentence moves when its gate moves, |∂L(x)/∂ξ_h|, averaged over the sentences. One forward and
one backward pass over the test set give every head's number (seconds, where the exact BLEU drop of
``model.analysis.importance`` translates the set twice per head). It estimates the loss a head's removal
costs to first order; the exact run measures the BLEU it costs.

The gates are per sentence ((B, L, H) head masks, one row per sentence), so one backward pass of the
summed losses yields each sentence's own gradient: ∂ΣL/∂ξ[b] = ∂L_b/∂ξ[b], as no other sentence sees
row b's gates. L(x) is the mean cross-entropy over the sentence's target pieces (no label smoothing).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from model.analysis.held_out import check
from model.decoding.decode import MAX_SOURCE_PIECES
from model.decoding.threads import intra_op_threads
from model.errors import UserError
from model.records import KINDS
from model.records.research import GradientImportance, format_head

BATCH = 32  # sentences per forward/backward pass: small enough to keep the activations in cache


def _pad(seqs: list[list[int]], pad: int, device) -> torch.Tensor:
    out = torch.full((len(seqs), max(len(s) for s in seqs)), pad, dtype=torch.long)
    for r, s in enumerate(seqs):
        out[r, : len(s)] = torch.tensor(s)
    return out.to(device)


def gradient_importance(loaded, src: list[str], ref: list[str], threads: int | None = None,
                        should_stop=None) -> GradientImportance:
    """|∂L/∂ξ_h| averaged over the sentences for every head, in kind, layer, head order."""
    if len(src) != len(ref) or not src:
        raise UserError(f"need as many references as sentences, and at least one ({len(src)} and {len(ref)})")
    model, tok, cfg = loaded.model, loaded.tokenizer, loaded.config
    device = next(model.parameters()).device
    dtype = next(model.parameters()).dtype
    sources = [(tok.encode(t)[:MAX_SOURCE_PIECES] or [tok.unk_id]) + [cfg.eos_id] for t in src]
    # The references are target text: a Marian model cuts them with its target SentencePiece model and, with
    # separate vocabularies, numbers them in target_vocab.json (the source's ids would be other pieces).
    targets = [tok.encode_target(t)[:MAX_SOURCE_PIECES] + [cfg.eos_id] for t in ref]
    order = sorted(range(len(src)), key=lambda i: len(sources[i]))  # little padding per batch
    total = {k: torch.zeros(cfg.n_layers, cfg.n_heads, dtype=torch.float64) for k in KINDS}
    loss_sum = 0.0
    was_training = model.training
    model.eval()  # no dropout: the gradient of the model that translates
    try:
        with intra_op_threads(threads), torch.enable_grad():
            for start in range(0, len(order), BATCH):
                check(should_stop)
                idx = order[start:start + BATCH]
                s = _pad([sources[i] for i in idx], cfg.pad_id, device)
                tgt_in = _pad([[cfg.bos_id] + targets[i][:-1] for i in idx], cfg.pad_id, device)
                tgt_out = _pad([targets[i] for i in idx], cfg.pad_id, device)
                gates = {k: torch.ones(len(idx), cfg.n_layers, cfg.n_heads, dtype=dtype, device=device,
                                       requires_grad=True) for k in KINDS}
                logits, _ = model(s, tgt_in, head_masks=gates)  # (B, T, V)
                nll = F.cross_entropy(logits.float().transpose(1, 2), tgt_out, ignore_index=cfg.pad_id,
                                      reduction="none")  # (B, T)
                per_sentence = nll.sum(1) / (tgt_out != cfg.pad_id).sum(1).clamp(min=1)  # L(x) of each
                grads = torch.autograd.grad(per_sentence.sum(), [gates[k] for k in KINDS])
                for k, g in zip(KINDS, grads):
                    total[k] += g.detach().abs().sum(0).double().cpu()
                loss_sum += float(per_sentence.detach().sum())
    finally:
        model.train(was_training)
    n = len(src)
    scores = tuple((format_head((k, layer, h)), float(total[k][layer, h] / n))
                   for k in KINDS for layer in range(cfg.n_layers) for h in range(cfg.n_heads))
    return GradientImportance(n, round(loss_sum / n, 6), scores)

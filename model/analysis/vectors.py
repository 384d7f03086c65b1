"""The per-head Q, K, V of one sentence pair, for the formula walkthrough; captured only when asked.

A second, teacher-forced pass over the finished translation, separate from decoding so that ordinary
translation pays nothing for it. It walks the layers itself to read each attention sub-layer's input,
and asks the sub-layer for its heads (``MultiHeadAttention.heads``): everything comes back through
return values, nothing is stored on a module.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from model.records import AttentionVectors, HeadVectors
from model.transformer import Transformer, padding_mask


def _record(per_layer: list[tuple[Tensor, Tensor, Tensor, Tensor]]) -> HeadVectors:
    """L × (q, k, v, out), each (1, H, ·, d_k) → HeadVectors of (L, H, ·, d_k) float32 arrays."""
    def stack(i: int) -> np.ndarray:
        return torch.stack([parts[i][0] for parts in per_layer]).float().cpu().numpy()
    return HeadVectors(q=stack(0), k=stack(1), v=stack(2), out=stack(3))


@torch.inference_mode()
def capture_vectors(model: Transformer, src: Tensor, tgt: Tensor) -> AttentionVectors:
    """src: (1, S) source ids with </s>; tgt: (1, T) decoder input (<s> + the output but its last piece).

    Runs in eval mode semantics (no dropout is applied by ``heads``); call it on a model in eval().
    """
    mask = padding_mask(src, model.cfg.pad_id)
    x, encoder = model.embed(src, source=True), []
    for layer in model.encoder:
        encoder.append(layer.self_attn.heads(x, mask=mask))
        x, _ = layer(x, mask)
    memory = x
    y, decoder, cross = model.embed(tgt), [], []
    for layer in model.decoder:
        decoder.append(layer.self_attn.heads(y, is_causal=True))
        # The cross-attention queries come from the first sub-layer's output: DecoderLayer.forward's
        # first step, repeated here because the layer does not hand it out.
        a, _ = layer.self_attn(y, is_causal=True)
        middle = layer.norm_1(y + layer.dropout(a))
        cross.append(layer.cross_attn.heads(middle, memory=memory, mask=mask))
        y, _, _ = layer(y, memory, mask)
    return AttentionVectors(_record(encoder), _record(decoder), _record(cross))

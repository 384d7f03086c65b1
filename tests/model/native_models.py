"""Small random models of every layout the native steps (model/native) cover, shared by their tests."""

from __future__ import annotations

import torch

from model.config import ModelConfig
from model.transformer import Transformer

# The paper's layout, a Marian-like one (separate tables, halves PE, swish, a final logits bias, ε 1e-6)
# and GELU without the embedding scale: each branch of the C steps runs.
MODELS = {
    "paper": {},
    "marian-like": dict(share_embeddings=False, pe_layout="halves", activation="swish",
                        final_logits_bias=True, norm_eps=1e-6),
    "gelu": dict(activation="gelu", scale_embedding=False),
}


def config_model(seed: int, **changes) -> Transformer:
    """A random eval-mode model; vocabulary 61, which is not a multiple of the blocks the C steps take, so
    their last-rows paths run too."""
    base = dict(vocab_size=61, n_layers=2, d_model=32, n_heads=4, d_ff=48, dropout=0.1)
    torch.manual_seed(seed)
    model = Transformer(ModelConfig(**(base | changes))).eval()
    if model.final_logits_bias is not None:
        with torch.no_grad():
            model.final_logits_bias.uniform_(-1, 1)
    return model

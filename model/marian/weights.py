"""Marian's tensors → our Transformer's state dict, one named tensor at a time.

Their attention has separate q/k/v projections; ours stacks W^Q, W^K, W^V in one ``w_qkv``, so those are
concatenated row-wise. Everything else is a rename. A tensor we would not use (Marian variants with
extra layer norms, say) is an error, not silently dropped: the result would not be their computation.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file
from torch import Tensor

from model.config import ModelConfig
from model.errors import CheckpointError

SAFETENSORS, PICKLE = "model.safetensors", "pytorch_model.bin"
# Sinusoids are computed, not learnt; transformers may save its table, which we recompute.
_IGNORED = ("model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight")
# The one shared matrix may be saved under any of its tied names.
_SHARED = ("model.shared.weight", "model.decoder.embed_tokens.weight", "model.encoder.embed_tokens.weight")
_ATTN = {"self_attn": "self_attn", "encoder_attn": "cross_attn"}
_NORMS = {"encoder": {"self_attn_layer_norm": "norm_1", "final_layer_norm": "norm_2"},
          "decoder": {"self_attn_layer_norm": "norm_1", "encoder_attn_layer_norm": "norm_2",
                      "final_layer_norm": "norm_3"}}


def read_tensors(folder: Path) -> dict[str, Tensor]:
    """model.safetensors, else pytorch_model.bin through ``torch.load(weights_only=True)`` (never a full unpickle)."""
    if (folder / SAFETENSORS).is_file():
        try:
            return load_file(str(folder / SAFETENSORS))
        except (SafetensorError, OSError, ValueError) as exc:
            raise CheckpointError(f"{folder / SAFETENSORS} is corrupt or truncated ({exc})") from None
    if (folder / PICKLE).is_file():
        try:
            data = torch.load(folder / PICKLE, map_location="cpu", weights_only=True)
        except pickle.UnpicklingError:
            # torch's message goes on to suggest weights_only=False, the one unsafe step: not repeated.
            raise CheckpointError(f"refused to load {folder / PICKLE}: it is not a plain tensor file (it holds "
                                  "other objects, so it is not safe to open); use the model's model.safetensors"
                                  ) from None
        except Exception as exc:  # RuntimeError/EOFError for broken files
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise CheckpointError(f"refused to load {folder / PICKLE}: it is not a plain tensor file "
                                  f"({first[:200]})") from None
        if not isinstance(data, dict) or not all(isinstance(v, Tensor) for v in data.values()):
            raise CheckpointError(f"{folder / PICKLE} does not hold a dictionary of tensors")
        return data
    if (folder / f"{SAFETENSORS}.index.json").is_file():
        raise CheckpointError(f"{folder}: weights split into several files are not supported")
    raise CheckpointError(f"{folder} is a Marian model without weights ({SAFETENSORS} or {PICKLE})")


def _name_map(cfg: ModelConfig) -> dict[str, str]:
    """Our parameter name → Marian's, for everything except the fused q/k/v and the embeddings."""
    names = {}
    for side in ("encoder", "decoder"):
        for i in range(cfg.n_layers):
            ours, theirs = f"{side}.{i}", f"model.{side}.layers.{i}"
            attns = ("self_attn",) if side == "encoder" else ("self_attn", "encoder_attn")
            for suffix in ("weight", "bias"):
                for attn in attns:
                    names[f"{ours}.{_ATTN[attn]}.w_o.{suffix}"] = f"{theirs}.{attn}.out_proj.{suffix}"
                for norm, our_norm in _NORMS[side].items():
                    names[f"{ours}.{our_norm}.{suffix}"] = f"{theirs}.{norm}.{suffix}"
                names[f"{ours}.feed_forward.w_1.{suffix}"] = f"{theirs}.fc1.{suffix}"
                names[f"{ours}.feed_forward.w_2.{suffix}"] = f"{theirs}.fc2.{suffix}"
    return names


def _shared_embeddings(tensors: dict[str, Tensor], cfg: ModelConfig, take, used: set, where: Path) -> dict:
    """One vocabulary: one embedding matrix (saved under any of its tied names), maybe its own lm_head."""
    shared = next((n for n in _SHARED if n in tensors), None)
    if shared is None:
        raise CheckpointError(f"{where}: the weights have no embedding matrix (model.shared.weight)")
    used.update(n for n in _SHARED if n in tensors)  # tied copies of one matrix
    out = {"embedding.weight": tensors[shared]}
    if not cfg.share_embeddings:  # tie_word_embeddings false: its own output matrix, one shared input one
        out["src_embedding.weight"] = tensors[shared]
        out["output_weight"] = take("lm_head.weight")
    elif "lm_head.weight" in tensors:
        used.add("lm_head.weight")
        if not torch.equal(tensors["lm_head.weight"], tensors[shared]):
            raise CheckpointError(f"{where}: lm_head.weight differs from the shared embedding, but the "
                                  "config says they are tied")
    return out


def _separate_embeddings(tensors: dict[str, Tensor], take, used: set) -> dict:
    """Separate vocabularies: the encoder's embedding (source), the decoder's (target) and lm_head.

    lm_head is the decoder's embedding when tied (transformers then may not save it); ours is a matrix
    of its own either way, so a tied one is the same tensor under a second name.
    """
    decoder = take("model.decoder.embed_tokens.weight")
    out = {"src_embedding.weight": take("model.encoder.embed_tokens.weight"), "embedding.weight": decoder,
           "output_weight": tensors.get("lm_head.weight", decoder)}
    used.add("lm_head.weight")
    return out


def to_state_dict(tensors: dict[str, Tensor], cfg: ModelConfig, where: Path) -> dict[str, Tensor]:
    """Marian's named tensors → ours; raises CheckpointError on anything missing, extra or misshapen."""
    tensors = {k if k.startswith("model.") or k in ("final_logits_bias", "lm_head.weight") else f"model.{k}": v
               for k, v in tensors.items()}
    used = set(_IGNORED)

    def take(name: str) -> Tensor:
        if name not in tensors:
            raise CheckpointError(f"{where}: the weights have no {name}")
        used.add(name)
        return tensors[name]

    if cfg.src_vocab_size:
        out = _separate_embeddings(tensors, take, used)
    else:
        out = _shared_embeddings(tensors, cfg, take, used, where)
    out["final_logits_bias"] = take("final_logits_bias").reshape(-1)
    for ours, theirs in _name_map(cfg).items():
        out[ours] = take(theirs)
    for side in ("encoder", "decoder"):
        for i in range(cfg.n_layers):
            for attn in ("self_attn",) if side == "encoder" else ("self_attn", "encoder_attn"):
                base = f"model.{side}.layers.{i}.{attn}"
                for suffix in ("weight", "bias"):
                    out[f"{side}.{i}.{_ATTN[attn]}.w_qkv.{suffix}"] = torch.cat(
                        [take(f"{base}.{p}_proj.{suffix}") for p in "qkv"])
    extra = sorted(set(tensors) - used)
    if extra:
        raise CheckpointError(f"{where}: the weights hold tensors this Marian reader does not know "
                              f"({', '.join(extra[:3])}); the model would not compute what it was trained to")
    return out

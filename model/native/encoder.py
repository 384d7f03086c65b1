"""The encoder's pass through native code (encoder_pass.c) for a loaded model's short sentences.

``Transformer.encode`` asks ``encode`` first when the model was loaded from a folder with the native
kernel chosen (model/checkpoint.py sets ``Transformer.native_encode``), and takes the modules' pass where
it answers None. It answers for what translation runs: one unpadded sentence of at most ``MAX_PIECES``
pieces, inference (no autograd, eval mode, no autocast), fp32 weights on the CPU, no hook on the
encoder's modules, and head masks shared by the batch. Every other pass (training, batches) stays with
the modules.

The choice depends only on the model and the input, never on timing, so two passes over the same input
agree bit for bit, whichever of ``need_weights`` they ask (the modules' pass differs there: SDPA without
weights, eq. (1) written out with them). Numbers agree with the modules' to ~1e-7
(tests/model/test_native_encoder.py).
"""

from __future__ import annotations

import ctypes
import weakref

import numpy as np
import torch
from torch import Tensor, nn

from model import packed_linear
from model.native.engine import ACTIVATIONS, pointer
from model.native.rows import kept_views, tensor_view
from model.transformer import Transformer

# The most pieces (with </s>) taken here: the products' own limit, past which oneDNN's blocked products win
# (measured for the whole pass: 6 pieces 0.82 against 1.65 ms through the modules, 21 pieces 3.7 against 3.4).
MAX_PIECES = packed_linear.NATIVE_MAX_ROWS
_HEAD, _PER_LAYER = 4, 12  # pointers before the layers, and per layer (encoder_pass.c)


class EncoderPass:
    """The model's encoder as encoder_pass.c reads it: views of its own tensors (nothing copied). Use ``of``."""

    def __init__(self, model: Transformer, lib: ctypes.CDLL) -> None:
        cfg = model.cfg
        table = model.src_embedding if model.src_embedding is not None else model.embedding
        self.table = tensor_view(table.weight)
        self.arrays = [[tensor_view(t) for t in (
            layer.self_attn.w_qkv.weight, layer.self_attn.w_qkv.bias, layer.self_attn.w_o.weight,
            layer.self_attn.w_o.bias, layer.feed_forward.w_1.weight, layer.feed_forward.w_1.bias,
            layer.feed_forward.w_2.weight, layer.feed_forward.w_2.bias, layer.norm_1.weight, layer.norm_1.bias,
            layer.norm_2.weight, layer.norm_2.bias)] for layer in model.encoder]
        self.layer_pointers = [pointer(a) for arrays in self.arrays for a in arrays]
        self.d, self.heads, self.d_ff, self.layers = cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.n_layers
        self.dims = np.array([cfg.d_model, cfg.n_heads, cfg.d_model // cfg.n_heads, cfg.d_ff, self.table.shape[0],
                              cfg.n_layers, 0, 0, cfg.pad_id, ACTIVATIONS[cfg.activation]], np.int64)
        self.fparams = np.array([model.encoder[0].norm_1.eps, model.embed_scale], np.float32)
        self.run = lib.ae_encode

    @classmethod
    def of(cls, model: Transformer) -> EncoderPass | None:
        """The pass for ``model``, or None (not covered, or the library not built): kept while the model's
        parameters are the same tensors, as ``RowWeights.of`` keeps its views."""
        return kept_views(model, _kept, cls)

    def __call__(self, model: Transformer, src: Tensor, need_weights: bool,
                 head_mask: Tensor | None) -> tuple[Tensor, list[Tensor]]:
        n = src.size(1)
        tokens = np.ascontiguousarray(src[0].numpy(), dtype=np.int64)
        pe = model.positional(n).contiguous()  # (S, D); the table grows on demand, as for the modules
        mask = None if head_mask is None else np.ascontiguousarray(
            head_mask.reshape(self.layers, self.heads).float().numpy())
        d = self.d
        scratch = np.empty(n * (7 * d + self.d_ff + 1) + self.heads * n, np.float32)
        x = np.empty((n, d), np.float32)
        maps = np.empty((self.layers, self.heads, n, n), np.float32) if need_weights else None
        pointers = (ctypes.c_void_p * (_HEAD + len(self.layer_pointers)))(
            pointer(self.table), pe.data_ptr(), pointer(scratch), pointer(mask), *self.layer_pointers)
        if self.run(self.dims.ctypes.data, pointers, self.fparams.ctypes.data, n, tokens.ctypes.data,
                    x.ctypes.data, None if maps is None else maps.ctypes.data) != 0:
            raise IndexError(f"a source piece outside the table of {self.table.shape[0]}: {tokens.tolist()}")
        weights = [] if maps is None else [torch.from_numpy(maps[i])[None] for i in range(self.layers)]
        return torch.from_numpy(x)[None], weights  # (1, S, D), L × (1, H, S, S)


_kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # model → (its parameters' addresses, pass)


def encode(model: Transformer, src: Tensor, need_weights: bool,
           head_mask: Tensor | None) -> tuple[Tensor, list[Tensor]] | None:
    """``model.encode``'s answer through encoder_pass.c, or None where the modules' pass must run."""
    if (torch.is_grad_enabled() or model.training or src.dim() != 2 or src.size(0) != 1
            or not 1 <= src.size(1) <= MAX_PIECES or src.device.type != "cpu"
            or torch.is_autocast_enabled("cpu") or bool((src == model.cfg.pad_id).any())
            or (head_mask is not None and head_mask.numel() != model.cfg.n_layers * model.cfg.n_heads)
            or _hooked(model)):
        return None
    run = EncoderPass.of(model)
    return None if run is None else run(model, src, need_weights, head_mask)


def _hooked(model: Transformer) -> bool:
    """Whether a forward hook would run in the encoder's modules (they must then run)."""
    if nn.modules.module._global_forward_pre_hooks or nn.modules.module._global_forward_hooks:
        return True
    return any(m._forward_pre_hooks or m._forward_hooks for m in model.encoder.modules())

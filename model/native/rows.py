"""Beam search's step through the native fp32 rows step (rows_step.c): the weights it reads, one search's state.

``RowWeights`` points at the model's own fp32 tensors (nothing copied: ready at once, and it follows a
change to the weights in place). ``NativeRows`` is one beam search: ``rows`` self-attention caches, the
cross keys and values of the model's own projection of the source (one copy, shared by every row), and
``step`` / ``reorder``, the two things ``search.beam_search`` asks of a search's state.

Unlike the draft (engine.py), this step decides the search. Its numbers are the fp32 model's with the sums
taken in another order: logits agree with ``Transformer.decode`` to ~1e-6 (tests/model/test_native_rows.py).
It covers what ``supports`` does, with fp32 weights, one unpadded source, and head masks shared by the rows
(``NativeRows.covers``); for anything else the search runs through PyTorch.
"""

from __future__ import annotations

import ctypes
import weakref

import numpy as np
import torch
from torch import Tensor

from model.native import build
from model.native.engine import ACTIVATIONS, pointer, supports
from model.transformer import Transformer

_HEAD, _PER_LAYER = 7, 22  # pointers before the layers, and per layer (rows_step.c)


def tensor_view(t: Tensor | None) -> np.ndarray | None:
    """A NumPy view of an fp32 CPU tensor's storage (no copy; a copy only if it is not contiguous)."""
    return None if t is None else t.detach().contiguous().numpy()


class RowWeights:
    """The model's decoder as the native rows step reads it. Use ``of``."""

    def __init__(self, model: Transformer, lib: ctypes.CDLL) -> None:
        cfg = model.cfg
        self.lib, self.cfg = lib, cfg
        self.d, self.heads, self.d_k, self.d_ff = cfg.d_model, cfg.n_heads, cfg.d_model // cfg.n_heads, cfg.d_ff
        d = self.d
        # Views, held here so the pointers below stay valid as long as these weights are in use.
        self.embedding = tensor_view(model.embedding.weight)  # the target side's table
        self.output = (tensor_view(model.output_projection), tensor_view(model.final_logits_bias))
        self.embed_scale, self.eps = float(model.embed_scale), float(model.decoder[0].norm_1.eps)
        self.positional = model.positional
        self.arrays, self.layer_pointers = [], []
        for layer in model.decoder:
            sa, ca, ff = layer.self_attn, layer.cross_attn, layer.feed_forward
            arrays = [tensor_view(t) for t in (
                sa.w_qkv.weight, sa.w_qkv.bias, sa.w_o.weight, sa.w_o.bias,
                ca.w_qkv.weight[:d], ca.w_qkv.bias[:d], ca.w_o.weight, ca.w_o.bias,  # W^Q: the first d rows
                ff.w_1.weight, ff.w_1.bias, ff.w_2.weight, ff.w_2.bias,
                layer.norm_1.weight, layer.norm_1.bias, layer.norm_2.weight, layer.norm_2.bias,
                layer.norm_3.weight, layer.norm_3.bias)]
            self.arrays.append(arrays)
            self.layer_pointers.append([pointer(a) for a in arrays])

    @classmethod
    def of(cls, model: Transformer, wait: bool = False) -> RowWeights | None:
        """The rows step's weights of ``model``, or None: a model it does not cover (``supports``, fp32
        weights), or the library not built (yet: ``wait=False`` never waits for the compiler).

        Kept per model while its parameters are the same tensors (making the views: ~0.7 ms, 3 % of a
        short beam-4 translation); a parameter replaced rather than changed in place makes them anew."""
        return kept_views(model, _kept, cls, wait)


def kept_views(model: Transformer, table: weakref.WeakKeyDictionary, make, wait: bool = False):
    """``make(model, lib)`` for a model the native code covers (``supports``, fp32 weights) once the library
    is built (``wait=False`` never waits for the compiler), else None. Kept in ``table`` per model while
    its parameters are the same tensors: views of them follow a change in place, and a parameter replaced
    (not changed in place) makes them anew."""
    if not supports(model):
        return None
    params = parameters_of(model)
    if any(p.dtype != torch.float32 for p in params):
        return None
    lib = build.library(wait=wait)
    if lib is None:
        return None
    key = (id(lib), tuple(p.data_ptr() for p in params))
    kept = table.get(model)
    if kept is not None and kept[0] == key:
        return kept[1]
    with torch.no_grad():
        made = make(model, lib)
    table[model] = (key, made)
    return made


def parameters_of(model: torch.nn.Module) -> list[Tensor]:
    """``list(model.parameters())`` by a plain walk of the modules: the same tensors (a model here shares
    none between modules) in ~30 µs rather than 130, which ``of`` pays on every beam search."""
    out, stack = [], [model]
    while stack:
        module = stack.pop()
        out += module._parameters.values()
        stack += (m for m in module._modules.values() if m is not None)
    return [p for p in out if p is not None]


_kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # model → (its parameters' addresses, weights)


class NativeRows:
    """One beam search of ``rows`` hypotheses over one sentence."""

    @staticmethod
    def covers(head_masks: dict[str, Tensor] | None) -> bool:
        """Whether the step takes these head masks: one (L, H) mask per kind, shared by every row (the
        encoder's act before the step, on the memory it is given)."""
        return all(m.dim() == 2 and m.device.type == "cpu" for kind, m in (head_masks or {}).items()
                   if kind != "encoder")

    def __init__(self, weights: RowWeights, cross_kv: list[tuple[Tensor, Tensor]], rows: int,
                 capacity: int, head_masks: dict[str, Tensor] | None = None) -> None:
        """cross_kv: each layer's (K, V) of the source, (1, H, S, d_k) (``DecoderState.cross_kv``).
        head_masks: {"decoder", "cross": (L, H) multipliers of each head's output} as ``Transformer.decode``
        takes them (one mask for every row; ``covers`` says which masks this step takes)."""
        w = self.weights = weights
        self.rows, self.capacity, self.position = rows, capacity, 0
        src_len = cross_kv[0][0].size(2)
        self.cross = [(tensor_view(k[0].float()), tensor_view(v[0].float())) for k, v in cross_kv]  # (H, S, d_k)
        shape = (rows, w.heads, capacity, w.d_k)
        self.caches = [(np.empty(shape, np.float32), np.empty(shape, np.float32)) for _ in w.arrays]
        self.spare = np.empty(shape, np.float32)  # reorder's copy of one layer's keys or values
        self.pe = np.ascontiguousarray(w.positional(capacity, 0).detach().float().numpy())
        vocab = w.embedding.shape[0]
        self.scratch = np.empty(rows * (6 * w.d + w.d_ff) + max(capacity, src_len), np.float32)
        self.logits = np.empty((rows, vocab), np.float32)
        self.tokens = np.empty(rows, np.int64)
        self.dims = np.array([w.d, w.heads, w.d_k, w.d_ff, vocab, len(w.arrays), src_len, capacity,
                              w.cfg.pad_id, ACTIVATIONS[w.cfg.activation]], np.int64)
        self.fparams = np.array([w.eps, w.embed_scale], np.float32)
        out_w, out_b = w.output
        hm = head_masks or {}
        self.masks = [None if hm.get(kind) is None else np.ascontiguousarray(hm[kind].detach().float().numpy())
                      for kind in ("decoder", "cross")]
        pointers = [pointer(w.embedding), pointer(self.pe), pointer(out_w), pointer(out_b), pointer(self.scratch),
                    *map(pointer, self.masks)]
        for fixed, (ck, cv), (sk, sv) in zip(w.layer_pointers, self.cross, self.caches):
            pointers += fixed + [pointer(ck), pointer(cv), pointer(sk), pointer(sv)]
        assert len(pointers) == _HEAD + _PER_LAYER * len(w.arrays)
        self.pointers = (ctypes.c_void_p * len(pointers))(*pointers)
        self._step, self._reorder, self._top = w.lib.ae_rows_step, w.lib.ae_rows_reorder, w.lib.ae_beam_top
        self._best = (np.empty(2 * rows, np.float32), np.empty(2 * rows, np.int64))  # ``best``'s answer

    def map_buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """New arrays for the next step's attention weights: self (rows, L, H, position + 1), cross
        (rows, L, H, S), to pass to ``step``."""
        return tuple(np.empty(shape, np.float32) for shape in self._map_shapes())

    def _map_shapes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        lead = (self.rows, len(self.weights.arrays), self.weights.heads)
        return (*lead, self.position + 1), (*lead, int(self.dims[6]))  # dims[6]: the source's length

    def step(self, tokens: Tensor, maps: tuple[np.ndarray, np.ndarray] | None = None, first: bool = False) -> Tensor:
        """tokens: (rows,) or (rows, 1), fed at ``position`` → the next piece's logits (rows, V), padding −∞.
        The tensor shares this search's buffer: the next step overwrites it.

        maps: ``map_buffers()``, filled with each row's self- and cross-attention weights at this position
        (the weights the step used, not recomputed).
        first: every row is row 0 (a beam's first step, where all rows start alike): row 0 is computed
        and copied to the others, logits, maps and caches alike (a step's time grows with its rows: 0.8 ms
        for one, 1.3 ms for four on the built-in model)."""
        if self.position >= self.capacity:
            raise ValueError(f"no room for position {self.position} (capacity {self.capacity})")
        self_maps = cross_maps = None
        if maps is not None:
            self_maps, cross_maps = maps
            if any(m.shape != shape or m.dtype != np.float32 or not m.flags.c_contiguous
                   for m, shape in zip(maps, self._map_shapes())):
                raise ValueError("map buffers of the wrong shape: take them from map_buffers()")
        self.tokens[:] = tokens.reshape(-1).cpu().numpy()
        if first and (self.tokens != self.tokens[0]).any():
            raise ValueError(f"a first step feeds every row the same piece, not {self.tokens.tolist()}")
        status = self._step(self.dims.ctypes.data, self.pointers, self.fparams.ctypes.data, self.position,
                            1 if first else self.rows, self.tokens.ctypes.data, self.logits.ctypes.data,
                            None if self_maps is None else self_maps.ctypes.data,
                            None if cross_maps is None else cross_maps.ctypes.data)
        if status != 0:
            raise ValueError(f"a piece outside the vocabulary: {self.tokens.tolist()}")
        self.position += 1
        if first and self.rows > 1:
            self.logits[1:] = self.logits[0]
            for m in maps or ():
                m[1:] = m[0]
            self.reorder(torch.zeros(self.rows, dtype=torch.long))  # the caches of the rows not computed
        return torch.from_numpy(self.logits)

    def best(self, logp: Tensor, scores: Tensor, n: int) -> list[tuple[float, int]] | None:
        """The n best sums scores[r] + logp[r, t] (``Beam.advance``'s ranking, in C: beam_top.c) as
        (sum, flat index r·V + t), best first; None where a sum is NaN (rank them in PyTorch then)."""
        logp, scores = logp.contiguous(), scores.contiguous()
        if (logp.dtype, scores.dtype) != (torch.float32,) * 2 or logp.shape != (scores.numel(), logp.size(-1)):
            raise ValueError("best takes (rows, V) and (rows,) float32 tensors")
        if self._best[0].size < n:
            self._best = (np.empty(n, np.float32), np.empty(n, np.int64))
        top, at = self._best
        got = self._top(logp.data_ptr(), scores.data_ptr(), logp.size(0), logp.size(1), n, top.ctypes.data,
                        at.ctypes.data)
        return None if got < 0 else list(zip(top[:got].tolist(), at[:got].tolist()))

    def reorder(self, index: Tensor) -> None:
        """Row r continues the hypothesis of row index[r] (``DecoderState.reorder``)."""
        order = np.ascontiguousarray(index.cpu().numpy().reshape(-1), dtype=np.int64)
        if order.shape != (self.rows,):
            raise ValueError(f"{order.size} rows in a reorder of {self.rows}")
        if (order == np.arange(self.rows)).all():
            return  # every row continues itself: nothing to copy
        if self._reorder(self.dims.ctypes.data, self.pointers, self.rows, order.ctypes.data, self.position,
                         self.spare.ctypes.data) != 0:
            raise ValueError(f"a reorder to rows outside 0 … {self.rows - 1}: {order.tolist()}")

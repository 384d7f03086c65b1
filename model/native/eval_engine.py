"""``evaluate --int8``'s greedy decoding through eval_step.c: the packed int8 weights it reads, and a
batch's slots (caches, cross-attention keys and values, source mask) decoded one step per call.

``EvalWeights.of(model)`` packs every decoder product of the fp32 ``model`` once (int8 rows with one fp32
scale per row, the PyTorch int8 copy's rounding, in vpdpbusd's order); ``greedy`` decodes a batch whose
encoder output and cross-attention keys/values the int8 evaluation copy computed
(model/decoding/int8_eval.py). Only where the library was built with AVX-512 VNNI, for post-LN ReLU models
whose widths are whole blocks of 16, on the CPU, without head masks; ``of`` returns None otherwise and the
copy decodes through PyTorch (model/decoding/fast_step.py), as before.
"""

from __future__ import annotations

import ctypes
import functools
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch
from torch import Tensor

from model.decoding.int8 import per_row_int8
from model.native import build
from model.native.engine import fp32_array, pointer
from model.transformer import Transformer

_HEAD, _PER_LAYER = 10, 34  # pointers before the layers, and per layer (eval_step.c's enums)


def pack_int8(weight: Tensor, bias: Tensor | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """(packed int8 weights, int32 column sums, fp32 scales, fp32 bias or None) of a (N, K) product for
    eval_step.c. Outputs are padded to a multiple of 16 with zero rows (scale and bias 0: they give 0)."""
    rows, scale = per_row_int8(weight)
    n, k = rows.shape
    n_pad = -n % 16
    w = np.concatenate([rows.numpy(), np.zeros((n_pad, k), np.int8)])
    # [N/16 outputs][K/4 inputs][16 outputs][4 inputs]: one vpdpbusd's 64 bytes are 16 outputs × 4 inputs.
    packed = np.ascontiguousarray(w.reshape(-1, 16, k // 4, 4).transpose(0, 2, 1, 3))
    colsum = w.astype(np.int32).sum(axis=1, dtype=np.int32)
    scales = np.concatenate([scale.numpy(), np.zeros(n_pad, np.float32)]).astype(np.float32)
    b = None if bias is None else np.concatenate([fp32_array(bias), np.zeros(n_pad, np.float32)])
    return packed, colsum, scales, b


def supports(model: Transformer) -> bool:
    """Whether eval_step.c computes ``model``'s decoder: ReLU (the paper's), widths of whole blocks of 16
    (its quantising loop reads 16 at a time), on the CPU."""
    cfg = model.cfg
    return (cfg.activation == "relu" and cfg.d_model % cfg.n_heads == 0 and cfg.d_model % 16 == 0
            and cfg.d_ff % 16 == 0 and next(model.parameters()).device.type == "cpu")


class EvalWeights:
    """The fp32 model's decoder as eval_step.c reads it, in int8. Use ``of``."""

    def __init__(self, model: Transformer, lib: ctypes.CDLL) -> None:
        cfg = model.cfg
        self.lib, self.cfg = lib, cfg
        self.d, self.heads, self.d_ff = cfg.d_model, cfg.n_heads, cfg.d_ff
        self.d_k = self.d // self.heads
        self.embedding = fp32_array(model.embedding.weight)  # the target side's table
        self.vocab = self.embedding.shape[0]
        self.embed_scale, self.eps = float(model.embed_scale), float(model.decoder[0].norm_1.eps)
        self.positional = model.positional
        self.output = pack_int8(model.output_projection, model.final_logits_bias)
        self.layers = []
        d = self.d
        for layer in model.decoder:
            sa, ca, ff = layer.self_attn, layer.cross_attn, layer.feed_forward
            products = [pack_int8(sa.w_qkv.weight, sa.w_qkv.bias), pack_int8(sa.w_o.weight, sa.w_o.bias),
                        pack_int8(ca.w_qkv.weight[:d], ca.w_qkv.bias[:d]), pack_int8(ca.w_o.weight, ca.w_o.bias),
                        pack_int8(ff.w_1.weight, ff.w_1.bias), pack_int8(ff.w_2.weight, ff.w_2.bias)]
            norms = [fp32_array(t) for n in (layer.norm_1, layer.norm_2, layer.norm_3) for t in (n.weight, n.bias)]
            self.layers.append((products, norms))
        # Each layer's weight pointers in eval_step.c's order, made once (the slots' four come per batch).
        self.layer_pointers = [[pointer(a) for product in products for a in product] + [pointer(n) for n in norms]
                               for products, norms in self.layers]

    @classmethod
    def of(cls, model: Transformer, wait: bool = True) -> EvalWeights | None:
        """The packed weights of ``model``, or None where eval_step.c cannot decode it here."""
        if not supports(model):
            return None
        lib = build.library(wait=wait)
        if lib is None or not lib.ae_eval_supported():
            return None
        with torch.no_grad():
            return cls(model, lib)

    def product(self, packed: tuple, x: np.ndarray, relu: bool = False, threads: int | None = None) -> np.ndarray:
        """One packed product of x (m, k) fp32 as the step computes it → (m, n padded to 16). On two threads
        (``threads``, default PyTorch's count) two calls take half the rows each: a row's numbers are its
        own, so the result is the same bits."""
        m, k = x.shape
        n = packed[0].shape[0] * 16
        x = np.ascontiguousarray(x, dtype=np.float32)
        y = np.empty((m, n), np.float32)
        ptrs = (ctypes.c_void_p * 4)(*[pointer(a) for a in packed])

        def rows(a: int, b: int) -> int:
            blocks = -(-(b - a) // 4) * 4
            xq, sx = np.empty((blocks, k), np.uint8), np.empty(blocks, np.float32)
            return self.lib.ae_eval_product(ptrs, x[a:].ctypes.data, b - a, k, n, int(relu), xq.ctypes.data,
                                            sx.ctypes.data, y[a:].ctypes.data)
        split = _split(m, threads)
        if split is None:
            assert rows(0, m) == 0
        else:
            later = _pool().submit(rows, split, m)
            assert rows(0, split) == 0 and later.result() == 0
        return y

    def greedy(self, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor, max_len: int) -> list[list[int]]:
        """Greedy search of the batch src (B, S) given its cross-attention K and V per layer, (B, H, S, d_k)
        each: for each row the generated ids, ending in </s> unless max_len was reached. A row that ends
        leaves the rows the next step computes at once (its slot stays; nothing is copied)."""
        batch = EvalBatch(self, cross_kv, src, max_len)
        eos = self.cfg.eos_id
        slots = np.arange(src.size(0), dtype=np.int32)
        tokens = np.full(src.size(0), self.cfg.bos_id, np.int64)
        out: list[list[int]] = [[] for _ in range(src.size(0))]
        for _ in range(max_len):
            nxt = batch.step(tokens, slots)
            for slot, t in zip(slots.tolist(), nxt.tolist()):
                out[slot].append(t)
            going = nxt != eos
            if not going.any():
                break
            slots, tokens = np.ascontiguousarray(slots[going]), np.ascontiguousarray(nxt[going])
        return out


class EvalBatch:
    """One batch's slots for eval_step.c: self-attention caches for ``capacity`` positions, the cross-attention
    keys and values and the source mask, the step's scratch. ``step`` feeds one position.

    threads: 2 (default: PyTorch's thread count, which ``decode_batches`` sets from ``eval_threads``) runs
    each step as two calls at once, half the rows each, with a scratch of their own: rows are independent
    in every part of the step, so the results are the same bits as one call's (measured on this project's
    2-core machine: two single-threaded runs of the product kernel side by side each kept its full speed)."""

    def __init__(self, w: EvalWeights, cross_kv: list[tuple[Tensor, Tensor]], src: Tensor, capacity: int,
                 threads: int | None = None) -> None:
        cfg, b, s_len = w.cfg, src.size(0), src.size(1)
        self.w, self.position, self.capacity, self.threads = w, 0, max(1, capacity), threads
        cap = self.capacity
        self.cross = [(fp32_array(k), fp32_array(v)) for k, v in cross_kv]  # contiguous (B, H, S, d_k)
        real = (src != cfg.pad_id).to(torch.uint8)
        self.mask = None if bool(real.all()) else np.ascontiguousarray(real.numpy())
        shape = (b, w.heads, cap, w.d_k)
        self.caches = [(np.empty(shape, np.float32), np.empty(shape, np.float32)) for _ in w.layers]
        self.pe = fp32_array(w.positional(cap, 0).reshape(cap, w.d))
        self.v_pad = w.output[0].shape[0] * 16
        blocks = -(-b // 4) * 4
        parts = 1 if _split(b, threads) is None else 2
        # Per part: the scratch floats, the quantised inputs, their scales (eval_step.c's sizes).
        self.scratch = [(np.empty(b * (6 * w.d + w.d_ff + self.v_pad) + cap + s_len + 32, np.float32),
                         np.empty(blocks * max(w.d, w.d_ff), np.uint8), np.empty(blocks, np.float32))
                        for _ in range(parts)]
        self.pointers = []
        for scratch, xq, sx in self.scratch:
            pointers = [pointer(w.embedding), pointer(self.pe), pointer(self.mask), *map(pointer, w.output),
                        pointer(scratch), pointer(xq), pointer(sx)]
            for fixed, (ck, cv), (sk, sv) in zip(w.layer_pointers, self.cross, self.caches):
                pointers += fixed + [pointer(sk), pointer(sv), pointer(ck), pointer(cv)]
            assert len(pointers) == _HEAD + _PER_LAYER * len(w.layers)
            self.pointers.append((ctypes.c_void_p * len(pointers))(*pointers))
        self.dims = np.array([w.d, w.heads, w.d_k, w.d_ff, w.vocab, self.v_pad, len(w.layers), s_len, cap,
                              cfg.pad_id, b], np.int64)
        self.fparams = np.array([w.eps, w.embed_scale], np.float32)
        self.picked = np.empty(b, np.int64)
        self.rows = b

    def _run(self, part: int, tokens: np.ndarray, slots: np.ndarray, out: np.ndarray) -> int:
        return self.w.lib.ae_eval_step(self.dims.ctypes.data, self.pointers[part], self.fparams.ctypes.data,
                                       len(slots), slots.ctypes.data, tokens.ctypes.data, self.position,
                                       out.ctypes.data)

    def step(self, tokens: np.ndarray, slots: np.ndarray) -> np.ndarray:
        """Feed tokens (R,) int64 at ``position`` to the slots (R,) int32 (distinct, contiguous arrays) →
        the next piece of each, (R,) int64 (a view, overwritten by the next step); advances position."""
        rows = len(slots)
        assert tokens.dtype == np.int64 and slots.dtype == np.int32 and len(tokens) == rows <= self.rows
        split = _split(rows, self.threads) if len(self.pointers) > 1 else None
        if split is None:
            codes = [self._run(0, tokens, slots, self.picked)]
        else:  # the later rows on the pool's thread (ctypes lets go of the GIL), the first ones here
            later = _pool().submit(self._run, 1, tokens[split:], slots[split:], self.picked[split:rows])
            codes = [self._run(0, tokens[:split], slots[:split], self.picked[:split]), later.result()]
        if any(codes):
            raise ValueError(f"the native evaluation step refused its input ({min(codes)}: a token, slot or "
                             f"position out of range)")
        self.position += 1
        return self.picked[:rows]

    def logits(self, rows: int) -> np.ndarray:
        """The last one-call step's logits of its first ``rows`` rows, (rows, V): the scratch's, for tests."""
        w, b = self.w, self.rows
        start = b * (6 * w.d + w.d_ff)
        return self.scratch[0][0][start: start + rows * self.v_pad].reshape(rows, self.v_pad)[:, : w.vocab]


_SPLIT_ROWS = 8  # fewer rows than this run as one call: the second thread's hand-over costs ~20-50 µs


def _split(rows: int, threads: int | None) -> int | None:
    """Where two threads divide ``rows`` (a whole number of the kernel's blocks of 4 rows for the first),
    or None: one call (one thread asked for, or too few rows)."""
    threads = torch.get_num_threads() if threads is None else threads
    if threads < 2 or rows < _SPLIT_ROWS:
        return None
    return min(rows - 1, -(-(rows // 2) // 4) * 4)


@functools.cache
def _pool() -> ThreadPoolExecutor:
    """The second thread of a divided step or product, made on first use and kept."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="eval-step")

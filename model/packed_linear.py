"""x Wᵀ + b for inference on the CPU through copies of the weights packed for oneDNN.

Why: PyTorch's plain product of a few rows with a weight matrix reads the weight slowly. Measured on the
2-core machine (2026-12-04, one thread, weights cold as they are in a translation, which reads each
once): 6 rows × a 1,024 × 256 weight at 8.7 GB/s plain against 20 GB/s packed, 16 rows 6.6 against
14.4 GB/s; a beam's 4 × 256 block times the 8,000 × 256 output table 1.8–2.9 ms plain against 0.2–0.7
ms packed in a loop. So every product of two rows or more that runs without autograd (the encoder, the
greedy search's checking passes, the capture pass, beam and batch steps, evaluation) goes through a
packed copy: translations 8–10% faster, greedy over 300 sentences 21% (``python -m benchmarks.ct2_compare``).
Training (autograd on) keeps PyTorch's own product, whose backward it needs.

What it computes: the same products summed in oneDNN's order, equal to the plain ones to ~1e-6
relative. Every inference pass goes through the same copies, so two passes over the same input agree
bit for bit, as before (an ablation that removes nothing still equals the plain translation). One row
stays plain: there the plain product is as fast or faster, and the flat decoding step
(model/decoding/fast_step.py) uses the same two paths, so its steps equal the modules' bit for bit.

A model loaded from a folder takes a third path where the native library is compiled: its products of
up to ``NATIVE_MAX_ROWS`` rows, one row included, go through the native fp32 kernel (``use_native``).
"""

from __future__ import annotations

import functools
import threading

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.utils.weak import WeakIdKeyDictionary

PACKED_ROWS = 2  # the fewest rows (positions, beams, sentences) a product runs through a packed copy
NATIVE_MAX_ROWS = 16  # the most rows a loaded model's product takes through the native kernel (see use_native)

# Per weight tensor: {row range: (weight and bias versions when packed, packed weight, bias)}. The
# versions make a copy stale once the weight is changed in place by an ordinary op; the weak keys let a
# dropped model take its copies with it. A fused optimizer step does not count as a change of version
# (torch 2.13: ``Adam(fused=True)`` leaves ``_version`` at 0 on the CPU), so code that trains calls
# ``forget`` after each step: without it a run's validation and live probe used the weights of their
# first pass ever after (valid loss rising while the saved checkpoints translated well).
_PACKED: WeakIdKeyDictionary = WeakIdKeyDictionary()
_LOCK = threading.Lock()  # the model worker and a training run may pack at the same time


@functools.cache
def packing_works() -> bool:
    """Whether this build's oneDNN linear runs and computes x Wᵀ + b (private ops: checked, not assumed)."""
    if not torch.backends.mkldnn.is_available():
        return False
    try:
        gen = torch.Generator().manual_seed(0)
        w, b, x = torch.randn(24, 16, generator=gen), torch.randn(24, generator=gen), torch.randn(3, 16, generator=gen)
        y = torch.ops.mkldnn._linear_pointwise(x, torch.ops.mkldnn._reorder_linear_weight(w, 4), b, "none", [], "")
    except (RuntimeError, AttributeError, NotImplementedError):
        return False
    return bool(torch.allclose(y, x @ w.t() + b, rtol=1e-4, atol=1e-5))


def _can_pack(weight: Tensor) -> bool:
    return weight.device.type == "cpu" and weight.dtype == torch.float32 and packing_works()


def _copy(weight: Tensor, bias: Tensor | None, rows: slice | None) -> tuple[Tensor, Tensor | None]:
    """The packed copy of ``weight`` (its ``rows`` alone) and the matching bias, packed now if stale."""
    key = None if rows is None else (rows.start, rows.stop)
    version = (weight._version, None if bias is None else bias._version)
    copies = _PACKED.get(weight)
    held = None if copies is None else copies.get(key)
    if held is None or held[0] != version:
        with _LOCK, torch.no_grad(), torch.inference_mode(False):
            w = weight.detach() if rows is None else weight.detach()[rows]
            b = None if bias is None else (bias.detach() if rows is None else bias.detach()[rows])
            held = (version, torch.ops.mkldnn._reorder_linear_weight(w.contiguous(), 4),
                    None if b is None else b.contiguous())
            _PACKED.setdefault(weight, {})[key] = held
    return held[1], held[2]


def forget(module: nn.Module) -> None:
    """Drop the packed copies of ``module``'s parameters, to be made again from their values at the next
    inference pass: after a training step, which may change weights without a new version."""
    if _PACKED:
        for p in module.parameters():
            _PACKED.pop(p, None)


# Weight tensors of the models given the native product (``use_native``) → the library's ``ae_product``.
_NATIVE: WeakIdKeyDictionary = WeakIdKeyDictionary()


def use_native(model: nn.Module) -> bool:
    """Take ``model``'s inference products of 1 … ``NATIVE_MAX_ROWS`` rows through the native kernel
    (model/native/rows_step.c) from now on, where its library is compiled on this machine; True if so.

    Why: oneDNN's packed product is slow for a few rows. A translation's encoder and checking passes
    (5-20 positions) are ~45 products, each weight read once from memory: 6 rows, cold, 157 µs a
    product through oneDNN against ~45 µs through the kernel, whose loop asks for the weights ahead.
    Greedy + capture of a 5-piece sentence: 13.4 → 11.1 ms (eight alternations, one thread). Past ~16
    rows oneDNN's blocking wins, so larger passes and batches keep it.

    Decided once, when a model is loaded: a model never changes kernels midway (the library may finish
    compiling in the background later), so two passes over the same input still agree bit for bit. The
    kernel sums each output in one order whatever the number of rows, so a row gets the same bits alone
    (a search's step) as in a pass: the flat decoding step still equals the modules bit for bit."""
    from model.native import build  # noqa: PLC0415 (stdlib only; kept out of training's imports)

    lib = build.library(wait=False)
    if lib is None:
        return False
    for p in model.parameters():
        # From the weight's own storage; K in whole blocks of 8, which the kernel's vector loops take (16
        # lanes at a time where AVX-512 and K allow); any other K stays with oneDNN.
        if p.dim() == 2 and p.dtype == torch.float32 and p.device.type == "cpu" and p.is_contiguous() \
                and p.size(1) % 8 == 0:
            _NATIVE[p] = lib.ae_product
    return True


def _native(kernel, x: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    """x (…, K) Wᵀ + b through the native kernel, as (rows, K) whatever x's shape (as ``_run``)."""
    shape = x.shape
    rows = x.reshape(-1, shape[-1]).contiguous()
    y = torch.empty(rows.size(0), weight.size(0), dtype=x.dtype)
    kernel(rows.data_ptr(), weight.data_ptr(), None if bias is None else bias.data_ptr(), y.data_ptr(),
            rows.size(0), weight.size(0), weight.size(1))
    return y.view(*shape[:-1], y.size(-1))


def _native_fits(x: Tensor, weight: Tensor, bias: Tensor | None) -> bool:
    """Whether the kernel takes this product: inference, fp32 on the CPU, few rows, and shapes that match
    (the kernel reads what it is told to; a mismatch goes to F.linear, which says what is wrong)."""
    return (x.dtype == torch.float32 and x.device.type == "cpu" and x.size(-1) == weight.size(1)
            and x.numel() <= NATIVE_MAX_ROWS * x.size(-1) and not torch.is_grad_enabled()
            and not torch.is_autocast_enabled("cpu")
            and (bias is None or (bias.dtype == torch.float32 and bias.is_contiguous()
                                  and bias.numel() == weight.size(0))))


def _plain(weight: Tensor, bias: Tensor | None, rows: slice | None) -> tuple[Tensor, Tensor | None]:
    if rows is None:
        return weight, bias
    return weight[rows], None if bias is None else bias[rows]


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None, rows: slice | None = None) -> Tensor:
    """``F.linear(x, weight[rows], bias[rows])``, through the packed copy where that is faster and exact
    enough: no autograd, no autocast, CPU float32, at least ``PACKED_ROWS`` rows. x: (…, K) → (…, N).
    A loaded model's weights (``use_native``) take up to ``NATIVE_MAX_ROWS`` rows through the native kernel."""
    native = _NATIVE.get(weight) if _NATIVE else None
    if native is not None:
        w, b = _plain(weight, bias, rows)
        if _native_fits(x, w, b):
            return _native(native, x, w, b)
    if (torch.is_grad_enabled() or x.dtype != torch.float32 or x.numel() < PACKED_ROWS * x.size(-1)
            or not _can_pack(weight) or torch.is_autocast_enabled("cpu")):
        return F.linear(x, *_plain(weight, bias, rows))
    return _run(x, *_copy(weight, bias, rows))


def _run(x: Tensor, packed: Tensor, bias: Tensor | None) -> Tensor:
    """x (…, K) times a packed copy, as (rows, K) whatever x's shape, so a row gets the same bits in a
    step's (B, 1, K) as in a pass's (1, T, K)."""
    shape = x.shape
    y = torch.ops.mkldnn._linear_pointwise(x.reshape(-1, shape[-1]).contiguous(), packed, bias, "none", [], "")
    return y.view(*shape[:-1], y.size(-1))


def product(weight: Tensor, bias: Tensor | None = None, rows: slice | None = None):
    """x ↦ ``linear(x, weight, bias, rows)`` for a search's steps, which are never trained through: the
    copy is looked up once here rather than per step; None where packing cannot run (GPU, not fp32)."""
    if not _can_pack(weight):
        return None
    packed, b = _copy(weight, bias, rows)
    w, full_b = _plain(weight, bias, rows)
    native = _NATIVE.get(weight) if _NATIVE else None

    def run(x: Tensor) -> Tensor:
        if native is not None and _native_fits(x, w, full_b):  # as ``linear`` takes it
            return _native(native, x, w, full_b)
        if x.numel() < PACKED_ROWS * x.size(-1):  # one row: the plain product, as ``linear`` takes it
            return F.linear(x, w, full_b)
        return _run(x, packed, b)
    return run


class Linear(nn.Linear):
    """``nn.Linear`` (the same parameters and state-dict keys) whose inference products run packed."""

    def forward(self, x: Tensor) -> Tensor:
        return linear(x, self.weight, self.bias)

"""An int8 copy of the decoder for the search, the part of a translation that CPU memory bandwidth limits.

Why: greedy and beam search run the decoder once per output piece with one row per beam, so every
step streams all decoder weights and the (V, D) output projection through the CPU: ~21 MB in fp32 for
the built-in model, ~5 ms a piece on a 2-core VM that gives ~8 GB/s to a core (profiled: the matrix
products are >80% of a greedy translation, and their time is proportional to the bytes of weight
read). Stored as int8, one scale per output row, the same products read a quarter of the bytes.

The copy only drafts: the encoder and the cross-attention keys and values stay fp32 (computed once per
sentence), and ``model/decoding/speculative.py`` checks every drafted piece with the fp32 model, whose checking
pass also yields the attention maps. So int8 rounding (~1% relative error per product) can cost a
redraft, never a different translation or map. ``LoadedModel(int8_search=False)`` searches in fp32 alone.

Two kernels, chosen per machine (``weight_only_kernel()``):

- PyTorch's dynamically quantised linear (fbgemm/oneDNN on x86, QNNPACK on ARM): the input rows are
  quantised on the fly, the product accumulates in int32. Fastest where the CPU has VNNI.
- Weight-only int8 (``torch._weight_int8pack_mm``): the int8 rows are widened in the kernel and multiplied
  by bf16 activations. Chosen where fbgemm would have to quantise activations to 7 bits (no VNNI, see
  ``reduce_range``). Measured on such a machine (AMD Zen 3, AVX2 only; one thread, the built-in model):
  a draft step 1.47 against 1.60 ms, and drafts that agree with fp32 longer (150 held-out sentences:
  1.06 checks a sentence against 1.09), so greedy translation of the 5, 20 and 50-piece sentences of
  ``python -m benchmarks.ct2_compare`` took 21.5 / 46.6 / 327 ms against 23.5 / 50.8 / 499 ms (seven
  interleaved rounds; a second run: ×0.91 / ×1.06 / ×0.66 of fbgemm's time; the 50-piece one loops to
  104 pieces, where fbgemm's drafts went wrong often). On
  an AVX-512 VNNI machine (2026-12-04) it was faster for the 768 × 256 products but slower for the
  output table, so fbgemm stays there.

PyTorch has deprecated the quantised-tensor ops in favour of torchao, and the weight-only op is private;
``available()`` and ``weight_only_available()`` check that they exist and compute what they should on
this machine, and callers fall back to the other kernel, or to fp32 search, when they do not.
"""

from __future__ import annotations

import copy
import functools
import warnings

import torch
from torch import Tensor, nn

from model.checkpoint import LoadedModel
from model.layers import DecoderLayer, MultiHeadAttention, PositionwiseFeedForward
from model.transformer import Transformer


def pack_weight(weight: Tensor, bias: Tensor | None):
    """Symmetric per-row int8 quantisation of a (N, K) weight, prepacked for the CPU kernel."""
    w = weight.detach().float().cpu()
    scale = (w.abs().amax(dim=1) / 127.0).clamp_min(1e-12).double()  # (N,), one scale per output row
    zero = torch.zeros(w.size(0), dtype=torch.long)
    with warnings.catch_warnings():  # the deprecation notice of quantised tensors, once per weight
        warnings.simplefilter("ignore")
        qw = torch.quantize_per_channel(w, scale, zero, 0, torch.qint8)
        return torch.ops.quantized.linear_prepack(qw, None if bias is None else bias.detach().float().cpu())


class Int8Linear(nn.Module):
    """y = x Wᵀ + b with W held as int8 rows; ``weight`` and ``bias`` keep the fp32 originals.

    The originals stay reachable (shared, not copied) for the few products that run once per sentence
    in fp32, such as the cross-attention keys and values (``MultiHeadAttention.project_kv``).
    weight_only: which kernel (module docstring); None lets ``weight_only_kernel()`` choose for this machine.
    A row length the weight-only kernel cannot take (``fits_weight_only``) gets fbgemm either way.
    """

    def __init__(self, weight: Tensor, bias: Tensor | None, rows: int | None = None,
                 weight_only: bool | None = None) -> None:
        super().__init__()
        self.reduce_range = reduce_range()  # 7-bit activations where this CPU's kernel would saturate
        self.weight, self.bias = weight, bias  # the fp32 originals, shared; never trained through here
        self.in_features, self.out_features = weight.size(1), weight.size(0) if rows is None else rows
        w = weight if rows is None else weight[:rows]
        b = None if bias is None else (bias if rows is None else bias[:rows])
        weight_only = weight_only_kernel() if weight_only is None else weight_only
        weight_only = weight_only and fits_weight_only(self.in_features)
        # One of the two is set: _packed for fbgemm, _rows for the weight-only kernel (fast_step reads them).
        self._packed = None if weight_only else pack_weight(w, b)
        self._rows = int8_rows(w, b) if weight_only else None

    @classmethod
    def of(cls, linear: nn.Linear, weight_only: bool | None = None) -> Int8Linear:
        return cls(linear.weight, linear.bias, weight_only=weight_only)

    def forward(self, x: Tensor) -> Tensor:
        if self._rows is not None:
            return weight_only_product(x, *self._rows)
        return torch.ops.quantized.linear_dynamic(x.float().contiguous(), self._packed, self.reduce_range)


def per_row_int8(weight: Tensor) -> tuple[Tensor, Tensor]:
    """Symmetric per-row int8 of a (N, K) weight: (int8 rows (N, K), fp32 scale (N,)), W ≈ rows · scale.
    Shared by the weight-only kernel's copy and the native draft step (model/native/engine.py)."""
    w = weight.detach().float().cpu()
    scale = (w.abs().amax(dim=1) / 127.0).clamp_min(1e-12)
    return torch.round(w / scale[:, None]).to(torch.int8).contiguous(), scale


def int8_rows(weight: Tensor, bias: Tensor | None) -> tuple[Tensor, Tensor, Tensor | None]:
    """(int8 rows (N, K), bf16 scale per row (N,), fp32 bias or None) for ``weight_only_product``."""
    rows, scale = per_row_int8(weight)
    return rows, scale.to(torch.bfloat16), None if bias is None else bias.detach().float().cpu()


def weight_only_product(x: Tensor, rows: Tensor, scale: Tensor, bias: Tensor | None) -> Tensor:
    """x (…, K) fp32 → x Wᵀ + b (…, N) fp32, W given as int8 ``rows`` times ``scale``, through bf16."""
    y = torch._weight_int8pack_mm(x.reshape(-1, x.size(-1)).to(torch.bfloat16), rows, scale)
    y = y.view(*x.shape[:-1], rows.size(0)).float()
    return y if bias is None else y.add_(bias)


def fits_weight_only(in_features: int) -> bool:
    """Whether the weight-only kernel takes rows this long. It reads K in vector blocks without a tail:
    measured with K = 100, its output was 23 % off, and K = 130 crashed the process; every multiple of 8
    up to 128 was right. A multiple of 32 leaves room for wider vectors (every model here has one)."""
    return in_features % 32 == 0


class Int8Attention(MultiHeadAttention):
    """MultiHeadAttention with int8 projections; W^Q alone has its own packed copy for cross-attention
    (``own_query``; an encoder's self-attention never needs it). product(weight, bias): the module of W^{QKV}
    and W^O (default ``Int8Linear`` with ``weight_only``)."""

    def __init__(self, attn: MultiHeadAttention, weight_only: bool | None = None, own_query: bool = True,
                 product=None) -> None:
        d = attn.w_o.in_features
        super().__init__(d, attn.n_heads, attn.attn_dropout)
        make = product or (lambda weight, bias: Int8Linear(weight, bias, weight_only=weight_only))
        self.w_qkv, self.w_o = make(attn.w_qkv.weight, attn.w_qkv.bias), make(attn.w_o.weight, attn.w_o.bias)
        self.w_q = (Int8Linear(attn.w_qkv.weight, attn.w_qkv.bias, rows=d, weight_only=weight_only) if own_query
                    else None)

    def _query(self, x: Tensor) -> Tensor:
        return self.w_q(x)


def _int8_layer(layer: DecoderLayer, weight_only: bool | None) -> DecoderLayer:
    """A copy of a decoder layer whose projections are int8; its layer norms are shared, not copied."""
    out = copy.copy(layer)  # shallow: then give it its own table of sub-modules before replacing any
    out._modules = dict(layer._modules)
    out.self_attn = Int8Attention(layer.self_attn, weight_only)
    out.cross_attn = Int8Attention(layer.cross_attn, weight_only)
    ff = layer.feed_forward
    out.feed_forward = PositionwiseFeedForward(ff.w_1.in_features, ff.w_1.out_features, ff.activation)
    out.feed_forward.w_1 = Int8Linear.of(ff.w_1, weight_only)
    out.feed_forward.w_2 = Int8Linear.of(ff.w_2, weight_only)
    return out


class Int8SearchModel(Transformer):
    """The model the search runs: the fp32 encoder and embedding of ``model`` (shared), an int8 decoder
    and an int8 copy of the output projection. For inference only; built in ~20 ms.
    weight_only: the kernel of every product (``Int8Linear``); None chooses per machine."""

    def __init__(self, model: Transformer, weight_only: bool | None = None) -> None:
        nn.Module.__init__(self)  # not Transformer.__init__: every module is taken from ``model``
        self.cfg = model.cfg
        self.embedding, self.positional, self.dropout = model.embedding, model.positional, model.dropout
        self.embed_scale, self.final_logits_bias = model.embed_scale, model.final_logits_bias
        self.src_embedding, self.output_weight = model.src_embedding, model.output_weight
        self.encoder = model.encoder
        self.decoder = nn.ModuleList(_int8_layer(layer, weight_only) for layer in model.decoder)
        self.output = Int8Linear(model.output_projection, model.final_logits_bias, weight_only=weight_only)
        self.eval()

    def generator(self, hidden: Tensor) -> Tensor:
        return self.output(hidden)


@functools.cache
def reduce_range() -> bool:
    """Whether activations must be quantised to 7 bits (``reduce_range``) for the kernel to be right here.

    Without VNNI (AVX2 alone: AMD Zen 3, older Intel) fbgemm multiplies 8-bit activations by 8-bit
    weights in pairs summed to 16 bits with saturation (``vpmaddubsw``): large activations times large
    weights of one sign clip. Measured on an AMD Zen 3 machine: 6–9 % relative error per product with
    8-bit activations against 1.3–1.6 % with 7-bit ones (13.5 % against 0.05 % on the clipping case
    below); greedy drafts of 150 held-out sentences needed 1.11 checks a sentence against 1.09, so the
    speed hardly changed, but an int8 copy that far off is not what it claims to be. With VNNI the pairs
    sum to 32 bits and 8-bit activations are the more exact. So the kernel is asked once, on the case that
    clips if anything does: activations near the top of their range times weights of +127.
    """
    x = torch.linspace(0.5, 1.0, 64).view(1, 64)
    w = torch.ones(8, 64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = torch.ops.quantized.linear_dynamic(x, pack_weight(w, None), False)
    ref = x @ w.t()
    return float((y - ref).norm() / ref.norm()) > 0.01


@functools.cache
def available() -> bool:
    """Whether this PyTorch build has a working int8 kernel on this CPU: the one ``Int8Linear`` chooses."""
    try:
        gen = torch.Generator().manual_seed(0)
        w, b, x = (torch.randn(16, 32, generator=gen), torch.randn(16, generator=gen),
                   torch.randn(3, 32, generator=gen))
        y = Int8Linear(w, b)(x)
    except (RuntimeError, AttributeError, NotImplementedError):
        return False
    ref = x @ w.t() + b
    return bool(torch.isfinite(y).all()) and float((y - ref).norm() / ref.norm()) < 0.05


@functools.cache
def weight_only_available() -> bool:
    """Whether this PyTorch has the weight-only int8 kernel and it computes what it should on this CPU."""
    if getattr(torch, "_weight_int8pack_mm", None) is None:
        return False
    gen = torch.Generator().manual_seed(0)
    w, b, x = (torch.randn(16, 64, generator=gen), torch.randn(16, generator=gen),
               torch.randn(2, 3, 64, generator=gen))
    try:
        y = weight_only_product(x, *int8_rows(w, b))
    except (RuntimeError, NotImplementedError):
        return False
    ref = x @ w.t() + b
    return bool(torch.isfinite(y).all()) and float((y - ref).norm() / ref.norm()) < 0.05


def weight_only_kernel() -> bool:
    """Whether the search copy's products use the weight-only kernel on this machine: where fbgemm lacks
    VNNI (``reduce_range``) and the kernel works (module docstring: measured faster there, and closer)."""
    return reduce_range() and weight_only_available()


def search_model(model: Transformer, weight_only: bool | None = None) -> Transformer | None:
    """The int8 search copy of a CPU model, or None where int8 search cannot run (GPU, no kernels).
    weight_only: as ``Int8SearchModel`` takes it (the benchmarks and tests choose; None: per machine)."""
    if next(model.parameters()).device.type != "cpu" or not available():
        return None
    with torch.inference_mode(False), torch.no_grad():
        return Int8SearchModel(model, weight_only)


def search_copy(loaded: LoadedModel) -> Transformer | None:
    """The int8 search copy of a loaded model, built on first use and kept on it; None when off or unavailable."""
    if not loaded.int8_search:
        return None
    if loaded.search_cache is None:
        loaded.search_cache = search_model(loaded.model) or False
    return loaded.search_cache or None

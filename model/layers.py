"""The Transformer's building blocks, in the paper's order and names (section 3).

Attention has two paths. Training and plain inference use ``F.scaled_dot_product_attention`` (fused,
no weights materialised). The explicit path computes softmax(QKᵀ/√d_k) itself and returns the
post-softmax weights; it runs only when a caller asks for them (``need_weights=True``). Nothing is ever
stored on a module: weights travel back through return values.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from model.config import ModelConfig
from model.kv_cache import KVCache
from model.packed_linear import Linear, linear
from model.packing import Packing


def attention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None,
              dropout: float = 0.0) -> tuple[Tensor, Tensor]:
    """Scaled dot-product attention, eq. (1), returning (output, post-softmax weights).

    q: (B, H, T, d_k), k and v: (B, H, S, d_k), mask: bool, broadcastable to (B, H, T, S), True = may attend.
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, S)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)
    p = F.dropout(weights, dropout) if dropout > 0 else weights
    return p @ v, weights  # (B, H, T, d_k), (B, H, T, S)


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head_1..head_h) W^O, with one fused input projection.

    ``w_qkv`` stacks W^Q, W^K, W^V row-wise exactly like ``nn.MultiheadAttention.in_proj_weight``, so
    self-attention is one matmul and weights copy over one-to-one in tests.
    """

    def __init__(self, d_model: int, n_heads: int, attn_dropout: float = 0.0) -> None:
        super().__init__()
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.attn_dropout = attn_dropout
        self.w_qkv = Linear(d_model, 3 * d_model)
        self.w_o = Linear(d_model, d_model)

    def _split(self, x: Tensor) -> Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_k).transpose(1, 2)  # (B, H, T, d_k)

    def project_kv(self, memory: Tensor, packing: Packing | None = None) -> tuple[Tensor, Tensor]:
        """K and V of the encoder output for cross-attention: computed once per sentence when decoding."""
        return self._heads_kv(self._cross_products(None, memory)[1], packing)

    def _split_weights(self) -> tuple[tuple[Tensor, Tensor], tuple[Tensor, Tensor]]:
        """((W^Q, b^Q), (W^K;W^V, b^K;b^V)) as views of w_qkv; one split, so backward is one copy."""
        d = self.w_o.in_features
        w_q, w_kv = self.w_qkv.weight.split([d, 2 * d])
        b_q, b_kv = self.w_qkv.bias.split([d, 2 * d])
        return (w_q, b_q), (w_kv, b_kv)

    def _query(self, x: Tensor) -> Tensor:
        """x W^Q + b^Q alone, the first third of the fused projection (cross-attention while decoding)."""
        return linear(x, self.w_qkv.weight, self.w_qkv.bias, slice(0, self.w_o.in_features))

    def _cross_products(self, x: Tensor | None, memory: Tensor) -> tuple[Tensor | None, Tensor]:
        """Cross-attention's x W^Q + b^Q (None without x) and memory [W^K;W^V] + b, (…, D) and (…, 2D).

        Training takes both from one split of w_qkv (its backward is then one copy); inference takes
        the rows of w_qkv through their packed copies (model/packed_linear.py), as a decoding step does.
        """
        if torch.is_grad_enabled():
            (w_q, b_q), (w_kv, b_kv) = self._split_weights()
            return None if x is None else F.linear(x, w_q, b_q), F.linear(memory, w_kv, b_kv)
        d = self.w_o.in_features
        kv = linear(memory, self.w_qkv.weight, self.w_qkv.bias, slice(d, 3 * d))
        return None if x is None else self._query(x), kv

    def _heads_kv(self, kv: Tensor, packing: Packing | None) -> tuple[Tensor, Tensor]:
        """(B, S, 2D), or (N, 2D) with its packing → K and V, each (B, H, S, d_k)."""
        if packing is not None:
            kv = packing.unpack(kv)
        k, v = kv.chunk(2, dim=-1)
        return self._split(k), self._split(v)

    def heads(self, x: Tensor, memory: Tensor | None = None, mask: Tensor | None = None,
              is_causal: bool = False) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """Q, K, V split into heads and each head's output before W^O, all (B, H, ·, d_k).

        The formula walkthrough's opt-in capture (model/analysis/vectors.py); ordinary translation never
        calls it. Arguments as in ``forward`` (no cache, no packing): memory given = cross-attention.
        """
        if memory is None:
            q, k, v = (self._split(a) for a in self.w_qkv(x).chunk(3, dim=-1))
        else:
            q = self._split(self._query(x))
            k, v = self.project_kv(memory)
        if is_causal:
            t, s = q.size(2), k.size(2)
            causal = torch.ones(t, s, dtype=torch.bool, device=x.device).tril(diagonal=s - t)
            mask = causal if mask is None else mask & causal
        out, _ = attention(q, k, v, mask)
        return q, k, v, out

    def forward(self, x: Tensor, memory: Tensor | None = None, mask: Tensor | None = None,
                is_causal: bool = False, need_weights: bool = False, cache: KVCache | None = None,
                static_kv: tuple[Tensor, Tensor] | None = None, head_mask: Tensor | None = None,
                packing: Packing | None = None, memory_packing: Packing | None = None,
                ) -> tuple[Tensor, Tensor | None]:
        """x: (B, T, D) queries. Self-attention when memory and static_kv are None, else cross-attention.

        mask: bool (B, 1, T|1, S), True = may attend. is_causal: mask the future (self-attention only).
        cache: keys/values of earlier decoding steps (self-attention). static_kv: precomputed cross K, V.
        head_mask: (H,) multipliers on each head's output (0 removes a head), for ablation; or (B, H), one
            row per batch row, so many ablations decode as one batch (model/analysis/batched_ablation.py).
        packing: x holds only the real tokens, (N, D) (see ``Packing``), and so does the output.
        memory_packing: likewise for memory (cross-attention).
        """
        d = self.w_o.in_features
        if memory is None and static_kv is None:
            qkv = self.w_qkv(x)
            if packing is not None:
                qkv = packing.unpack(qkv)  # (B, T, 3D): attention needs the padded layout
            q, k, v = (self._split(a) for a in qkv.chunk(3, dim=-1))
            if cache is not None:
                k, v = cache.append(k, v)
        elif static_kv is not None:  # decoding: K and V were projected once per sentence
            q = self._split(self._query(x))
            k, v = static_kv
        else:
            q, kv = self._cross_products(x, memory)
            q = self._split(q if packing is None else packing.unpack(q))
            k, v = self._heads_kv(kv, memory_packing)
        b, _, t, _ = q.shape
        if is_causal and t == 1:
            is_causal = False  # one new query at the end of the cache may see every key so far
        if is_causal and (mask is not None or need_weights or t != k.size(2)):
            # Build the causal mask explicitly; with a cache the T new queries sit at the end.
            s = k.size(2)
            causal = torch.ones(t, s, dtype=torch.bool, device=x.device).tril(diagonal=s - t)
            mask = causal if mask is None else mask & causal
            is_causal = False
        drop = self.attn_dropout if self.training else 0.0
        if need_weights:
            out, weights = attention(q, k, v, mask, drop)
        else:
            if q.device.type == "cpu" and torch.is_autocast_enabled("cpu"):
                # CPU bf16 autocast: the bf16 attention kernel's backward is ~7x slower than fp32's
                # (measured, torch 2.13) and would cancel the faster bf16 projections; attention
                # itself is a small share of the arithmetic, so it stays fp32.
                with torch.autocast("cpu", enabled=False):
                    out = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), attn_mask=mask,
                                                         dropout_p=drop, is_causal=is_causal)
            else:
                out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=drop,
                                                     is_causal=is_causal)
            weights = None
        if head_mask is not None:
            rows = head_mask.size(0) if head_mask.dim() == 2 else 1  # (B, H) per row, or (H,) for all rows
            out = out * head_mask.view(rows, -1, 1, 1).to(out.dtype)
        out = out.transpose(1, 2).reshape(b, t, d)  # concatenate heads: (B, T, D)
        if packing is not None:
            out = packing.pack(out)
        return self.w_o(out), weights


# The feed-forward layer's non-linearity: the paper's ReLU, or what an imported model was trained with
# (OPUS-MT's Marian models use swish, x·σ(x), which PyTorch calls SiLU).
ACTIVATION_FUNCTIONS = {"relu": F.relu, "swish": F.silu, "gelu": F.gelu}


class PositionwiseFeedForward(nn.Module):
    """FFN(x) = max(0, xW1 + b1)W2 + b2, eq. (2); another activation in place of max(0, ·) if asked."""

    def __init__(self, d_model: int, d_ff: int, activation: str = "relu") -> None:
        super().__init__()
        self.w_1 = Linear(d_model, d_ff)
        self.w_2 = Linear(d_ff, d_model)
        self.activation = activation
        self._act = ACTIVATION_FUNCTIONS[activation]

    def forward(self, x: Tensor) -> Tensor:
        return self.w_2(self._act(self.w_1(x)))


class PositionalEncoding(nn.Module):
    """Sinusoidal encoding, section 3.5: PE(pos, 2i) = sin(pos/10000^(2i/d)), PE(pos, 2i+1) = cos(...).

    Computed for any length: the table grows on demand, so no sentence is ever too long for it.
    It is a non-persistent buffer, so checkpoints do not carry it. ``layout="halves"`` puts the same
    sines in the first half of the dimensions and the cosines in the second (Marian's layout).
    """

    def __init__(self, d_model: int, layout: str = "interleaved") -> None:
        super().__init__()
        self.d_model, self.layout = d_model, layout
        # Computed on the CPU even inside ``torch.device("meta")`` (model.folder_checks.expected_shapes): the
        # meta versions of arange/sin/pow are Python kernels whose first use imports torch._dynamo (~1.4 s).
        with torch.device("cpu"):
            table = sinusoidal_table(256, d_model, layout)
        self.register_buffer("table", table, persistent=False)

    def forward(self, length: int, offset: int = 0) -> Tensor:
        end = offset + length
        if end > self.table.size(0):
            # Grown as a normal tensor even while decoding under inference_mode, so that training the
            # same model afterwards (the live probe does this) may still use it.
            with torch.inference_mode(False):
                self.table = sinusoidal_table(max(end, 2 * self.table.size(0)), self.d_model,
                                              self.layout).to(self.table.device)
        return self.table[offset:end]  # (T, D)


def sinusoidal_table(n_positions: int, d_model: int, layout: str = "interleaved") -> Tensor:
    pos = torch.arange(n_positions, dtype=torch.float64).unsqueeze(1)  # (P, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (D/2,)
    angle = pos / torch.pow(10000.0, two_i / d_model)  # (P, D/2); float64 so long positions stay exact
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    if layout == "halves":  # the same values, in another order: dims [0, ⌈D/2⌉) sines, the rest cosines
        half = (d_model + 1) // 2
        pe[:, :half] = torch.sin(angle)
        pe[:, half:] = torch.cos(angle[:, : d_model // 2])
        return pe.float()
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe.float()


class EncoderLayer(nn.Module):
    """Self-attention then feed-forward; each sub-layer is LayerNorm(x + Dropout(Sublayer(x))) (post-LN)."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.attn_dropout)
        self.norm_1 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.feed_forward = PositionwiseFeedForward(cfg.d_model, cfg.d_ff, cfg.activation)
        self.norm_2 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x: Tensor, src_mask: Tensor | None, need_weights: bool = False,
                head_mask: Tensor | None = None, packing: Packing | None = None) -> tuple[Tensor, Tensor | None]:
        """x: (B, S, D), or (N, D) real tokens only when ``packing`` is given."""
        a, w = self.self_attn(x, mask=src_mask, need_weights=need_weights, head_mask=head_mask,
                              packing=packing)
        x = self.norm_1(x + self.dropout(a))
        x = self.norm_2(x + self.dropout(self.feed_forward(x)))
        return x, w


class DecoderLayer(nn.Module):
    """Masked self-attention, encoder-decoder attention, feed-forward; post-LN residuals."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.attn_dropout)
        self.norm_1 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.cross_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.attn_dropout)
        self.norm_2 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.feed_forward = PositionwiseFeedForward(cfg.d_model, cfg.d_ff, cfg.activation)
        self.norm_3 = nn.LayerNorm(cfg.d_model, eps=cfg.norm_eps)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x: Tensor, memory: Tensor | None, src_mask: Tensor | None,
                need_weights: bool = False, cache: KVCache | None = None,
                static_kv: tuple[Tensor, Tensor] | None = None,
                head_masks: tuple[Tensor | None, Tensor | None] = (None, None),
                packing: Packing | None = None, memory_packing: Packing | None = None,
                ) -> tuple[Tensor, Tensor | None, Tensor | None]:
        """x: (B, T, D), memory: (B, S, D); either (N, D) real tokens only with its ``Packing``.

        A packed x may drop any position after a sentence's last needed one: the future is masked.
        """
        a, w_self = self.self_attn(x, is_causal=True, need_weights=need_weights, cache=cache,
                                   head_mask=head_masks[0], packing=packing)
        x = self.norm_1(x + self.dropout(a))
        a, w_cross = self.cross_attn(x, memory=memory, mask=src_mask, need_weights=need_weights,
                                     static_kv=static_kv, head_mask=head_masks[1], packing=packing,
                                     memory_packing=memory_packing)
        x = self.norm_2(x + self.dropout(a))
        x = self.norm_3(x + self.dropout(self.feed_forward(x)))
        return x, w_self, w_cross

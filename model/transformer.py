"""The encoder-decoder Transformer (figure 1 of the paper): encode, decode, generate logits."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor, nn
from torch.overrides import TorchFunctionMode

from model import packed_linear
from model.config import ModelConfig
from model.fused_loss import linear_cross_entropy
from model.kv_cache import KVCache
from model.layers import DecoderLayer, EncoderLayer, PositionalEncoding
from model.packing import Packing


@dataclass
class Captured:
    """Per-layer post-softmax weights returned by a capturing forward pass (torch tensors)."""

    encoder_self: list[Tensor]  # L × (B, H, S, S)
    decoder_self: list[Tensor]  # L × (B, H, T, T)
    cross: list[Tensor]  # L × (B, H, T, S)


class DecoderState:
    """What incremental decoding carries between steps: self-attention caches, cross K/V, position."""

    def __init__(self, model: Transformer, memory: Tensor, src: Tensor | None = None,
                 rows: int | None = None, cross_kv: list[tuple[Tensor, Tensor]] | None = None) -> None:
        """memory: (B, S, D) for B sentences; or, with ``rows``, one sentence (1, S, D) that ``rows``
        hypotheses (a beam) decode together: its cross K/V are then shared views, never copied.

        cross_kv: another state's cross K/V over the same memory, when ``model`` projects memory with the
        same weights (the int8 search copy keeps the fp32 ones: model/decoding/int8.py); computed once."""
        self.self_caches = [KVCache() for _ in model.decoder]
        if cross_kv is None:
            cross_kv = [layer.cross_attn.project_kv(memory) for layer in model.decoder]
        self.cross_kv = list(cross_kv)
        self.shared_source = rows is not None
        if rows is not None:
            self.cross_kv = [(k.expand(rows, -1, -1, -1), v.expand(rows, -1, -1, -1)) for k, v in self.cross_kv]
        self.position = 0
        # The source padding mask, made once per sentence rather than at every step; None when nothing
        # is padded (a single sentence), which also spares attention from applying it.
        self.src_mask, self.mask_known = None, src is not None
        if src is not None:
            mask = padding_mask(src, model.cfg.pad_id)
            self.src_mask = None if bool(mask.all()) else mask

    def rewind(self, position: int) -> None:
        """Go back to just after ``position`` fed pieces, as if the later ones had never been fed."""
        for cache in self.self_caches:
            cache.truncate(position)
        self.position = min(self.position, position)

    def reorder(self, index: Tensor) -> None:
        """Follow the surviving beams: row i continues the hypothesis of row index[i]."""
        for cache in self.self_caches:
            cache.reorder(index)
        if self.shared_source:
            return  # every row attends to the same sentence: nothing else depends on the row
        self.cross_kv = [(k.index_select(0, index), v.index_select(0, index)) for k, v in self.cross_kv]
        if self.src_mask is not None:
            self.src_mask = self.src_mask.index_select(0, index)


def layer_mask(mask: Tensor | None, layer: int) -> Tensor | None:
    """One layer's head multipliers from an (L, H) mask, shared by every row, or a (B, L, H) one, per row."""
    if mask is None:
        return None
    return mask[:, layer] if mask.dim() == 3 else mask[layer]


def padding_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """(B, S) token ids → bool (B, 1, 1, S), True where a key is a real token (may be attended)."""
    return (tokens != pad_id)[:, None, None, :]


class Transformer(nn.Module):
    # ``encode``'s native path, set on a model loaded with the native kernel chosen (model/checkpoint.py)
    native_encode = None

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        # One embedding for source, target and the pre-softmax projection (section 3.4). Unshared, it
        # stays the target embedding and the source side and the output projection get their own; the
        # source's may then have its own vocabulary (cfg.source_vocab_size rows).
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.src_embedding = (None if cfg.share_embeddings
                              else nn.Embedding(cfg.source_vocab_size, cfg.d_model, padding_idx=cfg.pad_id))
        self.output_weight = None if cfg.share_embeddings else nn.Parameter(torch.empty(cfg.vocab_size, cfg.d_model))
        self.positional = PositionalEncoding(cfg.d_model, cfg.pe_layout)
        # A fixed (V,) bias on the logits (Marian's final_logits_bias): a buffer, as there, so it is saved
        # with the weights but never trained.
        self.register_buffer("final_logits_bias", torch.zeros(cfg.vocab_size) if cfg.final_logits_bias else None)
        self.embed_scale = math.sqrt(cfg.d_model) if cfg.scale_embedding else 1.0
        self.dropout = nn.Dropout(cfg.dropout)
        self.encoder = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.n_layers))
        self.decoder = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.n_layers))
        self._init_weights()

    def _init_weights(self) -> None:
        # Xavier for projections (as in tensor2tensor); embeddings ~ N(0, d^-1/2) so that after the
        # √d_model scaling they have unit variance, comparable to the positional encoding.
        tables = {"embedding.weight", "src_embedding.weight", "output_weight"}
        for name, p in self.named_parameters():
            if name in tables:
                nn.init.normal_(p, std=self.cfg.d_model ** -0.5)
            elif p.dim() == 2:
                nn.init.xavier_uniform_(p)
            elif name.endswith("bias"):
                nn.init.zeros_(p)
        with torch.no_grad():
            for table in (self.embedding, self.src_embedding):
                if table is not None:
                    table.weight[self.cfg.pad_id].zero_()

    @property
    def output_projection(self) -> Tensor:
        """The (V, D) pre-softmax matrix: the shared embedding unless the config unties it."""
        return self.embedding.weight if self.output_weight is None else self.output_weight

    def embed(self, tokens: Tensor, offset: int = 0, source: bool = False) -> Tensor:
        table = self.src_embedding if source and self.src_embedding is not None else self.embedding
        x = table(tokens) * self.embed_scale  # (B, T, D)
        return self.dropout(x + self.positional(tokens.size(1), offset).to(x.dtype))

    def encode(self, src: Tensor, need_weights: bool = False,
               head_mask: Tensor | None = None) -> tuple[Tensor, list[Tensor]]:
        """src: (B, S) ids → memory (B, S, D) and, if asked, L × (B, H, S, S) weights.

        head_mask: (L, H) multipliers for encoder self-attention heads (ablation), or (B, L, H) with one
        row per sentence (many ablations in one batch); None = all heads.
        """
        if self.native_encode is not None:  # a loaded model's short sentence: one C call (model/native/encoder.py)
            done = self.native_encode(self, src, need_weights, head_mask)
            if done is not None:
                return done
        mask = padding_mask(src, self.cfg.pad_id)
        x, weights = self.embed(src, source=True), []
        for i, layer in enumerate(self.encoder):
            x, w = layer(x, mask, need_weights, layer_mask(head_mask, i))
            if need_weights:
                weights.append(w)
        return x, weights

    def decode(self, tgt: Tensor, memory: Tensor, src: Tensor, need_weights: bool = False,
               state: DecoderState | None = None, head_masks: dict[str, Tensor] | None = None,
               ) -> tuple[Tensor, list[Tensor], list[Tensor]]:
        """tgt: (B, T) decoder input ids (starting with <s>) → hidden (B, T, D) and optional weights.

        With ``state`` only the new positions are fed (usually T = 1) and keys/values of earlier
        positions come from the cache. head_masks: {kind: (L, H) or per row (B, L, H)} as for ``encode``.
        """
        if state is not None and state.mask_known:
            mask = state.src_mask
        else:
            mask = padding_mask(src, self.cfg.pad_id)
        offset = state.position if state is not None else 0
        x = self.embed(tgt, offset)
        hm = head_masks or {}
        self_w, cross_w = [], []
        for i, layer in enumerate(self.decoder):
            masks = (layer_mask(hm.get("decoder"), i), layer_mask(hm.get("cross"), i))
            x, ws, wc = layer(x, memory, mask, need_weights,
                              cache=state.self_caches[i] if state is not None else None,
                              static_kv=state.cross_kv[i] if state is not None else None,
                              head_masks=masks)
            if need_weights:
                self_w.append(ws)
                cross_w.append(wc)
        if state is not None:
            state.position += tgt.size(1)
        return x, self_w, cross_w

    def generator(self, hidden: Tensor) -> Tensor:
        """Pre-softmax projection (tied to the embedding by default): (B, T, D) → logits (B, T, V)."""
        if torch.is_grad_enabled():  # training: autograd's product (fused_loss.py has its own, chunked)
            logits = hidden @ self.output_projection.t()
            return logits if self.final_logits_bias is None else logits + self.final_logits_bias
        return packed_linear.linear(hidden, self.output_projection, self.final_logits_bias)

    def next_logits(self, hidden: Tensor) -> Tensor:
        """The generator's logits for choosing a next piece: padding is never a choice (-inf).

        It is never a training target either, but an imported model (Marian, whose decoder also starts
        from the pad id) may give it a high score.
        """
        logits = self.generator(hidden)
        logits[..., self.cfg.pad_id] = float("-inf")
        return logits

    def forward(self, src: Tensor, tgt: Tensor, need_weights: bool = False,
                head_masks: dict[str, Tensor] | None = None, target: Tensor | None = None,
                label_smoothing: float = 0.0) -> tuple[Tensor, Captured | None]:
        """Teacher-forced pass: logits (B, T, V) and, when asked, every layer's attention weights.

        With ``target`` (B, T) it returns (training loss, None) instead, computed by ``loss``. Going
        through forward lets a DistributedDataParallel wrapper see the call.
        """
        if target is not None:
            return self.loss(src, tgt, target, label_smoothing), None
        hm = head_masks or {}
        memory, enc_w = self.encode(src, need_weights, hm.get("encoder"))
        hidden, dec_w, cross_w = self.decode(tgt, memory, src, need_weights, head_masks=hm)
        captured = Captured(enc_w, dec_w, cross_w) if need_weights else None
        return self.generator(hidden), captured

    def loss(self, src: Tensor, tgt_in: Tensor, tgt_out: Tensor, label_smoothing: float = 0.0) -> Tensor:
        """Mean over non-pad targets of the label-smoothed cross-entropy (section 5.4); the training path.

        Equals ``cross_entropy(self(src, tgt_in)[0], tgt_out, ignore_index=pad, label_smoothing=ε)`` but
        does less work. Every position-wise layer (the projections, feed-forward, norms, dropout, and
        the output projection with its softmax, the largest matrices of a step with a big
        vocabulary) runs on the tokens that matter alone (see ``Packing``): real source tokens, and the
        decoder positions that predict a real target. A sentence's decoder positions after its last
        target are dropped too: masked self-attention never lets earlier positions see them.
        """
        pad = self.cfg.pad_id
        src_pack, tgt_pack = Packing(src != pad), Packing(tgt_out != pad)
        n_src = src_pack.index.numel()
        src_ids = src.reshape(-1).index_select(0, src_pack.index)
        tgt_ids = tgt_in.reshape(-1).index_select(0, tgt_pack.index)
        table = self.positional(max(src.size(1), tgt_in.size(1)))
        pe = torch.cat([table.index_select(0, src_pack.positions), table.index_select(0, tgt_pack.positions)])
        if self.src_embedding is None:  # one lookup for both sides: its backward builds one dense (V, D) gradient
            x = self.embedding(torch.cat([src_ids, tgt_ids]))
        else:
            x = torch.cat([self.src_embedding(src_ids), self.embedding(tgt_ids)])
        x = x * self.embed_scale
        x, y = self.dropout(x + pe.to(x.dtype)).split([n_src, x.size(0) - n_src])  # (N_s, D), (N_t, D)
        for layer in self.encoder:
            x, _ = layer(x, src_pack.key_mask, packing=src_pack)
        for layer in self.decoder:
            y, _, _ = layer(y, x, src_pack.key_mask, packing=tgt_pack, memory_packing=src_pack)
        target = tgt_out.reshape(-1).index_select(0, tgt_pack.index)  # rows in the order of tgt_pack.index
        weight = self.output_projection
        if self.final_logits_bias is not None:  # folded in as one more input dimension that is always 1
            y = torch.cat([y, y.new_ones(y.size(0), 1)], dim=1)
            weight = torch.cat([weight, self.final_logits_bias[:, None].to(weight.dtype)], dim=1)
        # The generator and the loss in one chunked pass: the (N_t, V) logits never exist whole.
        return linear_cross_entropy(y, weight, target, label_smoothing)

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())


class _SkipInit(TorchFunctionMode):
    """Turns the initialisers (``nn.init.*`` and the tensors' in-place fills) into no-ops while a model is built.

    For a model whose every weight is about to be replaced, or that only gives names and shapes. On the meta
    device this also matters for time: a meta tensor's ``normal_`` is a Python reference kernel whose first call
    imports torch._dynamo (1.4–1.9 s of a command-line translation, measured).
    """

    FILLS = frozenset({"normal_", "uniform_", "zero_", "zeros_", "ones_", "fill_", "constant_", "trunc_normal_",
                       "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_"})

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") in self.FILLS:
            return args[0] if args else kwargs["tensor"]  # the tensor, untouched
        return func(*args, **(kwargs or {}))


def uninitialised(cfg: ModelConfig, device: str = "meta") -> Transformer:
    """A Transformer for ``cfg`` whose weights hold whatever memory held (nothing at all on the meta device):
    its names, shapes and parameter count without the cost of initialising, or a body for loaded weights."""
    with torch.device(device), _SkipInit():
        return Transformer(cfg)

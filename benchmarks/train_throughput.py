"""Training throughput: our Transformer against ``torch.nn.Transformer`` doing the same work.

Both models get the same batches (identical padded tensors), fp32, the same torch threads, the same loss
(label-smoothed cross-entropy, ε = 0.1, mean over non-pad targets), the same optimizer (Adam, fused, the
paper's betas) and the same gradient clipping as ``model.training.train``. Steps alternate ours / theirs and the
figure is the median over rounds of time(theirs) / time(ours), so a busy machine slows both alike.

The reference is built from PyTorch's modules with the preset's sizes: ``nn.Transformer(d_model, nhead,
d_ff, layers, dropout, batch_first=True, norm_first=False)``, one ``nn.Embedding`` shared by source,
target and the output projection (tied, as in the paper), the same sinusoidal positional encoding and
embedding scaling. It computes logits at every position and lets ``cross_entropy(ignore_index=pad)``
skip the padding, the usual way to use it. Built that way, PyTorch's layers apply ``dropout`` in two
places the paper (and our model) does not: on the attention weights and between the two feed-forward
layers. The headline ratio is against that stock module; a second reference with those two dropouts
set to 0 ("matched") does exactly our arithmetic, so its ratio shows what the implementation alone
gains.

Batches: sentence-pair lengths are drawn (with replacement, pairs kept together) from the validation set
of the Ding corpus under the model's tokenizer, or from a log-normal around 20 pieces when there is no
corpus; ``model.training.data.make_batches`` groups them as training does.

FLOPs of one step (for MFU) are counted from the real (non-pad) tokens: every weight matrix does 2
FLOPs per weight per token forward and 4 backward, so a step costs 6 · Σ(matmul weights × tokens through
them), plus attention: QKᵀ and A·V are 2 · 2 · d FLOPs per query-key pair forward (×3 with backward),
with S² pairs per sentence in the encoder, T(T+1)/2 in the decoder's masked self-attention and T·S in
cross-attention. Encoder layers apply 4d² + 2·d·d_ff weights to each source token; decoder layers 6d² +
2·d·d_ff to each target token and 2d² (cross-attention K, V) to each source token; the tied projection
d·V to each target token. Embedding lookups, norms, softmax and the optimizer are not counted.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from benchmarks.machine import interleaved, matmul_operands, median_ratio, sgemm_seconds
from model.config import BOS_ID, EOS_ID, ModelConfig, preset
from model.layers import sinusoidal_table
from model.tokenizer import Tokenizer
from model.training.data import Encoded, collate, make_batches
from model.training.device import cpu_has_native_bf16
from model.transformer import Transformer

EPS, CLIP, LR = 0.1, 1.0, 1e-4  # label smoothing and clipping as model.training.train's defaults


class TorchTransformer(nn.Module):
    """``torch.nn.Transformer`` with the paper's shared embedding, positional encoding and tied output."""

    def __init__(self, cfg: ModelConfig, matched: bool = False) -> None:
        super().__init__()
        self.cfg = cfg
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.register_buffer("pe", sinusoidal_table(512, cfg.d_model), persistent=False)
        self.dropout = nn.Dropout(cfg.dropout)
        self.transformer = nn.Transformer(cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.n_layers, cfg.d_ff,
                                          cfg.dropout, batch_first=True, norm_first=False)
        for module in self.transformer.modules() if matched else ():  # see the module docstring
            if isinstance(module, nn.MultiheadAttention):
                module.dropout = cfg.attn_dropout
            if isinstance(module, (nn.TransformerEncoderLayer, nn.TransformerDecoderLayer)):
                module.dropout.p = 0.0

    def embed(self, tokens: Tensor) -> Tensor:
        x = self.embedding(tokens) * math.sqrt(self.cfg.d_model)
        return self.dropout(x + self.pe[: tokens.size(1)])

    def forward(self, src: Tensor, tgt: Tensor) -> Tensor:
        pad = src == self.cfg.pad_id
        causal = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        hidden = self.transformer(self.embed(src), self.embed(tgt), tgt_mask=causal, tgt_is_causal=True,
                                  src_key_padding_mask=pad, memory_key_padding_mask=pad)
        return hidden @ self.embedding.weight.t()  # (B, T, V)


def our_step(model: Transformer, optimizer, src: Tensor, tgt: Tensor) -> None:
    """The training step of ``model.training.train``: loss on the fast path, backward, clip, Adam."""
    loss, _ = model(src, tgt[:, :-1], target=tgt[:, 1:], label_smoothing=EPS)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    optimizer.step()


def our_bf16_step(model: Transformer, optimizer, src: Tensor, tgt: Tensor) -> None:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        our_step(model, optimizer, src, tgt)  # backward and Adam run outside autocast's casts anyway


def reference_step(model: TorchTransformer, optimizer, src: Tensor, tgt: Tensor) -> None:
    logits = model(src, tgt[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), tgt[:, 1:].reshape(-1),
                           ignore_index=model.cfg.pad_id, label_smoothing=EPS)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    optimizer.step()


def adam(model: nn.Module) -> torch.optim.Optimizer:
    return torch.optim.Adam(model.parameters(), lr=LR, betas=(0.9, 0.98), eps=1e-9, fused=True)


def pair_lengths(tok: Tokenizer | None, corpus: Path | None, n: int,
                 seed: int = 0) -> tuple[np.ndarray, np.ndarray, str]:
    """n (source, target) lengths in pieces with their special tokens (source + </s>, <s> + target + </s>)."""
    rng = np.random.default_rng(seed)
    if tok is not None and corpus is not None:
        en = (corpus / "valid.en").read_text(encoding="utf-8").splitlines()
        de = (corpus / "valid.de").read_text(encoding="utf-8").splitlines()
        src = np.array([len(tok.encode(s)) + 1 for s in en])
        tgt = np.array([len(tok.encode(t)) + 2 for t in de])
        pick = rng.integers(0, len(src), n)
        return src[pick], tgt[pick], f"{corpus / 'valid.en'} and valid.de, resampled"
    src = np.clip(np.round(rng.lognormal(math.log(20), 0.5, n)), 1, 120).astype(int) + 1
    tgt = np.clip(np.round(src * rng.lognormal(0.1, 0.2, n)), 1, 120).astype(int) + 2
    return src, tgt, "log-normal around 20 pieces"


def make_step_batches(cfg: ModelConfig, src_len: np.ndarray, tgt_len: np.ndarray, batch_tokens: int,
                      count: int, seed: int = 0) -> list[tuple[Tensor, Tensor]]:
    """``count`` padded (src, tgt) batches of random ids, grouped by length as ``make_batches`` does."""
    rng = np.random.default_rng(seed)

    def ids(length: int) -> np.ndarray:
        return rng.integers(4, cfg.vocab_size, length).astype(np.int32)
    data = Encoded([np.append(ids(s - 1), EOS_ID) for s in src_len],
                   [np.concatenate([[BOS_ID], ids(t - 2), [EOS_ID]]).astype(np.int32) for t in tgt_len])
    batches = make_batches(data, batch_tokens, seed, 0)[:count]
    return [tuple(torch.from_numpy(a) for a in collate(data, idx, cfg.pad_id)) for idx in batches]


def step_flops(cfg: ModelConfig, src: Tensor, tgt: Tensor) -> float:
    """Model FLOPs of one training step on real tokens (formula in the module docstring)."""
    d, f, n_layers = cfg.d_model, cfg.d_ff, cfg.n_layers
    s = (src != cfg.pad_id).sum(1).double()  # source lengths
    t = (tgt[:, 1:] != cfg.pad_id).sum(1).double()  # decoder positions that predict a piece
    n_s, n_t = float(s.sum()), float(t.sum())
    weights = n_s * n_layers * (4 * d * d + 2 * d * f + 2 * d * d) \
        + n_t * n_layers * (6 * d * d + 2 * d * f) + n_t * d * cfg.vocab_size
    pairs = n_layers * float((s * s).sum() + (t * (t + 1) / 2).sum() + (t * s).sum())
    return 6.0 * weights + 3 * 2 * 2 * d * pairs


def real_tokens(cfg: ModelConfig, src: Tensor, tgt: Tensor) -> int:
    """Tokens as ``model.training.train`` counts them for tokens/s: non-pad source and target ids."""
    return int((src != cfg.pad_id).sum() + (tgt != cfg.pad_id).sum())


def compare(cfg: ModelConfig, batches: list[tuple[Tensor, Tensor]], rounds: int, gemm_n: int = 0,
            log=print, bf16: bool = False) -> dict:
    """Interleaved steps of ours and both references on the same batches; optionally an sgemm per round,
    and (``bf16``) our step under CPU bf16 autocast, as ``train --cpu-amp`` runs it."""
    torch.manual_seed(0)
    models = {"ours": Transformer(cfg).train(), "torch": TorchTransformer(cfg).train(),
              "torch_matched": TorchTransformer(cfg, matched=True).train()}
    steps = {name: (our_step if name == "ours" else reference_step) for name in models}
    if bf16:
        models["ours_bf16"] = Transformer(cfg).train()
        steps["ours_bf16"] = our_bf16_step
    optimizers = {name: adam(m) for name, m in models.items()}
    for name, model in models.items():  # warm-up: allocator, thread pool, optimizer state
        steps[name](model, optimizers[name], *batches[0])
    state = {"round": 0}

    def case(name: str):
        return lambda: steps[name](models[name], optimizers[name], *batches[state["round"] % len(batches)])
    cases = {name: case(name) for name in models}
    if gemm_n:
        a, b = matmul_operands(gemm_n)
        cases["sgemm"] = lambda: sgemm_seconds(a, b)
    tokens, flops = [], []

    def on_round(r: int, times: dict[str, float]) -> None:
        src, tgt = batches[r % len(batches)]
        tokens.append(real_tokens(cfg, src, tgt))
        flops.append(step_flops(cfg, src, tgt))
        log(f"    round {r + 1}/{rounds}: {tokens[-1]} tokens; " + ", ".join(
            f"{name} {times[name]:.2f} s" for name in models))
        state["round"] += 1
    cpu: dict[str, list[float]] = {}
    wall = interleaved(cases, rounds, on_round, cpu)
    # Single-threaded, a step's CPU time is its compute time without the OS's other guests: the figures
    # come from it then. With several threads the calling thread's CPU time misses the others' work.
    clock = "thread_cpu" if torch.get_num_threads() == 1 else "wall"
    times = cpu if clock == "thread_cpu" else wall
    result = {"clock": clock, "ratio": median_ratio(times["torch"], times["ours"]),
              "ratio_matched": median_ratio(times["torch_matched"], times["ours"]),
              "ratio_wall": median_ratio(wall["torch"], wall["ours"]),
              "ratio_matched_wall": median_ratio(wall["torch_matched"], wall["ours"]),
              "tokens": tokens, "padded_tokens": [int(s.numel() + t.numel()) for s, t in batches[:rounds]]}
    if bf16:
        result["bf16_speedup"] = median_ratio(times["ours"], times["ours_bf16"])
    for name in models:
        result[f"{name}_tokens_per_s"] = float(np.median([n / t for n, t in zip(tokens, times[name])]))
        result[f"{name}_tokens_per_wall_s"] = float(np.median([n / t for n, t in zip(tokens, wall[name])]))
        result[f"{name}_gflops_per_s"] = float(np.median([f / t for f, t in zip(flops, times[name])]) / 1e9)
        result[f"{name}_step_s"] = [round(t, 4) for t in times[name]]
        result[f"{name}_step_wall_s"] = [round(t, 4) for t in wall[name]]
    if gemm_n:
        peak = [2.0 * gemm_n ** 3 / t for t in times["sgemm"]]
        result["sgemm_gflops_p50"] = float(np.median(peak) / 1e9)
        for name in models:
            result[f"{name}_mfu"] = float(np.median([f / t / p for f, t, p in zip(flops, times[name], peak)]))
    return result


def run(tok: Tokenizer | None, corpus: Path | None, quick: bool = False, threads: int = 1, log=print) -> dict:
    """train_ratio_small / train_ratio_base and mfu_base, with the details behind them.

    ``threads``: torch intra-op threads for both models and the sgemm (0 = torch's default). One by
    default: on a shared machine, several threads per op mostly time the OS scheduler (see README).
    """
    default_threads = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        return _run(tok, corpus, quick, log)
    finally:
        torch.set_num_threads(default_threads)


def _run(tok: Tokenizer | None, corpus: Path | None, quick: bool, log) -> dict:
    src_len, tgt_len, origin = pair_lengths(tok, corpus, 4_000 if quick else 20_000)
    out = {"train": {"lengths_from": origin, "threads": torch.get_num_threads(), "dtype": "float32"}}
    plans = {  # preset: (batch tokens, rounds); quick shrinks the models too, it is only a smoke test
        "small": (256, 2) if quick else (4096, 9),
        "base": (256, 2) if quick else (2048, 7),
    }
    for name, (batch_tokens, rounds) in plans.items():
        cfg = preset(name, n_layers=1, vocab_size=2000) if quick else preset(name)
        batches = make_step_batches(cfg, src_len, tgt_len, batch_tokens, rounds)
        log(f"  train {name}: {len(batches)} batches of ≤ {batch_tokens} tokens, {rounds} rounds")
        t0 = time.perf_counter()
        res = compare(cfg, batches, rounds, gemm_n=(256 if quick else 2048) if name == "base" else 0, log=log,
                      bf16=name == "small" and cpu_has_native_bf16())
        res.update(batch_tokens=batch_tokens, rounds=rounds, seconds=round(time.perf_counter() - t0, 1),
                   config=cfg.to_dict())
        out["train"][name] = res
        out[f"train_ratio_{name}"] = res["ratio"]
        out[f"train_ratio_{name}_matched"] = res["ratio_matched"]
    if "bf16_speedup" in out["train"]["small"]:
        out["train_cpu_amp_speedup_small"] = out["train"]["small"]["bf16_speedup"]
    out["mfu_base"] = out["train"]["base"]["ours_mfu"]
    out["mfu_base_torch"] = out["train"]["base"]["torch_mfu"]
    return out

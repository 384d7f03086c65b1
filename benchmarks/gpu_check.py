"""One-command check of a CUDA machine: base-model training speed and memory with AMP, optionally DDP.

    python benchmarks/gpu_check.py                  # one GPU, 300 timed steps of the base model
    python benchmarks/gpu_check.py --gpus 2         # then the real training loop on 2 GPUs via torchrun

The single-GPU part times the same step as ``model.training.train`` (Adam, the paper's schedule, label smoothing,
gradient clipping, bf16 autocast where supported, else fp16 with a loss scaler) on synthetic batches shaped
like real ones: random token ids, sentence lengths drawn from 5–60, batches of about 25k tokens as in the
paper (halved until they fit). ``--gpus N`` trains through ``run_distributed`` on a generated corpus, so it
also checks the launcher, NCCL and checkpointing. Exit codes: 0 ok, 1 training failed, 2 no CUDA device
or bad options.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

# Run from a checkout without installing: the model package sits next to this folder. (model.* is
# imported inside the functions, after this.)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def synthetic_batches(n: int, batch_tokens: int, vocab: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """n (src, tgt) id batches whose padded size rows × (S + T) stays under batch_tokens.

    ``make_batches`` groups sentences of similar length, so each batch draws one length L from 5–60 and
    its rows lengths from 0.8·L to L; targets carry <s> and </s>, sources </s>, and short rows are padded.
    """
    from model.config import BOS_ID, EOS_ID, PAD_ID
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        length = int(rng.integers(5, 61))
        s_len, t_len = length + 1, length + 2
        rows = max(1, batch_tokens // (s_len + t_len))
        src = np.full((rows, s_len), PAD_ID, dtype=np.int64)
        tgt = np.full((rows, t_len), PAD_ID, dtype=np.int64)
        for r in range(rows):
            k = int(rng.integers(max(1, int(0.8 * length)), length + 1))
            src[r, :k] = rng.integers(4, vocab, k)
            src[r, k] = EOS_ID
            tgt[r, 0], tgt[r, k + 1] = BOS_ID, EOS_ID
            tgt[r, 1:k + 1] = rng.integers(4, vocab, k)
        out.append((src, tgt))
    return out


def time_steps(preset_name: str, batch_tokens: int, steps: int, warmup: int, device: str = "cuda:0") -> dict:
    """Train ``steps`` timed steps (after ``warmup`` untimed ones); raises OutOfMemoryError."""
    from model.config import TrainConfig, preset
    from model.training.device import amp_context
    from model.training.schedule import label_smoothed_loss, learning_rate
    from model.transformer import Transformer
    device = torch.device(device)
    cfg = preset(preset_name)
    torch.manual_seed(0)
    model = Transformer(cfg).to(device).train()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9, fused=True)
    autocast, scaler = amp_context(device, TrainConfig(out_dir="", amp=True))
    batches = synthetic_batches(64, batch_tokens, cfg.vocab_size)
    torch.cuda.reset_peak_memory_stats(device)
    times, tokens = [], 0
    for i in range(warmup + steps):
        src, tgt = (torch.from_numpy(a).to(device) for a in batches[i % len(batches)])
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(i + 1, cfg.d_model, 4000)
        optimizer.zero_grad(set_to_none=True)
        with autocast:
            logits, _ = model(src, tgt[:, :-1])
            loss = label_smoothed_loss(logits, tgt[:, 1:], 0.1, cfg.pad_id)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
        else:
            loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if scaler is not None:
            scaler.step(optimizer)
            scaler.update()
        else:
            optimizer.step()
        loss_value = loss.item()  # waits for the GPU, as the training loop's report does
        if i >= warmup:
            times.append(time.perf_counter() - t0)
            tokens += int((src != cfg.pad_id).sum() + (tgt != cfg.pad_id).sum())
    dtype = "bfloat16" if scaler is None else "float16 (with a loss scaler)"
    return {"params": model.num_parameters(), "dtype": dtype, "times": times, "tokens": tokens,
            "peak_gib": torch.cuda.max_memory_allocated(device) / 2**30, "loss": loss_value}


def check_single(args) -> None:
    batch_tokens = args.batch_tokens
    while True:
        try:
            r = time_steps(args.preset, batch_tokens, args.steps, args.warmup)
            break
        except torch.cuda.OutOfMemoryError:
            if batch_tokens < 2000:
                raise
        torch.cuda.empty_cache()  # only out here: inside the except block the traceback holds the tensors
        print(f"  out of memory with {batch_tokens} tokens per batch; trying {batch_tokens // 2}")
        batch_tokens //= 2
    t = r["times"]
    print(f"model: {args.preset} preset, {r['params'] / 1e6:.1f}M parameters, AMP {r['dtype']}")
    print(f"batches: up to {batch_tokens} tokens, sentence lengths 5-60; {len(t)} timed steps after "
          f"{args.warmup} warm-up steps (final loss {r['loss']:.2f})")
    print(f"step time: mean {1000 * statistics.mean(t):.1f} ms, median {1000 * statistics.median(t):.1f} ms, "
          f"slowest {1000 * max(t):.1f} ms")
    print(f"throughput: {r['tokens'] / sum(t) / 1000:.1f}k tokens/s (source + target, padding excluded)")
    print(f"peak memory: {r['peak_gib']:.2f} GiB (torch.cuda.max_memory_allocated)")


def write_corpus(path: Path, pairs: int, seed: int = 0) -> None:
    """A TSV of random 'words' (Zipf-distributed, 5–60 per sentence): realistic lengths, fast to make."""
    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = ["".join(rng.choice(letters, int(rng.integers(2, 9)))) for _ in range(6000)]
    p = 1.0 / np.arange(1, len(words) + 1)
    p /= p.sum()
    with path.open("w", encoding="utf-8") as fh:
        for _ in range(pairs):
            n = int(rng.integers(5, 61))
            src = " ".join(words[i] for i in rng.choice(len(words), n, p=p))
            fh.write(f"{src}\t{' '.join(reversed(src.split()))}\n")


def check_distributed(args) -> int:
    from model.config import TrainConfig, preset
    from model.training.torchrun import run_distributed
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        corpus = Path(tmp) / "corpus.tsv"
        t0 = time.perf_counter()
        write_corpus(corpus, args.pairs)
        cfg = TrainConfig(out_dir=str(Path(tmp) / "run"), model=preset(args.preset), vocab_size=8000,
                          tsv=str(corpus), max_steps=args.steps, batch_tokens=args.batch_tokens // args.gpus,
                          valid_every=0, checkpoint_every=0, report_every=10, n_valid=200,
                          valid_bleu_sentences=0, amp=True)
        print(f"\n{args.gpus} processes through run_distributed (batch {cfg.batch_tokens} tokens per GPU); "
              "the workers first train an 8k vocabulary on the generated corpus")
        rates, mem, last = [], 0.0, None
        for rec in run_distributed(cfg, args.gpus, backend="nccl"):
            last = rec
            if rec.event == "start":
                print(f"  data ready after {time.perf_counter() - t0:.0f} s: {rec.message}")
            elif rec.event == "step":
                rates.append(rec.tokens_per_s)
                mem = max(mem, rec.gpu_mem_mb or 0.0)
        if last is None or last.event != "done":
            print(f"error: distributed training failed: {last.message if last else 'no output'}", file=sys.stderr)
            return 1
        steady = rates[2:] or rates  # the first reports include start-up and cuDNN/NCCL warm-up
        print(f"  {last.step} steps; throughput {statistics.median(steady) / 1000:.1f}k tokens/s for all "
              f"{args.gpus} GPUs; peak memory on rank 0 {mem / 1024:.2f} GiB; {last.message}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="base", choices=("tiny", "small", "base", "big"))
    p.add_argument("--steps", type=int, default=300, help="timed training steps")
    p.add_argument("--warmup", type=int, default=10, help="untimed steps first (allocator, kernels)")
    p.add_argument("--batch-tokens", type=int, default=25_000, help="source+target tokens per batch")
    p.add_argument("--gpus", type=int, default=0, help="also train on N GPUs through run_distributed")
    p.add_argument("--pairs", type=int, default=50_000, help="sentence pairs generated for --gpus")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        print(f"error: no CUDA device is available (torch {torch.__version__}, built for CUDA "
              f"{torch.version.cuda or 'none'}); run this on a machine with an NVIDIA GPU", file=sys.stderr)
        return 2
    from model.errors import UserError
    from model.training.ddp import cuda_devices
    devices = cuda_devices()
    for i, name, gib in devices:
        print(f"GPU {i}: {name}, {gib:.1f} GiB")
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, bf16 "
          f"{'supported' if torch.cuda.is_bf16_supported() else 'not supported'}")
    if args.gpus > len(devices):
        print(f"error: --gpus {args.gpus} asked for, but this machine has {len(devices)}", file=sys.stderr)
        return 2
    check_single(args)
    if args.gpus:
        try:
            return check_distributed(args)
        except UserError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

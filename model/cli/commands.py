"""Command line: train, translate, evaluate, info, data, average, import-marian.

User errors end with one line on stderr and exit code 2 (1 for a failed training run); only bugs
produce a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from model.cli.data import add_data_commands
from model.cli.progress import fmt_time
from model.cli.train import cmd_train
from model.errors import TrainingError, UserError
from model.marian.cli import add_cli as add_marian_cli


def _load(a):
    from model.checkpoint import default_model_dir, load_model
    path = a.model or default_model_dir()
    if path is None:
        raise UserError("no model given and no built-in model in assets/default-model; use --model DIR")
    return load_model(path, a.device)


def cmd_translate(a) -> int:
    from model.decoding.decode import translate
    texts = a.text or ([] if sys.stdin.isatty() else [line.rstrip("\n") for line in sys.stdin])
    if not texts:
        raise UserError("give a sentence to translate")
    if a.save_attention and len(texts) != 1:
        raise UserError("--save-attention takes exactly one sentence")
    loaded = _load(a)
    for text in texts:
        t0 = time.perf_counter()
        tr = translate(loaded, text, beam_size=a.beam,
                       capture_attention=a.json or bool(a.save_attention), use_cache=not a.no_cache)
        ms = (time.perf_counter() - t0) * 1000
        if tr.unknown_pieces:
            print(f"warning: {tr.unknown_note()}", file=sys.stderr)
        if a.save_attention:
            import numpy as np
            m = tr.attention
            np.savez_compressed(a.save_attention, encoder_self=m.encoder_self, decoder_self=m.decoder_self,
                                cross=m.cross, source_tokens=np.array(m.source_tokens),
                                target_tokens=np.array(m.target_tokens))
        if a.json:
            m = tr.attention
            print(json.dumps({"source": tr.source, "translation": tr.text,
                              "source_tokens": list(m.source_tokens), "target_tokens": list(m.target_tokens),
                              "output_tokens": list(tr.target_pieces), "score": tr.score, "ms": round(ms, 1),
                              "unknown_pieces": tr.unknown_pieces,
                              "shapes": {"encoder_self": list(m.encoder_self.shape),
                                         "decoder_self": list(m.decoder_self.shape),
                                         "cross": list(m.cross.shape)}}, ensure_ascii=False))
        else:
            print(tr.text)
    return 0


def cmd_evaluate(a) -> int:
    from model.card.scores import score
    from model.training.data import read_parallel
    corpus = read_parallel(Path(a.src), Path(a.ref))
    pairs = corpus.pairs[: a.limit] if a.limit else corpus.pairs
    loaded = _load(a)
    result, hyps = score(loaded, [s for s, _ in pairs], [t for _, t in pairs], a.beam, a.alpha,
                         progress=_Progress(len(pairs)) if len(pairs) >= 50 else None)
    if a.hyp_out:
        Path(a.hyp_out).write_text("\n".join(hyps) + "\n", encoding="utf-8")
    if a.json:
        print(json.dumps({k: v for k, v in vars(result).items() if k != "label"}))
    else:
        print(f"BLEU {result.bleu:.2f}  chrF {result.chrf:.2f}  ({result.sentences} sentences, beam {a.beam})")
    return 0


class _Progress:
    """'translated 320/1000 sentences, 12 s left' on stderr, rewritten in place on a terminal."""

    def __init__(self, total: int, stream=sys.stderr) -> None:
        self.total, self.stream, self.t0 = total, stream, time.perf_counter()
        self.tty, self.decile = stream.isatty(), -1

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.t0
        left = elapsed / done * (total - done) if done else 0.0
        text = f"translated {done}/{total} sentences, {fmt_time(left)} left"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done >= total else ""))
        elif done * 10 // total != self.decile:
            self.stream.write(text + "\n")  # a log file gets about ten lines, not one per batch
        self.decile = done * 10 // total
        self.stream.flush()


def cmd_info(a) -> int:
    info = _load(a).info()
    rows = [("path", info.path), ("origin", info.origin), ("parameters", f"{info.n_params:,}"),
            ("vocabulary", info.vocab_size), ("device", info.device)] + list(info.config)
    for k, v in rows:
        print(f"{k:>14}: {v}")
    return 0


def cmd_average(a) -> int:
    from model.training.average import average_into
    out = average_into([Path(p) for p in a.checkpoints], Path(a.out), half=a.half)
    print(f"averaged {len(a.checkpoints)} checkpoints into {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="attention-explorer", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    t = sub.add_parser("train", help="train a Transformer on a parallel corpus or a built-in task")
    t.add_argument("--src"), t.add_argument("--tgt"), t.add_argument("--tsv")
    t.add_argument("--task", choices=("reverse", "copy", "sort", "dates"))
    t.add_argument("--valid-src"), t.add_argument("--valid-tgt")
    t.add_argument("--out"), t.add_argument("--resume", metavar="DIR")
    t.add_argument("--preset", default="small", choices=("tiny", "small", "base", "big"))
    for name in ("layers", "d-model", "heads", "d-ff", "vocab-size", "threads"):
        t.add_argument(f"--{name}", type=int)
    t.add_argument("--dropout", type=float)
    t.add_argument("--no-share-embeddings", action="store_true",
                   help="separate source, target and output matrices instead of the paper's one (an ablation)")
    t.add_argument("--device", default="cpu")
    t.add_argument("--cpu-amp", action="store_true",
                   help="CPU: bf16 autocast (needs AVX512-BF16 or AMX; weights stay fp32)")
    t.add_argument("--gpus", type=int, default=0, help="train on N local GPUs through torchrun (DDP)")
    t.add_argument("--backend", choices=("nccl", "gloo"),
                   help="with --gpus: nccl (GPUs, the default) or gloo (N CPU processes)")
    t.add_argument("--max-steps", type=int, default=None)
    t.add_argument("--max-minutes", type=float, default=None)
    t.add_argument("--warmup", type=int, default=4000)
    t.add_argument("--lr-scale", type=float, default=1.0)
    t.add_argument("--batch-tokens", type=int, default=4096)
    t.add_argument("--label-smoothing", type=float, default=0.1)
    t.add_argument("--valid-every", type=int, default=500)
    t.add_argument("--checkpoint-every", type=int, default=500)
    t.add_argument("--report-every", type=int, default=10)
    t.add_argument("--keep", type=int, default=5, help="checkpoints to keep")
    t.add_argument("--seed", type=int, default=1)
    t.set_defaults(func=cmd_train)

    for name, func, hlp in (("translate", cmd_translate, "translate sentences"),
                            ("evaluate", cmd_evaluate, "BLEU and chrF on a test set (sacrebleu)"),
                            ("info", cmd_info, "describe a model folder")):
        s = sub.add_parser(name, help=hlp)
        s.add_argument("--model", metavar="DIR", help="model folder (default: the built-in model)")
        s.add_argument("--device", default="cpu")
        s.set_defaults(func=func)
        if name == "translate":
            s.add_argument("text", nargs="*", help="sentences (default: lines from stdin)")
            s.add_argument("--beam", type=int, default=4)
            s.add_argument("--json", action="store_true")
            s.add_argument("--save-attention", metavar="FILE.npz")
            s.add_argument("--no-cache", action="store_true", help="decode without the key/value cache")
        if name == "evaluate":
            s.add_argument("--src", required=True), s.add_argument("--ref", required=True)
            s.add_argument("--beam", type=int, default=4)
            s.add_argument("--limit", type=int, default=0)
            s.add_argument("--alpha", type=float, default=0.6, help="beam search length penalty (GNMT's α)")
            s.add_argument("--json", action="store_true")
            s.add_argument("--hyp-out", metavar="FILE")

    av = sub.add_parser("average", help="average the weights of several checkpoints (Vaswani et al. 6.1)")
    av.add_argument("checkpoints", nargs="+"), av.add_argument("--out", required=True)
    av.add_argument("--half", action="store_true", help="store fp16 weights")
    av.set_defaults(func=cmd_average)
    add_data_commands(sub)
    add_marian_cli(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except TrainingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `… | head` closed the pipe: not an error worth a traceback
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())

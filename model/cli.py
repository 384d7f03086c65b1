"""Command line: train, translate, evaluate, info, data, average.

User errors end with one line on stderr and exit code 2 (1 for a failed training run); only bugs
produce a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import threading
import time
from pathlib import Path

from model.errors import TrainingError, UserError


def _fmt_time(s: float | None) -> str:
    if s is None or math.isnan(s) or math.isinf(s):
        return "?"
    s = int(s)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class ProgressBar:
    """One self-rewriting line on a terminal; a plain line per report otherwise (logs, CI)."""

    def __init__(self, stream=sys.stderr) -> None:
        self.stream, self.tty = stream, stream.isatty()

    def show(self, p) -> None:
        if p.event == "start":
            self.line(p.message)
            return
        if p.event in ("valid", "checkpoint", "done", "stopped", "error"):
            extra = {"valid": lambda: f"valid loss {p.valid_loss:.3f}" + (f", BLEU {p.valid_bleu:.1f}" if p.valid_bleu is not None else ""),
                     "checkpoint": lambda: f"checkpoint {p.checkpoint}"}.get(p.event, lambda: p.message)()
            self.line(f"step {p.step}: {extra}")
            return
        if p.event != "step":
            return
        total = p.max_steps or 0
        bar = ""
        if total:
            done = int(20 * p.step / total)
            bar = f"[{'#' * done}{'.' * (20 - done)}] "
        text = (f"{bar}step {p.step}{'/' + str(total) if total else ''} epoch {p.epoch} loss {p.loss:.3f} "
                f"lr {p.lr:.2e} {p.tokens_per_s / 1000:.1f}k tok/s ETA {_fmt_time(p.eta_s)}")
        if self.tty:
            self.stream.write("\r" + text.ljust(100))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def line(self, text: str) -> None:
        self.stream.write(("\r" if self.tty else "") + text.ljust(100 if self.tty else 0) + "\n")
        self.stream.flush()


def _train_config(a):
    from model.config import TrainConfig, preset
    overrides = {k: v for k, v in {"n_layers": a.layers, "d_model": a.d_model, "n_heads": a.heads,
                                   "d_ff": a.d_ff, "dropout": a.dropout}.items() if v is not None}
    model_cfg = preset(a.preset, **overrides)
    if a.no_share_embeddings:
        model_cfg = model_cfg.replace(share_embeddings=False)
    if a.vocab_size:
        model_cfg = model_cfg.replace(vocab_size=a.vocab_size)
    elif a.task:  # digit and date tasks need only a few dozen pieces
        model_cfg = model_cfg.replace(vocab_size=min(model_cfg.vocab_size, 64))
    return TrainConfig(
        out_dir=a.out or "", model=model_cfg, max_steps=a.max_steps, max_minutes=a.max_minutes,
        warmup_steps=a.warmup, lr_scale=a.lr_scale, batch_tokens=a.batch_tokens,
        label_smoothing=a.label_smoothing, valid_every=a.valid_every, checkpoint_every=a.checkpoint_every,
        seed=a.seed, device=a.device, threads=a.threads, src=a.src or "", tgt=a.tgt or "",
        tsv=a.tsv or "", task=a.task or "", valid_src=a.valid_src or "", valid_tgt=a.valid_tgt or "",
        report_every=a.report_every, keep_checkpoints=a.keep, cpu_amp=a.cpu_amp,
    )


def cmd_train(a) -> int:
    from model.distributed import STOP, clear_controls, watch_files
    from model.train import TrainControl, run_training
    if not a.out and not a.resume:
        raise UserError("--out DIR is required (or --resume DIR)")
    if not (a.src or a.tsv or a.task or a.resume):
        raise UserError("give a corpus: --src F --tgt F, --tsv F or --task reverse|copy|sort|dates")
    if getattr(a, "gpus", 0) and a.gpus > 1:
        from model.distributed import launch
        return launch(sys.argv[1:] if a.argv is None else a.argv, a.gpus)
    cfg = _train_config(a)
    if a.resume and not a.out:
        cfg = cfg.replace(out_dir=str(Path(a.resume).resolve() if (Path(a.resume) / "LATEST").exists()
                                      else Path(a.resume).resolve().parent))
    bar, control = ProgressBar(), TrainControl()
    out, done = cfg.out_path, threading.Event()
    clear_controls(out)  # left over from an earlier run, they would stop or hold this one at once
    # STOP / PAUSE files in the run folder, as for torchrun runs: `touch RUN/STOP` ends a run started in the
    # background at the next step, with a checkpoint.
    threading.Thread(target=watch_files, args=(out, control, done), daemon=True).start()
    restore = _stop_on_signals(control, bar)
    last = None
    try:
        for p in run_training(cfg, control, Path(a.resume) if a.resume else None):
            bar.show(p)
            last = p
    except KeyboardInterrupt:
        bar.line("interrupted: the last checkpoint is kept")
        return 130
    finally:
        done.set()
        restore()
        if control.stopped:
            (out / STOP).unlink(missing_ok=True)  # consumed: a stale STOP would end the next run at once
    if last is not None and last.event == "error":
        raise TrainingError(last.message)
    return 0


def _stop_on_signals(control, bar: ProgressBar):
    """First Ctrl-C or SIGTERM: stop at the next step and save a checkpoint; a second Ctrl-C abandons the step.

    Returns a function that puts the previous handlers back (tests call main() in-process).
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None  # only the main thread may set signal handlers

    def handler(signum, _frame):
        if control.stopped and signum == signal.SIGINT:
            raise KeyboardInterrupt
        bar.line("stopping: saving a checkpoint at the next step (Ctrl-C again to abandon it)")
        control.stop()
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    return lambda: [signal.signal(sig, h) for sig, h in previous.items()]


def _load(a):
    from model.checkpoint import default_model_dir, load_model
    path = a.model or default_model_dir()
    if path is None:
        raise UserError("no model given and no built-in model in assets/default-model; use --model DIR")
    return load_model(path, a.device)


def cmd_translate(a) -> int:
    from model.decode import translate
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
    from model.card import score
    from model.data import read_parallel
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
        text = f"translated {done}/{total} sentences, {_fmt_time(left)} left"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done >= total else ""))
        elif done * 10 // total != self.decile:
            self.stream.write(text + "\n")  # a log file gets about ten lines, not one per batch
        self.decile = done * 10 // total
        self.stream.flush()


def cmd_info(a) -> int:
    info = _load(a).info()
    rows = [("path", info.path), ("parameters", f"{info.n_params:,}"), ("vocabulary", info.vocab_size),
            ("device", info.device)] + list(info.config)
    for k, v in rows:
        print(f"{k:>14}: {v}")
    return 0


def cmd_average(a) -> int:
    from model.average import average_into
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
    t.set_defaults(func=cmd_train, argv=None)

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
    try:
        from model.ding import add_cli
        add_cli(sub)
    except ImportError:  # the Ding builder is optional at this layer
        pass
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if argv is not None and getattr(args, "argv", 0) is None:  # cmd_train hands its own argv to torchrun
        args.argv = list(argv)
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

"""``train``: one process with a progress line, or N processes through torchrun (``--gpus N``).

Stop a run with Ctrl-C or SIGTERM, or ``touch RUN/STOP`` from elsewhere; both save a checkpoint first.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
from pathlib import Path

from model.cli.inputs import DEVICE_HELP
from model.cli.progress import ProgressBar
from model.cli.types import at_least, count, fraction, positive_float, positive_int, seed
from model.config import TrainConfig, preset
from model.errors import TrainingError, UserError
from model.training.control import RUN_FILES, STOP, TrainControl, clear_controls, watch_files

# Options whose value a resumed run keeps from its own train_config.json unless the command line gives one:
# a resume without --checkpoint-every once switched a run checkpointing every 250 steps to the default 500.
RUN_SETTINGS = {"valid_every": "valid_every", "checkpoint_every": "checkpoint_every",
                "report_every": "report_every", "keep": "keep_checkpoints"}


def fill_run_settings(a: argparse.Namespace) -> None:
    """Options not given: the resumed run's own values, else TrainConfig's defaults."""
    saved = _saved_config(a.resume) if a.resume else None
    for option, field in RUN_SETTINGS.items():
        if getattr(a, option) is None:
            source = saved if saved is not None else TrainConfig(out_dir="")
            setattr(a, option, getattr(source, field))


def _saved_config(resume: str) -> TrainConfig | None:
    from model.checkpoint import TRAIN_CONFIG, resolve
    from model.errors import CheckpointError
    from model.safe_json import read_small_text
    folder = resolve(resume)
    if not (folder / TRAIN_CONFIG).is_file():
        return None
    return TrainConfig.from_json(read_small_text(folder / TRAIN_CONFIG, CheckpointError, 1 << 20),
                                 str(folder / TRAIN_CONFIG))


def train_config(a: argparse.Namespace) -> TrainConfig:
    """The TrainConfig the ``train`` options describe."""
    fill_run_settings(a)
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
    from model.training.run import run_training
    if not a.out and not a.resume:
        raise UserError("--out DIR is required (or --resume DIR)")
    if not (a.src or a.tsv or a.task or a.resume):
        raise UserError("give a corpus: --src F --tgt F, --tsv F or --task reverse|copy|sort|dates")
    if a.out and Path(a.out).expanduser().exists() and not Path(a.out).expanduser().is_dir():
        raise UserError(f"--out {a.out} is a file, not a folder: choose a folder for the run")
    if a.out:
        from model.training.run_folder import check_not_foreign
        check_not_foreign(a.out, f"--out {a.out}")
    if a.out and not a.overwrite:
        from model.training.run_folder import check_new_run
        check_new_run(a.out, a.resume)
    out_dir = a.out or str(resumed_run_folder(a.resume))
    if getattr(a, "gpus", 0) and a.gpus > 1:
        return launch(a, out_dir)
    cfg = train_config(a).replace(out_dir=out_dir)
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


def resumed_run_folder(resume: str) -> Path:
    """Where ``--resume`` without ``--out`` writes: the run folder itself, or the run folder that holds the
    step-* checkpoint named.

    Any other model folder has no run folder: its parent (once taken for one) may be a folder of the user's
    files or a folder of models, which then got step-*, LATEST, log.jsonl and .lock beside them."""
    from model.checkpoint import LATEST, STATE, resolve
    checkpoint = resolve(resume)  # a missing folder, or a LATEST naming none, is said first and precisely
    folder = Path(resume).expanduser().resolve()
    if (folder / LATEST).exists():
        return folder
    # The checkpoint's own name does not make its parent a run: one copied among the user's files is step-* too.
    if folder.name.startswith("step-") and any((folder.parent / name).exists() for name in RUN_FILES):
        return folder.parent
    if not (checkpoint / STATE).is_file():
        raise UserError(f"{resume} holds a model but no training state ({STATE}) to resume; to fine-tune it, "
                        f"start a new run from it: --resume {resume} --out NEW_FOLDER with a corpus "
                        f"(--task, --tsv or --src/--tgt)")
    raise UserError(f"{resume} is a checkpoint outside its run folder; to continue it, name a folder for the "
                    f"run: --resume {resume} --out NEW_FOLDER")


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


def launch(a: argparse.Namespace, out_dir: str) -> int:
    """``attention-explorer train --gpus N ...``: the same options and progress bar, on N processes."""
    from model.training.torchrun import run_distributed
    cfg = train_config(a).replace(out_dir=out_dir)
    bar, control = ProgressBar(), TrainControl()

    def on_sigint(*_) -> None:
        if control.stopped:  # a second Ctrl-C abandons the run
            raise KeyboardInterrupt
        control.stop()
        os.write(2, b"\nstopping: the processes finish their step and save a checkpoint (Ctrl-C again to abandon)\n")

    previous = signal.signal(signal.SIGINT, on_sigint)  # the CLI calls this on its main thread
    last = None
    try:
        for p in run_distributed(cfg, a.gpus, control, Path(a.resume) if a.resume else None,
                                 getattr(a, "backend", None)):
            bar.show(last := p)
    except KeyboardInterrupt:
        bar.line("interrupted: the last checkpoint is kept")
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)
    if last is not None and last.event == "error":
        raise TrainingError(last.message)
    return 0


TASK_HELP = ("a built-in synthetic task instead of a corpus; the model then translates input like: "
             "reverse, copy, sort: 3-12 space-separated digits, e.g. '3 1 4 1 5' (reverse → '5 1 4 1 3'); "
             "dates: 'DAY Month YEAR', e.g. '14 July 1989' → '1989-07-14'")


def add_train_command(sub) -> None:
    """The ``train`` command's options, grouped as its --help shows them."""
    t = sub.add_parser("train", help="train a Transformer on a parallel corpus or a built-in task")
    data = t.add_argument_group("data (one of --src/--tgt, --tsv or --task)")
    data.add_argument("--src", metavar="FILE", help="source-language sentences, one per line (UTF-8)")
    data.add_argument("--tgt", metavar="FILE", help="target-language sentences, aligned line by line with --src")
    data.add_argument("--tsv", metavar="FILE", help="one 'source<TAB>target' pair per line")
    data.add_argument("--task", choices=("reverse", "copy", "sort", "dates"), help=TASK_HELP)
    data.add_argument("--valid-src", metavar="FILE", help="validation source sentences "
                      "(default: 500 pairs held out of the training corpus)")
    data.add_argument("--valid-tgt", metavar="FILE", help="validation target sentences, aligned with --valid-src")
    run = t.add_argument_group("run folder")
    run.add_argument("--out", metavar="DIR", help="run folder for checkpoints (step-*/, LATEST) and log.jsonl")
    run.add_argument("--resume", metavar="DIR", help="continue a run or checkpoint folder exactly where it stopped")
    run.add_argument("--overwrite", action="store_true",
                     help="start a new run in an --out folder that already holds one (its LATEST moves to the "
                          "new run; the old run's step-* folders are removed when the new run saves its first)")
    run.add_argument("--keep", type=positive_int, default=None, metavar="N",
                     help="checkpoints of this run to keep, the newest always among them (default 5; a resumed "
                          "run keeps its own unless given)")
    model = t.add_argument_group("model (the paper's names; defaults from --preset)")
    model.add_argument("--preset", default="small", choices=("tiny", "small", "base", "big"),
                       help="tiny: 2 layers, d_model 64 (toy tasks); small: 4 layers, 256 (default, CPU); "
                            "base and big: the paper's")
    model.add_argument("--layers", type=positive_int, metavar="N", help="N: layers in the encoder and in the decoder")
    model.add_argument("--d-model", type=positive_int, metavar="D", help="d_model: width of every layer")
    model.add_argument("--heads", type=positive_int, metavar="H", help="h: attention heads (must divide d_model)")
    model.add_argument("--d-ff", type=positive_int, metavar="D", help="d_ff: inner width of the feed-forward layers")
    model.add_argument("--vocab-size", type=at_least(5), metavar="V",
                       help="SentencePiece pieces shared by both languages "
                            "(default: the preset's; at most 64 for --task)")
    model.add_argument("--dropout", type=fraction, metavar="P", help="P_drop on embeddings and sub-layer outputs")
    model.add_argument("--no-share-embeddings", action="store_true",
                       help="separate source, target and output matrices instead of the paper's one (an ablation)")
    hw = t.add_argument_group("hardware")
    hw.add_argument("--device", default="cpu", metavar="DEVICE", help=DEVICE_HELP)
    # At most 1,024: OpenMP crashed the process (SIGSEGV, no message) asked for 5,000.
    hw.add_argument("--threads", type=at_least(1, 1024), metavar="N",
                    help="CPU threads for torch, 1-1024 (default: torch's choice)")
    hw.add_argument("--cpu-amp", action="store_true",
                    help="CPU: bf16 autocast (needs AVX512-BF16 or AMX; weights stay fp32)")
    hw.add_argument("--gpus", type=count, default=0, metavar="N", help="train on N local GPUs through torchrun (DDP)")
    hw.add_argument("--backend", choices=("nccl", "gloo"),
                    help="with --gpus: nccl (GPUs, the default) or gloo (N CPU processes)")
    sched = t.add_argument_group("schedule")
    sched.add_argument("--max-steps", type=positive_int, default=None, metavar="N", help="stop after N optimizer steps")
    sched.add_argument("--max-minutes", type=positive_float, default=None, metavar="M",
                       help="stop after M minutes of training, with a checkpoint")
    sched.add_argument("--warmup", type=positive_int, default=4000, metavar="N",
                       help="warmup_steps of the paper's learning-rate formula, eq. (3) (default 4000)")
    sched.add_argument("--lr-scale", type=positive_float, default=1.0, metavar="X",
                       help="multiply the paper's learning rate by X (default 1)")
    sched.add_argument("--batch-tokens", type=at_least(16), default=4096, metavar="N",
                       help="source + target tokens per batch (default 4096; per GPU with --gpus)")
    sched.add_argument("--label-smoothing", type=fraction, default=0.1, metavar="EPS",
                       help="ε_ls of the paper (default 0.1; 0 turns it off)")
    sched.add_argument("--valid-every", type=count, default=None, metavar="N",
                       help="validation loss and BLEU every N steps (default 500; 0: never)")
    sched.add_argument("--checkpoint-every", type=count, default=None, metavar="N",
                       help="checkpoint every N steps (default 500; 0: only at the end)")
    sched.add_argument("--report-every", type=positive_int, default=None, metavar="N",
                       help="progress line every N steps (default 10)")
    sched.add_argument("--seed", type=seed, default=1, help="random seed of the data order, dropout and init")
    t.set_defaults(func=cmd_train)

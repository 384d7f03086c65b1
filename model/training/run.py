"""A training run from its settings: read the corpus, prepare the data, continue a checkpoint, train.

``run_training`` is what the CLI, the window's train worker and the torchrun workers call; the loop
itself is ``model.training.train.train``. Apart from the loop because everything here happens before
the first step: merging a resumed run's saved settings with new limits, refusing a bad checkpoint
early, and, under DDP, sharing rank 0's tokenizer.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterator
from pathlib import Path

import torch

from model import checkpoint as ckpt
from model.config import TrainConfig
from model.errors import CheckpointError, UserError
from model.records import TrainProgress
from model.safe_json import read_small_text
from model.tokenizer import Tokenizer
from model.training.control import Stopped, TrainControl
from model.training.data import load_corpora
from model.training.ddp import rank_world
from model.training.device import resolve_device
from model.training.prepare import prepare_data
from model.training.state import TRAIN_CONFIG, check_resumable
from model.training.train import stopped_early, train


def run_training(cfg: TrainConfig, control: TrainControl | None = None,
                 resume: Path | None = None) -> Iterator[TrainProgress]:
    """Read the corpus named in cfg, prepare it (re-using the tokenizer when resuming), and train.

    When resuming, cfg may change run limits (max steps/minutes, intervals) but not the model. If cfg
    names a corpus, training continues on that corpus (with the checkpoint's tokenizer); otherwise on
    the run's own.
    """
    control = control or TrainControl()
    try:
        yield from _run(cfg, control, resume)
    except Stopped:  # raised between or inside the phases before the first step
        yield stopped_early(cfg)


CORPUS_FIELDS = {"src": "--src", "tgt": "--tgt", "tsv": "--tsv", "valid_src": "--valid-src",
                 "valid_tgt": "--valid-tgt"}


def check_saved_corpora(cfg: TrainConfig, named: set[str], checkpoint: Path) -> None:
    """A resumed run reads only the corpus files the user named now, or that lie inside the run's own folder.

    train_config.json is a file anyone can edit or hand over with a run folder: left unchecked, ``--resume``
    would read whatever path it names (an attack made it train on /etc/passwd and ship its lines inside the
    vocabulary). A saved path outside the run is refused with the option that names it again."""
    run = checkpoint.resolve().parent if checkpoint.resolve().name.startswith("step-") else checkpoint.resolve()
    for field, option in CORPUS_FIELDS.items():
        value = getattr(cfg, field)
        if not value or field in named:
            continue
        path = Path(value).expanduser().resolve()
        if not path.is_relative_to(run):
            raise UserError(f"{checkpoint / TRAIN_CONFIG} names {value} as its {option[2:]} corpus, outside the run "
                            f"folder {run}: a resumed run reads only files you name, so give it again "
                            f"({option} {value}) to continue on it")


def _run(cfg: TrainConfig, control: TrainControl, resume: Path | None) -> Iterator[TrainProgress]:
    tokenizer = None
    if resume is not None:
        folder = ckpt.resolve(resume)
        if (folder / TRAIN_CONFIG).is_file():
            saved = TrainConfig.from_json(read_small_text(folder / TRAIN_CONFIG, CheckpointError, 1 << 20))
        elif cfg.src or cfg.tsv or cfg.task:  # a model folder without run settings: continue on the data given
            saved = cfg.replace(model=ckpt.read_config(folder)[0])
        else:
            raise UserError(f"{folder} holds no {TRAIN_CONFIG}; give the corpus to continue training on")
        keep = ("max_steps", "max_minutes", "valid_every", "checkpoint_every", "report_every", "probe_every",
                "probe_sentence", "device", "threads", "keep_checkpoints", "valid_bleu_sentences", "amp", "cpu_amp")
        stages = saved.stages
        if cfg.src or cfg.tsv or cfg.task:
            keep += ("src", "tgt", "tsv", "task", "task_size", "valid_src", "valid_tgt")
            corpus = ("src", "tgt", "tsv", "task")
            if any(getattr(cfg, k) != getattr(saved, k) for k in corpus) and any(getattr(saved, k) for k in corpus):
                until = int(ckpt.read_config(folder)[1].get("meta", {}).get("step", 0))
                stages += ({**{k: getattr(saved, k) for k in corpus}, "until_step": until},)
        named = {k for k in ("src", "tgt", "tsv", "valid_src", "valid_tgt") if getattr(cfg, k)}
        cfg = saved.replace(**{k: getattr(cfg, k) for k in keep}, out_dir=cfg.out_dir or saved.out_dir,
                            stages=stages)
        check_saved_corpora(cfg, named, folder)
        # Refuse a wrong or hostile checkpoint now, not after the corpus has been read and tokenized.
        check_resumable(folder)
        tokenizer = ckpt.load_tokenizer(folder, *ckpt.read_config(folder))  # spm.model, or Marian's files
        resume = folder
    else:
        cfg = cfg.replace(run_id=cfg.run_id or secrets.token_hex(8))  # a fresh run: see TrainConfig.run_id
    resolve_device(cfg.device)  # a bad --device fails at once, not after the data is prepared
    rank, world = rank_world()
    # Under DDP the ranks must reach the tokenizer broadcast together, so only rank 0's step loop stops them.
    phases = control if world == 1 else None
    if phases is not None:
        phases.checkpoint()
    train_pairs, valid_pairs, report = load_corpora(cfg)
    if phases is not None:
        phases.checkpoint()
    data = None
    if world > 1 and tokenizer is None:
        # SentencePiece trains with several threads and is not bit-reproducible, so rank 0 trains the
        # vocabulary and sends it to the others: token ids must mean the same on every rank.
        if rank == 0:
            data = prepare_data(cfg, train_pairs, valid_pairs)
        box = [data.tokenizer.model_bytes if data is not None else None]
        torch.distributed.broadcast_object_list(box, src=0)
        tokenizer = Tokenizer(box[0])
    data = data or prepare_data(cfg, train_pairs, valid_pairs, tokenizer, phases)
    if rank == 0:
        yield TrainProgress(step=0, max_steps=cfg.max_steps, epoch=0, loss=math.nan, lr=0.0, tokens_per_s=0.0,
                            elapsed_s=0.0, event="start", message=f"{report}; {data.report}")
    yield from train(cfg, data, control, resume)

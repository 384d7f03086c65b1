"""Training as a generator of ``TrainProgress`` records, driven alike by the CLI and the GUI worker.

The loop follows section 5 of the paper: Adam(β1=0.9, β2=0.98, ε=1e-9), the warmup-then-inverse-
square-root learning rate, label smoothing 0.1, and token-count batches. It checkpoints atomically,
resumes exactly (model, optimizer, schedule position, data position, RNG), stops cooperatively, and on a
NaN/Inf loss stops without overwriting the last good checkpoint.

When ``torch.distributed`` is initialised (``model.training.worker`` under torchrun) the same loop runs on every
rank with the model wrapped in DistributedDataParallel; rank 0 alone validates, probes, writes and yields.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import torch
import torch.nn.functional as F

from model import checkpoint as ckpt
from model.config import TrainConfig
from model.errors import UserError
from model.files import write_atomic
from model.records import TrainProgress
from model.tokenizer import Tokenizer
from model.training.control import Stopped, TrainControl
from model.training.data import collate, load_corpora, make_batches
from model.training.ddp import Sync, rank_world, wrap_ddp
from model.training.device import amp_context, resolve_device
from model.training.prepare import Data, prepare_data
from model.training.validate import probe, validate
from model.transformer import Transformer

TRAIN_CONFIG = "train_config.json"


def learning_rate(step: int, d_model: int, warmup: int, scale: float = 1.0) -> float:
    """Eq. (3): lrate = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5), for steps counted from 1."""
    step = max(step, 1)
    return scale * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def label_smoothed_loss(logits: torch.Tensor, target: torch.Tensor, eps: float, pad_id: int) -> torch.Tensor:
    """Mean over non-pad targets of (1-ε)·(-log p_y) + ε·mean_v(-log p_v) (section 5.4, ε_ls = 0.1)."""
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), target.reshape(-1),
                           ignore_index=pad_id, label_smoothing=eps)


def step_loss(net, src: torch.Tensor, tgt: torch.Tensor, label_smoothing: float) -> torch.Tensor:
    """One batch's training loss, equal to ``label_smoothed_loss`` of the full logits but computed on
    real tokens only (``Transformer.loss``); called through forward so a DDP wrapper sees it."""
    loss, _ = net(src, tgt[:, :-1], target=tgt[:, 1:], label_smoothing=label_smoothing)
    return loss


def _save(model, data: Data, cfg: TrainConfig, optimizer, scaler, step, epoch, position, elapsed) -> Path:
    state = {
        "optimizer": optimizer.state_dict(),
        "scaler": scaler.state_dict() if scaler is not None else {},
        "step": step, "epoch": epoch, "position": position, "elapsed": elapsed,
        "torch_rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
    }
    out = cfg.out_path
    folder = ckpt.save_model(out / f"step-{step:08d}", model, data.tokenizer,
                             meta={"step": step, "epoch": epoch, "elapsed_s": round(elapsed, 1)},
                             train_state=state, extra_files={TRAIN_CONFIG: cfg.to_json()})
    write_atomic(out / ckpt.LATEST, folder.name + "\n")
    steps = sorted(p for p in out.glob("step-*") if p.is_dir())
    for old in steps[: max(0, len(steps) - cfg.keep_checkpoints)]:
        shutil.rmtree(old, ignore_errors=True)
    return folder


def train(cfg: TrainConfig, data: Data, control: TrainControl | None = None,
          resume: Path | None = None) -> Iterator[TrainProgress]:
    """Run training, yielding a record every ``report_every`` steps and at each event."""
    control = control or TrainControl()
    device = resolve_device(cfg.device)
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    rank, world = rank_world()
    main = rank == 0  # the only rank that validates, probes, writes files and yields progress
    if control.stopped and world == 1:
        yield _stopped_early(cfg)
        return
    created = not cfg.out_path.exists()  # removed again if the run stops before its first step
    try:
        if main:
            cfg.out_path.mkdir(parents=True, exist_ok=True)
            probe_file = cfg.out_path / ".write-test"
            probe_file.write_text("ok")
            probe_file.unlink()
    except OSError as exc:
        raise UserError(f"cannot write to the output folder {cfg.out_dir}: {exc.strerror or exc}") from None
    torch.manual_seed(cfg.seed)
    random.seed(cfg.seed)
    model_cfg = cfg.model.replace(vocab_size=data.tokenizer.vocab_size)
    model = Transformer(model_cfg).to(device)
    # fused: one kernel per step for all parameters (CPU and CUDA since torch 2.4)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9, fused=True)
    autocast, scaler = amp_context(device, cfg)
    step, epoch, position, elapsed = 0, 0, 0, 0.0
    if resume is not None:
        loaded = ckpt.load_model(resume)
        if loaded.config != model_cfg:
            raise UserError("the checkpoint's model config differs from the run's; resume with the same model")
        model.load_state_dict(loaded.model.state_dict())
        if (loaded.path / ckpt.STATE).is_file():  # exact resume
            state = ckpt.load_train_state(loaded.path)
            optimizer.load_state_dict(state["optimizer"])
            if scaler is not None and state.get("scaler"):
                scaler.load_state_dict(state["scaler"])
            step, epoch, position, elapsed = state["step"], state["epoch"], state["position"], state["elapsed"]
            torch.set_rng_state(state["torch_rng"])
            if device.type == "cuda" and state.get("cuda_rng"):
                torch.cuda.set_rng_state_all(state["cuda_rng"])
        else:
            # Warm start from weights alone (e.g. a shipped model): the schedule continues from the saved
            # step and Adam's moments rebuild within a few hundred steps.
            meta = loaded.meta
            step, epoch = int(meta.get("step", 0)), int(meta.get("epoch", 0))
            elapsed = float(meta.get("elapsed_s", 0.0))
    start_step, start_elapsed = step, elapsed
    sync, net = None, model  # net: what the training step calls; model: the plain module we save and probe
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        sync, net = Sync(device), wrap_ddp(model, device)
        if rank:  # its own dropout masks, as on separate GPUs; DDP already copied rank 0's weights
            torch.manual_seed(cfg.seed + 7919 * rank + step)
    model.train()
    log_path = cfg.out_path / "log.jsonl"
    last_good: Path | None = Path(resume) if resume else None
    window_loss, window_n, window_tokens = 0.0, 0, 0
    t_window = time.monotonic()
    deadline = elapsed + cfg.max_minutes * 60 if cfg.max_minutes else None
    batches = make_batches(data.train, cfg.batch_tokens, cfg.seed, epoch, cfg.length_buckets)
    if not batches:
        raise UserError("the training corpus produced no batches")
    if len(batches) < world:
        raise UserError(f"the training corpus produced {len(batches)} batches, fewer than the {world} processes")

    def record(event: str, **kw) -> TrainProgress:
        eta = None
        if cfg.max_steps and step > start_step:
            eta = (cfg.max_steps - step) * (elapsed - start_elapsed) / (step - start_step)
        if deadline is not None:
            eta = min(eta or math.inf, max(0.0, deadline - elapsed))
        mem = torch.cuda.max_memory_allocated(device) / 2**20 if device.type == "cuda" else None
        rec = TrainProgress(step=step, max_steps=cfg.max_steps, epoch=epoch, loss=kw.pop("loss", math.nan),
                            lr=learning_rate(max(step, 1), model_cfg.d_model, cfg.warmup_steps, cfg.lr_scale),
                            tokens_per_s=kw.pop("tps", 0.0), elapsed_s=elapsed, eta_s=eta, gpu_mem_mb=mem,
                            event=event, **kw)
        if main:  # other ranks only pass their end marker up to the worker, never to the log
            with log_path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({k: v for k, v in rec.__dict__.items() if k not in ("probe", "extra")}) + "\n")
        return rec

    while True:
        if sync is None:
            t_window += control.wait_while_paused()
        finished = control.stopped or (cfg.max_steps and step >= cfg.max_steps) or (deadline and elapsed >= deadline)
        if sync is not None:
            # Rank 0's stop/pause (and any rank's deadline or signal) reach every rank at the same step, so
            # no rank is left waiting in a gradient all-reduce that the others never join.
            finished, paused = sync.any(finished, control.paused)
            if paused and not finished:
                time.sleep(0.2)
                t_window += 0.2
                continue
        if finished:
            break
        # Every rank builds the same batch list; rank r takes batches r, r+W, ... and the remainder of an
        # epoch is dropped so that all ranks take the same number of steps. position counts batches of
        # the whole group, so a run resumed with another number of processes continues where it was.
        if position + world > len(batches):
            epoch, position = epoch + 1, 0
            batches = make_batches(data.train, cfg.batch_tokens, cfg.seed, epoch, cfg.length_buckets)
        idx = batches[position + rank]
        position += world
        src, tgt = (torch.from_numpy(a).to(device, non_blocking=True)
                    for a in collate(data.train, idx, model_cfg.pad_id))
        t_step = time.monotonic()
        lr = learning_rate(step + 1, model_cfg.d_model, cfg.warmup_steps, cfg.lr_scale)
        for group in optimizer.param_groups:
            group["lr"] = lr
        try:
            with autocast:
                loss = step_loss(net, src, tgt, cfg.label_smoothing)
            # Under DDP a NaN on any rank must stop all of them before the backward's all-reduce; the sum
            # is NaN/Inf if any rank's loss is.
            value = loss.item() if sync is None else sync.sum(loss.item())[0] / world
            if not math.isfinite(value):
                where = (f"the last good checkpoint {last_good} is intact" if last_good
                         else "no checkpoint was written yet")
                yield record("error", message=f"training stopped: the loss became {value} at step {step + 1}; "
                             f"{where}. Try a smaller learning-rate scale or more warmup steps.")
                return
            optimizer.zero_grad(set_to_none=True)
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.unscale_(optimizer)
            else:
                loss.backward()
            if cfg.clip_norm:
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.clip_norm)
            if scaler is not None:
                scaler.step(optimizer)
                scaler.update()
            else:
                optimizer.step()
        except torch.cuda.OutOfMemoryError:
            optimizer.zero_grad(set_to_none=True)
            yield record("error", message=f"the GPU ran out of memory at step {step + 1} with batches of "
                         f"{cfg.batch_tokens} tokens; try fewer batch tokens (e.g. {cfg.batch_tokens // 2}). "
                         + (f"The last good checkpoint {last_good} is intact." if last_good else ""))
            return
        step += 1
        elapsed += time.monotonic() - t_step
        window_loss += loss.item()
        window_n += 1
        window_tokens += int((src != model_cfg.pad_id).sum() + (tgt != model_cfg.pad_id).sum())
        if step % cfg.report_every == 0:
            now = time.monotonic()
            if sync is not None:  # the whole group's loss and throughput, not rank 0's share
                window_loss, window_n, window_tokens = sync.sum(window_loss, window_n, window_tokens)
            tps = window_tokens / max(now - t_window, 1e-9)
            if main:
                yield record("step", loss=window_loss / window_n, tps=tps)
            window_loss, window_n, window_tokens, t_window = 0.0, 0, 0, now
        if not main:
            continue
        if cfg.probe_every and cfg.probe_sentence and step % cfg.probe_every == 0:
            yield record("probe", probe=probe(model, data, cfg, device))
        if cfg.valid_every and step % cfg.valid_every == 0 and data.valid.src:
            # Single-process runs may abandon validation on Stop; under DDP rank 0 alone validates while the
            # others wait, so it finishes and the stop reaches every rank at the next step.
            scores = validate(model, data, cfg, device, control if sync is None else None)
            if scores is not None:
                yield record("valid", valid_loss=scores[0], valid_bleu=scores[1])
        if cfg.checkpoint_every and step % cfg.checkpoint_every == 0:
            last_good = _save(model, data, cfg, optimizer, scaler, step, epoch, position, elapsed)
            yield record("checkpoint", checkpoint=str(last_good))
    event = "stopped" if control.stopped else "done"
    if event == "stopped" and step == start_step and resume is None:
        # Stopped before the first step: an untrained step-00000000 would only look like a model.
        if main and created:
            with contextlib.suppress(OSError):
                cfg.out_path.rmdir()  # only if empty
        yield _stopped_early(cfg)
        return
    if not main:
        yield record(event)
        return
    if last_good is None or last_good.name != f"step-{step:08d}":
        last_good = _save(model, data, cfg, optimizer, scaler, step, epoch, position, elapsed)
    yield record(event, checkpoint=str(last_good), message=f"saved {last_good}")


def check_resumable(folder: Path) -> None:
    """Validate a checkpoint's config, weights header and training state without building anything."""
    model_cfg = ckpt.read_config(folder)[0]
    if not (folder / ckpt.WEIGHTS).is_file():
        raise UserError(f"{folder} has no {ckpt.WEIGHTS}")
    ckpt.check_weights_header(folder / ckpt.WEIGHTS, model_cfg)
    if (folder / ckpt.STATE).is_file():
        ckpt.load_train_state(folder)


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
        yield _stopped_early(cfg)


def _stopped_early(cfg: TrainConfig) -> TrainProgress:
    return TrainProgress(step=0, max_steps=cfg.max_steps, epoch=0, loss=math.nan, lr=0.0, tokens_per_s=0.0,
                         elapsed_s=0.0, event="stopped", message="stopped before the first step; nothing was written")


def _run(cfg: TrainConfig, control: TrainControl, resume: Path | None) -> Iterator[TrainProgress]:
    tokenizer = None
    if resume is not None:
        folder = ckpt.resolve(resume)
        if (folder / TRAIN_CONFIG).is_file():
            saved = TrainConfig.from_json((folder / TRAIN_CONFIG).read_text(encoding="utf-8"))
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
        cfg = saved.replace(**{k: getattr(cfg, k) for k in keep}, out_dir=cfg.out_dir or saved.out_dir,
                            stages=stages)
        # Refuse a wrong or hostile checkpoint now, not after the corpus has been read and tokenized.
        check_resumable(folder)
        tokenizer = ckpt.load_tokenizer(folder, *ckpt.read_config(folder))  # spm.model, or Marian's files
        resume = folder
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

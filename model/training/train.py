"""Training as a generator of ``TrainProgress`` records, driven alike by the CLI and the GUI worker.

The loop follows section 5 of the paper: Adam(β1=0.9, β2=0.98, ε=1e-9), the warmup-then-inverse-
square-root learning rate, label smoothing 0.1, and token-count batches. It checkpoints atomically,
resumes exactly (model, optimizer, schedule position, data position, RNG), stops cooperatively, and on a
NaN/Inf loss stops without overwriting the last good checkpoint.

This file is the loop alone: the schedule and loss are in ``schedule.py``, saving and restoring a run's
state in ``state.py``, and reading the corpus and settings before the first step in ``run.py``
(``run_training``, what callers use).

When ``torch.distributed`` is initialised (``model.training.worker`` under torchrun) the same loop runs on every
rank with the model wrapped in DistributedDataParallel; rank 0 alone validates, probes, writes and yields.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Iterator
from pathlib import Path

import torch

from model import packed_linear
from model.config import TrainConfig
from model.errors import UserError
from model.files import remove_stale_temps
from model.records import TrainProgress
from model.training.control import TrainControl
from model.training.data import collate, make_batches
from model.training.ddp import Sync, rank_world, wrap_ddp
from model.training.device import amp_context, resolve_device
from model.training.divergence import DivergenceWatch
from model.training.lock import RunLock
from model.training.log_line import log_line
from model.training.memory import check_fits
from model.training.prepare import Data
from model.training.schedule import learning_rate, step_loss
from model.training.state import restore, save_checkpoint, save_failure
from model.training.validate import probe, validate
from model.transformer import Transformer


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
        yield stopped_early(cfg)
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
    lock = RunLock(cfg.out_path).acquire() if main else None
    if main:
        remove_stale_temps(cfg.out_path)  # half-written checkpoints of a run killed mid-save
    try:
        yield from _train(cfg, data, control, resume, device, rank, world, main, created)
    finally:
        if lock is not None:
            lock.release()


def _train(cfg: TrainConfig, data: Data, control: TrainControl, resume: Path | None, device, rank: int,
           world: int, main: bool, created: bool) -> Iterator[TrainProgress]:
    torch.manual_seed(cfg.seed)
    random.seed(cfg.seed)
    model_cfg = cfg.model.replace(vocab_size=data.tokenizer.vocab_size)
    check_fits(model_cfg, device)
    model = Transformer(model_cfg).to(device)
    # fused: one kernel per step for all parameters (CPU and CUDA since torch 2.4)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9, fused=True)
    autocast, scaler = amp_context(device, cfg)
    step, epoch, position, elapsed = 0, 0, 0, 0.0
    if resume is not None:
        step, epoch, position, elapsed = restore(resume, model, model_cfg, optimizer, scaler, device)
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
    watch = DivergenceWatch(model_cfg.vocab_size)
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
                fh.write(log_line(rec))  # NaN and inf as null: strict JSON
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
            packed_linear.forget(model)  # the fused step changes weights without a new version
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
            diverged = watch.update(window_loss / window_n)  # the same on every rank: the loss is synced
            if main:
                yield record("step", loss=window_loss / window_n, tps=tps)
            window_loss, window_n, window_tokens, t_window = 0.0, 0, 0, now
            if diverged:  # no checkpoint of diverged weights: the last good one stays the newest
                where = (f"the last good checkpoint {last_good} is intact" if last_good
                         else "no checkpoint was written yet")
                if main:
                    yield record("error", message=f"training stopped at step {step}: {diverged}; {where}. "
                                 "Try a smaller learning-rate scale or more warmup steps.")
                return
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
        if cfg.checkpoint_every and step % cfg.checkpoint_every == 0 and not watch.suspicious:
            try:
                last_good = save_checkpoint(model, data, cfg, optimizer, scaler, step, epoch, position, elapsed)
            except (OSError, RuntimeError) as exc:  # torch reports a full disk as a RuntimeError
                yield record("error", message=save_failure(exc, step, cfg.out_path, last_good))
                return
            yield record("checkpoint", checkpoint=str(last_good))
    event = "stopped" if control.stopped else "done"
    if event == "stopped" and step == start_step and resume is None:
        # Stopped before the first step: an untrained step-00000000 would only look like a model.
        if main and created:
            with contextlib.suppress(OSError):
                cfg.out_path.rmdir()  # only if empty
        yield stopped_early(cfg)
        return
    if not main:
        yield record(event)
        return
    if last_good is None or last_good.name != f"step-{step:08d}":
        try:
            last_good = save_checkpoint(model, data, cfg, optimizer, scaler, step, epoch, position, elapsed)
        except (OSError, RuntimeError) as exc:
            yield record("error", message=save_failure(exc, step, cfg.out_path, last_good))
            return
    yield record(event, checkpoint=str(last_good), message=f"saved {last_good}")


def stopped_early(cfg: TrainConfig) -> TrainProgress:
    """The record of a run stopped before its first step, which writes nothing."""
    return TrainProgress(step=0, max_steps=cfg.max_steps, epoch=0, loss=math.nan, lr=0.0, tokens_per_s=0.0,
                         elapsed_s=0.0, event="stopped", message="stopped before the first step; nothing was written")

"""DDP training: two CPU processes under torchrun (gloo) train, write once, pause, stop, resume; the CLI too.

The DDP path of the training loop is also run in-process with a one-process group, where it must give
exactly the single-process losses.
"""

import itertools
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.config import TrainConfig, preset
from model.records import AttentionMaps, TrainProgress, Translation
from model.training.control import TrainControl
from model.training.data import load_corpora
from model.training.ddp import cuda_devices
from model.training.prepare import prepare_data
from model.training.torchrun import decode_record, encode_record, run_distributed
from model.training.train import train

REPO = Path(__file__).resolve().parents[2]


def tiny_cfg(out: Path, **kw) -> TrainConfig:
    settings = {"model": preset("tiny"), "task": "reverse", "task_size": 2000, "warmup_steps": 50, "lr_scale": 0.5,
                "batch_tokens": 1024, "valid_every": 20, "valid_bleu_sentences": 0, "checkpoint_every": 20,
                "n_valid": 50, "report_every": 5, "max_steps": 40, "threads": 1, "probe_every": 20,
                "probe_sentence": "1 2 3 4 5"}
    settings.update(kw)
    return TrainConfig(out_dir=str(out), **settings)


def gone(pid: int, within_s: float = 20.0) -> bool:
    """True once the process has exited (a zombie is reaped by its parent within moments)."""
    end = time.monotonic() + within_s
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.fixture(scope="module")
def ddp_run(tmp_path_factory):
    """40 steps of the tiny preset on 'reverse' with 2 gloo processes: (run folder, records)."""
    out = tmp_path_factory.mktemp("ddp") / "run"
    records = list(run_distributed(tiny_cfg(out), 2, TrainControl(), backend="gloo"))
    assert records[-1].event == "done", records[-1].message
    return out, records


@pytest.mark.slow
def test_records_arrive_in_order(ddp_run):
    _, records = ddp_run
    events = [(r.event, r.step) for r in records]
    assert events[0] == ("start", 0) and events[-1][0] == "done"
    assert [s for e, s in events if e == "step"] == list(range(5, 41, 5))
    assert [s for e, s in events if e in ("probe", "valid", "checkpoint")] == [20, 20, 20, 40, 40, 40]
    assert [r.step for r in records] == sorted(r.step for r in records)
    probe = next(r.probe for r in records if r.event == "probe")
    maps = probe.attention
    assert probe.source == "1 2 3 4 5" and maps is not None
    assert maps.cross.shape == (2, 4, len(maps.target_tokens), len(maps.source_tokens))
    assert maps.source_tokens[-1] == "</s>" and maps.target_tokens[0] == "<s>"


@pytest.mark.slow
def test_only_rank_zero_writes(ddp_run):
    out, records = ddp_run
    logged = [json.loads(x) for x in (out / "log.jsonl").read_text().splitlines()]
    # a second writer would repeat every line; the start record is the only one not logged
    assert [(x["event"], x["step"]) for x in logged] == [(r.event, r.step) for r in records[1:]]
    names = [str(p.relative_to(out)) for p in out.rglob("*")]
    assert not [n for n in names if "rank" in n or ".tmp" in n or ".old" in n]
    assert sorted(p.name for p in out.glob("step-*")) == ["step-00000020", "step-00000040"]
    assert (out / "LATEST").read_text().strip() == "step-00000040" == Path(records[-1].checkpoint).name
    assert not list((out / "probes").glob("*.npz"))  # the launcher read and removed them
    assert not (out / "STOP").exists() and not (out / "PAUSE").exists()


@pytest.mark.slow
def test_loss_falls_and_the_group_reports_for_all_ranks(ddp_run):
    _, records = ddp_run
    steps = [r for r in records if r.event == "step"]
    assert steps[-1].loss < 0.8 * steps[0].loss
    assert all(r.tokens_per_s > 0 for r in steps)
    assert all(r.valid_loss is not None for r in records if r.event == "valid")


@pytest.mark.slow
def test_the_ddp_checkpoint_loads(ddp_run):
    out, _ = ddp_run
    loaded = load_model(out)  # validates every key and shape: no "module." prefix from DDP
    assert loaded.meta["step"] == 40 and loaded.config.d_model == 64
    state = torch.load(out / "step-00000040" / "train_state.pt", weights_only=True)
    assert state["step"] == 40 and state["position"] % 2 == 0  # two batches a step, one per rank


@pytest.mark.slow
def test_pause_stop_and_resume_end_every_process(ddp_run, tmp_path):
    src, _ = ddp_run
    run = tmp_path / "run"
    shutil.copytree(src, run)  # the module's run stays as the other tests expect it
    control, timer, seen = TrainControl(), None, []
    cfg = tiny_cfg(run, max_steps=10_000, report_every=2, valid_every=0, probe_every=0, checkpoint_every=0)
    for rec in run_distributed(cfg, 2, control, resume=run, backend="gloo"):
        seen.append((time.monotonic(), rec))
        n = sum(r.event == "step" for _, r in seen)
        if rec.event == "step" and n == 2:
            control.pause()
            timer = threading.Timer(3.0, control.resume)
            timer.start()
        if rec.event == "step" and n == 10:
            control.stop()
    timer.join()
    last = seen[-1][1]
    steps = [(t, r.step) for t, r in seen if r.event == "step"]
    assert steps[0][1] == 42  # resumed after step 40
    assert max(b[0] - a[0] for a, b in itertools.pairwise(steps)) > 2.5  # the pause held every rank
    assert last.event == "stopped" and last.step >= 60
    assert load_model(run).meta["step"] == last.step == int(Path(last.checkpoint).name[5:])
    pids = [last.extra["launcher_pid"], *last.extra["worker_pids"].values()]
    assert len(pids) == 3 and all(gone(pid) for pid in pids)


@pytest.mark.slow
def test_cli_trains_on_two_gloo_processes(tmp_path):
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "model.cli", "train", "--task", "reverse", "--gpus", "2",
                        "--backend", "gloo", "--preset", "tiny", "--out", str(out), "--max-steps", "6",
                        "--warmup", "10", "--batch-tokens", "512", "--report-every", "2", "--valid-every", "0",
                        "--checkpoint-every", "0", "--threads", "1"],
                       cwd=REPO, env=dict(os.environ, OMP_NUM_THREADS="1"), capture_output=True, text=True,
                       timeout=300, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (out / "LATEST").read_text().strip() == "step-00000006"
    assert "step 6: saved" in r.stderr
    assert load_model(out).meta["step"] == 6


def test_one_process_group_gives_the_single_process_losses(tmp_path):
    """The DDP branch of the loop (wrapped model, sharding, collectives) must not change the arithmetic."""
    cfg = tiny_cfg(tmp_path / "a", task_size=400, max_steps=8, report_every=1, valid_every=0, probe_every=0,
                   checkpoint_every=0)
    data = prepare_data(cfg, *load_corpora(cfg)[:2])
    plain = [r.loss for r in train(cfg, data) if r.event == "step"]
    torch.distributed.init_process_group("gloo", init_method=f"file://{tmp_path / 'store'}", rank=0, world_size=1)
    try:
        ddp = [r.loss for r in train(cfg.replace(out_dir=str(tmp_path / "b")), data) if r.event == "step"]
    finally:
        torch.distributed.destroy_process_group()
    assert len(plain) == 8 and ddp == pytest.approx(plain, rel=1e-5)


def test_records_survive_the_json_line(tmp_path):
    rng = np.random.default_rng(0)
    maps = AttentionMaps(*(rng.random((2, 4, r, c), dtype=np.float32) for r, c in ((3, 3), (2, 2), (2, 3))),
                         ("▁a", "b", "</s>"), ("<s>", "▁x"), ("▁x", "</s>"))
    rec = TrainProgress(step=7, max_steps=9, epoch=0, loss=1.5, lr=1e-3, tokens_per_s=10.0, elapsed_s=2.0,
                        probe=Translation("a b", "x", ("▁a", "b"), ("▁x",), -0.5, maps), event="probe")
    line = encode_record(rec, tmp_path / "probes")
    assert "\n" not in line
    back = decode_record(line, {"launcher_pid": 1})
    assert back.extra == {"launcher_pid": 1} and back.step == 7 and back.loss == 1.5
    assert back.probe.target_pieces == ("▁x",) and back.probe.score == -0.5
    for name in ("encoder_self", "decoder_self", "cross"):
        assert np.array_equal(getattr(back.probe.attention, name), getattr(maps, name))
    assert back.probe.attention.source_tokens == maps.source_tokens
    assert back.probe.attention.predicted_tokens == maps.predicted_tokens
    assert not list((tmp_path / "probes").iterdir())  # read once, then removed
    assert decode_record("W1130 torchrun says something") is None


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the behaviour without CUDA")
def test_without_cuda_no_devices_and_gpu_check_exits_2():
    assert cuda_devices() == []
    r = subprocess.run([sys.executable, str(REPO / "benchmarks" / "gpu_check.py")], capture_output=True,
                       text=True, timeout=120, check=False)
    assert r.returncode == 2
    assert r.stderr.startswith("error: no CUDA device") and "Traceback" not in r.stderr


def _listening(pids: list[int]) -> set[str]:
    """The local addresses (hex, as /proc/net/tcp writes them) of every TCP socket the processes listen on."""
    inodes = set()
    for pid in pids:
        fd_dir = Path(f"/proc/{pid}/fd")
        for fd in (fd_dir.iterdir() if fd_dir.is_dir() else ()):
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    found = set()
    for table in ("tcp", "tcp6"):
        lines = Path(f"/proc/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.add(fields[1].rsplit(":", 1)[0])
    return found


@pytest.mark.slow  # a two-process run (~10 s): .ci/run runs it
@pytest.mark.skipif(not Path("/proc/net/tcp").is_file(), reason="reads Linux's /proc")
def test_a_local_run_listens_on_loopback_only(tmp_path):
    """#27: torchrun's agent listened on every interface (two stores on *:port); the launcher gives the ranks
    a FileStore and pins gloo to loopback, so nothing of a local run is reachable from the network."""
    loopback = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1, ::1
    cfg = tiny_cfg(tmp_path / "run", max_steps=10_000, report_every=1, valid_every=0, probe_every=0,
                   checkpoint_every=0)
    control, seen = TrainControl(), set()
    for rec in run_distributed(cfg, 2, control, backend="gloo"):
        pids = [rec.extra.get("launcher_pid"), *rec.extra.get("worker_pids", {}).values()]
        if rec.event == "step" and len(pids) == 3:
            seen |= _listening(pids)
            if rec.step >= 3:
                control.stop()
    assert rec.event == "stopped"
    assert seen, "the ranks' own sockets were not found: the check would pass vacuously"
    assert seen <= loopback, seen

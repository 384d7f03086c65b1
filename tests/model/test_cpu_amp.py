"""bf16 autocast on the CPU (``--cpu-amp``): weights stay fp32, the model still learns, unsupported CPUs refuse."""

from __future__ import annotations

import pytest
import torch

from model.config import TrainConfig, preset
from model.errors import UserError
from model.training import device, run
from tests.conftest import train_tiny


def test_autocast_is_bf16_on_cpu_only_when_asked():
    cfg = TrainConfig(out_dir="x", task="reverse", cpu_amp=True)
    ctx, scaler = device.amp_context(torch.device("cpu"), cfg.replace(cpu_amp=False))
    assert not isinstance(ctx, torch.autocast) and scaler is None
    if device.cpu_has_native_bf16():
        ctx, scaler = device.amp_context(torch.device("cpu"), cfg)
        assert isinstance(ctx, torch.autocast) and ctx.fast_dtype == torch.bfloat16 and scaler is None
        with ctx:
            assert (torch.ones(2, 3) @ torch.ones(3, 2)).dtype == torch.bfloat16


def test_cpu_amp_is_refused_without_native_bf16(monkeypatch, tmp_path):
    monkeypatch.setattr(device, "cpu_has_native_bf16", lambda: False)
    cfg = TrainConfig(out_dir=str(tmp_path / "run"), model=preset("tiny"), task="reverse", task_size=200,
                      max_steps=2, cpu_amp=True, valid_every=0)
    with pytest.raises(UserError, match="no native bf16"):
        list(run.run_training(cfg))


@pytest.mark.slow  # learns a task: 120 steps, ~18 s of CPU
@pytest.mark.skipif(not device.cpu_has_native_bf16(), reason="this CPU has no native bf16")
def test_training_with_cpu_amp_learns_and_keeps_fp32_weights(tmp_path):
    from model.checkpoint import load_model, resolve
    run = train_tiny(tmp_path / "run", steps=120, cpu_amp=True, report_every=10)
    log = [line for line in (run / "log.jsonl").read_text().splitlines() if '"event": "step"' in line]
    import json
    losses = [json.loads(line)["loss"] for line in log]
    assert losses[-1] < 0.8 * losses[0]  # it learns
    loaded = load_model(resolve(run))
    assert all(p.dtype == torch.float32 for p in loaded.model.parameters())


def test_attention_runs_in_fp32_under_cpu_autocast_and_the_loss_matches(monkeypatch):
    """The bf16 attention kernel's backward is several times slower on CPUs, so attention stays fp32."""
    from model import layers
    from model.transformer import Transformer
    torch.manual_seed(0)
    model = Transformer(preset("tiny", dropout=0.0, vocab_size=40))
    src, tgt = torch.randint(4, 40, (6, 9)), torch.randint(4, 40, (6, 8))
    fp32_loss, _ = model(src, tgt[:, :-1], target=tgt[:, 1:])
    seen = []
    real_sdpa = layers.F.scaled_dot_product_attention

    def spy(q, k, v, **kw):
        seen.append((q.dtype, torch.is_autocast_enabled("cpu")))
        return real_sdpa(q, k, v, **kw)
    monkeypatch.setattr(layers.F, "scaled_dot_product_attention", spy)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        bf16_loss, _ = model(src, tgt[:, :-1], target=tgt[:, 1:])
        projected = model.encoder[0].self_attn.w_qkv(torch.randn(2, 3, model.cfg.d_model))
    assert projected.dtype == torch.bfloat16  # the projections do run in bf16
    assert len(seen) == 3 * model.cfg.n_layers and set(seen) == {(torch.float32, False)}
    assert bf16_loss.dtype == torch.float32
    assert bf16_loss.item() == pytest.approx(fp32_loss.item(), rel=2e-2)
    bf16_loss.backward()
    assert all(p.grad is not None and p.grad.dtype == torch.float32 for p in model.parameters() if p.requires_grad)

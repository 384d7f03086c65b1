"""Shared embeddings (section 3.4) and the unshared ablation: which matrix each path uses, and that the
unshared model trains, saves, loads and searches like the shared one."""

import json

import pytest
import torch
import torch.nn.functional as F

from model.checkpoint import load_model, resolve
from model.config import BOS_ID, ModelConfig, TrainConfig, preset
from model.decoding import int8
from model.errors import UserError
from model.transformer import Transformer

SRC = torch.tensor([[5, 6, 7, 3], [8, 9, 3, 0]])
TGT = torch.tensor([[2, 10, 11, 12, 3], [2, 13, 3, 0, 0]])


def _model(share: bool, seed: int = 0) -> Transformer:
    torch.manual_seed(seed)
    return Transformer(preset("tiny", dropout=0.0, share_embeddings=share)).eval()


def test_shared_is_the_default_and_one_matrix():
    assert ModelConfig().share_embeddings and preset("small").share_embeddings
    model = _model(True)
    assert model.src_embedding is None and model.output_weight is None
    assert model.output_projection is model.embedding.weight
    assert {k for k in model.state_dict() if "embedding" in k or "output" in k} == {"embedding.weight"}


def test_unshared_adds_exactly_two_tables():
    shared, unshared = _model(True), _model(False)
    cfg = unshared.cfg
    assert unshared.num_parameters() - shared.num_parameters() == 2 * cfg.vocab_size * cfg.d_model
    assert unshared.output_projection is unshared.output_weight
    assert unshared.src_embedding.weight.data_ptr() != unshared.embedding.weight.data_ptr()
    # Same initial scale as the shared table (unit variance after the √d_model scaling), pad rows zero.
    for table in (unshared.embedding.weight, unshared.src_embedding.weight, unshared.output_weight):
        assert float(table.detach().std()) == pytest.approx(cfg.d_model ** -0.5, rel=0.15)
    assert not unshared.src_embedding.weight[cfg.pad_id].any() and not unshared.embedding.weight[cfg.pad_id].any()


def test_each_unshared_matrix_feeds_only_its_own_path():
    model = _model(False)
    with torch.no_grad():
        memory, _ = model.encode(SRC)
        logits, _ = model(SRC, TGT[:, :-1])
        model.embedding.weight.add_(0.5)  # the target embedding: encoder untouched, logits change
        assert torch.equal(model.encode(SRC)[0], memory)
        assert not torch.allclose(model(SRC, TGT[:, :-1])[0], logits)
        model.embedding.weight.sub_(0.5)
        model.output_weight.mul_(2.0)  # the projection: encoder and decoder states untouched
        hidden = model.decode(TGT[:, :-1], memory, SRC)[0]
        torch.testing.assert_close(model(SRC, TGT[:, :-1])[0], hidden @ model.output_weight.t())
        torch.testing.assert_close(model(SRC, TGT[:, :-1])[0], 2.0 * logits, rtol=1e-5, atol=1e-5)
        model.src_embedding.weight.add_(0.5)  # the source embedding changes the encoder
        assert not torch.allclose(model.encode(SRC)[0], memory)


@pytest.mark.parametrize("share", [True, False])
def test_training_loss_equals_the_full_logits_path(share):
    model = _model(share)
    params = list(model.parameters())
    loss = model.loss(SRC, TGT[:, :-1], TGT[:, 1:], label_smoothing=0.1)
    grads = torch.autograd.grad(loss, params)
    logits, _ = model(SRC, TGT[:, :-1])
    ref = F.cross_entropy(logits.reshape(-1, logits.size(-1)), TGT[:, 1:].reshape(-1), ignore_index=0,
                          label_smoothing=0.1)
    ref_grads = torch.autograd.grad(ref, params)
    assert loss.item() == pytest.approx(ref.item(), rel=1e-5)
    for a, b in zip(grads, ref_grads):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6)
    if not share:  # all three tables learn: each gets its own non-zero gradient
        names = [n for n, _ in model.named_parameters()]
        for name in ("embedding.weight", "src_embedding.weight", "output_weight"):
            assert grads[names.index(name)].abs().sum() > 0


@pytest.fixture(scope="module")
def unshared_dir(tmp_path_factory):
    from model.training.run import run_training
    out = tmp_path_factory.mktemp("unshared")
    cfg = TrainConfig(out_dir=str(out), model=preset("tiny", dropout=0.0, share_embeddings=False), task="reverse",
                      max_steps=30, task_size=1000, warmup_steps=20, lr_scale=0.5, batch_tokens=1024,
                      valid_every=0, checkpoint_every=0, n_valid=50, report_every=10)
    events = list(run_training(cfg))
    assert events[-1].event == "done", events[-1].message
    return resolve(out)


def test_unshared_checkpoint_round_trip(unshared_dir):
    assert json.loads((unshared_dir / "config.json").read_text())["model"]["share_embeddings"] is False
    a, b = load_model(unshared_dir), load_model(unshared_dir)
    assert a.model.cfg.share_embeddings is False
    for k, v in a.model.state_dict().items():
        assert torch.equal(v, b.model.state_dict()[k])
    assert not torch.equal(a.model.output_weight, a.model.embedding.weight)


def test_old_configs_without_the_field_load_as_shared(tiny_model_dir):
    data = json.loads((tiny_model_dir / "config.json").read_text())["model"]
    data.pop("share_embeddings", None)  # written before the field existed
    assert ModelConfig.from_dict(data).share_embeddings is True
    with pytest.raises(UserError, match="share_embeddings"):
        ModelConfig.from_dict({**data, "share_embeddings": "no"})  # a string would be truthy


@pytest.mark.skipif(not int8.available(), reason="this PyTorch has no int8 CPU kernels")
def test_int8_search_copy_uses_the_unshared_tables(unshared_dir):
    model = load_model(unshared_dir).model
    fast = int8.search_model(model)
    assert fast.src_embedding is model.src_embedding and fast.output.weight is model.output_weight
    src, tgt = torch.tensor([[5, 6, 7, 8, 3]]), torch.tensor([[BOS_ID, 8, 7]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        ref = model.generator(model.decode(tgt, memory, src)[0])
        out = fast.generator(fast.decode(tgt, memory, src)[0])
    assert float((out - ref).norm() / ref.norm()) < 0.05


def test_cli_flag_unties(tmp_path, capsys):
    from model.cli import main
    main(["train", "--task", "copy", "--preset", "tiny", "--no-share-embeddings", "--max-steps", "2",
          "--valid-every", "0", "--checkpoint-every", "0", "--out", str(tmp_path / "run")])
    cfg = json.loads((resolve(tmp_path / "run") / "config.json").read_text())
    assert cfg["model"]["share_embeddings"] is False

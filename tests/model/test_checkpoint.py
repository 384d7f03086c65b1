import json
import os
import pickle
import shutil

import pytest
import torch
from safetensors.torch import load_file

from model.checkpoint import LATEST, load_model, load_train_state, resolve, save_model
from model.errors import CheckpointError
from tests.conftest import train_tiny


def test_round_trip_is_bit_identical(tiny_model_dir, tmp_path):
    a = load_model(tiny_model_dir)
    out = save_model(tmp_path / "copy", a.model, a.tokenizer)
    b = load_model(out)
    sa, sb = a.model.state_dict(), b.model.state_dict()
    assert sa.keys() == sb.keys()
    for k in sa:
        assert torch.equal(sa[k], sb[k]), k
    assert (out / "spm.model").read_bytes() == (tiny_model_dir / "spm.model").read_bytes()
    assert json.loads((out / "config.json").read_text())["model"] == a.config.to_dict()


def test_files_match_config(tiny_model_dir):
    cfg = load_model(tiny_model_dir).config
    tensors = load_file(str(tiny_model_dir / "model.safetensors"))
    assert tensors["embedding.weight"].shape == (cfg.vocab_size, cfg.d_model)
    assert tensors["encoder.0.self_attn.w_qkv.weight"].shape == (3 * cfg.d_model, cfg.d_model)
    assert sum(k.startswith("decoder.") and k.endswith("cross_attn.w_o.weight") for k in tensors) == cfg.n_layers


def test_run_folder_resolves_to_latest(tmp_path):
    run = train_tiny(tmp_path / "run", steps=20, checkpoint_every=10)
    assert (run / LATEST).read_text().strip() == "step-00000020"
    assert resolve(run) == run / "step-00000020"
    assert (run / "step-00000010" / "model.safetensors").is_file()
    assert not list(run.glob(".tmp-*"))  # no temporary folder left behind


def test_resume_equals_straight_run(tmp_path):
    straight = train_tiny(tmp_path / "straight", steps=30, dropout=0.1, report_every=5)
    half = train_tiny(tmp_path / "half", steps=15, dropout=0.1, report_every=5)
    from model.config import TrainConfig, preset
    from model.training.run import run_training
    cfg = TrainConfig(out_dir=str(half), model=preset("tiny"), max_steps=30, valid_every=0, checkpoint_every=0,
                      report_every=5)
    events = list(run_training(cfg, resume=half))
    assert events[-1].event == "done" and events[-1].step == 30
    a, b = load_model(straight).model.state_dict(), load_model(half).model.state_dict()
    for k in a:
        assert torch.equal(a[k], b[k]), k
    # losses logged for steps 20 and 30 agree too
    def losses(run):
        rows = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
        return {r["step"]: r["loss"] for r in rows if r["event"] == "step"}
    assert losses(straight)[20] == losses(half)[20] and losses(straight)[30] == losses(half)[30]


@pytest.fixture
def broken(tiny_model_dir, tmp_path):
    def make(name):
        d = tmp_path / name
        shutil.copytree(tiny_model_dir, d)
        return d
    return make


def test_missing_folder_and_files(tmp_path, broken):
    with pytest.raises(CheckpointError, match="not found"):
        load_model(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match="no config.json"):
        load_model(tmp_path / "empty")
    d = broken("noweights")
    (d / "model.safetensors").unlink()
    (d / "pytorch_model.bin").write_bytes(b"x")
    with pytest.raises(CheckpointError, match="only safetensors"):
        load_model(d)
    d = broken("nospm")
    (d / "spm.model").unlink()
    with pytest.raises(CheckpointError, match="no tokenizer"):
        load_model(d)


def test_truncated_and_garbage_weights(broken):
    d = broken("trunc")
    data = (d / "model.safetensors").read_bytes()
    (d / "model.safetensors").write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="corrupt or truncated"):
        load_model(d)
    d = broken("garbage")
    (d / "model.safetensors").write_bytes(os.urandom(1000))
    with pytest.raises(CheckpointError, match="corrupt or truncated"):
        load_model(d)
    d = broken("badjson")
    (d / "config.json").write_text("{not json")
    with pytest.raises(CheckpointError, match="not valid JSON"):
        load_model(d)


def test_mismatched_tokenizer_and_shapes(broken, tmp_path):
    from model.tokenizer import Tokenizer
    d = broken("tok")
    Tokenizer.train([f"word{i} other{i} thing{i}" for i in range(300)], 200).save(d / "spm.model")
    with pytest.raises(CheckpointError, match="does not belong to this model"):
        load_model(d)
    d = broken("shape")
    cfg = json.loads((d / "config.json").read_text())
    cfg["model"]["d_ff"] *= 2
    (d / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError, match="shape"):
        load_model(d)


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch /tmp/attention-explorer-pwned",))


def test_hostile_pickle_is_refused(broken):
    d = broken("evil")
    marker = "/tmp/attention-explorer-pwned"
    if os.path.exists(marker):
        os.unlink(marker)
    with open(d / "train_state.pt", "wb") as fh:
        pickle.dump({"optimizer": _Evil()}, fh)
    with pytest.raises(CheckpointError, match="refused"):
        load_train_state(d)
    assert not os.path.exists(marker)
    # torch.save of a hostile object inside the zip format is refused as well
    torch.save({"x": _Evil()}, d / "train_state.pt")
    with pytest.raises(CheckpointError, match="refused"):
        load_train_state(d)
    assert not os.path.exists(marker)
    load_model(d)  # the model itself never reads that file


def test_crash_during_save_keeps_last_good(tiny_model_dir, tmp_path, monkeypatch):
    good = load_model(tiny_model_dir)
    target = save_model(tmp_path / "ck", good.model, good.tokenizer)
    before = (target / "model.safetensors").read_bytes()
    import model.checkpoint as ck
    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(ck, "save_file", boom)
    with pytest.raises(OSError):
        save_model(target, good.model, good.tokenizer)
    assert (target / "model.safetensors").read_bytes() == before
    assert not list(tmp_path.glob(".tmp-*"))
    load_model(target)


def test_resume_can_continue_on_a_new_corpus(tmp_path):
    """Continuing a run on another corpus keeps the model, the tokenizer and the step count."""
    from model.config import TrainConfig, preset
    from model.training.run import run_training
    run = train_tiny(tmp_path / "run", task="reverse", steps=10)
    before = (resolve(run) / "spm.model").read_bytes()
    cfg = TrainConfig(out_dir=str(run), model=preset("tiny"), task="copy", task_size=500, max_steps=20,
                      valid_every=0, checkpoint_every=0, report_every=5, n_valid=20)
    events = list(run_training(cfg, resume=run))
    assert events[-1].event == "done" and events[-1].step == 20
    last = resolve(run)
    assert last.name == "step-00000020" and (last / "spm.model").read_bytes() == before
    saved = json.loads((last / "train_config.json").read_text())
    assert saved["task"] == "copy"
    # the run remembers what it trained on before, and where it switched (for the model card)
    assert saved["stages"] == [{"src": "", "tgt": "", "tsv": "", "task": "reverse", "until_step": 10}]
    # continuing on the same corpus adds no stage; the record survives the round trip
    again = TrainConfig(out_dir=str(run), model=preset("tiny"), max_steps=25, valid_every=0,
                        checkpoint_every=0, report_every=5)
    assert list(run_training(again, resume=run))[-1].step == 25
    final = TrainConfig.from_json((resolve(run) / "train_config.json").read_text())
    assert final.task == "copy" and final.stages == ({"src": "", "tgt": "", "tsv": "", "task": "reverse",
                                                      "until_step": 10},)


def test_old_config_files_with_bos_and_eos_ids_still_load():
    from model.config import ModelConfig
    from model.errors import UserError

    old = {k: v for k, v in ModelConfig().to_dict().items()  # as older checkpoints wrote them
           if k not in ("pe_layout", "activation", "scale_embedding", "final_logits_bias")}
    assert (old["bos_id"], old["eos_id"]) == (2, 3)  # read again since Marian models set their own
    assert ModelConfig.from_dict(old) == ModelConfig()
    with pytest.raises(UserError, match="unknown model config fields: colour"):
        ModelConfig.from_dict({**old, "colour": 1})

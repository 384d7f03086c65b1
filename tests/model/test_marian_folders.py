"""Marian folders that must be refused, with one clear line and nothing executed; and the options that
make our Transformer compute Marian's (checked against transformers itself in test_marian.py).

No transformers needed: the folders are written by hand, with real SentencePiece models.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.cli import main
from model.config import ModelConfig
from model.errors import CheckpointError
from model.layers import sinusoidal_table
from tests.model.marian_tiny import build_tokenizer_files


def _folder(tmp_path, **config):
    """A Marian folder with tokenizer files and config.json, but no weights yet."""
    folder = tmp_path / "opus-mt-tiny"
    vocab = build_tokenizer_files(folder)
    v = len(vocab)
    hf = {"model_type": "marian", "vocab_size": v, "d_model": 16, "encoder_layers": 1, "decoder_layers": 1,
          "encoder_attention_heads": 2, "decoder_attention_heads": 2, "encoder_ffn_dim": 32,
          "decoder_ffn_dim": 32, "activation_function": "swish", "scale_embedding": True,
          "pad_token_id": v - 1, "eos_token_id": 0, "decoder_start_token_id": v - 1}
    hf.update(config)
    (folder / "config.json").write_text(json.dumps(hf), encoding="utf-8")
    return folder


def _refused(folder, capsys, *words) -> str:
    with pytest.raises(CheckpointError) as info:
        load_model(folder)
    message = str(info.value)
    assert all(w in message for w in words), message
    assert main(["translate", "--model", str(folder), "Hello."]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    return message


@pytest.mark.parametrize("name", ["source.spm", "target.spm", "vocab.json"])
def test_missing_tokenizer_file(tmp_path, capsys, name):
    folder = _folder(tmp_path)
    (folder / name).unlink()
    _refused(folder, capsys, name, "Marian")


def test_vocab_json_that_disagrees_with_the_embedding(tmp_path, capsys):
    folder = _folder(tmp_path)
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    (folder / "config.json").write_text(json.dumps({**json.loads((folder / "config.json").read_text()),
                                                    "vocab_size": len(vocab) - 3, "pad_token_id": 2,
                                                    "decoder_start_token_id": 2}), encoding="utf-8")
    _refused(folder, capsys, "vocab.json", f"{len(vocab)} pieces", f"{len(vocab) - 3} rows")


class _Hostile:
    """Unpickling this calls open(marker, "w"): it would create the marker file."""

    def __init__(self, marker) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.mark.parametrize("writer", ["pickle", "torch.save"])
def test_hostile_pickle_as_pytorch_model_bin_is_never_run(tmp_path, capsys, writer):
    folder = _folder(tmp_path)
    marker = tmp_path / "EXECUTED"
    payload = {"model.shared.weight": _Hostile(marker)}
    if writer == "pickle":
        (folder / "pytorch_model.bin").write_bytes(pickle.dumps(payload, protocol=2))
    else:
        torch.save(payload, folder / "pytorch_model.bin")
    message = _refused(folder, capsys, "refused", "pytorch_model.bin")
    assert "not a plain tensor file" in message
    assert "weights_only" not in message  # torch's hint to turn the safety off is not passed on
    assert not marker.exists()


@pytest.mark.parametrize("change, words", [
    ({"decoder_layers": 2}, ("encoder_layers 1", "decoder_layers 2")),
    ({"activation_function": "tanh"}, ("activation 'tanh'",)),
    # separate vocabularies open (test_marian_separate.py), but only with their target_vocab.json
    ({"share_encoder_decoder_embeddings": False}, ("separate vocabularies", "target_vocab.json")),
    ({"decoder_vocab_size": 7}, ("decoder_vocab_size 7", "share_encoder_decoder_embeddings")),
    ({"model_type": "bert"}, ("'bert'", "only Marian")),
])
def test_what_we_cannot_compute_exactly_is_refused(tmp_path, capsys, change, words):
    _refused(_folder(tmp_path, **change), capsys, *words)


def test_missing_weights(tmp_path, capsys):
    _refused(_folder(tmp_path), capsys, "without weights", "model.safetensors", "pytorch_model.bin")


def test_hub_cache_folder_without_a_snapshot(tmp_path, capsys):
    repo = tmp_path / "models--x--y"
    (repo / "snapshots").mkdir(parents=True)
    _refused(repo, capsys, "not a model folder")


def test_paper_defaults_unchanged():
    cfg = ModelConfig()
    new = ("pe_layout", "activation", "scale_embedding", "final_logits_bias")
    assert tuple(getattr(cfg, k) for k in new) == ("interleaved", "relu", True, False)
    assert ModelConfig.from_dict({k: v for k, v in cfg.to_dict().items() if k not in new}) == cfg


def test_halves_layout_holds_the_same_sinusoids_as_sines_then_cosines():
    for d in (8, 9, 512):
        paper, marian = sinusoidal_table(40, d).numpy(), sinusoidal_table(40, d, "halves").numpy()
        half = (d + 1) // 2
        np.testing.assert_array_equal(marian[:, :half], paper[:, 0::2])
        np.testing.assert_array_equal(marian[:, half:], paper[:, 1::2])
    from explorer.positional.encoding import sinusoidal_pe, sinusoidal_pe_at, wavelength
    np.testing.assert_allclose(sinusoidal_pe(60, 33, "halves"), sinusoidal_table(60, 33, "halves").numpy(), atol=1e-6)
    dims = [0, 5, 16, 17, 32]
    np.testing.assert_allclose(sinusoidal_pe_at(np.arange(60), 33, dims, "halves"),
                               sinusoidal_pe(60, 33, "halves")[:, dims], atol=1e-6)
    assert wavelength(17, 33, "halves") == pytest.approx(wavelength(0, 33))  # dim 17: the first cosine


def test_bad_option_values_are_refused():
    for change in ({"pe_layout": "zigzag"}, {"activation": "tanh"}, {"scale_embedding": "yes"},
                   {"eos_id": 99}):
        with pytest.raises(ValueError):
            ModelConfig(vocab_size=64, **change)

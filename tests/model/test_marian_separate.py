"""A Marian model with separate source and target vocabularies computes what transformers computes.

The fixture (conftest's marian_separate, tests/model/marian_tiny.py) is a tiny random MarianMTModel with
share_encoder_decoder_embeddings false: vocab.json (63 source pieces, two of them language codes) numbers
what the encoder reads, target_vocab.json (61 target pieces) what the decoder reads and the output scores.
A piece such as "▁ist" has one id on one side and another id (or none) on the other, so reading either
side with the wrong vocabulary changes the pieces, the logits and the shapes these tests compare.
"""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest
import torch

from tests.model.marian_tiny import ENGLISH, GERMAN

transformers = pytest.importorskip("transformers")

LOGITS_TOL, ATTENTION_TOL = 1e-4, 1e-5
SENTENCES = ENGLISH[:4] + [">>deu<< Thank you very much.", "Unseen words: zebra quixotic!"]


@pytest.fixture(scope="module")
def loaded(marian_separate):
    from model.checkpoint import load_model
    return load_model(marian_separate[1])


@pytest.fixture(scope="module")
def hf_tok(marian_separate):
    from transformers import MarianTokenizer
    tok = MarianTokenizer.from_pretrained(str(marian_separate[1]))
    assert tok.separate_vocabs  # read from the folder's tokenizer_config.json, as for a released model
    return tok


def _hf(hf, src: list[int], tgt: list[int]):
    with torch.no_grad():
        return hf(input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([tgt]), output_attentions=True)


def _source_pieces(hf_tok, text: str) -> list[str]:
    """transformers' source pieces as the model reads them: one missing from vocab.json is <unk>."""
    return [p if p in hf_tok.encoder else "<unk>" for p in hf_tok.tokenize(text)]


def _vocab(folder, name: str) -> dict[str, int]:
    return json.loads((folder / name).read_text(encoding="utf-8"))


def test_the_config_has_two_vocabulary_sizes_and_untied_embeddings(loaded, marian_separate):
    hf, folder = marian_separate
    cfg, model = loaded.config, loaded.model
    assert (cfg.src_vocab_size, cfg.vocab_size) == (hf.config.vocab_size, hf.config.decoder_vocab_size) == (63, 61)
    assert not cfg.share_embeddings
    assert tuple(model.src_embedding.weight.shape) == (63, 32) and tuple(model.embedding.weight.shape) == (61, 32)
    assert tuple(model.output_projection.shape) == (61, 32)
    assert torch.equal(model.src_embedding.weight, hf.model.encoder.embed_tokens.weight)
    assert torch.equal(model.embedding.weight, hf.model.decoder.embed_tokens.weight)
    assert torch.equal(model.output_projection, hf.lm_head.weight)  # tied to the decoder's, as saved
    learnt = sum(p.numel() for n, p in hf.named_parameters() if "embed_positions" not in n)
    # theirs holds lm_head once (tied), ours as a matrix of its own
    assert model.num_parameters() == learnt + 61 * 32


@pytest.mark.filterwarnings("ignore:Recommended")  # transformers asks for sacremoses
def test_source_and_target_pieces_equal_marian_tokenizers(loaded, hf_tok, marian_separate):
    tok, folder = loaded.tokenizer, marian_separate[1]
    eos = loaded.config.eos_id
    for text in SENTENCES:
        ids = tok.encode(text) + [eos]
        assert ids == hf_tok(text)["input_ids"]
        assert tok.source_pieces(ids[:-1]) == _source_pieces(hf_tok, text)  # vocab.json's pieces
    for text in GERMAN[:5]:
        ids = tok.encode_target(text) + [eos]
        assert ids == hf_tok(text_target=text)["input_ids"]
        assert tok.pieces(ids) == hf_tok.convert_ids_to_tokens(ids)  # target_vocab.json's pieces
        assert tok.decode(ids) == hf_tok.decode(ids, skip_special_tokens=True) == text
    # The two vocabularies really disagree: one id, two pieces.
    source, target = _vocab(folder, "vocab.json"), _vocab(folder, "target_vocab.json")
    assert source != target and tok.source_pieces([10]) != tok.pieces([10])


def test_logits_equal_transformers(loaded, hf_tok, marian_separate):
    hf = marian_separate[0]
    for text, target in zip(SENTENCES[:3], GERMAN[:3]):
        src = hf_tok(text)["input_ids"]
        tgt = [loaded.config.bos_id] + loaded.tokenizer.encode_target(target)
        with torch.no_grad():
            ours, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
        theirs = _hf(hf, src, tgt).logits
        assert ours.shape == theirs.shape == (1, len(tgt), 61)
        assert float((ours - theirs).abs().max()) <= LOGITS_TOL
        assert float(theirs.std()) > 0.5  # the numbers compared are not all near zero


def test_greedy_equals_generate_and_attention_equals_output_attentions(loaded, hf_tok, marian_separate):
    from model.decoding.decode import translate
    from model.decoding.search import greedy
    hf = marian_separate[0]
    pad, eos = loaded.config.pad_id, loaded.config.eos_id
    worst = 0.0
    for text in SENTENCES[:4]:
        src = hf_tok(text)["input_ids"]
        max_new = len(src) + 50  # translate's own limit
        theirs = hf.generate(torch.tensor([src]), num_beams=1, do_sample=False, max_new_tokens=max_new,
                             bad_words_ids=[[pad]], forced_eos_token_id=None)[0].tolist()[1:]
        assert greedy(loaded.model, torch.tensor([src]), max_new)[0] == theirs
        tr = translate(loaded, text, beam_size=1)
        assert tr.target_pieces == tuple(hf_tok.convert_ids_to_tokens([i for i in theirs if i != eos]))
        assert tr.text == hf_tok.decode(theirs, skip_special_tokens=True)
        maps = tr.attention
        assert maps.source_tokens == (*_source_pieces(hf_tok, text), "</s>")
        out = _hf(hf, src, [loaded.config.bos_id] + theirs[:len(maps.target_tokens) - 1])
        for ours, ref in ((maps.encoder_self, out.encoder_attentions), (maps.decoder_self, out.decoder_attentions),
                          (maps.cross, out.cross_attentions)):
            ref = torch.stack([t[0] for t in ref]).numpy()
            assert ours.shape == ref.shape
            worst = max(worst, float(np.abs(ours - ref).max()))
    assert worst <= ATTENTION_TOL


def test_gradient_importance_reads_references_with_the_target_vocabulary(loaded, hf_tok, marian_separate):
    """Its loss is transformers' own for the pair, whose labels are the reference's target ids."""
    from model.analysis.gradient_importance import gradient_importance
    hf = marian_separate[0]
    src, ref = SENTENCES[2], GERMAN[2]
    with torch.no_grad():
        theirs = hf(input_ids=torch.tensor([hf_tok(src)["input_ids"]]),
                    labels=torch.tensor([hf_tok(text_target=ref)["input_ids"]])).loss
    assert gradient_importance(loaded, [src], [ref]).loss == pytest.approx(float(theirs), abs=1e-4)


def test_alignment_against_references_labels_each_side_with_its_vocabulary(loaded, hf_tok):
    from model.cli.align import cross_maps
    (cross, source, target), = cross_maps(loaded, [SENTENCES[1]], [GERMAN[1]])
    ids = hf_tok(text_target=GERMAN[1])["input_ids"]
    assert target == tuple(hf_tok.convert_ids_to_tokens(ids))  # the reference in target_vocab.json's pieces
    assert source == (*_source_pieces(hf_tok, SENTENCES[1]), "</s>") and cross.shape[2:] == (len(ids), len(source))


def test_import_keeps_both_vocabularies(marian_separate, hf_tok, tmp_path):
    from model.checkpoint import load_model
    from model.marian.load import import_marian
    hf, folder = marian_separate
    out = import_marian(folder, tmp_path / "imported")
    assert (out / "target_vocab.json").read_bytes() == (folder / "target_vocab.json").read_bytes()
    data = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert (data["model"]["src_vocab_size"], data["model"]["vocab_size"]) == (63, 61)
    loaded = load_model(out)
    src = hf_tok(SENTENCES[1])["input_ids"]
    tgt = [loaded.config.bos_id] + loaded.tokenizer.encode_target(GERMAN[1])
    with torch.no_grad():
        ours, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
    assert float((ours - _hf(hf, src, tgt).logits).abs().max()) <= LOGITS_TOL
    assert loaded.tokenizer.source_pieces(src[:-1]) == _source_pieces(hf_tok, SENTENCES[1])


def test_hub_cache_layout_opens_with_both_vocabularies(marian_separate, hf_tok, tmp_path):
    """models--org--name/{blobs, snapshots/<hash>/ (symlinks), refs/main}, as the hub lays a download out."""
    from model.checkpoint import load_model
    hf, folder = marian_separate
    repo = tmp_path / "hub" / "models--tiny--opus-mt-en-de-separate"
    snap = repo / "snapshots" / ("cd" * 20)
    (repo / "blobs").mkdir(parents=True)
    snap.mkdir(parents=True)
    for i, f in enumerate(sorted(folder.iterdir())):
        blob = repo / "blobs" / f"{i:040x}"
        shutil.copy(f, blob)
        os.symlink(os.path.relpath(blob, snap), snap / f.name)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("cd" * 20)
    loaded = load_model(repo)
    assert loaded.config.src_vocab_size == 63
    src = hf_tok(SENTENCES[0])["input_ids"]
    tgt = [loaded.config.bos_id] + loaded.tokenizer.encode_target(GERMAN[0])
    with torch.no_grad():
        ours, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
    assert float((ours - _hf(hf, src, tgt).logits).abs().max()) <= LOGITS_TOL


def test_hub_download_fetches_target_vocab_json(marian_separate, tmp_path, monkeypatch):
    from model.checkpoint import load_model
    from model.hub.download import download, plan_download
    from tests.hub_server import FakeHub
    repo_id = "test-org/opus-mt-en-de-separate"
    server = FakeHub()
    server.add_folder(repo_id, marian_separate[1])
    server.start()
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    try:
        plan = plan_download(repo_id)
        assert "target_vocab.json" in [n for n, _ in plan.files]
        folder = download(plan)
    finally:
        server.stop()
    loaded = load_model(folder)
    assert loaded.tokenizer.separate and loaded.config.src_vocab_size == 63


def test_separate_vocabularies_without_target_vocab_json_are_one_line(marian_separate, tmp_path):
    from model.checkpoint import load_model
    from model.errors import CheckpointError
    folder = tmp_path / "no-target-vocab"
    shutil.copytree(marian_separate[1], folder)
    (folder / "target_vocab.json").unlink()
    with pytest.raises(CheckpointError, match="target_vocab.json"):
        load_model(folder)


def test_built_in_configs_keep_one_vocabulary():
    """src_vocab_size 0 is the paper's joint vocabulary: the built-in models' shapes are unchanged."""
    from model.config import PRESETS, ModelConfig
    from model.errors import UserError
    from model.transformer import Transformer
    tiny = Transformer(PRESETS["tiny"])
    assert tiny.src_embedding is None and tiny.output_projection is tiny.embedding.weight
    assert PRESETS["tiny"].source_vocab_size == PRESETS["tiny"].vocab_size
    untied = Transformer(PRESETS["tiny"].replace(share_embeddings=False))
    assert untied.src_embedding.weight.shape == untied.embedding.weight.shape
    with pytest.raises(UserError, match="share_embeddings"):
        ModelConfig(vocab_size=64, src_vocab_size=80)

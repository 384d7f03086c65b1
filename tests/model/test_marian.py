"""A Hugging Face Marian model, opened or imported, computes exactly what transformers computes.

A tiny random MarianMTModel is built locally (tests/model/marian_tiny.py) and compared with our loaded
copy: logits, tokenization, greedy output and every attention map. Needs the ``marian`` extra
(``pip install -e ".[test,marian]"``); skipped without transformers.
"""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest
import torch

from tests.model.marian_tiny import ENGLISH

transformers = pytest.importorskip("transformers")

TOL = 1e-5
SENTENCES = ENGLISH[:4] + ["Unseen words: zebra quixotic!"]


@pytest.fixture(scope="module")
def marian(marian_model):
    """(the transformers model, its safetensors folder, its pytorch_model.bin folder)."""
    hf, st, pt = marian_model
    assert (st / "model.safetensors").is_file() and not (st / "pytorch_model.bin").exists()
    assert (pt / "pytorch_model.bin").is_file() and not (pt / "model.safetensors").exists()
    return marian_model


def _ids(hf_tok, text: str) -> list[int]:
    return hf_tok(text)["input_ids"]


@pytest.fixture(scope="module")
def hf_tok(marian):
    from transformers import MarianTokenizer
    st = marian[1]
    return MarianTokenizer(source_spm=str(st / "source.spm"), target_spm=str(st / "target.spm"),
                           vocab=str(st / "vocab.json"))


def _hf_logits(hf, src: list[int], tgt: list[int]):
    with torch.no_grad():
        return hf(input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([tgt]), output_attentions=True)


@pytest.mark.parametrize("fmt", ["st", "pt"])
def test_logits_equal_transformers(marian, fmt):
    from model.checkpoint import load_model
    hf, st, pt = marian
    loaded = load_model(st if fmt == "st" else pt)
    cfg = loaded.config
    options = (cfg.pe_layout, cfg.activation, cfg.scale_embedding, cfg.final_logits_bias)
    assert options == ("halves", "swish", True, True)
    assert (cfg.pad_id, cfg.bos_id, cfg.eos_id) == (hf.config.pad_token_id, hf.config.decoder_start_token_id, 0)
    learnt = sum(p.numel() for n, p in hf.named_parameters() if "embed_positions" not in n)  # theirs: a frozen table
    assert loaded.model.num_parameters() == learnt
    src = loaded.tokenizer.encode(SENTENCES[0]) + [cfg.eos_id]
    tgt = [cfg.bos_id, 5, 17, 40, 3, 61, 12, 0]
    out = _hf_logits(hf, src, tgt)
    with torch.no_grad():
        ours, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
    delta = float((ours - out.logits).abs().max())
    print(f"max |Δ logits| ({fmt}): {delta:.2e}")
    assert delta <= TOL
    assert float(out.logits.std()) > 0.5  # the numbers compared are not all near zero


@pytest.mark.filterwarnings("ignore:Recommended")  # transformers asks for sacremoses
def test_tokenizer_ids_are_vocab_json_ones_as_in_transformers(marian, hf_tok):
    from model.checkpoint import load_model
    loaded = load_model(marian[1])
    for text in SENTENCES + [">>deu<< I have no time."]:
        assert loaded.tokenizer.encode(text) + [loaded.config.eos_id] == _ids(hf_tok, text)
    vocab = json.loads((marian[1] / "vocab.json").read_text(encoding="utf-8"))
    piece = loaded.tokenizer.pieces(loaded.tokenizer.encode("Where is the station?"))[0]
    assert vocab[piece] == loaded.tokenizer.encode("Where is the station?")[0]
    ids = [vocab[p] for p in ("▁Wo", "▁ist", "▁der") if p in vocab] + [0]
    assert loaded.tokenizer.decode(ids) == hf_tok.decode(ids, skip_special_tokens=True)


def test_greedy_output_equals_generate(marian, hf_tok):
    from model.checkpoint import load_model
    from model.decoding.decode import translate
    from model.decoding.search import greedy
    hf, st, _ = marian
    loaded = load_model(st)
    pad, eos = loaded.config.pad_id, loaded.config.eos_id
    for text in SENTENCES:
        src = _ids(hf_tok, text)
        max_new = len(src) + 50  # translate's own limit
        theirs = hf.generate(torch.tensor([src]), num_beams=1, do_sample=False, max_new_tokens=max_new,
                             bad_words_ids=[[pad]], forced_eos_token_id=None)[0].tolist()
        assert theirs[0] == loaded.config.bos_id
        theirs = theirs[1:]
        assert pad not in theirs
        assert greedy(loaded.model, torch.tensor([src]), max_new)[0] == theirs
        tr = translate(loaded, text, beam_size=1)  # the int8-drafted, fp32-checked search the app runs
        assert tr.target_pieces == tuple(loaded.tokenizer.pieces([i for i in theirs if i != eos]))
        assert tr.text == hf_tok.decode(theirs, skip_special_tokens=True)


@pytest.mark.parametrize("beam", [1, 4])
def test_captured_attention_equals_output_attentions(marian, hf_tok, beam):
    from model.checkpoint import load_model
    from model.decoding.decode import translate
    hf, st, _ = marian
    loaded = load_model(st)
    worst = 0.0
    for text in SENTENCES[:3]:
        tr = translate(loaded, text, beam_size=beam)
        maps = tr.attention
        src = _ids(hf_tok, text)
        vocab = json.loads((st / "vocab.json").read_text(encoding="utf-8"))
        assert maps.target_tokens[0] == "<s>"  # the start, labelled as such though its id is the pad id
        tgt = [loaded.config.bos_id] + [vocab[p] for p in maps.target_tokens[1:]]  # + the output but its last piece
        assert len(src) == len(maps.source_tokens)
        out = _hf_logits(hf, src, tgt)
        for ours, theirs in ((maps.encoder_self, out.encoder_attentions), (maps.decoder_self, out.decoder_attentions),
                             (maps.cross, out.cross_attentions)):
            theirs = torch.stack([t[0] for t in theirs]).numpy()  # (L, H, rows, cols)
            assert ours.shape == theirs.shape == (2, 4) + ours.shape[2:]
            worst = max(worst, float(np.abs(ours - theirs).max()))
    print(f"max |Δ attention| (beam {beam}): {worst:.2e}")
    assert worst <= TOL


@pytest.mark.parametrize("mistake", [{"pe_layout": "interleaved"}, {"scale_embedding": False},
                                     {"activation": "relu"}, {"final_logits_bias": False}])
def test_each_marian_setting_matters(marian, mistake):
    """Each setting flipped back to the paper's breaks the logits test: none of them is a no-op."""
    from model.checkpoint import load_model
    from model.transformer import Transformer
    hf, st, _ = marian
    loaded = load_model(st)
    wrong = Transformer(loaded.config.replace(**mistake)).eval()
    state = {k: v for k, v in loaded.model.state_dict().items() if k in wrong.state_dict()}
    wrong.load_state_dict(state)
    src = loaded.tokenizer.encode(SENTENCES[1]) + [loaded.config.eos_id]
    tgt = [loaded.config.bos_id, 7, 9, 30]
    out = _hf_logits(hf, src, tgt)
    with torch.no_grad():
        right, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
        bad, _ = wrong(torch.tensor([src]), torch.tensor([tgt]))
    assert float((right - out.logits).abs().max()) <= TOL
    assert float((bad - out.logits).abs().max()) > 100 * TOL


def test_defaults_for_missing_keys_are_marian_configs(marian):
    from transformers import MarianConfig

    from model.marian.folder import DEFAULTS
    reference = MarianConfig()
    for key, value in DEFAULTS.items():
        expected = getattr(reference, key)
        if key == "decoder_vocab_size":
            expected = None  # MarianConfig fills it from vocab_size after construction; so do we
        assert value == expected, key


def test_import_writes_our_format_and_computes_the_same(marian, tmp_path, capsys):
    from model.checkpoint import load_model
    from model.cli import main
    hf, st, pt = marian
    out = tmp_path / "imported"
    assert main(["import-marian", str(pt), "--out", str(out)]) == 0
    assert "imported" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["config.json", "model.safetensors", "source.spm",
                                                     "target.spm", "vocab.json"]
    data = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert data["tokenizer"] == "marian" and data["meta"]["origin"] == "marian-import"
    assert data["model"]["pe_layout"] == "halves" and data["model"]["activation"] == "swish"
    loaded = load_model(out)
    info = loaded.info()
    assert (info.origin, info.pe_layout, info.d_ff, info.n_layers) == ("marian-import", "halves", 64, 2)
    src = loaded.tokenizer.encode(SENTENCES[2]) + [0]
    tgt = [loaded.config.bos_id, 11, 12, 13]
    with torch.no_grad():
        ours, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
    assert float((ours - _hf_logits(hf, src, tgt).logits).abs().max()) <= TOL


def test_cli_translate_and_info_open_a_marian_folder(marian, hf_tok, capsys):
    from model.cli import main
    hf, st, _ = marian
    text = SENTENCES[3]
    theirs = hf.generate(torch.tensor([_ids(hf_tok, text)]), num_beams=1, do_sample=False,
                         max_new_tokens=len(_ids(hf_tok, text)) + 50, bad_words_ids=[[hf.config.pad_token_id]],
                         forced_eos_token_id=None)[0]
    # --sentences: one sentence, searched as the views search it (the default, text mode, also cuts loops,
    # and this random model loops)
    assert main(["translate", "--model", str(st), "--beam", "1", "--sentences", text]) == 0
    assert capsys.readouterr().out.strip() == hf_tok.decode(theirs, skip_special_tokens=True).strip()
    assert main(["info", "--model", str(st)]) == 0
    out = capsys.readouterr().out
    assert "pe_layout: halves" in out and "activation: swish" in out


def test_hub_cache_layout_opens_through_symlinks(marian, tmp_path):
    """models--org--name/{blobs, snapshots/<hash>/ (symlinks into blobs), refs/main} as the hub lays it out."""
    from model.checkpoint import load_model
    hf, st, _ = marian
    repo = tmp_path / "hub" / "models--tiny--opus-mt-en-de"
    snap = repo / "snapshots" / ("ab" * 20)
    (repo / "blobs").mkdir(parents=True)
    snap.mkdir(parents=True)
    for i, f in enumerate(sorted(st.iterdir())):
        blob = repo / "blobs" / f"{i:040x}"
        shutil.copy(f, blob)
        os.symlink(os.path.relpath(blob, snap), snap / f.name)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("ab" * 20)
    for folder in (repo, snap):
        loaded = load_model(folder)
        assert loaded.path == snap
        src = loaded.tokenizer.encode(SENTENCES[0]) + [0]
        tgt = [loaded.config.bos_id, 3, 4]
        with torch.no_grad():
            ours, _ = loaded.model(torch.tensor([src]), torch.tensor([tgt]))
        assert float((ours - _hf_logits(hf, src, tgt).logits).abs().max()) <= TOL


def test_training_loss_equals_transformers_loss(marian):
    """The training path (packed layers, the fused output projection + loss, the logits bias folded in)
    gives transformers' own cross-entropy for the same pair."""
    from model.checkpoint import load_model
    hf, st, _ = marian
    loaded = load_model(st)
    tok, cfg = loaded.tokenizer, loaded.config
    def padded(rows):
        n = max(len(r) for r in rows)
        return torch.tensor([r + [cfg.pad_id] * (n - len(r)) for r in rows])

    src = padded([tok.encode(s) + [cfg.eos_id] for s in SENTENCES[:2]])
    targets = [tok.encode_target("Das Wetter ist heute schön."), tok.encode_target("Ich habe keine Zeit.")]
    tgt_out = padded([b + [cfg.eos_id] for b in targets])
    tgt_in = padded([[cfg.bos_id] + b for b in targets])
    labels = tgt_out.masked_fill(tgt_out == cfg.pad_id, -100)
    with torch.no_grad():
        theirs = hf(input_ids=src, attention_mask=(src != cfg.pad_id).long(), labels=labels).loss
    ours = loaded.model.loss(src, tgt_in, tgt_out, label_smoothing=0.0)  # with autograd on: the fused path
    ours.backward()
    assert abs(float(ours.detach()) - float(theirs)) <= TOL
    assert loaded.model.final_logits_bias.grad is None  # a fixed bias, as in transformers


def test_imported_model_fine_tunes_with_train_resume(marian, tmp_path, capsys):
    from model.checkpoint import load_model
    from model.cli import main
    from tests.model.marian_tiny import GERMAN
    _, st, _ = marian
    imported = tmp_path / "imported"
    assert main(["import-marian", str(st), "--out", str(imported)]) == 0
    (tmp_path / "a.en").write_text("\n".join(ENGLISH * 3) + "\n", encoding="utf-8")
    (tmp_path / "a.de").write_text("\n".join(GERMAN * 3) + "\n", encoding="utf-8")
    run = tmp_path / "run"
    assert main(["train", "--resume", str(imported), "--src", str(tmp_path / "a.en"), "--tgt", str(tmp_path / "a.de"),
                 "--out", str(run), "--max-steps", "3", "--warmup", "2", "--batch-tokens", "300",
                 "--valid-every", "0", "--checkpoint-every", "0"]) == 0
    before, after = load_model(imported), load_model(run)
    assert after.tokenizer.kind == "marian" and after.config == before.config
    assert after.tokenizer.encode(ENGLISH[0]) == before.tokenizer.encode(ENGLISH[0])
    changed = [k for k, v in before.model.state_dict().items() if not torch.equal(v, after.model.state_dict()[k])]
    assert "embedding.weight" in changed and "final_logits_bias" not in changed

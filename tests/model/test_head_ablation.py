"""Head ablation: a removed head's contribution is exactly gone, removing nothing changes nothing, the
removed head's map is flagged and holds no weights, and the CLI reads --remove-heads."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.cli.commands import main
from model.decoding.ablation import head_masks, parse_heads, removed_of
from model.decoding.batches import translate_many
from model.decoding.decode import translate
from model.decoding.search import beam_search, greedy
from model.errors import UserError
from model.records.research import format_head

SENTENCES = ["3 1 4 1 5 9", "9 2 6", "2 7 1 8 2 8 1"]


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


def _src(loaded, text):
    return torch.tensor([loaded.tokenizer.encode(text) + [3]])


def zeroed_by_hand(model, removed):
    """A copy of the model whose W^O columns that read each removed head are zero: the head's output
    then never reaches the residual stream, which is what removing it means."""
    m = copy.deepcopy(model)
    dk = m.cfg.d_k
    with torch.no_grad():
        for kind, layer, head in removed:
            mha = {"encoder": lambda i: m.encoder[i].self_attn, "decoder": lambda i: m.decoder[i].self_attn,
                   "cross": lambda i: m.decoder[i].cross_attn}[kind](layer)
            mha.w_o.weight[:, head * dk:(head + 1) * dk] = 0
    return m


def test_parse_heads_reads_the_window_names():
    assert parse_heads("enc:1.3, cross:2.1,dec:2.4", 2, 4) == (("encoder", 0, 2), ("cross", 1, 0), ("decoder", 1, 3))
    assert parse_heads("enc:1.1,enc:1.1", 2, 4) == (("encoder", 0, 0),)
    assert format_head(("cross", 3, 1)) == "cross:4.2"
    for bad, word in (("enc1.3", "KIND:LAYER.HEAD"), ("foo:1.1", "KIND:LAYER.HEAD"), ("enc:1", "KIND:LAYER.HEAD"),
                      ("enc:a.b", "whole numbers"), ("enc:3.1", "layers 1–2"), ("cross:1.0", "heads 1–4")):
        with pytest.raises(UserError, match=word):
            parse_heads(bad, 2, 4)
    masks = head_masks((("cross", 1, 2), ("encoder", 0, 0)), 2, 4)
    assert set(masks) == {"cross", "encoder"} and masks["cross"].sum() == 7 and masks["cross"][1, 2] == 0
    assert removed_of(masks) == (("encoder", 0, 0), ("cross", 1, 2))
    assert head_masks((), 2, 4) is None


def test_attention_layer_without_a_head_equals_the_sum_of_the_others_by_hand(loaded):
    """Compute multi-head attention from the layer's own projections, leaving head 2 out of the sum."""
    mha = loaded.model.encoder[0].self_attn
    torch.manual_seed(0)
    x = torch.randn(1, 5, loaded.config.d_model)
    h_n, dk = loaded.config.n_heads, loaded.config.d_k
    q, k, v = torch.nn.functional.linear(x, mha.w_qkv.weight, mha.w_qkv.bias).chunk(3, dim=-1)
    out = mha.w_o.bias.clone().expand(1, 5, -1).clone()
    for h in range(h_n):
        if h == 2:
            continue
        sl = slice(h * dk, (h + 1) * dk)
        w = torch.softmax(q[..., sl] @ k[..., sl].transpose(1, 2) / dk ** 0.5, dim=-1)
        out = out + (w @ v[..., sl]) @ mha.w_o.weight[:, sl].t()  # head h's share of Concat(...) W^O
    mask = torch.ones(h_n)
    mask[2] = 0
    with torch.no_grad():
        got, _ = mha(x, head_mask=mask)
    torch.testing.assert_close(got, out, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("removed", [(("encoder", 0, 1),), (("decoder", 1, 0),), (("cross", 1, 3), ("cross", 0, 0))])
def test_search_with_a_head_removed_equals_the_model_with_it_zeroed(loaded, removed):
    model, cfg = loaded.model, loaded.config
    masks = head_masks(removed, cfg.n_layers, cfg.n_heads)
    by_hand = zeroed_by_hand(model, removed)
    src = _src(loaded, SENTENCES[0])
    tgt = torch.tensor([[1, 5, 6, 7, 8]])
    with torch.no_grad():
        torch.testing.assert_close(model(src, tgt, head_masks=masks)[0], by_hand(src, tgt)[0], atol=1e-5, rtol=1e-5)
    for text in SENTENCES:
        src = _src(loaded, text)
        assert greedy(model, src, 30, head_masks=masks) == greedy(by_hand, src, 30)
        assert greedy(model, src, 30, use_cache=False, head_masks=masks) == greedy(by_hand, src, 30)
        ids, score = beam_search(model, src, 3, 30, head_masks=masks)
        ids_h, score_h = beam_search(by_hand, src, 3, 30)
        assert ids == ids_h and score == pytest.approx(score_h, abs=1e-4)
    texts = SENTENCES * 2
    for beam in (1, 3):
        assert translate_many(model, loaded.tokenizer, texts, beam, head_masks=masks) == \
            translate_many(by_hand, loaded.tokenizer, texts, beam)


def test_removing_a_head_changes_some_output(loaded):
    """Guards the test above against a mask that silently does nothing."""
    cfg = loaded.config
    changed = 0
    for kind in ("encoder", "decoder", "cross"):
        masks = head_masks([(kind, layer, h) for layer in range(cfg.n_layers) for h in range(cfg.n_heads)],
                           cfg.n_layers, cfg.n_heads)
        src = _src(loaded, SENTENCES[0])
        with torch.no_grad():
            tgt = torch.tensor([[1, 5, 6]])
            changed += (loaded.model(src, tgt, head_masks=masks)[0] - loaded.model(src, tgt)[0]).abs().max() > 1e-3
    assert changed == 3


@pytest.mark.parametrize("beam", [1, 4])
def test_removing_nothing_is_bit_identical(loaded, beam):
    cfg = loaded.config
    ones = {k: torch.ones(cfg.n_layers, cfg.n_heads) for k in ("encoder", "decoder", "cross")}
    for text in SENTENCES:
        a = translate(loaded, text, beam_size=beam)
        b = translate(loaded, text, beam_size=beam, head_masks=ones)
        assert a.text == b.text and a.target_pieces == b.target_pieces and a.score == b.score
        assert b.attention.removed == ()
        for kind in ("encoder", "decoder", "cross"):
            assert np.array_equal(a.attention.of_kind(kind), b.attention.of_kind(kind))


@pytest.mark.parametrize("beam", [1, 3])
def test_removed_heads_map_is_flagged_and_holds_no_weights(loaded, beam):
    cfg = loaded.config
    removed = (("encoder", 1, 2), ("cross", 0, 1))
    tr = translate(loaded, SENTENCES[1], beam_size=beam, head_masks=head_masks(removed, cfg.n_layers, cfg.n_heads))
    m = tr.attention
    assert m.removed == removed and m.is_removed("cross", 0, 1) and not m.is_removed("cross", 0, 0)
    assert np.all(m.encoder_self[1, 2] == 0) and np.all(m.cross[0, 1] == 0)
    # every head that stays is still a distribution over its keys
    np.testing.assert_allclose(m.cross[0, 0].sum(-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(m.encoder_self[1, 1].sum(-1), 1.0, atol=1e-5)
    with pytest.raises(ValueError, match="not in these maps"):
        type(m)(m.encoder_self, m.decoder_self, m.cross, m.source_tokens, m.target_tokens, removed=(("cross", 9, 0),))


def test_cli_remove_heads(tiny_model_dir, capsys, tmp_path):
    assert main(["translate", "--model", str(tiny_model_dir), "--beam", "1", "--json",
                 "--remove-heads", "enc:1.2,cross:2.4", SENTENCES[0]]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["removed_heads"] == ["enc:1.2", "cross:2.4"]
    npz = tmp_path / "a.npz"
    assert main(["translate", "--model", str(tiny_model_dir), "--remove-heads", "dec:2.1",
                 "--save-attention", str(npz), SENTENCES[0]]) == 0
    with np.load(npz) as z:
        assert list(z["removed_heads"]) == ["dec:2.1"] and np.all(z["decoder_self"][1, 0] == 0)
    capsys.readouterr()
    assert main(["translate", "--model", str(tiny_model_dir), "--remove-heads", "enc:7.1", SENTENCES[0]]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "layers 1–2" in err

"""Attention and layers against PyTorch's reference modules and the paper's definitions."""

import pytest
import torch
from torch import nn

from model.config import ModelConfig, preset
from model.layers import DecoderLayer, EncoderLayer, MultiHeadAttention
from model.transformer import Transformer

D, H = 32, 4


def copy_mha(ours: MultiHeadAttention, ref: nn.MultiheadAttention) -> None:
    with torch.no_grad():
        ours.w_qkv.weight.copy_(ref.in_proj_weight)
        ours.w_qkv.bias.copy_(ref.in_proj_bias)
        ours.w_o.weight.copy_(ref.out_proj.weight)
        ours.w_o.bias.copy_(ref.out_proj.bias)


@pytest.fixture
def mha_pair():
    torch.manual_seed(0)
    ref = nn.MultiheadAttention(D, H, batch_first=True).eval()
    with torch.no_grad():  # non-zero biases so a mistake in bias handling shows
        ref.in_proj_bias.normal_()
        ref.out_proj.bias.normal_()
    ours = MultiHeadAttention(D, H).eval()
    copy_mha(ours, ref)
    return ours, ref


def test_self_attention_equals_torch_mha(mha_pair):
    ours, ref = mha_pair
    x = torch.randn(3, 7, D)
    pad = torch.zeros(3, 7, dtype=torch.bool)
    pad[1, 5:] = True
    out_ref, w_ref = ref(x, x, x, key_padding_mask=pad, average_attn_weights=False)
    out_fast, none = ours(x, mask=~pad[:, None, None, :])
    out_cap, w = ours(x, mask=~pad[:, None, None, :], need_weights=True)
    assert none is None
    torch.testing.assert_close(out_fast, out_ref, atol=1e-5, rtol=0)
    torch.testing.assert_close(out_cap, out_ref, atol=1e-5, rtol=0)
    torch.testing.assert_close(w, w_ref, atol=1e-5, rtol=0)  # per-head weights (B, H, T, S)
    assert torch.all(w[1, :, :, 5:] == 0)  # padded keys get exactly zero


def test_cross_attention_equals_torch_mha(mha_pair):
    ours, ref = mha_pair
    q, mem = torch.randn(2, 4, D), torch.randn(2, 6, D)
    out_ref, w_ref = ref(q, mem, mem, average_attn_weights=False)
    out, w = ours(q, memory=mem, need_weights=True)
    torch.testing.assert_close(out, out_ref, atol=1e-5, rtol=0)
    torch.testing.assert_close(w, w_ref, atol=1e-5, rtol=0)


def test_causal_attention_equals_torch_mha(mha_pair):
    ours, ref = mha_pair
    x = torch.randn(2, 5, D)
    causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
    out_ref, w_ref = ref(x, x, x, attn_mask=causal, average_attn_weights=False)
    out_fast, _ = ours(x, is_causal=True)
    out, w = ours(x, is_causal=True, need_weights=True)
    torch.testing.assert_close(out_fast, out_ref, atol=1e-5, rtol=0)
    torch.testing.assert_close(w, w_ref, atol=1e-5, rtol=0)
    assert torch.all(w.masked_select(causal) == 0)


def _cfg():
    return ModelConfig(vocab_size=50, n_layers=1, d_model=D, n_heads=H, d_ff=64, dropout=0.1)


def test_encoder_layer_equals_torch():
    torch.manual_seed(1)
    ref = nn.TransformerEncoderLayer(D, H, 64, dropout=0.1, batch_first=True, norm_first=False).eval()
    ours = EncoderLayer(_cfg()).eval()
    copy_mha(ours.self_attn, ref.self_attn)
    with torch.no_grad():
        for a, b in ((ours.feed_forward.w_1, ref.linear1), (ours.feed_forward.w_2, ref.linear2),
                     (ours.norm_1, ref.norm1), (ours.norm_2, ref.norm2)):
            a.weight.copy_(b.weight)
            a.bias.copy_(b.bias)
    x = torch.randn(2, 6, D)
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    out, _ = ours(x, ~pad[:, None, None, :])
    ref_out = ref(x, src_key_padding_mask=pad)
    torch.testing.assert_close(out[0], ref_out[0], atol=1e-5, rtol=0)
    torch.testing.assert_close(out[1, :4], ref_out[1, :4], atol=1e-5, rtol=0)  # padded rows are don't-care


def test_decoder_layer_equals_torch():
    torch.manual_seed(2)
    ref = nn.TransformerDecoderLayer(D, H, 64, dropout=0.1, batch_first=True, norm_first=False).eval()
    ours = DecoderLayer(_cfg()).eval()
    copy_mha(ours.self_attn, ref.self_attn)
    copy_mha(ours.cross_attn, ref.multihead_attn)
    with torch.no_grad():
        for a, b in ((ours.feed_forward.w_1, ref.linear1), (ours.feed_forward.w_2, ref.linear2),
                     (ours.norm_1, ref.norm1), (ours.norm_2, ref.norm2), (ours.norm_3, ref.norm3)):
            a.weight.copy_(b.weight)
            a.bias.copy_(b.bias)
    x, mem = torch.randn(2, 5, D), torch.randn(2, 7, D)
    pad = torch.zeros(2, 7, dtype=torch.bool)
    pad[0, 6:] = True
    causal = nn.Transformer.generate_square_subsequent_mask(5)
    ref_out = ref(x, mem, tgt_mask=causal, memory_key_padding_mask=pad, tgt_is_causal=True)
    out, _, _ = ours(x, mem, ~pad[:, None, None, :])
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=0)


@pytest.fixture
def tiny_model():
    torch.manual_seed(3)
    return Transformer(preset("tiny", vocab_size=40, dropout=0.1)).eval()


def test_capture_path_equals_fast_path_and_weights_are_distributions(tiny_model):
    src = torch.randint(4, 40, (2, 7))
    src[1, 5:] = 0  # padding
    tgt = torch.randint(4, 40, (2, 6))
    fast, none = tiny_model(src, tgt)
    slow, cap = tiny_model(src, tgt, need_weights=True)
    assert none is None
    torch.testing.assert_close(fast, slow, atol=1e-5, rtol=0)
    L, Hh = tiny_model.cfg.n_layers, tiny_model.cfg.n_heads
    assert len(cap.encoder_self) == len(cap.decoder_self) == len(cap.cross) == L
    for w, (t, s) in ((cap.encoder_self, (7, 7)), (cap.decoder_self, (6, 6)), (cap.cross, (6, 7))):
        for layer in w:
            assert layer.shape == (2, Hh, t, s)
            torch.testing.assert_close(layer.sum(-1), torch.ones(2, Hh, t), atol=1e-6, rtol=0)
    for layer in cap.decoder_self:  # the future is exactly zero
        assert torch.all(torch.triu(layer, diagonal=1) == 0)
    for layer in cap.encoder_self + cap.cross:  # padded source keys are exactly zero
        assert torch.all(layer[1, :, :, 5:] == 0)


def test_head_mask_zeroes_chosen_heads(tiny_model):
    src, tgt = torch.randint(4, 40, (1, 6)), torch.randint(4, 40, (1, 4))
    base, _ = tiny_model(src, tgt)
    L, Hh = tiny_model.cfg.n_layers, tiny_model.cfg.n_heads
    for kind in ("encoder", "decoder", "cross"):
        ones = torch.ones(L, Hh)
        same, _ = tiny_model(src, tgt, head_masks={kind: ones})
        torch.testing.assert_close(same, base)
        mask = ones.clone()
        mask[0, 1] = 0
        changed, _ = tiny_model(src, tgt, head_masks={kind: mask})
        assert (changed - base).abs().max() > 1e-4, kind
    # Zeroing a head equals zeroing its slice of the concatenated output before W^O.
    mha = tiny_model.encoder[0].self_attn
    x = torch.randn(1, 5, tiny_model.cfg.d_model)
    hm = torch.tensor([1.0, 0.0, 1.0, 1.0])
    out, _ = mha(x, head_mask=hm)
    w_o = mha.w_o.weight.clone()
    dk = tiny_model.cfg.d_k
    with torch.no_grad():
        mha.w_o.weight[:, dk:2 * dk] = 0
        ref, _ = mha(x)
        mha.w_o.weight.copy_(w_o)
    torch.testing.assert_close(out, ref, atol=1e-6, rtol=0)


def test_embeddings_are_shared_and_scaled(tiny_model):
    cfg = tiny_model.cfg
    assert tiny_model.generator(torch.eye(cfg.d_model)[None]).shape == (1, cfg.d_model, cfg.vocab_size)
    torch.testing.assert_close(tiny_model.generator(torch.eye(cfg.d_model)[None])[0], tiny_model.embedding.weight.t())
    tokens = torch.tensor([[5, 6]])
    x = tiny_model.embed(tokens)  # eval: no dropout
    expected = tiny_model.embedding.weight[tokens] * cfg.d_model ** 0.5 + tiny_model.positional(2)
    torch.testing.assert_close(x, expected)
    names = [n for n, _ in tiny_model.named_parameters()]
    assert sum("embedding" in n for n in names) == 1  # one matrix for source, target and output


def test_post_layer_norm_order():
    """Post-LN: every sub-layer output is normalised (zero mean, unit variance before the affine)."""
    torch.manual_seed(4)
    layer = EncoderLayer(_cfg()).eval()
    out, _ = layer(torch.randn(2, 5, D) * 10, None)
    torch.testing.assert_close(out.mean(-1), torch.zeros(2, 5), atol=1e-5, rtol=0)

"""A loaded model's encoder pass in C (model/native/encoder.py, encoder_pass.c) is the modules' pass.

``Transformer.encode`` takes it for a short unpadded sentence at inference. Its memory and maps are held to
the modules' (``native_encode`` unset) to fp32 rounding on random models of every layout the C code
branches on and on the built-in model; head masks act as in the modules; every pass the C code must
not take (training, autograd, batches, padding, long sentences, hooks) gets the modules' own numbers.
"""

from __future__ import annotations

import pytest
import torch

from model.checkpoint import load_model, use_native
from model.native import build
from model.native.encoder import MAX_PIECES
from model.transformer import Transformer
from tests.model.native_models import MODELS, config_model

pytestmark = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


def _native_model(name: str = "paper", seed: int = 5) -> Transformer:
    build.library(wait=True)
    model = config_model(seed, **MODELS[name])
    use_native(model)
    assert model.native_encode is not None
    return model


def _modules(model: Transformer, src: torch.Tensor, **kw):
    """The modules' pass over the same model."""
    model.native_encode = None
    try:
        return model.encode(src, **kw)
    finally:
        del model.native_encode  # back to the one set at load (an attribute of the instance)
        use_native(model)


def _close(a: torch.Tensor, b: torch.Tensor, tol: float) -> None:
    assert a.shape == b.shape
    err = float((a - b).abs().max() / b.abs().max())
    assert err < tol, err


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("length", [1, 5, MAX_PIECES])
def test_memory_and_maps_are_the_modules_to_fp32_rounding(name, length):
    model = _native_model(name)
    src = torch.randint(4, model.cfg.vocab_size, (1, length), generator=torch.Generator().manual_seed(length))
    with torch.inference_mode():
        memory, maps = model.encode(src, need_weights=True)
        ref, ref_maps = _modules(model, src, need_weights=True)
    _close(memory, ref, 2e-6)
    assert len(maps) == model.cfg.n_layers
    for w, r in zip(maps, ref_maps):
        assert w.shape == r.shape == (1, model.cfg.n_heads, length, length)
        assert float((w - r).abs().max()) < 2e-6
        torch.testing.assert_close(w.sum(-1), torch.ones_like(w.sum(-1)))  # each query's weights sum to 1


def test_a_pass_gives_the_same_bits_with_or_without_its_maps():
    """The modules' pass does not (SDPA without weights, eq. (1) written out with them): one path here."""
    model = _native_model()
    src = torch.tensor([[5, 9, 7, 3]])
    with torch.inference_mode():
        with_maps, _ = model.encode(src, need_weights=True)
        without, none = model.encode(src)
    assert torch.equal(with_maps, without) and none == []


def test_head_masks_act_as_in_the_modules():
    model = _native_model("gelu")
    src = torch.tensor([[5, 9, 7, 8, 3]])
    mask = torch.ones(model.cfg.n_layers, model.cfg.n_heads)
    mask[0, 1] = mask[1, 3] = 0.0
    with torch.inference_mode():
        plain, _ = model.encode(src)
        cut, maps = model.encode(src, need_weights=True, head_mask=mask)
        ref, ref_maps = _modules(model, src, need_weights=True, head_mask=mask)
        ones, _ = model.encode(src, head_mask=torch.ones_like(mask))
    _close(cut, ref, 2e-6)
    assert float((cut - plain).abs().max()) > 1e-3  # the removed heads change the memory
    assert torch.equal(ones, plain)  # multipliers of 1 change no bit
    assert all(float((w - r).abs().max()) < 2e-6 for w, r in zip(maps, ref_maps))


def _taken(model: Transformer, src: torch.Tensor, **kw) -> bool:
    """Whether ``encode`` went through the C pass (its answer is the C pass's own, bit for bit)."""
    with torch.inference_mode():
        got, _ = model.encode(src, **kw)
        from model.native.encoder import EncoderPass  # noqa: PLC0415

        mine, _ = EncoderPass.of(model)(model, src[:1], False, None)
    return src.size(0) == 1 and torch.equal(got, mine)


def test_passes_the_c_code_does_not_cover_keep_the_modules():
    model = _native_model()
    src = torch.tensor([[5, 9, 7, 3]])
    assert _taken(model, src)
    # A batch, padding, a sentence past MAX_PIECES: the modules.
    assert model.native_encode(model, torch.tensor([[5, 9, 7, 3], [6, 8, 3, 0]]), False, None) is None
    assert model.native_encode(model, torch.tensor([[5, 9, 3, 0]]), False, None) is None
    assert model.native_encode(model, torch.full((1, MAX_PIECES + 1), 5), False, None) is None
    assert model.native_encode(model, src, False, torch.ones(2, model.cfg.n_layers, model.cfg.n_heads)) is None
    with torch.no_grad():
        model.train()
        assert model.native_encode(model, src, False, None) is None  # training mode (dropout)
        model.eval()
    assert model.native_encode(model, src, False, None) is None  # autograd on: training's passes
    with torch.inference_mode():
        handle = model.encoder[1].norm_1.register_forward_hook(lambda *a: None)
        try:
            assert model.native_encode(model, src, False, None) is None  # a hook must run
        finally:
            handle.remove()
        assert model.native_encode(model, src, False, None) is not None


def test_a_change_to_the_weights_is_seen():
    """In place (the views are the model's own), or a parameter replaced (the views made anew)."""
    model = _native_model()
    src = torch.tensor([[5, 9, 7, 3]])
    with torch.inference_mode():
        before, _ = model.encode(src)
    with torch.no_grad():
        model.encoder[0].feed_forward.w_2.weight.mul_(2.0)
    with torch.inference_mode():
        doubled, _ = model.encode(src)
        _close(doubled, _modules(model, src)[0], 2e-6)
    model.encoder[1].self_attn.w_o.weight = torch.nn.Parameter(torch.zeros(32, 32))
    with torch.inference_mode():
        replaced, _ = model.encode(src)
        _close(replaced, _modules(model, src)[0], 2e-6)
    assert not torch.equal(before, doubled) and not torch.equal(doubled, replaced)


def test_the_built_in_model_takes_it_and_agrees():
    from model.builtin import default_model_dir  # noqa: PLC0415

    build.library(wait=True)
    loaded = load_model(default_model_dir())
    assert loaded.model.native_encode is not None
    tok = loaded.tokenizer
    for text in ("Where is the station?", "I would like a cup of tea, please."):
        src = torch.tensor([tok.encode(text) + [loaded.config.eos_id]])
        assert _taken(loaded.model, src)
        with torch.inference_mode():
            memory, maps = loaded.model.encode(src, need_weights=True)
            ref, ref_maps = _modules(loaded.model, src, need_weights=True)
        _close(memory, ref, 2e-6)
        assert max(float((w - r).abs().max()) for w, r in zip(maps, ref_maps)) < 2e-6

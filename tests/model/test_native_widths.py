"""Both vector widths of the native steps compute the same step.

On a CPU with AVX-512 (``-march=native``) the fp32 products take 16-lane blocks and the draft's integer
products AVX-512 VNNI; built without AVX-512 the same sources take the AVX2 paths. The draft's integer sums
are exact, so its logits are the same bits both ways (heads of 8 floats: the fp32 attention sums alike);
the rows step sums in another order, so both widths are held to ``Transformer.decode``'s logits at fp32
rounding, and told apart by their last bits (proof that the wide paths ran).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.native import build
from model.native.engine import NativeDraft, NativeWeights
from model.native.rows import NativeRows, RowWeights
from model.transformer import DecoderState
from tests.model.native_models import MODELS, config_model

pytestmark = pytest.mark.skipif(build.compiler() is None or "avx512f" not in build.cpu_identity(),
                                reason="no C compiler, or a CPU without AVX-512: one vector width to test")


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    """(this CPU's library, the same sources built without AVX-512), in a cache of their own."""
    patch = pytest.MonkeyPatch()
    try:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("native-cache")))
        wide = build._build()
        patch.setattr(build, "FLAGS", (*build.FLAGS, "-mno-avx512f"))
        narrow = build._build()
    finally:
        patch.undo()
    assert wide is not None and narrow is not None and wide._name != narrow._name
    return wide, narrow


def _sentence(model):
    src = torch.tensor([[5, 9, 7, 4, 8, 3]])
    memory, _ = model.encode(src)
    return src, memory, DecoderState(model, memory, src).cross_kv


@pytest.mark.parametrize("name", MODELS)
def test_the_draft_gives_the_same_logits_at_either_width(libs, name):
    model = config_model(7, **MODELS[name])  # d_model 32: VNNI's 32-wide blocks; d_ff 48: AVX2's 16
    with torch.inference_mode():
        logits = _drafts(model, libs)
    assert np.isfinite(logits["wide"]).sum() > 0
    np.testing.assert_array_equal(logits["wide"], logits["narrow"])


def _drafts(model, libs) -> dict[str, np.ndarray]:
    _, _, cross_kv = _sentence(model)
    logits = {}
    for width, lib in zip(("wide", "narrow"), libs):
        draft = NativeDraft(NativeWeights(model, lib), cross_kv, capacity=8)
        out, token = [], model.cfg.bos_id
        for _ in range(8):
            row = np.empty(model.cfg.vocab_size, np.float32)
            token = draft.step(token, row)
            out.append(row)
        logits[width] = np.stack(out)
    return logits


@pytest.mark.parametrize("name", MODELS)
def test_the_rows_step_is_the_fp32_model_at_either_width(libs, name):
    model = config_model(8, **MODELS[name])
    with torch.inference_mode():
        ref, got = _rows(model, libs)
    real = torch.isfinite(ref)
    for width, logits in got.items():
        err = float((logits[real] - ref[real]).abs().max() / ref[real].abs().max())
        assert err < 2e-6, (width, err)
    assert not torch.equal(got["wide"], got["narrow"])  # 16 lanes and 8 sum in different orders


def _rows(model, libs) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """The modules' logits and each library's, for 4 rows fed 6 pieces each."""
    src, memory, cross_kv = _sentence(model)
    rows = 4
    tokens = torch.randint(4, model.cfg.vocab_size, (6, rows), generator=torch.Generator().manual_seed(3))
    state = DecoderState(model, memory, src, rows=rows)
    ref = []
    for t in tokens:
        hidden, _, _ = model.decode(t[:, None], memory.expand(rows, -1, -1), src.expand(rows, -1), state=state)
        ref.append(model.next_logits(hidden[:, -1]))
    ref = torch.stack(ref)
    got = {}
    for width, lib in zip(("wide", "narrow"), libs):
        native = NativeRows(RowWeights(model, lib), cross_kv, rows, capacity=len(tokens))
        got[width] = torch.stack([native.step(t).clone() for t in tokens])
    return ref, got

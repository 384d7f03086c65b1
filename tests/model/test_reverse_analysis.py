"""Head importance and alignment on a well-trained tiny model of the reverse task, where the answer is
known: output digit t is source digit n − 1 − t, so the heads that read the source must carry the
anti-diagonal, and an alignment read from them must be it.

Slow: the model trains for 400 steps first (``reverse_model_dir``, shared by the session).
"""

from __future__ import annotations

import numpy as np
import pytest

from model.analysis.alignment import align, score
from model.analysis.importance import head_importance
from model.checkpoint import load_model
from model.decoding.decode import translate
from model.records.research import parse_head
from model.training.tasks import make_task

pytestmark = pytest.mark.slow

HELD_OUT_SEED = 4242  # not the training (1) or validation seed


@pytest.fixture(scope="module")
def loaded(reverse_model_dir):
    return load_model(reverse_model_dir)


@pytest.fixture(scope="module")
def held_out():
    return make_task("reverse", 30, seed=HELD_OUT_SEED)


@pytest.fixture(scope="module")
def maps(loaded, held_out):
    return [translate(loaded, s).attention for s, _ in held_out]


def anti_diagonal_share(maps, layer: int, head: int) -> float:
    """Share of output digits whose cross-attention row (this head) peaks on the mirrored source digit."""
    hits = []
    for m in maps:
        n = len(m.source_tokens) - 1  # digits, without </s>
        rows = min(n, len(m.predicted_tokens) - 1)
        hits += [m.cross[layer, head, t].argmax() == n - 1 - t for t in range(rows)]
    return float(np.mean(hits))


def test_heads_carrying_the_anti_diagonal_matter_most(loaded, held_out, maps):
    cfg = loaded.config
    share = {(layer, head): anti_diagonal_share(maps, layer, head)
             for layer in range(cfg.n_layers) for head in range(cfg.n_heads)}
    carriers = {k for k, v in share.items() if v > 0.5}
    # Found from the maps, not assumed: some heads carry it and some do not.
    assert carriers and len(carriers) < len(share), share
    result = head_importance(loaded, [s for s, _ in held_out], [t for _, t in held_out])
    assert result.bleu > 80, result.bleu  # the model has learned the task
    drop = {parse_head(h.head)[1:]: result.bleu - h.bleu for h in result.heads if h.head.startswith("cross")}
    # The cross-attention head whose removal costs most carries the alignment, and the carriers cost more
    # on average than the heads that carry none. Not "every carrier more than every other head": a head
    # can matter without carrying the mirror (trained on an AVX2-only machine, the same seeds gave a
    # non-carrier of the first layer a drop of 19.3 against 12.7 for the weakest carrier, the carriers 22.9 on
    # average against 13.4; on an AVX-512 one the stronger order held).
    others = [drop[k] for k in share if k not in carriers]
    assert max(drop, key=drop.get) in carriers, (drop, share)
    assert np.mean([drop[k] for k in carriers]) > np.mean(others) + 5.0, (drop, share)
    grid = result.drop_grid("cross", cfg.n_layers, cfg.n_heads)
    assert grid[next(iter(carriers))] == pytest.approx(drop[next(iter(carriers))])


def test_alignment_is_the_anti_diagonal(loaded, maps):
    # The gold anti-diagonal is only defined where the output is the reversed source: a wrong output (a
    # digit dropped, or "2 8 2 8" repeated past the source's length) has no right alignment to compare with.
    right = [m for m in maps if m.predicted_tokens[:-1] == m.source_tokens[:-1][::-1]]
    assert len(right) >= 20, f"{len(right)} of {len(maps)} held-out sequences reversed right"
    last = loaded.config.n_layers - 1
    plain, shifted, gold, gold_next = [], [], [], []
    for m in right:
        n = len(m.source_tokens) - 1
        words = len(m.predicted_tokens) - 1  # without </s>; = n here
        heads_mean = m.cross[last].mean(0)  # (T, S)
        plain.append(align(heads_mean, m.source_tokens, m.predicted_tokens))
        shifted.append({link for link in align(heads_mean, m.source_tokens, m.predicted_tokens, shift=True)
                        if link[1] < words - 1})
        anti = {(n - 1 - t, t) for t in range(words)}
        gold.append((anti, anti))
        # The step after producing digit t reads digit t as input and looks for the next output digit,
        # n − 2 − t: the shifted variant reads that step, so on this task it lands one source word earlier.
        nxt = {(n - 2 - t, t) for t in range(words - 1)}
        gold_next.append((nxt, nxt))
    s = score(plain, gold)
    # Measured: AER 0.03 on the development machine and 0.11 in one CI run (same seed; why that run's model
    # differed was not found). Trained longer, some of this layer's rows drift to the digit just written
    # (AER 0.27 at 800 steps, every output still right), so the bound is loose and the contrast with the
    # first layer below is what shows the anti-diagonal.
    assert s.aer < 0.2 and s.precision > 0.8, s
    assert all(len(x) == len(m.predicted_tokens) - 1 for x, m in zip(plain, right))  # one link per word
    assert score(shifted, gold_next).precision > 0.75
    first = loaded.config.n_layers - 2
    assert score([align(m.cross[first].mean(0), m.source_tokens, m.predicted_tokens) for m in right],
                 gold).aer > 0.5  # the first layer does not align: the anti-diagonal is the last layer's

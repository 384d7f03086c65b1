"""The small pure helpers of the views: colour maps, token display, head statistics, no torch."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from explorer.attention.head_stats import head_statistics
from explorer.attention.tokens import display_piece
from explorer.ui.colormaps import DEFAULT_COLORMAP, colormap_names, get_colormap, map_to_rgba


def test_colormaps_ship_offline():
    names = colormap_names()
    assert names[0] == DEFAULT_COLORMAP == "viridis"
    assert {"viridis", "magma", "inferno", "cividis", "greys"} <= set(names)
    for name in names:
        assert get_colormap(name).map(0.5, mode="byte") is not None
    greys = get_colormap("greys")
    assert tuple(greys.map(0.0, mode="byte")[:3]) == (255, 255, 255)  # white = no attention
    assert tuple(greys.map(1.0, mode="byte")[:3]) == (0, 0, 0)
    with pytest.raises(ValueError):
        get_colormap("no-such-map")


def test_map_to_rgba_matches_pyqtgraph():
    values = np.array([[0.0, 0.5, 1.0, np.nan]])
    rgba = map_to_rgba(values, "viridis")
    assert tuple(rgba[0, 0]) == tuple(get_colormap("viridis").map(0.0, mode="byte"))
    assert tuple(rgba[0, 2]) == tuple(get_colormap("viridis").map(1.0, mode="byte"))
    assert rgba[0, 3, 3] == 0  # NaN is transparent


@pytest.mark.parametrize("piece,shown", [
    ("▁The", "The"), ("ther", "·ther"), (".", "."), ("</s>", "</s>"), ("<s>", "<s>"), ("▁", "␣"),
    ("▁New▁York", "New York"),
    ("爱", "爱"), ("苹果", "苹果"), ("▁我", "我"), ("。", "。"), ("すき", "すき"), ("Tom", "·Tom"),
])
def test_display_piece(piece, shown):
    assert display_piece(piece) == shown


def test_head_statistics_of_known_patterns():
    eye = np.eye(4)
    stats = head_statistics(eye, col_labels=["a", "b", "c", "</s>"])
    assert stats.entropy_bits == 0.0 and stats.diagonal_share == 1.0 and stats.mean_distance == 0.0
    assert stats.eos_share == pytest.approx(0.25)
    previous = np.eye(4, k=-1)
    previous[0, 0] = 1.0
    stats = head_statistics(previous)
    assert stats.previous_share == 1.0 and stats.mean_distance == pytest.approx(0.75)
    uniform = np.full((3, 8), 1 / 8)
    stats = head_statistics(uniform)
    assert stats.entropy_bits == pytest.approx(3.0) and stats.max_entropy_bits == pytest.approx(3.0)
    # a cross-attention-shaped map has a diagonal too (target i on source i), as the workbench measures it
    assert stats.diagonal_share == pytest.approx(1 / 8) and stats.confidence == pytest.approx(1 / 8)
    assert stats.mean_distance == pytest.approx(np.mean([np.abs(i - np.arange(8)).mean() for i in range(3)]))
    causal = np.tril(np.ones((4, 4)))
    causal /= causal.sum(axis=1, keepdims=True)
    stats = head_statistics(causal, masked=np.triu(np.ones((4, 4), bool), 1))
    assert stats.entropy_bits == pytest.approx(stats.max_entropy_bits)  # uniform over what it may see


def test_the_panel_and_the_workbench_give_one_head_the_same_numbers(synthetic_maps):
    """#26: one definition of each statistic, the model's (the workbench averages it over a test set)."""
    from model.analysis.head_stats import sentence_statistics  # noqa: PLC0415
    from model.records.research import STATS  # noqa: PLC0415

    table = sentence_statistics(synthetic_maps)
    for kind in ("encoder", "decoder", "cross"):
        rows, cols = synthetic_maps.labels(kind)
        w = synthetic_maps.of_kind(kind)[1, 2]
        shown = head_statistics(w, col_labels=cols)
        model = dict(zip(STATS, table[kind][1, 2]))
        assert shown.entropy_bits == pytest.approx(model["entropy"])
        assert shown.confidence == pytest.approx(model["confidence"])
        assert shown.mean_distance == pytest.approx(model["distance"])
        assert shown.diagonal_share == pytest.approx(model["same"])
        assert shown.previous_share == pytest.approx(model["previous"])


def test_views_do_not_import_torch():
    code = (
        # every module of the feature packages but the three workers, which import torch on their threads
        "import sys, pkgutil, importlib, explorer as e\n"
        "for p in pkgutil.iter_modules(e.__path__):\n"
        "    if p.ispkg:\n"
        "        for m in pkgutil.iter_modules(importlib.import_module('explorer.' + p.name).__path__):\n"
        "            if m.name != 'worker': importlib.import_module(f'explorer.{p.name}.{m.name}')\n"
        "bad = [m for m in sys.modules if m == 'torch' or m.startswith('torch.')]\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={"QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": ".", "PATH": ""})
    assert result.returncode == 0, result.stderr

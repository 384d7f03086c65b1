"""The workbench's widgets on synthetic records (no torch): the word diff, the ablation box, the compare
view's difference map and its refusal when the tokenizers differ, the removed tiles' drawing."""

from __future__ import annotations

import dataclasses

import numpy as np

from explorer.attention.compare_view import CompareView
from explorer.attention.head_grid import HeadGridView
from explorer.translate.ablation_box import AblationBox, word_diff
from model.records import Translation
from model.records.workbench import Comparison
from tests.explorer.conftest import make_synthetic_maps


def test_word_diff_marks_the_words_that_differ():
    before, after = word_diff("Das Haus ist groß .", "Das Haus war sehr groß .")
    assert [w for w, c in before if c] == ["ist"]
    assert [w for w, c in after if c] == ["war", "sehr"]
    assert word_diff("a b", "a b") == ([("a", False), ("b", False)], [("a", False), ("b", False)])


def test_ablation_box_shows_both_outputs_only_for_an_ablated_translation(qtbot):
    box = AblationBox()
    qtbot.addWidget(box)
    box.show()
    maps = make_synthetic_maps()
    base = Translation("x", "Das Haus ist groß", (), ())
    ablated = Translation("x", "Das Haus war groß", (), (),
                          attention=dataclasses.replace(maps, removed=(("cross", 0, 1),)), unablated=base)
    box.show_translation(ablated)
    assert box.isVisible() and box.changed_counts() == (1, 1)
    assert "line-through" in box.before_label.text() and ">war</span>" in box.after_label.text()
    box.show_translation(base)
    assert not box.isVisible()


def test_ablation_box_never_widens_the_sentence_column(qtbot):
    """Every line of the box wraps: an unwrapped summary once widened the column (470 px of 1024)."""
    box = AblationBox()
    qtbot.addWidget(box)
    maps = make_synthetic_maps()
    text = "Der Parkplatz vor der Bank war völlig voll und niemand konnte dort noch parken"
    base = Translation("x", text, (), ())
    same = Translation("x", text, (), (), attention=dataclasses.replace(maps, removed=(("cross", 0, 1),)),
                       unablated=base)
    box.show_translation(same)  # the longest summary: "Same output: removing these heads changed no word."
    box.show()
    summary = box.summary_label
    # Unwrapped, the box needs the whole summary line (plus margins); wrapped, much less.
    assert box.minimumSizeHint().width() < summary.fontMetrics().horizontalAdvance(summary.text())
    # Nor the heading beside its button: the button goes under it (the column grew ~250 → ~335 px).
    widest = max(w.sizeHint().width() for w in (box.heading, box.restore_button, box.after_title))
    assert box.minimumSizeHint().width() <= widest + 30, (box.minimumSizeHint().width(), widest)


def test_compare_view_difference_and_refusal(qtbot):
    a, b = make_synthetic_maps(seed=1), make_synthetic_maps(seed=2)
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(1024, 500)
    view.show()
    view.set_comparison(Comparison("run/step-1", "run/step-2", a, b, "Das Haus", "forced"))
    view.set_state("decoder", 1, 2)
    np.testing.assert_allclose(view.difference(), b.decoder_self[1, 2] - a.decoder_self[1, 2], atol=0)
    shown = view.diff.displayed_array()
    masked = a.masked("decoder")
    assert np.isnan(shown[masked]).all()  # the causal future stays masked, not a difference of 0
    np.testing.assert_array_equal(shown[~masked], (b.decoder_self[1, 2] - a.decoder_self[1, 2])[~masked])
    lo, hi = view.diff.levels()
    assert lo == -hi and hi == np.abs(shown[~masked]).max()
    view.set_state("cross", 0, 0, mean=True)
    np.testing.assert_allclose(view.difference(), b.cross[0].mean(0) - a.cross[0].mean(0), atol=1e-7)
    assert view.plots.isVisible()
    view.set_comparison(Comparison("A", "B", a, None, "x", "The tokenizers differ: …"))
    assert not view.plots.isVisible() and "tokenizers differ" in view.header.text()


def test_removed_tiles_are_grey_and_the_others_keep_their_colours(qtbot, synthetic_maps):
    grid = HeadGridView()
    qtbot.addWidget(grid)
    grid.resize(600, 400)
    grid.show()
    grid.set_maps(synthetic_maps.cross)
    before = grid.mosaic_rgba()
    grid.set_removed({(0, 1)})
    after = grid.mosaic_rgba()
    _, _, q, k = synthetic_maps.cross.shape
    gq, gk = grid._gap
    c0 = (k + gk) + gk // 2
    tile = (slice(gq // 2, gq // 2 + q), slice(c0, c0 + k))
    assert not np.array_equal(after[tile], before[tile])
    rest = np.ones(after.shape[:2], bool)
    rest[tile] = False
    np.testing.assert_array_equal(after[rest], before[rest])
    assert set(map(tuple, after[tile][..., :3].reshape(-1, 3).tolist())) <= {(205, 205, 205), (120, 120, 120)}
    grid.set_removed(set())
    np.testing.assert_array_equal(grid.mosaic_rgba(), before)


def test_the_alignment_says_chinese_pieces_count_as_words(qtbot):
    import dataclasses

    from explorer.workbench.alignment_view import AlignmentView, words
    from tests.explorer.conftest import make_synthetic_maps
    maps = make_synthetic_maps(source=("▁I", "▁love", "▁apple", "s", ".", "</s>"),
                               target=("<s>", "▁我", "爱", "苹果", "。"))
    maps = dataclasses.replace(maps, predicted_tokens=("▁我", "爱", "苹果", "。", "</s>"))
    view = AlignmentView()
    qtbot.addWidget(view)
    view.set_maps(maps)
    assert words(view.target_pieces()) == ["我", "爱", "苹果。"]
    assert "each piece counts as a word" in view.links_label.text()


def test_importance_view_says_which_measure_it_shows(qtbot):
    """The gradient estimate fills the grids with |∂loss/∂gate| and is labelled so; the exact result then
    takes its place, labelled as the BLEU drop, with its pruning curve."""
    import numpy as np

    from explorer.workbench.importance_view import SHOWN_ESTIMATE, SHOWN_EXACT, ImportanceView
    from model.records.research import GradientImportance, HeadScore, Importance
    view = ImportanceView()
    qtbot.addWidget(view)
    names = [f"{k}:{layer}.{h}" for k in ("enc", "dec", "cross") for layer in (1, 2) for h in (1, 2)]
    estimate = GradientImportance(5, 1.25, tuple((n, 0.1 * i) for i, n in enumerate(names)))
    view.set_estimate(estimate, 2, 2)
    assert view.shown.text() == SHOWN_ESTIMATE and not view.export_button.isEnabled()
    assert np.allclose(view.grids["cross"].values, [[0.8, 0.9], [1.0, 1.1]])
    assert view.curve_points()[0].size == 0  # no pruning curve without the exact run
    heads = tuple(HeadScore(n, 30.0 - i, 50.0) for i, n in enumerate(names))
    view.set_result(Importance(5, 31.0, 52.0, heads, heads), 2, 2)
    assert view.shown.text() == SHOWN_EXACT and view.estimate is None and view.export_button.isEnabled()
    assert np.allclose(view.grids["encoder"].values, [[1.0, 2.0], [3.0, 4.0]])
    view.clear()
    assert view.shown.text() == ""


def test_a_long_sentences_alignment_never_widens_the_workbench(qtbot, qapp, restore_app_look):
    """The Pharaoh line was one unbreakable line as long as the sentence; the Workbench's tabs take their
    widest page's minimum, so at 1024 × 768 the head importance page was cut off on the right (Run,
    Export…, the cross-attention grid: issue 31's screenshot set)."""
    from explorer.ui import style
    from explorer.workbench.alignment_view import AlignmentView

    style.apply_theme(qapp)
    style.set_font_scale(qapp, 1.0)  # the window's own base font, as at 1024 × 768 with fonts ×1

    def page_minimum(n: int) -> int:
        pieces = tuple(f"▁w{i}" for i in range(n))
        view.set_maps(make_synthetic_maps(n_layers=4, n_heads=8, source=pieces + ("</s>",), target=("<s>",) + pieces,
                                          seed=n))
        return view.minimumSizeHint().width()

    view = AlignmentView()
    qtbot.addWidget(view)
    short, long = page_minimum(5), page_minimum(40)
    assert len(view.links_label.text()) > 200  # the links of a long sentence are many
    assert long == short
    # The Workbench's room beside the sentence column at 1024 × 768 (the head importance page needs 390 px).
    assert long <= 600


def test_a_bleu_curve_below_one_reads_as_bleu_not_in_milli_units(qtbot):
    """A tiny model's BLEU of 0.4 drew as "400" under "BLEU (m)": pyqtgraph's automatic SI prefix, which no
    axis of the app wants (explorer/ui/plain_axes.py). Both the curve's axes and the grids' stay plain."""
    from explorer.workbench.importance_view import ImportanceView
    from model.records.research import HeadScore, Importance
    view = ImportanceView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    names = [f"{k}:{layer}.{h}" for k in ("enc", "dec", "cross") for layer in (1, 2) for h in (1, 2)]
    heads = tuple(HeadScore(n, 0.4 - 0.01 * i, 1.0) for i, n in enumerate(names))
    view.set_result(Importance(5, 0.45, 1.2, heads, heads), 2, 2)
    view.curve_plot.getPlotItem().vb.autoRange()
    qtbot.wait(20)
    left = view.curve_plot.getAxis("left")
    assert max(abs(v) for v in left.range) < 1  # the range that drew as milli-BLEU
    assert left.autoSIPrefixScale == 1.0 and "(m" not in left.labelString() and "BLEU" in left.labelString()
    ticks = [value for level in left.tickValues(*left.range, left.height()) for value in level[1]]
    assert ticks and max(ticks) < 1  # tick values as BLEU, not × 1000
    assert left.tickStrings(ticks, left.autoSIPrefixScale, 1) == [left.tickStrings([t], 1.0, 1)[0] for t in ticks]


def test_a_head_whose_removal_raises_bleu_is_not_drawn_in_zeros_colour(qtbot):
    """Drops below 0 took 0's colour (the scale started at 0): harmful heads could not be seen."""
    from explorer.workbench.importance_view import ImportanceView  # noqa: PLC0415
    from model.records.research import HeadScore, Importance  # noqa: PLC0415

    view = ImportanceView()
    qtbot.addWidget(view)
    heads = [HeadScore(f"enc:1.{h}", 10.0 - d, 40.0) for h, d in ((1, 0.0), (2, -3.0), (3, 4.0), (4, 0.0))]
    view.set_result(Importance(bleu=10.0, chrf=40.0, sentences=5, heads=tuple(heads), curve=()), 1, 4)
    colours = view.grids["encoder"].colors()[0]
    assert not np.array_equal(colours[1], colours[0])  # −3 (removal helped) is not 0
    assert view.scale_bar.end_labels()[0] == "-3.0"


def test_grids_side_by_side_round_their_numbers_alike(qtbot):
    """One grid in whole numbers beside two in tenths read as if its heads were measured more coarsely."""
    from PySide6.QtGui import QFont  # noqa: PLC0415

    from explorer.workbench.value_grid import ValueGrid  # noqa: PLC0415

    grids = [ValueGrid(title) for title in ("a", "b", "c")]
    font = QFont(grids[0].font())
    font.setPointSizeF(9.0)  # the cells' room is measured against this size, whatever zoom a test left
    for g in grids:
        g.peers = grids
        g.setFont(font)
        qtbot.addWidget(g)
        g.resize(150, 110)  # 8 heads: cells of ~14 px, as at 1024 × 768 zoomed
        g.show()
    small = np.full((4, 8), 0.5)
    for g in grids:
        g.set_values(small, fmt="{:.1f}")
    assert [g.cell_text(0, 0) for g in grids] == ["0.5"] * 3  # tenths fit everywhere
    wide = small.copy()
    wide[1, 4] = -10.3  # "-10.3" does not fit such a cell: that grid rounds
    grids[0].set_values(wide, fmt="{:.1f}")
    assert grids[0].cell_text(1, 4) == "-10"
    # The others do not write tenths beside it; rounded, their 0.5s would read "0" or "1", which says
    # nothing about heads that all scored alike: they show colours alone (their scale bar reads them).
    assert all(g.number_font() is None for g in grids[1:])
    assert grids[0].number_font() is not None
    small_span = np.linspace(0.1, 0.7, 32).reshape(4, 8)  # importances of 0.1 to 0.7, tenths do not fit
    grids[0].resize(60, 110)
    grids[0].set_values(small_span, fmt="{:.2f}")
    assert grids[0].number_font() is None  # never "0" and "1" for 0.1 to 0.7

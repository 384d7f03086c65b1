"""The research workbench: head importance fills its grids from a real run and exports them, Cancel stops a
run within a second, the statistics table sorts and exports the headless numbers, and the alignment lines
are the links ``model.analysis.alignment`` extracts.

Importance and statistics run the analysis worker on its own thread with the tiny reverse-task model.
"""

from __future__ import annotations

import csv
import io
import json
import time

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from explorer.workbench.alignment_view import LINE_COLOR, AlignmentView, words
from explorer.workbench.panel import Workbench
from model.analysis.alignment import align
from tests.explorer.conftest import Heard, make_info, make_synthetic_maps

SRC = ["3 1 4 1 5", "9 2 6", "2 7 1 8 2", "5 3 5 8"]
REF = [" ".join(reversed(s.split())) for s in SRC]


@pytest.fixture
def files(tmp_path):
    src, ref = tmp_path / "src.txt", tmp_path / "ref.txt"
    src.write_text("\n".join(SRC) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    return str(src), str(ref)


@pytest.fixture
def bench(qtbot, tiny_model_dir, tmp_path):
    wb = Workbench(cache_dir=str(tmp_path / "cache"))
    qtbot.addWidget(wb)
    wb.resize(1000, 700)
    wb.set_model(make_info(str(tiny_model_dir), n_layers=2, n_heads=4))
    yield wb
    wb.shutdown()


def _run_importance(qtbot, wb, files):
    bar = wb.importance_view.run_bar
    assert bar.progress.isHidden()  # no empty bar (it read as a text box) before a first run
    bar.set_files(*files)
    bar.count.setValue(0)  # all four sentences
    seen = []  # what the view said it showed when the estimate arrived, and whether the run still went on
    view, show_estimate = wb.importance_view, wb.importance_view.set_estimate

    def recording(*args):
        show_estimate(*args)
        wb.last_estimate = args
        seen.append((view.shown.text(), view.estimate is not None, view.result is None,
                     bar.cancel_button.isEnabled()))
    view.set_estimate = recording
    ready = Heard(wb.worker.importance_ready)
    with qtbot.waitSignal(ready.heard, timeout=180_000) as blocker:
        bar.run_button.click()
        assert not bar.run_button.isEnabled() and bar.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: wb.importance_view.result is not None)
    wb.last_shown = seen
    return blocker.args[0][1]


def test_importance_grid_fills_from_a_run_and_exports(qtbot, bench, files, tiny_model_dir, tmp_path):
    from model.analysis.importance import head_importance
    from model.checkpoint import load_model
    result = _run_importance(qtbot, bench, files)
    view = bench.importance_view
    assert not result.cached and view.run_bar.run_button.isEnabled()
    # The gradient estimate came first and was labelled so; the exact result replaced it, labelled exact.
    from explorer.workbench.importance_view import SHOWN_ESTIMATE, SHOWN_EXACT
    assert bench.last_shown == [(SHOWN_ESTIMATE, True, True, True)]
    assert view.shown.text() == SHOWN_EXACT and view.estimate is None
    n = 3 * 2 * 4
    assert view.run_bar.progress.maximum() == 1 + 2 * n and view.run_bar.progress.value() == 1 + 2 * n
    assert not view.run_bar.progress.isHidden()  # shown from the run on, with how far it got
    headless = head_importance(load_model(tiny_model_dir), SRC, REF)
    assert headless.to_json() == result.to_json()
    # Each cell holds the BLEU lost without that head; the largest drop gets the top colour of the scale.
    for h in headless.heads:
        kind = {"enc": "encoder", "dec": "decoder", "cross": "cross"}[h.head.split(":")[0]]
        layer, head = (int(x) - 1 for x in h.head.split(":")[1].split("."))
        assert view.grids[kind].values[layer, head] == pytest.approx(headless.bleu - h.bleu)
    worst = max(headless.heads, key=lambda h: headless.bleu - h.bleu)
    kind = {"enc": "encoder", "dec": "decoder", "cross": "cross"}[worst.head.split(":")[0]]
    layer, head = (int(x) - 1 for x in worst.head.split(":")[1].split("."))
    grid = view.grids[kind]
    image = grid.grab().toImage()
    centre = grid.cell_rect(layer, head).topLeft() + QtCore.QPointF(3, 3)
    pixel = image.pixelColor(int(centre.x() * image.devicePixelRatio()), int(centre.y() * image.devicePixelRatio()))
    top = grid.colors()[layer, head]
    assert (pixel.red(), pixel.green(), pixel.blue()) == tuple(int(c) for c in top[:3])
    assert grid.levels[1] == pytest.approx(headless.bleu - worst.bleu)
    # The scale starts at the lowest drop where one is negative (removing that head raised BLEU): from 0,
    # those heads took 0's colour and could not be told from heads that change nothing.
    drops = [headless.bleu - h.bleu for h in headless.heads]
    assert grid.levels[0] == pytest.approx(min(0.0, min(drops)))
    assert view.scale_bar.levels[0] == pytest.approx(min(0.0, min(drops)))
    # the summary names the same positive number the cell shows (#31 item 15: it said "(−7.2)" by a "7.2")
    layer, head = (int(n) for n in worst.head.partition(":")[2].split("."))  # 'dec:1.4': 1-based
    kind = {"enc": "Encoder self", "dec": "Decoder self (masked)", "cross": "Cross (encoder–decoder)"}[
        worst.head.partition(":")[0]]
    assert f"most important: {kind} L{layer} H{head}, {headless.bleu - worst.bleu:.1f} lost" in view.summary.text()
    assert "−" not in view.summary.text()
    x, y = view.curve_points()
    assert list(y) == [headless.bleu] + [h.bleu for h in headless.curve] and len(x) == n + 1
    # Exports: CSV rows and JSON equal the result.
    view.export(str(tmp_path / "imp.csv"))
    view.export(str(tmp_path / "imp.json"))
    rows = list(csv.DictReader(io.StringIO((tmp_path / "imp.csv").read_text(encoding="utf-8"))))
    assert [r["head"] for r in rows] == [h.head for h in headless.heads]
    assert [float(r["bleu"]) for r in rows] == pytest.approx([h.bleu for h in headless.heads], abs=1e-4)
    assert json.loads((tmp_path / "imp.json").read_text(encoding="utf-8"))["heads"] == result.to_json()["heads"]
    # Reopening the model shows the cached result at once, with identical numbers.
    ready = Heard(bench.worker.importance_ready)
    with qtbot.waitSignal(ready.heard, timeout=10_000) as blocker:
        bench.set_model(make_info(str(tiny_model_dir), n_layers=2, n_heads=4))
    hit = blocker.args[0][1]
    assert hit.cached and hit.heads == result.heads and hit.curve == result.curve
    qtbot.waitUntil(lambda: view.result is not None and view.result.cached)
    assert "from the cache" in view.summary.text()
    # An estimate over the exact result (a second run): the scale says what the colours are now, and a
    # cancelled run brings the exact result back (it was lost, Export with it, the scale still "BLEU lost").
    exact = view.result
    view.set_estimate(*bench.last_estimate)
    assert view.result is None and view.scale_bar.end_labels()[1].endswith("|∂loss/∂gate|")
    assert view.restore() and view.result is exact and view.scale_bar.end_labels()[1].endswith("BLEU lost")
    assert view.export_button.isEnabled() and not view.restore()  # once
    # Run again on the same sentences: the cache answers, and the bar is not left striped "busy" beside an
    # enabled Run (no report came to say how far it got).
    with qtbot.waitSignal(ready.heard, timeout=10_000) as blocker:
        view.run_bar.run_button.click()
    assert blocker.args[0][1].cached
    qtbot.waitUntil(view.run_bar.run_button.isEnabled)
    bar = view.run_bar.progress
    assert bar.isHidden() or bar.maximum() > 0


def test_cancel_stops_within_a_second(qtbot, bench, tmp_path):
    src, ref = tmp_path / "many.txt", tmp_path / "many-ref.txt"
    many = [" ".join(str((i * 7 + k) % 10) for k in range(12)) for i in range(120)]
    src.write_text("\n".join(many) + "\n", encoding="utf-8")
    ref.write_text("\n".join(" ".join(reversed(s.split())) for s in many) + "\n", encoding="utf-8")
    bar = bench.importance_view.run_bar
    bar.set_files(str(src), str(ref))
    bar.count.setValue(0)
    progress, cancelled = Heard(bench.worker.progress), Heard(bench.worker.cancelled)
    with qtbot.waitSignal(progress.heard, timeout=120_000):
        bar.run_button.click()
    with qtbot.waitSignal(cancelled.heard, timeout=5_000) as blocker:
        start = time.perf_counter()
        bar.cancel_button.click()
    assert time.perf_counter() - start < 1.0
    assert blocker.args[0][0] == "importance"
    qtbot.waitUntil(lambda: bar.run_button.isEnabled())
    assert bar.message.text() == "Cancelled." and bench.importance_view.result is None
    # The estimate (it came before the exact run's first report) stays, and no longer promises the
    # exact drop that was cancelled.
    assert bench.importance_view.estimate is not None
    assert bench.importance_view.shown.text().endswith("the exact run was cancelled.")
    assert bar.progress.isHidden()  # no "n / 193" of a run that is over
    assert not any((tmp_path / "cache").glob("*.json"))  # a cancelled run stores nothing
    # another model (or the same one reopened): the old run's "Cancelled." and summary go (#31 item 15)
    bench.set_model(make_info(str(tmp_path / "other-model"), n_layers=2, n_heads=4))
    assert bar.message.text() == "" and bench.importance_view.summary.text().startswith("Run to score every head")


def test_stats_table_sorts_and_exports_the_headless_numbers(qtbot, bench, files, tiny_model_dir, tmp_path):
    from model.analysis.held_out import statistics
    from model.checkpoint import load_model
    bar = bench.stats_view.run_bar
    bar.set_files(files[0])
    bar.count.setValue(0)
    ready = Heard(bench.worker.stats_ready)
    with qtbot.waitSignal(ready.heard, timeout=120_000):
        bar.run_button.click()
    qtbot.waitUntil(lambda: bench.stats_view.table_data is not None)
    view = bench.stats_view
    headless = statistics(load_model(tiny_model_dir), SRC)
    view.export(str(tmp_path / "stats.csv"))
    assert (tmp_path / "stats.csv").read_text(encoding="utf-8") == headless.csv()
    assert view.table.rowCount() == 3 * 2 * 4
    col = 3  # entropy
    view.table.sortItems(col, QtCore.Qt.SortOrder.DescendingOrder)
    shown = view.column_values("entropy")
    assert shown == sorted(shown, reverse=True)
    assert shown[0] == pytest.approx(float(np.nanmax([headless.values[k][..., 0] for k in headless.values])))
    view.table.sortItems(col, QtCore.Qt.SortOrder.AscendingOrder)
    assert view.column_values("entropy") == sorted(shown)
    # The grid shows the chosen statistic of each head.
    view.stat_combo.setCurrentText("confidence")
    assert np.allclose(view.grids["cross"].values, headless.values["cross"][:, :, 1], equal_nan=True)


def test_alignment_lines_match_the_extracted_links(qtbot):
    view = AlignmentView()
    qtbot.addWidget(view)
    view.resize(800, 400)
    view.show()
    maps = make_synthetic_maps(source=("▁Das", "▁Ha", "us", "▁ist", "▁groß", "</s>"),
                               target=("<s>", "▁The", "▁house", "▁is"))
    view.set_maps(maps)
    assert view.layer_combo.currentIndex() == maps.n_layers - 1  # the last layer first
    for layer, head, shift in ((1, None, False), (0, 2, False), (1, 1, True)):
        view.choose(layer, head, shift)
        cross = maps.cross[layer].mean(0) if head is None else maps.cross[layer, head]
        expect = align(cross, maps.source_tokens, maps.predicted_tokens, shift=shift)
        assert view.links() == expect and view.pharaoh_text() == " ".join(f"{s}-{t}" for s, t in sorted(expect))
        segs = view.canvas.segments()
        assert {(s, t) for s, t, _, _ in segs} == expect
        src_rects, tgt_rects = view.canvas.word_rects()
        image = view.canvas.grab().toImage()
        ratio = image.devicePixelRatio()
        line = QtGui.QColor(LINE_COLOR)
        for s, t, a, b in segs:
            assert a.x() == pytest.approx(src_rects[s].center().x())
            assert b.x() == pytest.approx(tgt_rects[t].center().x())
            mid = (a + b) / 2
            px = image.pixelColor(int(mid.x() * ratio), int(mid.y() * ratio))
            assert abs(px.red() - line.red()) + abs(px.green() - line.green()) + abs(px.blue() - line.blue()) < 60
    assert view.canvas.source == ["Das", "Haus", "ist", "groß"] == words(maps.source_tokens)
    assert view.canvas.target == ["The", "house", "is", "groß"]
    view.set_maps(None)
    assert view.canvas.segments() == [] and not view.export_button.isEnabled()


def test_window_hooks_the_workbench_in(qtbot, loaded):
    """View › Research workbench opens the tab; the model and the translation shown reach it."""
    window = loaded
    window.workbench_action.trigger()
    assert window.tabs.currentWidget() is window.workbench
    wb = window.workbench
    assert wb.model_info is window.controller.info and wb.importance_view.run_bar.run_button.isEnabled()
    maps = window.controller.translation.attention
    assert wb.alignment_view.maps is maps
    last = maps.n_layers - 1
    assert wb.alignment_view.links() == align(maps.cross[last].mean(0), maps.source_tokens, maps.predicted_tokens)


@pytest.mark.parametrize("width", [420, 560, 800])
def test_every_alignment_word_is_drawn_whole_at_zoom_2(qtbot, width):
    """Boxes of one width cut a long word between short ones: "because" was drawn ")ecaus(" at zoom +2."""
    from explorer.workbench.alignment_view import AlignmentCanvas
    canvas = AlignmentCanvas()
    qtbot.addWidget(canvas)
    font = canvas.font()
    font.setPointSizeF(2 * font.pointSizeF())
    canvas.setFont(font)
    canvas.resize(width, 200)
    source = ["The", "cat", "sat", "on", "the", "mat", "because", "it", "was", "tired"]
    canvas.set_alignment(source, ["Die", "Katze", "saß", "auf", "der", "Matte,", "weil", "sie", "müde", "war"],
                         {(0, 0), (6, 6)})
    for items, rects in zip((canvas.source, canvas.target), canvas.word_rects()):
        metrics = QtGui.QFontMetricsF(canvas.row_font(items))
        assert rects[0].left() >= 0 and rects[-1].right() <= width + 0.5
        for word, rect in zip(items, rects):
            assert metrics.horizontalAdvance(word) <= rect.width(), (width, word, rect.width())
        assert all(a.right() <= b.left() + 1e-6 for a, b in zip(rects, rects[1:]))  # side by side, no overlap


def test_another_model_takes_the_last_runs_bar_and_curve_axes_away(qtbot, bench, tiny_model_dir):
    """After en-de's run, a 2 + 2-layer model's Workbench still read "193 / 193" and a curve over 0-90 heads
    and BLEU 0-40 (a walk-through)."""
    from model.records.research import AnalysisProgress
    view = bench.importance_view
    bar = view.run_bar
    bar.set_running(True)
    bar.set_progress(AnalysisProgress("importance", 193, 193, 60.0))
    bar.set_running(False)
    view.curve.setData(np.arange(91), np.linspace(38.0, 2.0, 91))
    view.curve_plot.getPlotItem().setRange(xRange=(0, 90), yRange=(0, 40), padding=0)  # as a result left them
    assert view.curve_plot.getPlotItem().viewRange()[0][1] >= 90
    assert not bar.progress.isHidden() and bar.progress.text() == "193 / 193"
    bench.set_model(make_info(str(tiny_model_dir) + "-other", n_layers=2, n_heads=4))
    assert bar.progress.isHidden()
    (x0, x1), (y0, y1) = view.curve_plot.getPlotItem().viewRange()
    assert x1 <= 1.0 and y1 <= 1.0

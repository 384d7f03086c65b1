"""The clock-hands view: PE(pos + k) as one rotation of PE(pos), read through the view's own data, and the
marks of the positions never seen in training (explorer/positional/clock_view.py, tab.py)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.positional.clock import angular_speeds, pair_columns
from explorer.positional.clock_view import ClockView
from explorer.positional.encoding import sinusoidal_pe
from explorer.positional.tab import PositionalTab
from model.records import ModelInfo


@pytest.fixture
def clock(qtbot):
    view = ClockView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    return view


@pytest.mark.parametrize("layout", ["interleaved", "halves"])
@pytest.mark.parametrize("k", [1, 7, 40])
def test_the_turn_from_pos_to_pos_plus_k_is_the_same_for_every_pos(clock, layout, k):
    clock.set_model(64, layout)
    clock.set_position(150)
    clock.set_shift(k)
    pairs, positions, degrees = clock.rotation_table()
    assert positions == [0, 25, 100, 150] and len(pairs) == 8
    # Every column (a different pos) measures the same turn, and it is ω_i·k: no pos in it.
    expected = np.degrees(np.mod(angular_speeds(64)[pairs] * k, 2 * np.pi))
    for col in range(len(positions)):
        diff = np.abs(degrees[:, col] - expected)
        np.testing.assert_allclose(np.minimum(diff, 360 - diff), 0, atol=1e-3)
    # The table on screen says the same numbers.
    def same(text: str) -> str:  # a turn a hair under 360° rounds to "360.00°", which is 0°
        return text.replace("360.00°", "0.00°")

    for r in range(len(pairs)):
        shown = {same(clock.table.item(r, c).text()) for c in range(1, 2 + len(positions))}
        assert len(shown) == 1, shown


def test_the_hands_are_the_pe_pairs_and_the_dashed_hand_is_pe_pos_plus_k(clock):
    clock.set_model(32, "interleaved")
    clock.set_position(9)
    clock.set_shift(5)
    pe = sinusoidal_pe(20, 32)
    tips = clock.hand_tips()
    for n, pair in enumerate(clock.shown_pairs()):
        s, c = pair_columns(pair, 32)
        np.testing.assert_allclose(tips[n, 0], [pe[9, s], pe[9, c]], atol=1e-6)
        np.testing.assert_allclose(tips[n, 1], [pe[14, s], pe[14, c]], atol=1e-6)
        # A rotation: the same length, turned by ω·k.
        np.testing.assert_allclose(np.hypot(*tips[n, 1]), 1.0, atol=1e-6)


def test_position_zero_points_every_hand_to_twelve(clock):
    clock.set_model(16)
    clock.set_position(0)
    np.testing.assert_allclose(clock.hand_tips()[:, 0], [[0.0, 1.0]] * len(clock.shown_pairs()), atol=1e-7)


def test_play_advances_the_position_and_wraps(clock, qtbot):
    clock.set_model(16)
    clock.set_position(clock.last_position() - 1)
    clock.set_playing(True)
    assert clock.play_button.text() == "Pause"
    seen = []
    clock._timer.timeout.connect(lambda: seen.append(clock.position()))  # after the view's own tick
    # Generous: a tick is 0.4 s, but the test machine may be busy.
    qtbot.waitUntil(lambda: len(seen) >= 2, timeout=20_000)
    assert seen[:2] == [clock.last_position(), 0]
    assert clock.is_playing()
    clock.set_playing(False)
    assert not clock.is_playing() and clock.play_button.text() == "Play"


def test_positions_beyond_the_training_length_are_marked_on_table_and_clock(qtbot):
    tab = PositionalTab()
    qtbot.addWidget(tab)
    assert tab.train_marks() == {"table": None, "similarity": None, "clock": None}
    info = ModelInfo(path="m", config=(), n_params=1, vocab_size=10, device="cpu", d_model=32, n_layers=1,
                     n_heads=2, max_train_length=128)
    tab.set_model(info)
    # Row 127 is the last a 128-piece sequence reaches; the mark sits between it and row 128.
    assert tab.train_marks() == {"table": 127.5, "similarity": 127.5, "clock": 127.5}
    assert tab.table.pe_array().shape[0] >= 128 + 32  # grown so that the mark is on screen
    tab.clock.set_position(127)
    assert "beyond" not in tab.clock.note.text()
    tab.clock.set_position(128)
    assert "beyond the longest training sentence (128 pieces)" in tab.clock.note.text()
    assert tab.clock.last_position() == 199  # at least 0..199, and 1.5 × 128 = 192 is less


def test_a_loaded_model_redraws_the_table_once_and_keeps_the_clocks_plots(qtbot, monkeypatch):
    """A model load is answered on the GUI thread: each table redraw costs ~0.1 s and remaking the clocks
    0.2 s, which the first window waited through (issue 33 item 6). The result is the model's all the same."""
    tab = PositionalTab()
    qtbot.addWidget(tab)
    plots = [clock["plot"] for clock in tab.clock.clocks]
    redraws = []
    real = tab.table._recompute
    monkeypatch.setattr(tab.table, "_recompute", lambda: (redraws.append(1), real()))
    info = ModelInfo(path="m", config=(), n_params=1, vocab_size=10, device="cpu", d_model=256, n_layers=1,
                     n_heads=1, pe_layout="halves", max_train_length=128)
    tab.set_model(info)
    assert len(redraws) == 1
    assert tab.table.pe_array().shape == (160, 256) and tab.table.pe_layout() == "halves"
    np.testing.assert_allclose(tab.table.pe_array(), sinusoidal_pe(160, 256, "halves"), atol=1e-6)
    kept = [clock["plot"] for clock in tab.clock.clocks]
    assert kept[: len(plots)] == plots[: len(kept)]  # the same plot items, retitled
    speeds = angular_speeds(256)
    for clock in tab.clock.clocks:
        s, c = pair_columns(clock["pair"], 256, "halves")
        assert clock["title"].startswith(f"dims {s},\u00a0{c}<br>") and speeds[clock["pair"]] > 0


def _lines(document) -> list[str]:
    """The lines a text document is laid out in, as text."""
    out, block = [], document.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        out += [text[layout.lineAt(i).textStart():layout.lineAt(i).textStart() + layout.lineAt(i).textLength()]
                for i in range(layout.lineCount())]
        block = block.next()
    return out


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_clock_titles_share_one_size_under_the_formula_dock(qtbot, language):
    """Each title used to be made smaller on its own: under the dock the Chinese first three stood large
    over "6.28 个位 / 置", the other five small."""
    from explorer.ui.i18n import install_language  # noqa: PLC0415

    assert install_language(language) == ""
    try:
        view = ClockView()
        qtbot.addWidget(view)
        view.resize(740, 190)  # the clock tab's canvas at 1024 × 768 with the formula dock open
        view.show()
        qtbot.waitExposed(view)
        view.set_model(256)
        qtbot.wait(20)
        view.fit_titles()
        sizes = {c["plot"].titleLabel.opts["size"] for c in view.clocks}
        assert len(sizes) == 1, sizes
        for clock in view.clocks:  # a pair of dimensions stays on one line: "维度 254, 255", never "254," over "255"
            lines = _lines(clock["plot"].titleLabel.item.document())
            assert not any(line.strip()[:1].isdigit() and "," not in line for line in lines[:2]), lines
    finally:
        install_language("en")

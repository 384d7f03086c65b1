"""The Positional encoding tab builds its plots the first time it is shown, and then shows exactly what a
tab built at once would show after the same calls (model, sentence length, font, colour map)."""

from __future__ import annotations

import dataclasses

import numpy as np

from explorer.positional.tab import PositionalTab
from tests.explorer.conftest import make_info


def _told(tab: PositionalTab, info, qtbot) -> None:
    tab.set_font_scale(1.25)
    tab.set_colormap("magma")
    tab.set_model(info)
    tab.set_sentence_length(7)
    tab.show_part("clock")


def _state(tab: PositionalTab) -> dict:
    table, clock = tab.table, tab.clock
    return {"pe": table.pe_array(), "sim": table.similarity_array(), "d": table.d_model(),
            "layout": table.pe_layout(), "sentence": table.sentence_length(), "marks": tab.train_marks(),
            "pairs": clock.shown_pairs(), "tips": clock.hand_tips(), "last": clock.last_position(),
            "part": tab.part(), "train": tab.train_length()}


def test_a_tab_told_before_it_is_shown_equals_one_built_first(qtbot):
    info = dataclasses.replace(make_info("m", d_model=48), max_train_length=30, pe_layout="halves")
    eager = PositionalTab()
    qtbot.addWidget(eager)
    eager.show()
    qtbot.waitExposed(eager)
    assert eager.is_built()
    _told(eager, info, qtbot)

    lazy = PositionalTab()
    qtbot.addWidget(lazy)
    _told(lazy, info, qtbot)
    assert not lazy.is_built() and lazy.count() == 0  # nothing drawn yet
    assert lazy.part() == "clock" and lazy.train_length() == 30
    lazy.show()
    qtbot.waitExposed(lazy)
    assert lazy.is_built() and lazy.count() == 2

    a, b = _state(eager), _state(lazy)
    for key in a:
        if isinstance(a[key], np.ndarray):
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        else:
            assert a[key] == b[key], key
    assert b["d"] == 48 and b["layout"] == "halves" and b["marks"]["table"] == 29.5


def test_the_window_builds_the_tab_only_when_it_is_shown(loaded, qtbot):
    tab = loaded.pe_tab
    assert not tab.is_built()  # starting, loading a model and translating did not need it
    loaded.show_view("pe")
    qtbot.wait(10)
    assert tab.is_built() and loaded.current_view() == "pe"
    assert loaded.pe_view.d_model() == loaded.controller.info.d_model
    assert loaded.pe_view.sentence_length() == len(loaded.controller.translation.source_pieces) + 1

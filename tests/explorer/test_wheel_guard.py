"""The mouse wheel scrolls every column and form, not the spin box or combo under the pointer: beyond the
Train form, the sentence column (its Beam), fields added to it later, and the Workbench's run bars."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QSpinBox


def _wheel(widget, notches: int = -3) -> bool:
    """Turn the wheel ``notches`` over ``widget`` (negative: scroll down); whether anything accepted it."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
    return event.isAccepted()


def test_the_sentence_column_scrolls_past_the_beam_and_a_later_field(qtbot, loaded):
    win = loaded
    win.resize(1008, 500)  # short: the column scrolls
    win.set_font_scale(1.44)
    tp = win.translate_panel
    bar = win.sidebar.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    late = QSpinBox()  # as the ablation box's fields come: after the column was built
    late.setValue(3)
    tp.add_below_error(late)
    qtbot.wait(30)  # the column lays itself out again
    tp.translate_button.setFocus()
    _wheel(tp.beam_spin)
    assert tp.beam_spin.value() == 4 and bar.value() > 0  # the column scrolled; the beam kept its size
    scrolled = bar.value()
    _wheel(late)
    assert late.value() == 3 and bar.value() > scrolled
    tp.beam_spin.setFocus()
    qtbot.waitUntil(tp.beam_spin.hasFocus)
    _wheel(tp.beam_spin, notches=1)
    assert tp.beam_spin.value() == 5  # focused: the wheel is the field's


def test_the_workbench_run_bar_keeps_its_count_under_the_wheel(qtbot, loaded):
    from explorer.workbench.run_bar import RunBar  # noqa: PLC0415

    bars = loaded.workbench.findChildren(RunBar)
    assert bars
    for run_bar in bars:
        before = run_bar.count.value()
        assert run_bar.count.focusPolicy() == Qt.FocusPolicy.StrongFocus
        _wheel(run_bar.count)
        assert run_bar.count.value() == before

"""A head switch re-lays out nothing but the map (explorer/ui/steady_row.py): the statistics line's new
text no longer sends layout requests up the window (five paint passes per switch, measured, against two),
and a text that wraps to another height still gets its room."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from explorer.attention.panel import AttentionPanel
from explorer.ui.steady_row import SteadyRow
from tests.explorer.conftest import EventCounter, make_synthetic_maps


def _settle(qtbot) -> None:
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(5)


def _ancestors(widget) -> list:
    out = []
    while widget is not None:
        out.append(widget)
        widget = widget.parentWidget()
    return out


def test_a_head_switch_sends_no_layout_request_past_the_statistics(qtbot):
    holder = QtWidgets.QWidget()  # the panel inside a window-like parent, as the main window holds it
    layout = QtWidgets.QVBoxLayout(holder)
    panel = AttentionPanel()
    layout.addWidget(panel)
    qtbot.addWidget(holder)
    holder.resize(1000, 700)
    holder.show()
    qtbot.waitExposed(holder)
    panel.set_maps(make_synthetic_maps(n_layers=2, n_heads=4))
    _settle(qtbot)
    stats = panel.stats_label
    # The row between the label and the panel's content is what stops the label's requests.
    watched = _ancestors(stats.parentWidget().parentWidget())
    assert panel in watched and holder in watched
    requests = EventCounter(watched, QtCore.QEvent.Type.LayoutRequest)
    texts = set()
    for head in (1, 2, 3, 0):
        panel.set_state("encoder", 0, head)
        _settle(qtbot)
        texts.add(stats.text())
    assert len(texts) == 4  # every switch gave the line a new text …
    assert requests.total() == 0, {type(w).__name__: n for w, n in requests.counts.items() if n}  # … and no re-layout
    assert stats.height() >= stats.heightForWidth(stats.width())  # all of it shows


def test_a_text_of_another_height_gets_its_room_and_the_same_height_no_request(qtbot):
    window = QtWidgets.QWidget()
    column = QtWidgets.QVBoxLayout(window)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    above = QtWidgets.QWidget()
    column.addWidget(above, 1)
    label = QtWidgets.QLabel("one short line")
    label.setWordWrap(True)
    label.setContentsMargins(8, 2, 8, 2)
    row = SteadyRow(label)
    column.addWidget(row)
    qtbot.addWidget(window)
    window.resize(300, 400)
    window.show()
    qtbot.waitExposed(window)
    _settle(qtbot)
    one_line = row.height()
    assert one_line == label.heightForWidth(300) and label.geometry() == row.rect()
    requests = EventCounter([window], QtCore.QEvent.Type.LayoutRequest)
    label.setText("another short one")  # the same single line: nothing above is laid out again
    _settle(qtbot)
    assert requests.total() == 0 and row.height() == one_line
    label.setText("a text long enough to wrap onto several lines at three hundred pixels wide, "
                  "as a long statistics line does under the formula dock")
    _settle(qtbot)
    assert requests.total() >= 1  # a new height: the column makes room for it
    assert row.height() == label.heightForWidth(300) > 2 * one_line - 8
    assert label.geometry() == row.rect()
    assert above.height() == window.height() - row.height()
    window.resize(900, 400)  # wider: fewer lines, and the row gives the room back
    _settle(qtbot)
    assert row.height() == label.heightForWidth(900) < label.heightForWidth(300)
    assert above.height() == window.height() - row.height()


def test_the_map_keeps_its_size_while_the_next_sentence_is_translated(qtbot):
    """The one-line "Translating…" note stood in for two lines of statistics: the map grew for the wait
    and shrank back with the answer, with every translation. The row now keeps its height while busy."""
    panel = AttentionPanel()
    qtbot.addWidget(panel)
    panel.resize(560, 600)  # narrow enough for the statistics to take two lines
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_maps(make_synthetic_maps(n_layers=2, n_heads=4))
    _settle(qtbot)
    stats = panel.stats_label
    line = stats.fontMetrics().lineSpacing()
    assert stats.height() >= 2 * line, (stats.text(), stats.height())
    before = (panel.heatmap.height(), stats.height())
    panel.set_busy(True)
    _settle(qtbot)
    assert stats.text().startswith("Translating") and panel.is_dimmed()
    assert stats.heightForWidth(stats.width()) < before[1]  # the note alone would take less …
    assert (panel.heatmap.height(), stats.height()) == before  # … yet nothing moved
    panel.set_busy(False)
    _settle(qtbot)
    assert (panel.heatmap.height(), stats.height()) == before
    panel.resize(1400, 600)  # not busy: the row still fits its text, one line now
    _settle(qtbot)
    assert stats.height() == stats.heightForWidth(stats.width()) < before[1]

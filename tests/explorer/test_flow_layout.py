"""FlowLayout (explorer/ui/flow_layout.py): rows that wrap, each item centred on its row."""

from __future__ import annotations

from PySide6 import QtWidgets

from explorer.ui.flow_layout import FlowLayout


def _strip(qtbot, width: int):
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host, spacing=6)
    label, spin, bar = QtWidgets.QLabel("Sentences:"), QtWidgets.QSpinBox(), QtWidgets.QProgressBar()
    bar.setMinimumHeight(label.sizeHint().height() + 12)  # taller than a line of text, as a styled bar is
    eta = QtWidgets.QLabel("ETA 2 min 05 s")
    for w in (label, spin, bar, eta):
        flow.addWidget(w)
    host.resize(width, flow.heightForWidth(width))
    host.show()
    qtbot.waitExposed(host)
    return host, (label, spin, bar, eta)  # the host held by the test (qtbot holds it weakly)


def _centre(w) -> float:
    g = w.geometry()
    return g.top() + g.height() / 2


def test_a_label_sits_level_with_the_taller_widgets_of_its_row(qtbot):
    _host, (label, spin, bar, eta) = _strip(qtbot, 900)
    assert len({w.geometry().top() for w in (label, bar)}) == 2  # heights differ: top-aligned would show
    assert label.height() < bar.height()
    row = [_centre(w) for w in (label, spin, bar, eta)]
    assert max(row) - min(row) <= 1, row  # one row, every centre level (integer pixels: within 1)


def test_a_narrow_strip_wraps_and_centres_each_row_on_its_own(qtbot):
    _host, (label, spin, bar, eta) = _strip(qtbot, 1)
    tops = [w.geometry().top() for w in (label, spin, bar, eta)]
    assert tops == sorted(tops) and len(set(tops)) == 4  # one item a row, in order
    assert len({w.geometry().left() for w in (label, spin, bar, eta)}) == 1  # each row starts at the left

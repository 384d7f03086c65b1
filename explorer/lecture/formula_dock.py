"""The formula walkthrough as a dock of the main window: built, wired and added to the View menu here,
so that the window itself needs one line for it (lecture mode, issue 21). Where the dock goes (beside the
maps or under them) is the window's to decide: ``Docks.place``."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMenu

from explorer.attention.panel import AttentionPanel
from explorer.lecture.formula_view import FormulaView
from explorer.lecture.ports import Docks, Sentence


def install_formula_dock(docks: Docks, sentence: Sentence, attention: AttentionPanel,
                         capture_vectors: Callable[[bool], None], menu: QMenu) -> QDockWidget:
    """Add the hidden 'Attention formula' dock and its toggle to ``menu``.

    While the dock is open each translation also carries the per-head Q, K, V it needs
    (``capture_vectors(on)``); opening it over a sentence translated without them translates that sentence
    again.
    """
    view = FormulaView()
    dock = QDockWidget("Attention formula", docks.parent)
    dock.setObjectName("formula_dock")
    dock.setWidget(view)
    dock.setAllowedAreas(Qt.DockWidgetArea.RightDockWidgetArea | Qt.DockWidgetArea.BottomDockWidgetArea)
    docks.add(dock)
    dock.hide()
    action = dock.toggleViewAction()
    action.setText("&Attention formula")
    menu.addAction(action)

    def on_toggled(on: bool) -> None:
        if on and not dock.isFloating():
            docks.place(dock)

    # Placed when opened (menu or a lesson's show()), not on every visibility change: hiding the
    # window must not move a dock the user has put elsewhere meanwhile.
    action.toggled.connect(on_toggled)

    def on_visible(visible: bool) -> None:
        capture_vectors(visible)
        shown = sentence.translation()
        if visible and shown is not None and shown.vectors is None and sentence.text():
            sentence.translate()

    dock.visibilityChanged.connect(on_visible)
    sentence.translation_ready.connect(lambda t: view.set_translation(t.attention, t.vectors))
    attention.state_changed.connect(lambda: view.set_state(*attention.state()[:3]))
    attention.cell_clicked.connect(view.select_cell)
    # The cell the numbers are about is marked on the map while the dock is open: clicked, or
    # chosen again by a lesson's slide (which calls select_cell), it is the same signal.
    view.cell_changed.connect(lambda cell: attention.set_marked_cell(cell if dock.isVisible() else None))
    # Placed when opened, the steps' height was estimated; the first sentence page shown measures it.
    view.cell_changed.connect(lambda cell: cell is not None and docks.fit(dock))
    dock.visibilityChanged.connect(lambda on: attention.set_marked_cell(view.marked_cell() if on else None))
    view.set_state(*attention.state()[:3])
    return dock

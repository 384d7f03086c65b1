"""The formula walkthrough as a dock of the main window: built, wired and added to the View menu here,
so that the window itself needs one line for it (lecture mode, issue 21)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from explorer.lecture.formula_view import FormulaView

BOTTOM_SHARE = 0.42  # of the window's height, for the dock under the maps: its steps, one line each, unscrolled
SIDE_WIDTH = 300  # px the steps need beside the maps to stay readable (8 numbers in two or three lines)


def place_formula_dock(window: QMainWindow, dock: QDockWidget) -> Qt.DockWidgetArea:
    """Beside the maps when the window has the width for both, else under them in two columns.

    At 1024 px the maps and the sentence column already need ~900 px (their minimum), so a dock
    beside them squeezed the attention controls off the edge; under them, the maps keep the full
    width and lose only height, and the steps' rows of numbers get the width they need.
    """
    view = dock.widget()
    view.set_columns(1)  # measure the narrow layout's width
    side = max(SIDE_WIDTH, view.minimumSizeHint().width())
    needed = window.centralWidget().minimumSizeHint().width() + side
    bottom = window.width() < needed + 40  # the splitter handles and the dock's frame
    area = Qt.DockWidgetArea.BottomDockWidgetArea if bottom else Qt.DockWidgetArea.RightDockWidgetArea
    if window.dockWidgetArea(dock) != area:
        window.addDockWidget(area, dock)  # moves it
    view.set_columns(2 if bottom else 1)
    if bottom:
        window.resizeDocks([dock], [round(BOTTOM_SHARE * window.height())], Qt.Orientation.Vertical)
    return area


def install_formula_dock(window: QMainWindow, menu: QMenu) -> QDockWidget:
    """Add the hidden 'Attention formula' dock to ``window`` and its toggle to ``menu``.

    While the dock is open each translation also carries the per-head Q, K, V it needs; opening it
    over a sentence translated without them translates that sentence again.
    """
    view = FormulaView()
    dock = QDockWidget("Attention formula", window)
    dock.setObjectName("formula_dock")
    dock.setWidget(view)
    dock.setAllowedAreas(Qt.DockWidgetArea.RightDockWidgetArea | Qt.DockWidgetArea.BottomDockWidgetArea)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    action = dock.toggleViewAction()
    action.setText("Attention &formula")
    menu.addAction(action)
    controller, panel = window.controller, window.attention_panel

    def on_toggled(on: bool) -> None:
        if on and not dock.isFloating():
            place_formula_dock(window, dock)

    # Placed when opened (menu or a lesson's show()), not on every visibility change: hiding the
    # window must not move a dock the user has put elsewhere meanwhile.
    action.toggled.connect(on_toggled)

    def on_visible(visible: bool) -> None:
        controller.set_capture_vectors(visible)
        shown = controller.translation
        if visible and shown is not None and shown.vectors is None and window.translate_panel.text():
            window.translate_panel.request_translation()

    dock.visibilityChanged.connect(on_visible)
    controller.translation_ready.connect(lambda t: view.set_translation(t.attention, t.vectors))
    panel.state_changed.connect(lambda: view.set_state(*panel.state()[:3]))
    panel.heatmap.cell_clicked.connect(view.select_cell)
    # The cell the numbers are about is marked on the map while the dock is open: clicked, or
    # chosen again by a lesson's slide (which calls select_cell), it is the same signal.
    view.cell_changed.connect(lambda cell: panel.heatmap.set_marked_cell(cell if dock.isVisible() else None))
    dock.visibilityChanged.connect(lambda on: panel.heatmap.set_marked_cell(view.marked_cell() if on else None))
    view.set_state(*panel.state()[:3])
    return dock

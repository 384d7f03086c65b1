"""The formula walkthrough as a dock of the main window: built, wired and added to the View menu here,
so that the window itself needs one line for it (lecture mode, issue 21)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from explorer.views.formula_view import FormulaView


def install_formula_dock(window: QMainWindow, menu: QMenu) -> QDockWidget:
    """Add the hidden 'Attention formula' dock to ``window`` and its toggle to ``menu``.

    While the dock is open each translation also carries the per-head Q, K, V it needs; opening it
    over a sentence translated without them translates that sentence again.
    """
    view = FormulaView()
    dock = QDockWidget("Attention formula", window)
    dock.setObjectName("formula_dock")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    action = dock.toggleViewAction()
    action.setText("Attention &formula")
    menu.addAction(action)
    controller, panel = window.controller, window.attention_panel

    def on_visible(visible: bool) -> None:
        controller.set_capture_vectors(visible)
        shown = controller.translation
        if visible and shown is not None and shown.vectors is None and window.translate_panel.text():
            window.translate_panel.request_translation()

    dock.visibilityChanged.connect(on_visible)
    controller.translation_ready.connect(lambda t: view.set_translation(t.attention, t.vectors))
    panel.state_changed.connect(lambda: view.set_state(*panel.state()[:3]))
    panel.heatmap.cell_clicked.connect(view.select_cell)
    view.set_state(*panel.state()[:3])
    return dock

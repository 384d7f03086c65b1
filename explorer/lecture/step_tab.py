"""The step-by-step decoding view as a tab of the main window: built, wired and added to the View menu
here, so that the window itself needs one line for it (lecture mode, issue 21).

A tab rather than a dock: the two growing maps, the bars and the beam need the whole right side of a
1024 × 768 projector. While the tab is shown each translation also carries its search step by step
(``Translation.steps``); opening the tab over a sentence translated without them translates it again.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from explorer.lecture.step_view import StepView

TITLE = "Step by step"


def install_step_tab(window, menu: QMenu) -> StepView:
    """Add the 'Step by step' tab after 'Attention' and its entry to ``menu``; returns the view."""
    view = StepView()
    window.tabs.insertTab(1, view, TITLE)
    controller, panel = window.controller, window.attention_panel

    def on_tab(_index: int) -> None:
        shown = window.tabs.currentWidget() is view
        controller.set_capture_steps(shown)
        if not shown:
            view.pause()  # a hidden tab should not keep stepping behind the teacher's back
            return
        _kind, layer, head, mean = panel.state()
        view.set_layer_head(layer, None if mean else head)
        view.setFocus()
        translation = controller.translation
        if translation is not None and translation.steps is None and window.translate_panel.text():
            window.translate_panel.request_translation()

    window.tabs.currentChanged.connect(on_tab)
    controller.translation_ready.connect(view.set_translation)
    # A failed translation leaves no steps to show: the previous sentence's would read as this one's.
    controller.error.connect(lambda kind, _message: view.set_translation(None) if kind == "translate" else None)
    panel.colormap_changed.connect(view.set_colormap)
    view.set_colormap(panel.heatmap.colormap_name())
    window.step_action = menu.addAction("Decode &step by step")
    window.step_action.triggered.connect(lambda: window.tabs.setCurrentWidget(view))
    return view

"""The step-by-step decoding view as a tab of the main window: built, wired and added to the View menu
here, so that the window itself needs one line for it (lecture mode, issue 21).

A tab rather than a dock: the two growing maps, the bars and the beam need the whole right side of a
1024 × 768 projector. While the tab is shown each translation also carries its search step by step
(``Translation.steps``); opening the tab over a sentence translated without them translates it again.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from explorer.attention.panel import AttentionPanel
from explorer.lecture.ports import Sentence, Tabs
from explorer.lecture.step_view import StepView

TITLE = "Step by step"


def install_step_tab(tabs: Tabs, sentence: Sentence, attention: AttentionPanel,
                     capture_steps: Callable[[bool], None], menu: QMenu) -> tuple[StepView, QAction]:
    """Add the 'Step by step' tab after 'Attention' and its entry to ``menu``; returns the view and the entry.
    ``capture_steps(on)`` asks every translation from now on to carry its search step by step, or not."""
    view = StepView()
    tabs.insert(1, view, TITLE)

    def on_tab(_index: int) -> None:
        shown = tabs.current() is view
        capture_steps(shown)
        if not shown:
            view.pause()  # a hidden tab should not keep stepping behind the teacher's back
            return
        _kind, layer, head, mean = attention.state()
        view.set_layer_head(layer, None if mean else head)
        view.setFocus()
        translation = sentence.translation()
        if translation is not None and translation.steps is None and sentence.text():
            sentence.translate()

    tabs.changed.connect(on_tab)
    sentence.translation_ready.connect(view.set_translation)
    # A failed translation leaves no steps to show: the previous sentence's would read as this one's.
    sentence.failed.connect(lambda kind, _message: view.set_translation(None) if kind == "translate" else None)
    attention.colormap_changed.connect(view.set_colormap)
    view.set_colormap(attention.colormap_name())
    action = menu.addAction("Decode &step by step")
    action.triggered.connect(lambda: tabs.show(view))
    return view, action

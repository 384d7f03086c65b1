"""The research workbench's per-sentence tools (the Workbench tab holds the test-set ones), installed
into a MainWindow with one call: live head ablation from the All heads grid (explorer/translate/ablation.py), the
beam explorer dock (explorer/translate/beam_dock.py) and the Compare tab (explorer/attention/compare_view.py) with
File › Compare with model….

The worker computes all three with each translation when asked (model/decoding/workbench.py); here they
are only wired to the window's panels and menus.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from explorer.attention.compare_view import CompareView
from explorer.translate.ablation import Ablation
from explorer.translate.beam_dock import BeamDock
from explorer.window.ports import late
from explorer.window.retranslate import retranslate

COMPARE_TAB = "Compare"


class LiveTools(QObject):
    """Holds the ablation, the beam dock and the compare view of one window."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = w = window
        self.ablation = Ablation(w.controller, w.translate_panel, w.attention_panel, w)
        w.translate_panel.add_below_error(self.ablation.box)

        self.beam_dock = BeamDock(w.controller, w.translate_panel, w.attention_panel, late(w, "show_status"), w)
        # Below the views: the hypotheses are sentences, which want width more than height.
        w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.beam_dock)
        self.beam_dock.hide()
        self.beam_action = self.beam_dock.toggleViewAction()
        self.beam_action.setText("&Beam hypotheses")
        w.view_menu.addSeparator()
        w.view_menu.addAction(self.beam_action)
        self.ablation.install_menu(w.view_menu)

        # The Compare tab shows only while a second model is loaded: its three maps are built then, not
        # with every window (~0.1 s of a window's 0.4 s), and told what they missed (_build_compare_view).
        self._compare_view: CompareView | None = None
        self._comparison = None  # the last translation's, for a view built after it
        self.compare_action = QAction("Compare with &model…", w)
        self.compare_action.triggered.connect(self.choose_compare_model)
        self.stop_compare_action = QAction("Stop comparing", w)
        self.stop_compare_action.setEnabled(False)
        self.stop_compare_action.triggered.connect(lambda: w.controller.load_compare_model(""))
        w.file_menu.insertActions(w.export_view_action, [self.compare_action, self.stop_compare_action])
        w.file_menu.insertSeparator(w.export_view_action)

        c = w.controller
        c.compare_loaded.connect(self._on_compare_loaded)
        c.translation_ready.connect(self._on_translation)
        w.attention_panel.state_changed.connect(self._on_state)
        w.attention_panel.colormap_changed.connect(self._on_colormap)

    @property
    def compare_view(self) -> CompareView:
        if self._compare_view is None:
            self._compare_view = self._build_compare_view()
        return self._compare_view

    def _build_compare_view(self) -> CompareView:
        """The view as it would be had it been there from the start: the panel's map, colour map and the
        window's zoom and language, then the last translation's comparison."""
        w = self.window
        view = CompareView()
        view.set_colormap(w.attention_panel.colormap_name())
        view.set_font_scale(w.font_scale())
        view.set_state(*w.attention_panel.state())
        view.set_comparison(self._comparison)
        retranslate(view)
        return view

    def _on_translation(self, translation) -> None:
        self._comparison = getattr(translation, "comparison", None)
        if self._compare_view is not None:
            self._compare_view.set_comparison(self._comparison)

    def _on_state(self) -> None:
        if self._compare_view is not None:
            self._compare_view.set_state(*self.window.attention_panel.state())

    def _on_colormap(self, name: str) -> None:
        if self._compare_view is not None:
            self._compare_view.set_colormap(name)

    def set_font_scale(self, scale: float) -> None:
        if self._compare_view is not None:
            self._compare_view.set_font_scale(scale)

    def choose_compare_model(self) -> None:
        start = str(self.window.settings.value("last_model_parent", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self.window, "Compare with model folder", start)
        if path:
            self.compare_with(path)

    def compare_with(self, path: str) -> None:
        """Compare every translation with the model folder at ``path`` (its maps force-decoded)."""
        self.window.show_status(f"Loading {path} to compare with…")
        self.window.controller.load_compare_model(str(path))

    def _on_compare_loaded(self, info) -> None:
        w = self.window
        self.stop_compare_action.setEnabled(info is not None)
        if info is None:
            self._comparison = None
            if self._compare_view is not None:  # never built: there is no tab to take away
                index = w.tabs.indexOf(self._compare_view)
                if index >= 0:
                    w.tabs.removeTab(index)
                self._compare_view.set_comparison(None)
            w.show_status("Stopped comparing")
            return
        index = w.tabs.indexOf(self.compare_view)
        if index < 0:
            index = w.tabs.insertTab(1, self.compare_view, COMPARE_TAB)
        self.compare_view.set_state(*w.attention_panel.state())
        w.tabs.setCurrentIndex(index)
        w.show_status(f"Comparing with {Path(info.path).name}")
        if w.translate_panel.text():
            w.translate_panel.request_translation()


def install_live_tools(window) -> LiveTools:
    return LiveTools(window)

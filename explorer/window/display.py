"""How the main window shows things: which tab and view, the window's size on this screen, zoom (the
projector font), full screen and the colour map. A mixin of MainWindow, kept apart because none of it
decides *what* is shown, only how big and where.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, QTimer
from PySide6.QtWidgets import QApplication

from explorer.ui import style
from explorer.ui.i18n import tr
from explorer.window.ports import refit_formula_dock
from explorer.window.retranslate import english_source

ATTENTION_VIEWS = ("head", "grid", "lines")
PE_VIEWS = ("pe", "clock")
STEP_VIEW = "steps"  # the Step by step tab (explorer/lecture/step_tab.py)
VIEWS = ATTENTION_VIEWS + PE_VIEWS + (STEP_VIEW,)
DEFAULT_SIZE = QSize(1600, 1000)
# An explicit minimum: without one, Qt raises the window's minimum to whatever its widgets ask for and
# grows the window past the screen (a larger font, a wide tab); with it, the widgets make do.
MIN_SIZE = QSize(640, 480)


# What a window manager adds around the client area: a title bar and thin borders. The size Qt sets
# is the client area's, so a window as tall as the screen's free area pushed its status bar below the
# screen's edge by the title bar's height. Before the first show the real frame is not known yet.
FRAME_ALLOWANCE = QSize(16, 40)


def fit_size(wanted: QSize, available, frame: QSize = FRAME_ALLOWANCE) -> QSize:
    """``wanted`` shrunk so that it and its window ``frame`` fit the screen's available geometry
    (never below MIN_SIZE)."""
    if available is None or available.isEmpty():
        return QSize(wanted)
    room = QSize(available.width() - frame.width(), available.height() - frame.height())
    return QSize(max(MIN_SIZE.width(), min(wanted.width(), room.width())),
                 max(MIN_SIZE.height(), min(wanted.height(), room.height())))


class WindowDisplay:
    """Display controls of MainWindow; expects its tabs, panels and ``colormap_group``."""

    def show_tab(self, title: str) -> bool:
        for i in range(self.tabs.count()):
            if english_source(self.tabs, f"tab{i}", self.tabs.tabText(i)) == title:
                self.tabs.setCurrentIndex(i)
                return True
        return False

    def fit_to_screen(self, size: QSize = DEFAULT_SIZE) -> QSize:
        """Resize to ``size``, shrunk so the window *with its frame* fits the available area of its
        screen (a 1024 × 768 projector gets at most 1008 × 728, so no control, the status bar
        included, starts off-screen); returns the client size."""
        screen = self.screen() or QApplication.primaryScreen()
        # Once shown, the window manager's frame is known, but it may not be whole yet (offscreen
        # reports 4-px borders and no title bar; so do some managers before they decorate): leave
        # room for the larger of it and the allowance, so a tall HiDPI title bar is honoured too.
        frame = (self.frameGeometry().size() - self.geometry().size()).expandedTo(FRAME_ALLOWANCE)
        fitted = fit_size(size, screen.availableGeometry() if screen is not None else None, frame)
        self.resize(fitted)
        return fitted

    def show_view(self, view: str) -> None:
        """'head', 'grid' or 'lines' (the attention panel), 'pe' or 'clock' (the positional-encoding tab),
        'steps' (the Step by step tab)."""
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}; expected one of {VIEWS}")
        if view == STEP_VIEW:
            self.tabs.setCurrentWidget(self.step_view)
            return
        if view in PE_VIEWS:
            self.pe_tab.show_part(view)
            self.tabs.setCurrentWidget(self.pe_tab)
            return
        self.attention_panel.set_view(view)
        self.tabs.setCurrentWidget(self.attention_stack)

    def current_view(self) -> str:
        """The view shown now, one of VIEWS ('other' on another tab: Train, Workbench)."""
        if self.tabs.currentWidget() is self.step_view:
            return STEP_VIEW
        if self.tabs.currentWidget() is self.pe_tab:
            return self.pe_tab.part()
        if self.tabs.currentWidget() is self.attention_stack:
            return self.attention_panel.view()
        return "other"

    def set_colormap(self, name: str) -> None:
        self.attention_panel.set_colormap(name)
        self.sync_colormap(name)

    def sync_colormap(self, name: str) -> None:
        """Keep the menu and the PE view in step when the panel's own combo box changes the map."""
        self.pe_tab.set_colormap(name)
        for action in self.colormap_group.actions():
            action.setChecked(action.text() == name)

    def font_scale(self) -> float:
        return self._font_scale

    def set_font_scale(self, scale: float) -> None:
        """Scale every font of the app: the application font, then the panels that draw their own."""
        self._font_scale = style.set_font_scale(QApplication.instance(), scale)
        self.translate_panel.set_font_scale(self._font_scale)
        self.empty_state.set_font_scale(self._font_scale)
        self.attention_panel.set_font_scale(self._font_scale)
        self.pe_tab.set_font_scale(self._font_scale)
        self.step_view.set_font_scale(self._font_scale)
        self.train_panel.set_font_scale(self._font_scale)
        tools = getattr(self, "live_tools", None)  # built after the first set_font_scale, as the dock
        if tools is not None:
            tools.set_font_scale(self._font_scale)
        dock = getattr(self, "formula_dock", None)  # built after the first set_font_scale
        if dock is not None:
            # Split again once the new type is laid out: Qt hands the widgets the zoomed application
            # font a turn of the event loop later, and the map's plot takes its size after that.
            QTimer.singleShot(0, self, lambda: QTimer.singleShot(0, self, lambda: refit_formula_dock(self, dock)))

    def zoom_in(self) -> bool:
        """One step larger, unless the window is too narrow for every control at that size: a teacher
        zooming for the back row on a 1024 × 768 projector found "Encoder" cut to "ncode", the step
        counter and the training form cut a step past ×1.52 (see ``style.WIDTH_PER_SCALE``). There the
        status line says why and what gives more room. Returns whether it zoomed."""
        wanted = style.clamp_scale(self._font_scale * style.ZOOM_STEP)
        if wanted <= self._font_scale + 1e-6:
            return False  # the largest zoom there is
        if wanted > style.largest_scale(self.width()) + 1e-6:
            self.show_status(tr("Largest zoom for this window's width (×{scale:.2f}): a wider window or full "
                                "screen allows more, and presentation mode (F5) shows the views larger",
                                scale=self._font_scale))
            return False
        self.set_font_scale(wanted)
        return True

    def zoom_out(self) -> None:
        self.set_font_scale(self._font_scale / style.ZOOM_STEP)

    def reset_zoom(self) -> None:
        self.set_font_scale(1.0)

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showMaximized() if self._was_maximized else self.showNormal()
        else:
            self._was_maximized = self.isMaximized()
            self.showFullScreen()
        self.full_screen_action.setChecked(self.isFullScreen())

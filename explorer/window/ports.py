"""The ports the window lends its features: each gets a record of the few callables and signals it may use
(explorer/lecture/ports.py says which), filled in here from the window's own panels, never the window.

Also where the formula dock goes: where a dock fits is the window's to know (its width, the minimum its
central widget needs), not the dock's.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QStyle

from explorer.lecture.lesson_player import LessonRoom
from explorer.lecture.ports import Clock, Docks, Sentence, Stage, Tabs
from explorer.ui import style

# The most of the window's height the dock under the maps takes: at fonts ×1 on a 1024 × 768 projector its
# steps, one line each, show unscrolled in it (bottom_height gives it only what they need).
BOTTOM_SHARE = 0.42
# Lines of steps the dock keeps when the Head map takes the height it reads whole at (zoomed fonts): the
# caption and a step or two, so that the walkthrough stays in view with a scroll bar rather than a slit.
DOCK_LINES = 5
FIT_PENDING = "fit_pending"  # a dock property: placed under the maps, its height not yet fitted to its steps
STEP_TAB_HELD = "step_tab_held"  # a dock property: its height under the maps before the Step tab took it
ON_STEP_TAB = "on_step_tab"  # a dock property: whether the Step tab was showing at the last tab change
SIDE_WIDTH = 300  # px the steps need beside the maps to stay readable (8 numbers in two or three lines)


def late(window, name: str):
    """``window.<name>`` looked up at each call, not once: a method replaced later (a recorder in a test,
    a wrapper) is the one called."""
    return lambda *args: getattr(window, name)(*args)


def sentence_port(window) -> Sentence:
    """The sentence column and the controller's answers; read when called, so always the current ones."""
    c, panel = window.controller, window.translate_panel
    return Sentence(translation_ready=c.translation_ready, failed=c.error, model_loaded=c.model_loaded,
                    translation=lambda: c.translation, model=lambda: c.info, text=panel.text,
                    set_text=panel.set_text, translation_text=panel.translation_text, beam_size=panel.beam_size,
                    set_beam_size=panel.set_beam_size, translate=panel.request_translation)


def tabs_port(window) -> Tabs:
    tabs = window.tabs
    return Tabs(insert=tabs.insertTab, show=tabs.setCurrentWidget, current=tabs.currentWidget,
                changed=tabs.currentChanged)


def docks_port(window) -> Docks:
    return Docks(parent=window, add=lambda dock: window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock),
                 place=lambda dock: place_formula_dock(window, dock), fit=lambda dock: fit_formula_dock(window, dock))


def stage_port(window) -> Stage:
    """What presentation mode hides and scales. Built before the menus: the menu bar is made here if need be,
    and it is the one the menus fill (QMainWindow.menuBar() makes one bar, once)."""
    return Stage(chrome=(window.sidebar, window.statusBar(), window.menuBar(), window.tabs.tabBar()),
                 sentence=sentence_port(window), attention=window.attention_panel,
                 font_scale=late(window, "font_scale"), set_font_scale=late(window, "set_font_scale"),
                 switch_tab=lambda step: _switch_tab(window.tabs, step),
                 largest_scale=lambda: style.largest_scale(window.width()))


def _switch_tab(tabs, step: int) -> None:
    """The main tab ``step`` places on (±1), round the ends, past tabs that are hidden."""
    n = tabs.count()
    index = tabs.currentIndex()
    for _ in range(n):
        index = (index + step) % n
        if tabs.isTabVisible(index):
            tabs.setCurrentIndex(index)
            return


def lesson_room(window) -> LessonRoom:
    """The lesson player's port; after the step tab, the formula dock and presentation mode exist."""
    def clock(name: str):  # the clock view is built when first used (explorer/positional/tab.py)
        return lambda *args: getattr(window.clock_view, name)(*args)

    return LessonRoom(
        sentence=sentence_port(window), attention=window.attention_panel,
        clock=Clock(position=clock("position"), shift=clock("shift"), set_position=clock("set_position"),
                    set_shift=clock("set_shift")),
        steps=window.step_view, formula=window.formula_dock, presentation=window.presentation,
        current_view=late(window, "current_view"), show_view=late(window, "show_view"),
        open_model=late(window, "open_model"), show_status=late(window, "show_status"),
        add_caption=late(window, "add_above_tabs"), show_dialogs=window.show_dialogs, parent=window)


def place_formula_dock(window, dock: QDockWidget) -> Qt.DockWidgetArea:
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
        window.resizeDocks([dock], [bottom_height(window, dock)], Qt.Orientation.Vertical)
    dock.setProperty(FIT_PENDING, bottom)
    return area


def fit_formula_dock(window, dock: QDockWidget) -> None:
    """The dock under the maps, placed when opened: its height again once the sentence page is on screen
    (its steps laid out, no longer estimated), once per opening, so a separator the teacher moves later
    stays where it was put."""
    if dock.property(FIT_PENDING):
        dock.setProperty(FIT_PENDING, False)
        refit_formula_dock(window, dock)


def refit_formula_dock(window, dock: QDockWidget) -> None:
    """The dock under the maps split again, for a new type size (zoom): the steps' height and the map's
    readable one both changed with it. A dock elsewhere, floating or closed is left as it is."""
    if (not dock.isFloating() and dock.isVisible()
            and window.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea):
        window.resizeDocks([dock], [bottom_height(window, dock)], Qt.Orientation.Vertical)


def bottom_height(window, dock: QDockWidget) -> int:
    """The formula dock's height under the maps: what the walkthrough needs whole while that is at most
    ``BOTTOM_SHARE`` of the window; else what the Head map can spare beyond its readable height, and the
    steps scroll.

    The share suits fonts ×1 on a 1024 × 768 projector: every step shows, and the map keeps the rest
    (the whole share left ~100 px empty under the steps). Zoomed twice the steps need ~400 px, more than
    the share, so they scroll whatever the split; the share then only squeezed the map to ~100 px (rows
    labelled every other one, no cell numbers, cut axis titles) for a dock that scrolled anyway. A map
    the class can read beats fewer turns of a scroll wheel, and the separator still moves for a teacher
    who wants more of the steps.
    """
    view = dock.widget()
    if window.tabs.currentWidget() is window.step_view:  # opened there: follow_tab says why
        return least_height(window, dock)
    share = round(BOTTOM_SHARE * window.height())
    line = dock.fontMetrics().lineSpacing()
    title_bar = max(0, dock.minimumSizeHint().height() - view.minimumSizeHint().height())
    whole = title_bar + view.whole_height(window.width()) + line  # a line to spare: a longer piece's caption
    if whole <= share:
        return whole
    heatmap = window.attention_panel.heatmap
    separator = window.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, window)
    plot = heatmap.plot.vb.height()
    if dock.isVisible() and window.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea:
        plot += dock.height() + separator  # the plot as it was before the dock took its height
    if plot < 1:  # never laid out (another view showing since the window opened): as before
        return share
    return int(min(share, max(least_height(window, dock), plot - separator - heatmap.readable_plot_height())))


def least_height(window, dock: QDockWidget) -> int:
    """The dock's caption and ``DOCK_LINES`` lines of steps: the walkthrough in view, with a scroll bar."""
    view = dock.widget()
    line = dock.fontMetrics().lineSpacing()
    title_bar = max(0, dock.minimumSizeHint().height() - view.minimumSizeHint().height())
    return title_bar + view.layout().itemAt(0).widget().heightForWidth(window.width()) + DOCK_LINES * line


def follow_tab(window, dock: QDockWidget) -> None:
    """The Step tab gets the height of a dock under the maps; the other tabs get it back.

    Its height is fitted to the Attention tab's Head map, but the Step tab stacks its controls, two maps
    and the next-piece bars in the same height: at 1024 × 768 with the dock open its cross map was a 54 px
    strip under a colour bar whose labels overlapped, with 3 of the 6 bars. So on the Step tab the dock
    keeps its caption and a few lines (``least_height``), and on leaving it returns to the height it had,
    a separator the teacher moved included (or is fitted, if it was opened on the Step tab)."""
    on_steps, was_on_steps = window.tabs.currentWidget() is window.step_view, bool(dock.property(ON_STEP_TAB))
    dock.setProperty(ON_STEP_TAB, on_steps)
    if (dock.isFloating() or not dock.isVisible()
            or window.dockWidgetArea(dock) != Qt.DockWidgetArea.BottomDockWidgetArea):
        return
    if on_steps:
        least = least_height(window, dock)
        if dock.height() > least:
            dock.setProperty(STEP_TAB_HELD, dock.height())
            window.resizeDocks([dock], [least], Qt.Orientation.Vertical)
    elif was_on_steps:
        held = dock.property(STEP_TAB_HELD) or 0
        dock.setProperty(STEP_TAB_HELD, 0)
        window.resizeDocks([dock], [held or bottom_height(window, dock)], Qt.Orientation.Vertical)

"""The main window's menu bar: File, View and the colour-map choice, built here so that the window
itself only wires panels together.

The actions stay attributes of the window (``window.zoom_in_action`` …): the tests reach them there,
and a later feature adds its entry with one call next to the others. The features are installed here with
the ports they may use (ports.py), never with the window itself.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from explorer.lecture.formula_dock import install_formula_dock
from explorer.lecture.lesson_menu import install_lessons
from explorer.lecture.step_tab import install_step_tab
from explorer.ui.colormaps import DEFAULT_COLORMAP, colormap_names
from explorer.ui.i18n import tr
from explorer.window.file_translation import open_translate_file
from explorer.window.live_tools import install_live_tools
from explorer.window.models_menu import install_models_menu
from explorer.window.ports import docks_port, follow_tab, lesson_room, sentence_port, tabs_port


def add_action(window: QMainWindow, menu: QMenu, text: str, slot, shortcuts=(),
               checkable: bool = False) -> QAction:
    """One menu entry owned by ``window`` (so its shortcut works while the window has focus)."""
    action = QAction(text, window)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def build_menus(window) -> None:
    """Build the File and View menus of ``window`` (a MainWindow) and keep their actions on it."""
    w = window
    file_menu = w.file_menu = w.menuBar().addMenu("&File")
    w.open_action = add_action(w, file_menu, "&Open model folder…", w.choose_model, ["Ctrl+O"])
    w.recent_menu = file_menu.addMenu("Open &recent")
    w.recent_menu.aboutToShow.connect(lambda: fill_recent_menu(w))
    fill_recent_menu(w)
    w.translate_file_action = add_action(w, file_menu, "&Translate a file…", lambda: open_translate_file(w),
                                         ["Ctrl+Shift+O"])
    file_menu.addSeparator()
    w.export_view_action = add_action(w, file_menu, "Export view as PNG/SVG…", w.export_view, ["Ctrl+E"])
    w.export_data_action = add_action(
        w, file_menu, "Export attention as NPZ/CSV…", w.export_attention, ["Ctrl+Shift+E"]
    )
    file_menu.addSeparator()
    quit_action = add_action(w, file_menu, "&Quit", w.close, ["Ctrl+Q"])

    view_menu = w.menuBar().addMenu("&View")
    w.view_menu = view_menu
    # Ctrl+= is what people press on US layouts ("+" without Shift); Ctrl++ covers the keypad and
    # layouts where + is unshifted.
    w.zoom_in_action = add_action(w, view_menu, "Zoom &in", w.zoom_in, ["Ctrl+=", "Ctrl++"])
    w.zoom_out_action = add_action(w, view_menu, "Zoom &out", w.zoom_out, ["Ctrl+-"])
    w.reset_zoom_action = add_action(w, view_menu, "&Reset zoom", w.reset_zoom, ["Ctrl+0"])
    view_menu.addSeparator()
    w.full_screen_action = add_action(
        w, view_menu, "&Full screen", w.toggle_full_screen, ["F11"], checkable=True
    )
    w.presentation_action = add_action(
        w, view_menu, "&Presentation mode", lambda: w.presentation.toggle(), ["F5"], checkable=True
    )
    w.presentation.active_changed.connect(w.presentation_action.setChecked)  # also when Esc leaves the mode
    # A lambda taking the flag: handed setVisible itself, PySide picks the argument-less overload
    # of ``triggered`` and the call fails with a TypeError.
    w.info_action = add_action(w, view_menu, "&Model info", lambda: None, [], checkable=True)
    w.info_action.setChecked(True)
    w.info_action.toggled.connect(lambda on: w.info_panel.setVisible(on))
    # Presentation mode hides the menu bar; shortcuts of actions in hidden menus stop working,
    # so the window holds these too.
    w.addActions([w.presentation_action, w.full_screen_action, w.zoom_in_action,
                  w.zoom_out_action, w.reset_zoom_action])
    w.workbench_action = add_action(w, view_menu, "Research &workbench", lambda: w.show_tab("Workbench"),
                                    ["Ctrl+Shift+W"])
    # Lecture mode: eq. (1) for a clicked cell, and the decoding one step at a time.
    w.formula_dock = install_formula_dock(docks_port(w), sentence_port(w), w.attention_panel,
                                          w.controller.set_capture_vectors, view_menu)
    w.step_view, w.step_action = install_step_tab(tabs_port(w), sentence_port(w), w.attention_panel,
                                                  w.controller.set_capture_steps, view_menu)
    w.tabs.currentChanged.connect(lambda _index: follow_tab(w, w.formula_dock))
    w.live_tools = install_live_tools(w)  # head ablation, View › Beam hypotheses, File › Compare with model…
    view_menu.addSeparator()
    w.colormap_menu = view_menu.addMenu("&Colour map")
    w.colormap_group = QActionGroup(w)
    for name in colormap_names():
        action = QAction(name, w, checkable=True)
        action.setProperty("i18n_skip", True)  # the colour maps' own names, as matplotlib spells them
        action.setChecked(name == DEFAULT_COLORMAP)
        action.triggered.connect(lambda _=False, n=name: w.set_colormap(n))
        w.colormap_group.addAction(action)
        w.colormap_menu.addAction(action)
    # After the formula dock: see there.
    w.lessons, (w.save_slide_action, w.open_lesson_action) = install_lessons(lesson_room(w), file_menu,
                                                                              before=quit_action)
    install_models_menu(w)  # Models › English → German, English → Chinese


def fill_recent_menu(window) -> None:
    """Refill File › Open recent from the stored list (folders that vanished are already dropped)."""
    menu = window.recent_menu
    menu.clear()
    paths = window.recent.paths()
    for path in paths:
        action = menu.addAction(path)
        action.triggered.connect(lambda _=False, p=path: window.open_model(p))
    if paths:
        menu.addSeparator()
        menu.addAction(tr("Clear list"), window.recent.clear)
    else:
        menu.addAction(tr("(none)")).setEnabled(False)

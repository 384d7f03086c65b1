"""The main window: assembles the panels, the menus and the controller. No model logic lives here.

Layout, chosen for a projector: the attention views get the whole right side; a narrow left column
holds the sentence, its translation, recent sentences and the model facts. Until a model is loaded the
attention tab shows an empty state with the two ways forward (open a model, train one) instead of
blank axes.

Importing this module must not import torch (a test checks): the window paints first and the worker
imports the model code on its own thread afterwards.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer import style
from explorer.controller import Controller
from explorer.empty_state import EmptyState
from explorer.formula_dock import install_formula_dock
from explorer.info_panel import InfoPanel, model_display_name
from explorer.presentation import PresentationMode
from explorer.recent import RecentModels, open_settings
from explorer.scroll import ColumnScrollArea
from explorer.train_panel import TrainPanel
from explorer.translate_panel import TranslatePanel
from explorer.views.attention_panel import AttentionPanel
from explorer.views.colormaps import DEFAULT_COLORMAP, colormap_names
from explorer.views.pe_view import PositionalEncodingView

TITLE = "Attention Explorer"
ATTENTION_VIEWS = ("head", "grid", "lines")
DEFAULT_SIZE = QSize(1600, 1000)
# An explicit minimum: without one, Qt raises the window's minimum to whatever its widgets ask for and
# grows the window past the screen (a larger font, a wide tab); with it, the widgets make do.
MIN_SIZE = QSize(640, 480)
TRANSLATE_FAILED = "No attention to show: the sentence could not be translated"


def fit_size(wanted: QSize, available) -> QSize:
    """``wanted`` shrunk to fit the screen's available geometry (never below MIN_SIZE)."""
    if available is None or available.isEmpty():
        return QSize(wanted)
    return QSize(max(MIN_SIZE.width(), min(wanted.width(), available.width())),
                 max(MIN_SIZE.height(), min(wanted.height(), available.height())))


class MainWindow(QMainWindow):
    """The explorer window. ``show_dialogs=False`` (screenshot mode) reports errors only through
    the controller's signals, never with a modal box that nobody could close. The window shuts its
    controller's worker thread down when it closes, also when the controller was passed in."""

    train_requested = Signal()

    def __init__(
        self,
        controller: Controller | None = None,
        *,
        show_dialogs: bool = True,
        remember_recent: bool = True,
    ) -> None:
        super().__init__()
        self.controller = controller if controller is not None else Controller(self)
        self._show_dialogs = show_dialogs
        self._remember_recent = remember_recent
        self._settings = open_settings()
        self.recent = RecentModels(self._settings)
        self._font_scale = 1.0
        self._was_maximized = False
        self._status = "Loading…"
        self.setWindowTitle(TITLE)
        self.setWindowIcon(style.app_icon())

        self.translate_panel = TranslatePanel()
        self.info_panel = InfoPanel()
        self.attention_panel = AttentionPanel()
        self.pe_view = PositionalEncodingView()
        self.empty_state = EmptyState()

        # The attention tab flips between the empty state and the panel rather than hiding the tab,
        # so the tab bar (and where a later "Train" tab sits) never moves under the presenter.
        self.attention_stack = QStackedWidget()
        self.attention_stack.addWidget(self.empty_state)
        self.attention_stack.addWidget(self.attention_panel)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.attention_stack, "Attention")
        self.tabs.addTab(self.pe_view, "Positional encoding")
        self.train_panel = TrainPanel()
        self.add_tab(self.train_panel, "Train")

        # The sentence column scrolls rather than demanding height: at 1024 × 768 with a large font
        # its contents are taller than the screen, and a minimum height would push the window off it.
        column = QWidget()
        column_layout = QVBoxLayout(column)
        column_layout.setContentsMargins(0, 0, 0, 0)
        column_layout.setSpacing(0)
        column_layout.addWidget(self.translate_panel)
        column_layout.addWidget(self.info_panel, 1)
        self.sidebar = ColumnScrollArea(column)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.presentation = PresentationMode(self)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(0)
        right_layout.addWidget(self.presentation.bar)
        right_layout.addWidget(self.tabs, 1)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([420, 1180])
        self._sidebar_sized = False  # until the first show, which sizes it to the window
        self.setCentralWidget(self.splitter)
        self.setMinimumSize(MIN_SIZE)

        self._build_status_bar()
        self._build_menus()
        self._connect()
        self._set_no_model("Loading…", loading=True)
        self.set_font_scale(self._font_scale)  # the projector-sized base font, from the first frame

    # -- construction ------------------------------------------------------------------------

    def _build_status_bar(self) -> None:
        self.state_label = QLabel(self._status)
        self.device_label = QLabel("")
        self.timing_label = QLabel("")
        bar = self.statusBar()
        bar.addWidget(self.state_label, 1)
        bar.addPermanentWidget(self.device_label)
        bar.addPermanentWidget(self.timing_label)

    def _action(self, menu, text: str, slot, shortcuts=(), checkable: bool = False) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.open_action = self._action(file_menu, "&Open model folder…", self.choose_model, ["Ctrl+O"])
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self._fill_recent_menu()
        file_menu.addSeparator()
        self.export_view_action = self._action(
            file_menu, "Export view as PNG/SVG…", self.export_view, ["Ctrl+E"]
        )
        self.export_data_action = self._action(
            file_menu, "Export attention as NPZ/CSV…", self.export_attention, ["Ctrl+Shift+E"]
        )
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, ["Ctrl+Q"])

        view_menu = self.menuBar().addMenu("&View")
        # Ctrl+= is what people press on US layouts ("+" without Shift); Ctrl++ covers the keypad and
        # layouts where + is unshifted.
        self.zoom_in_action = self._action(view_menu, "Zoom &in", self.zoom_in, ["Ctrl+=", "Ctrl++"])
        self.zoom_out_action = self._action(view_menu, "Zoom &out", self.zoom_out, ["Ctrl+-"])
        self.reset_zoom_action = self._action(view_menu, "&Reset zoom", self.reset_zoom, ["Ctrl+0"])
        view_menu.addSeparator()
        self.full_screen_action = self._action(
            view_menu, "&Full screen", self.toggle_full_screen, ["F11"], checkable=True
        )
        self.presentation_action = self._action(
            view_menu, "&Presentation mode", lambda: self.presentation.toggle(), ["F5"], checkable=True
        )
        # A lambda taking the flag: handed setVisible itself, PySide picks the argument-less overload
        # of ``triggered`` and the call fails with a TypeError.
        self.info_action = self._action(view_menu, "Model &info", lambda: None, [], checkable=True)
        self.info_action.setChecked(True)
        self.info_action.toggled.connect(lambda on: self.info_panel.setVisible(on))
        # Presentation mode hides the menu bar; shortcuts of actions in hidden menus stop working,
        # so the window holds these too.
        self.addActions([self.presentation_action, self.full_screen_action, self.zoom_in_action,
                         self.zoom_out_action, self.reset_zoom_action])
        self.formula_dock = install_formula_dock(self, view_menu)  # lecture mode: eq. (1) for a clicked cell
        view_menu.addSeparator()
        self.colormap_menu = view_menu.addMenu("&Colour map")
        self.colormap_group = QActionGroup(self)
        for name in colormap_names():
            action = QAction(name, self, checkable=True)
            action.setChecked(name == DEFAULT_COLORMAP)
            action.triggered.connect(lambda _=False, n=name: self.set_colormap(n))
            self.colormap_group.addAction(action)
            self.colormap_menu.addAction(action)

    def _connect(self) -> None:
        c = self.controller
        c.model_loaded.connect(self._on_model_loaded)
        c.translation_ready.connect(self._on_translation)
        c.error.connect(self._on_error)
        c.no_default_model.connect(self._on_no_default_model)
        c.busy_changed.connect(self._on_busy)
        c.timing.connect(self.timing_label.setText)
        self.translate_panel.translate_requested.connect(self.translate)
        self.empty_state.open_clicked.connect(self.choose_model)
        self.empty_state.train_clicked.connect(self.request_train)
        self.attention_panel.controls.colormap_changed.connect(self._on_panel_colormap)
        self.train_panel.open_requested.connect(self.open_trained)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._sidebar_sized:
            # A quarter of the window for the sentence panel: 420 px at 1600, but only ~280 at 1024,
            # so that a projector's narrow screen leaves the maps most of the room.
            self._sidebar_sized = True
            width = self.splitter.width() or self.width()
            side = max(self.translate_panel.minimumSizeHint().width(), min(420, round(0.27 * width)))
            self.splitter.setSizes([side, max(1, width - side)])

    # -- public API --------------------------------------------------------------------------

    def add_tab(self, widget: QWidget, title: str) -> int:
        """Add a tab next to the views (the training panel uses this); returns its index."""
        return self.tabs.addTab(widget, title)

    def show_tab(self, title: str) -> bool:
        for i in range(self.tabs.count()):
            if self.tabs.tabText(i) == title:
                self.tabs.setCurrentIndex(i)
                return True
        return False

    def fit_to_screen(self, size: QSize = DEFAULT_SIZE) -> QSize:
        """Resize to ``size``, shrunk to the available area of the window's screen (a 1024 × 768
        projector gets 1024 × 768 at most, so no control starts off-screen); returns the size."""
        screen = self.screen() or QApplication.primaryScreen()
        fitted = fit_size(size, screen.availableGeometry() if screen is not None else None)
        self.resize(fitted)
        return fitted

    def load_default_model(self) -> None:
        self._set_no_model("Loading the built-in model…", loading=True)
        self.controller.load_default_model()

    def open_model(self, path: str | Path) -> None:
        """Load a model folder; errors keep the current model (see ``_on_error``)."""
        self.show_status(f"Loading {path}…")
        if self.controller.info is None:
            self._set_no_model("Loading the model…", loading=True)
        self.controller.load_model(str(path))

    def open_trained(self, path: str, sentence: str = "") -> None:
        """Load a checkpoint from the Train tab and show it, translating the run's probe sentence."""
        if sentence:
            # The sentence the run was watched on is in the language the model learned (digits for
            # the synthetic tasks); it is translated as soon as the model is loaded.
            self.translate_panel.set_text(sentence)
        self.open_model(path)
        self.tabs.setCurrentWidget(self.attention_stack)

    def choose_model(self) -> None:
        start = str(self._settings.value("last_model_parent", str(Path.home())))
        path = QFileDialog.getExistingDirectory(self, "Open model folder", start)
        if path:
            self._settings.setValue("last_model_parent", str(Path(path).parent))
            self.open_model(path)

    def translate(self, text: str, beam_size: int = 1) -> int:
        return self.controller.translate(text, beam_size)

    def request_train(self) -> None:
        """Go to the Train tab when one is installed; otherwise explain the command line."""
        self.train_requested.emit()
        if not self.show_tab("Train") and self._show_dialogs:
            QMessageBox.information(
                self,
                "Train a model",
                "Train a model from the command line:\n\n    attention-explorer train --help\n\n"
                "then open the folder it writes with File › Open model folder…",
            )

    def show_view(self, view: str) -> None:
        """'head', 'grid' or 'lines' (the attention panel) or 'pe' (the positional-encoding tab)."""
        if view not in ATTENTION_VIEWS + ("pe",):
            raise ValueError(f"unknown view {view!r}; expected one of {ATTENTION_VIEWS + ('pe',)}")
        if view == "pe":
            self.tabs.setCurrentWidget(self.pe_view)
            return
        self.attention_panel.set_view(view)
        self.tabs.setCurrentWidget(self.attention_stack)

    def set_colormap(self, name: str) -> None:
        self.attention_panel.set_colormap(name)
        self._on_panel_colormap(name)

    def _on_panel_colormap(self, name: str) -> None:
        """Keep the menu and the PE view in step when the panel's own combo box changes the map."""
        self.pe_view.set_colormap(name)
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
        self.pe_view.set_font_scale(self._font_scale)
        self.train_panel.set_font_scale(self._font_scale)

    def zoom_in(self) -> None:
        self.set_font_scale(self._font_scale * style.ZOOM_STEP)

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

    def export_view(self) -> None:
        path = self._save_path("Export view", "PNG image (*.png);;SVG image (*.svg)", ".png")
        if path:
            self._export(lambda: self.attention_panel.export_image(path), path)

    def export_attention(self) -> None:
        path = self._save_path(
            "Export attention", "NumPy archive (*.npz);;CSV of the shown matrix (*.csv)", ".npz"
        )
        if not path:
            return
        if path.lower().endswith(".csv"):
            self._export(lambda: self.attention_panel.export_csv(path), path)
        else:
            self._export(lambda: self.attention_panel.export_npz(path), path)

    def is_empty_state(self) -> bool:
        return self.attention_stack.currentWidget() is self.empty_state

    # -- reactions ---------------------------------------------------------------------------

    def _on_model_loaded(self, info) -> None:
        self.info_panel.set_info(info)
        self.device_label.setText(f"Device: {info.device}")
        name = model_display_name(info.path)
        self.setWindowTitle(f"{TITLE} — {name}")
        self.show_status(f"Loaded {name}")
        self.pe_view.set_d_model(info.d_model)
        self.pe_view.set_layout(info.pe_layout)
        self.translate_panel.set_model_ready(True)
        if self._remember_recent and Path(info.path).is_dir():
            self.recent.add(info.path)
        # A new model makes the shown maps stale; translate the sentence again so the views match.
        if self.translate_panel.text():
            self.translate_panel.request_translation()

    def _on_translation(self, translation) -> None:
        self.translate_panel.set_translation(translation)
        maps = translation.attention
        self.attention_panel.set_maps(maps)
        n_source = len(maps.source_tokens) if maps is not None else len(translation.source_pieces) + 1
        self.pe_view.set_sentence_length(n_source)
        self.attention_stack.setCurrentWidget(self.attention_panel)
        self._set_exports_enabled(maps is not None)
        self.presentation.show_translation(translation.text)
        self.show_status("Ready")

    def _on_error(self, kind: str, message: str) -> None:
        self.show_status(message.splitlines()[0] if message else "Error")
        if kind == "translate":
            # The maps on screen belong to the previous sentence; beside this error they would
            # read as its attention, so they go.
            self.translate_panel.show_error(message)
            self.attention_panel.set_maps(None, empty_text=TRANSLATE_FAILED)
            self._set_exports_enabled(False)
            self.presentation.show_translation("")
            return
        if self.controller.info is None:
            self._set_no_model("No model loaded")
        if self._show_dialogs:
            QMessageBox.critical(self, "Could not open the model", message)

    # -- helpers -----------------------------------------------------------------------------

    def show_status(self, text: str) -> None:
        """The status line; while the worker is busy it says so, and shows ``text`` afterwards."""
        self._status = text
        if not self.controller.is_busy:
            self.state_label.setText(text)

    def _on_busy(self, busy: bool) -> None:
        self.state_label.setText("Working…" if busy else self._status)
        self.attention_panel.set_busy(busy)
        self.translate_panel.set_busy(busy)

    def _on_no_default_model(self) -> None:
        self._set_no_model("No model loaded")
        self.show_status("No model loaded")

    def _set_no_model(self, message: str, loading: bool = False) -> None:
        if loading:  # the status bar says what the empty state says, never "Ready" meanwhile
            self.show_status(message)
        self.empty_state.set_message(message, loading=loading)
        self.attention_stack.setCurrentWidget(self.empty_state)
        self.translate_panel.set_model_ready(False)
        self._set_exports_enabled(False)

    def _set_exports_enabled(self, enabled: bool) -> None:
        self.export_view_action.setEnabled(enabled)
        self.export_data_action.setEnabled(enabled)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        paths = self.recent.paths()
        for path in paths:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_model(p))
        if paths:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear list", self.recent.clear)
        else:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _save_path(self, title: str, filters: str, default_suffix: str) -> str:
        panel = self.attention_panel
        folder = str(self._settings.value("last_export_dir", panel.export_dir))
        if not Path(folder).is_dir():
            folder = panel.export_dir
        start = str(Path(folder) / panel.suggested_file_name(default_suffix.lstrip(".")))
        path, chosen = QFileDialog.getSaveFileName(self, title, start, filters)
        if path:
            panel.export_dir = str(Path(path).parent)
            self._settings.setValue("last_export_dir", panel.export_dir)
        if path and not Path(path).suffix:
            # Respect the filter picked in the dialog when the user typed a bare name.
            suffix = chosen.rsplit("*", 1)[-1].rstrip(")") if "*" in chosen else default_suffix
            path += suffix
        return path

    def _export(self, write, path: str) -> None:
        try:
            write()
        except (OSError, ValueError, RuntimeError) as exc:
            if self._show_dialogs:
                QMessageBox.critical(self, "Export failed", f"Could not write {path}:\n{exc}")
            return
        self.show_status(f"Saved {path}")

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.train_panel.is_training() and self._show_dialogs:
            answer = QMessageBox.question(
                self, "Training is running",
                "Stop the training run and quit? The run saves a checkpoint before it stops.",
            )
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
        # No QThread may outlive the window: Qt aborts the process if one is destroyed running.
        self.train_panel.shutdown()  # stops a run after its final checkpoint, then joins the thread
        self.controller.shutdown()
        super().closeEvent(event)

"""The main window: assembles the panels, the menus and the controller. No model logic lives here.

Layout, chosen for a projector: the attention views get the whole right side; a narrow left column
holds the sentence, its translation, recent sentences and the model facts. Until a model is loaded the
attention tab shows an empty state with the two ways forward (open a model, train one) instead of
blank axes.

Importing this module must not import torch (a test checks): the window paints first and the worker
imports the model code on its own thread afterwards.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer.attention.panel import AttentionPanel
from explorer.lecture.presentation import PresentationMode
from explorer.positional.tab import PositionalTab
from explorer.training.panel import TrainPanel
from explorer.translate.controller import Controller
from explorer.translate.panel import TranslatePanel
from explorer.ui import style
from explorer.ui.empty_state import EmptyState
from explorer.ui.i18n import again, tr
from explorer.ui.menu_room import give_menus_room
from explorer.ui.recent import RecentModels, open_settings
from explorer.ui.scroll import ColumnScrollArea
from explorer.ui.short_tabs import short_tabs
from explorer.ui.status_label import StatusLabel
from explorer.window.busy_look import DelayedBusy
from explorer.window.display import MIN_SIZE, WindowDisplay
from explorer.window.export import export_attention, export_view
from explorer.window.file_translation import shutdown_translate_file
from explorer.window.hub_menu import open_get_model
from explorer.window.info_panel import InfoPanel, shown_name
from explorer.window.language_menu import install_language_menu
from explorer.window.menus import build_menus, fill_recent_menu
from explorer.window.models_menu import retranslate_models_menu
from explorer.window.ports import stage_port
from explorer.window.requests import WindowRequests
from explorer.window.responses import WindowResponses
from explorer.window.retranslate import retranslate
from explorer.workbench.panel import Workbench

TITLE = "Attention Explorer"


class MainWindow(WindowRequests, WindowResponses, WindowDisplay, QMainWindow):
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
        self.show_dialogs = show_dialogs
        self._remember_recent = remember_recent
        self.settings = open_settings()
        self.recent = RecentModels(self.settings)
        self._font_scale = 1.0
        self._was_maximized = False
        self._status = tr("Loading…")
        self.setWindowTitle(TITLE)
        self.setWindowIcon(style.app_icon())

        self.translate_panel = TranslatePanel()
        self.info_panel = InfoPanel()
        self.attention_panel = AttentionPanel()
        self.pe_tab = PositionalTab()  # the table and waves (table_view), and the clock hands; built when shown
        self.pe_tab.built.connect(self._positional_tab_built)
        self.empty_state = EmptyState()

        # The attention tab flips between the empty state and the panel rather than hiding the tab,
        # so the tab bar (and where a later "Train" tab sits) never moves under the presenter.
        self.attention_stack = QStackedWidget()
        self.attention_stack.addWidget(self.empty_state)
        self.attention_stack.addWidget(self.attention_panel)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        short_tabs(self.tabs)  # zoomed on a projector, long titles shorten rather than hide tabs
        self.tabs.addTab(self.attention_stack, "Attention")
        self.tabs.addTab(self.pe_tab, "Positional encoding")
        self.train_panel = TrainPanel()
        self.add_tab(self.train_panel, "Train")
        self.workbench = Workbench()  # head importance, statistics over a test set, word alignment
        self.add_tab(self.workbench, "Workbench")

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
        self.presentation = PresentationMode(stage_port(self))
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
        build_menus(self)
        # Parts built on first use, as the PE tab's: their texts into the language shown then.
        self.step_view.maps.built.connect(lambda: retranslate(self.step_view.maps))
        self.train_panel.replay.built.connect(lambda: retranslate(self.train_panel.replay))
        install_language_menu(self)
        give_menus_room(self.menuBar())  # after every menu is built (explorer/ui/menu_room.py)
        self._connect()
        self._set_no_model(tr("Loading…"), loading=True)
        self.set_font_scale(self._font_scale)  # the projector-sized base font, from the first frame

    # -- construction ------------------------------------------------------------------------

    def _build_status_bar(self) -> None:
        self.state_label = StatusLabel(self._status)  # a long message is cut with "…", not run under the rest
        self.device_label = QLabel("")
        self.timing_label = QLabel("")
        bar = self.statusBar()
        bar.addWidget(self.state_label, 1)
        bar.addPermanentWidget(self.device_label)
        # A line between the two: "Device: cpu translated in 91 ms" read as one phrase.
        divider = QFrame()
        divider.setFrameShape(QFrame.Shape.VLine)
        divider.setFrameShadow(QFrame.Shadow.Sunken)
        bar.addPermanentWidget(divider)
        bar.addPermanentWidget(self.timing_label)

    def _connect(self) -> None:
        c = self.controller
        c.model_loaded.connect(self._on_model_loaded)
        c.translation_ready.connect(self._on_translation)
        c.error.connect(self._on_error)
        c.no_default_model.connect(self._on_no_default_model)
        self._busy_look = DelayedBusy(self._show_busy, self)
        c.busy_changed.connect(self._on_busy)
        c.timing.connect(self.timing_label.setText)
        self.translate_panel.translate_requested.connect(self.translate)
        self.translate_panel.stop_requested.connect(self.stop_translation)
        self.translate_panel.copied.connect(
            lambda text: self.show_status(tr("Copied the translation ({n} characters)", n=len(text))))
        self.empty_state.open_clicked.connect(self.choose_model)
        self.empty_state.train_clicked.connect(self.request_train)
        self.empty_state.get_model_clicked.connect(lambda: open_get_model(self))
        self.attention_panel.colormap_changed.connect(self.sync_colormap)
        self.train_panel.open_requested.connect(self.open_trained)
        c.model_loaded.connect(self.workbench.set_model)
        c.translation_ready.connect(self.workbench.set_translation)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._sidebar_sized:
            self._sidebar_sized = True
            self.fit_sidebar()

    def fit_sidebar(self) -> None:
        """Share the width as a window first shown at this size does (later the user's splitter rules).

        A quarter of the window for the sentence panel: 420 px at 1600, but only ~280 at 1024, so that a
        projector's narrow screen leaves the maps most of the room."""
        width = self.splitter.width() or self.width()
        side = max(self.translate_panel.minimumSizeHint().width(), min(420, round(0.27 * width)))
        self.splitter.setSizes([side, max(1, width - side)])

    # -- public API --------------------------------------------------------------------------

    def add_tab(self, widget: QWidget, title: str) -> int:
        """Add a tab next to the views (the training panel uses this); returns its index."""
        return self.tabs.addTab(widget, title)

    def add_above_tabs(self, widget: QWidget) -> None:
        """Show ``widget`` across the views, above the tab bar (a lesson's caption)."""
        column = self.tabs.parentWidget().layout()
        column.insertWidget(column.indexOf(self.tabs), widget)

    def export_view(self) -> None:
        export_view(self)

    def export_attention(self) -> None:
        export_attention(self)

    @property
    def pe_view(self):
        """The positional-encoding table and waves (built on first use, see PositionalTab)."""
        return self.pe_tab.table

    @property
    def clock_view(self):
        """The clock hands (built on first use, see PositionalTab)."""
        return self.pe_tab.clock

    def _positional_tab_built(self) -> None:
        """The Positional encoding tab built its parts on first show: their texts in the current language
        (the walk of a language switch before then found none of them)."""
        retranslate(self.pe_tab)

    def retranslate_extras(self) -> None:
        """After a language switch: the texts the window keeps aside to show later (the status line
        while busy, the panel's statistics and titles) are made again in the new language."""
        self._status = again(self._status)
        for panel in self.findChildren(AttentionPanel):  # the Train tab has one too
            panel.retranslate()
        retranslate_models_menu(self)
        self.pe_tab.retranslate()
        # The model's facts again: the language pair in its name ("English → Chinese") is a word of the
        # language shown, not data (the walk kept it, formatted into "{pair} (built-in)", in English).
        if self.controller.info is not None:  # none: the panel's "Loading…" or "No model loaded" is walked
            self.info_panel.set_info(self.controller.info)
            self.setWindowTitle(self._title(self.controller.info))  # "{name}" holds the pair too
        # Texts joined from several tr() pieces, which the walk cannot take apart: made again from what
        # they show (they stayed in the old language until the next sentence).
        self.translate_panel.retranslate()
        self.step_view.retranslate()

    @staticmethod
    def _model_name(info) -> str:
        return shown_name(info.path)

    def _title(self, info) -> str:
        return tr("Attention Explorer — {name}", name=self._model_name(info))

    def is_empty_state(self) -> bool:
        return self.attention_stack.currentWidget() is self.empty_state

    def fill_recent_menu(self) -> None:
        fill_recent_menu(self)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.train_panel.is_training() and self.show_dialogs:
            answer = QMessageBox.question(
                self, tr("Training is running"),
                tr("Stop the training run and quit? The run saves a checkpoint before it stops."),
            )
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                return
        if self.lessons.is_playing():
            self.lessons.stop()  # its key filter sits on the application, which outlives the window
        # No QThread may outlive the window: Qt aborts the process if one is destroyed running.
        self.train_panel.shutdown()  # stops a run after its final checkpoint, then joins the thread
        self.workbench.shutdown()  # cancels an analysis, then joins its thread
        self.controller.shutdown()
        shutdown_translate_file(self)  # a file in flight stops at its next batch; nothing half-written
        if getattr(self, "get_model_dialog", None) is not None:
            self.get_model_dialog.shutdown()  # a download stops at its next 64 kB; the partial file stays
        super().closeEvent(event)

"""Live head ablation: right-click a tile of the All heads grid to remove that head (of the kind shown)
or put it back; the sentence is translated again at once with the removed heads.

The removed set lives on the controller (``Controller.removed_heads``) so that every translation asks
for it, a newly typed sentence included, until "Restore all heads". The worker answers with the maps
(the removed heads flagged, drawn as removed) and the unablated translation for the box beside it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from explorer.attention.panel import AttentionPanel
from explorer.translate.ablation_box import AblationBox
from explorer.translate.controller import Controller
from explorer.translate.panel import TranslatePanel
from explorer.ui.i18n import tr
from model.records import KIND_TITLES


class Ablation(QObject):
    """Owns the All heads grid's context menu and the ablation box (which the window puts in the sentence
    column); ``parent`` owns the menus and actions."""

    def __init__(self, controller: Controller, sentence: TranslatePanel, attention: AttentionPanel,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self._controller, self._sentence, self._attention, self._parent = controller, sentence, attention, parent
        self.box = AblationBox()
        self.menu: QMenu | None = None  # the last context menu shown (tests trigger its actions)
        self.box.restore_all_requested.connect(self.restore_all)
        attention.head_menu_requested.connect(self.show_menu)
        controller.translation_ready.connect(self.box.show_translation)
        # A failed translation takes its outputs away, and another model has other heads: connected before
        # the window's own reaction to a load, which translates again (with the heads restored by then).
        controller.error.connect(lambda kind, _: self.box.hide() if kind == "translate" else None)
        controller.model_loaded.connect(self._on_model_loaded)

    def removed(self) -> tuple[tuple[str, int, int], ...]:
        return tuple(self._controller.removed_heads)

    def set_removed(self, heads) -> None:
        """Remove exactly ``heads`` [(kind, layer, head) 0-based] and translate the sentence again."""
        heads = tuple(sorted(set(heads)))
        if heads == self.removed():
            return
        self._controller.removed_heads = heads
        self.restore_all_action.setEnabled(bool(heads))
        if self._sentence.text():
            self._sentence.request_translation()

    def _on_model_loaded(self, _info) -> None:
        self._controller.removed_heads = ()
        self.restore_all_action.setEnabled(False)

    def toggle(self, kind: str, layer: int, head: int) -> None:
        """Remove the head, or put it back when it is removed already."""
        heads = set(self.removed())
        heads ^= {(kind, layer, head)}
        self.set_removed(heads)

    def restore_all(self) -> None:
        self.set_removed(())

    def show_menu(self, layer: int, head: int, global_pos) -> None:
        """The grid's right-click menu for tile (layer, head) of the kind on show."""
        kind = self._attention.state()[0]
        is_removed = (kind, layer, head) in self.removed()
        menu = self.menu = QMenu(self._parent)
        where = {"layer": layer + 1, "head": head + 1, "kind": tr(KIND_TITLES[kind]).lower()}
        # Two literal templates, not one with a verb: the catalogue collects tr("…") literals.
        toggle = menu.addAction(tr("Restore head {layer}.{head} ({kind})", **where) if is_removed
                                else tr("Remove head {layer}.{head} ({kind})", **where))
        toggle.triggered.connect(lambda: self.toggle(kind, layer, head))
        restore = menu.addAction(tr("Restore all heads"))
        restore.setEnabled(bool(self.removed()))
        restore.triggered.connect(self.restore_all)
        menu.popup(global_pos)

    def install_menu(self, menu: QMenu) -> None:
        """'Restore all heads' in a menu of the window (one click away when the box is scrolled off)."""
        self.restore_all_action = QAction("Restore all removed heads", self._parent)
        self.restore_all_action.setEnabled(False)
        self.restore_all_action.triggered.connect(self.restore_all)
        menu.addAction(self.restore_all_action)

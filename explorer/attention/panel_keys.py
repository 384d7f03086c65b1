"""Keyboard navigation of the attention panel: Left/Right = head, Up/Down = layer, PageUp/PageDown =
attention kind, M = mean over heads. A mixin of AttentionPanel (which provides ``set_state`` and its
state fields), apart because the key plumbing has nothing to do with what the views draw. While a
lesson plays, PageUp/PageDown never get here: the lesson player (explorer/lecture/lesson_player.py) takes them
first, for its slides.
"""

from __future__ import annotations

from PySide6 import QtCore

from model.records import KINDS


class KeyboardNavigation:
    """Arrow-key and PageUp/PageDown navigation over layers, heads and kinds."""

    def install_shortcuts(self) -> None:
        # Key events, not QShortcuts: a shortcut fires only in the active window, which headless
        # tests never get, and the plots would swallow arrow keys for scrolling. The filter sees the
        # keys first on the plots; everything else in the panel passes them up to keyPressEvent.
        Key = QtCore.Qt.Key
        self._key_actions = {
            Key.Key_Left: lambda: self._step_head(-1),
            Key.Key_Right: lambda: self._step_head(+1),
            Key.Key_Up: lambda: self._step_layer(-1),
            Key.Key_Down: lambda: self._step_layer(+1),
            Key.Key_PageUp: lambda: self._step_kind(-1),
            Key.Key_PageDown: lambda: self._step_kind(+1),
            Key.Key_M: lambda: self.set_state(self._kind, self._layer, self._head, not self._mean),
        }
        self.tabs.tabBar().setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.lines.canvas.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        for widget in (self.heatmap.canvas, self.grid.canvas, self.lines.canvas):
            widget.installEventFilter(self)

    def handle_key(self, key, modifiers=QtCore.Qt.KeyboardModifier.NoModifier) -> bool:
        """Run the navigation action bound to ``key``; False if it has none (or a modifier is held)."""
        action = self._key_actions.get(QtCore.Qt.Key(key))
        if action is None or modifiers not in (QtCore.Qt.KeyboardModifier.NoModifier,
                                                QtCore.Qt.KeyboardModifier.KeypadModifier):
            return False
        action()
        return True

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if event.type() == QtCore.QEvent.Type.KeyPress and self.handle_key(event.key(), event.modifiers()):
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event) -> None:  # Qt override
        if not self.handle_key(event.key(), event.modifiers()):
            super().keyPressEvent(event)

    def _step_head(self, step: int) -> None:
        if self._maps is not None:
            self.set_state(self._kind, self._layer, self._head + step, False)

    def _step_layer(self, step: int) -> None:
        if self._maps is not None:
            self.set_state(self._kind, self._layer + step, self._head, self._mean)

    def _step_kind(self, step: int) -> None:
        index = min(max(0, KINDS.index(self._kind) + step), len(KINDS) - 1)
        self.set_state(KINDS[index], self._layer, self._head, self._mean)

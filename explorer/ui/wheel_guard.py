"""The mouse wheel scrolls a form, not the field under the pointer (issue 31, item 4).

Qt gives a spin box or combo box every wheel turn that passes over it, focused or not: a teacher
scrolling down the Train form changed Batch tokens from 1536 to 16 without a sign. Here a field takes
the wheel only once it has focus (clicked or tabbed into); otherwise the turn goes to the scroll area
around the form, which scrolls. Fields also stop taking focus from the wheel itself (StrongFocus), or
the first turn over one would focus it and the second change it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QWidget

FIELDS = (QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    """Passes wheel events over unfocused fields of ``form`` to ``scroll_area``'s viewport."""

    def __init__(self, form: QWidget, scroll_area: QAbstractScrollArea) -> None:
        super().__init__(form)
        self._scroll = scroll_area
        for kind in FIELDS:
            for field in form.findChildren(kind):
                field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
                field.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() != QEvent.Type.Wheel or watched.hasFocus():
            return False
        # The scroll area's viewport scrolls by the turn's angle; where the pointer is does not matter.
        QCoreApplication.sendEvent(self._scroll.viewport(), event)
        return True

"""The mouse wheel scrolls a form, not the field under the pointer (issue 31, item 4).

Qt gives a spin box or combo box every wheel turn that passes over it, focused or not: a teacher
scrolling down the Train form changed Batch tokens from 1536 to 16 without a sign. Here a field takes
the wheel only once it has focus (clicked or tabbed into); otherwise the turn goes to the scroll area
around the form, which scrolls. Fields also stop taking focus from the wheel itself (StrongFocus), or
the first turn over one would focus it and the second change it.

Every ColumnScrollArea guards the column it holds (the Train form, the sentence column), and forms
outside a scroll area (the Workbench's run bars) pass an unfocused field's turn on to their parent.
Fields added to a guarded form later (the ablation box under the sentence) are guarded when the form
next lays itself out.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QComboBox, QWidget

FIELDS = (QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    """Passes wheel events over unfocused fields of ``form`` to ``scroll_area``'s viewport, or, without
    a scroll area, leaves them to the form's parent widgets."""

    def __init__(self, form: QWidget, scroll_area: QAbstractScrollArea | None = None) -> None:
        super().__init__(form)
        self._form, self._scroll = form, scroll_area
        self._guarded: set[int] = set()
        self.guard_fields()
        form.installEventFilter(self)  # its layout requests: new fields to guard

    def guard_fields(self) -> None:
        """Guard the fields of the form not guarded yet."""
        for kind in FIELDS:
            for field in self._form.findChildren(kind):
                if id(field) not in self._guarded:
                    self._guarded.add(id(field))
                    field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
                    field.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self._form:
            if event.type() == QEvent.Type.LayoutRequest:
                self.guard_fields()
            return False
        if event.type() != QEvent.Type.Wheel or watched.hasFocus():
            return False
        if self._scroll is None:
            event.ignore()  # Qt hands an ignored wheel event to the parent widget
            return True
        # The scroll area's viewport scrolls by the turn's angle; where the pointer is does not matter.
        QCoreApplication.sendEvent(self._scroll.viewport(), event)
        return True

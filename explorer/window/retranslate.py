"""Translate a window that is already built: walk its widgets, menus, actions, tabs, docks, headers and
plot titles, and put each text into the current language.

Why a walk rather than a ``retranslateUi`` per widget: the panels are written with their English text
inline, by several people, and keep gaining widgets. A walk covers a widget added later without a line
of its own. Each text's English source is remembered on its object (a dynamic property), so switching
English → 中文 → English restores the original exactly; a text the code changed since the last walk is
taken as the new source (through :func:`explorer.ui.i18n.source_of` when :func:`explorer.ui.i18n.tr` made
it, in whichever language). A widget showing the user's or the model's own words (a sentence, the
pieces, a file path) sets the property ``i18n_skip`` and is left alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QSpinBox,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from explorer.ui.i18n import redo, source_of

SKIP = "i18n_skip"


@dataclass
class Text:
    """One translatable text of one object: where it is (``owner``, ``key``), how to read and set it."""

    owner: QObject
    key: str
    get: Callable[[], str]
    set: Callable[[str], None]

    def describe(self) -> str:
        name = self.owner.objectName() or type(self.owner).__name__
        return f"{name}.{self.key}"


def _widget_texts(w: QWidget) -> Iterator[Text]:
    yield Text(w, "toolTip", w.toolTip, w.setToolTip)
    yield Text(w, "statusTip", w.statusTip, w.setStatusTip)
    if isinstance(w, QDockWidget) or w.isWindow():
        yield Text(w, "windowTitle", w.windowTitle, w.setWindowTitle)
    if isinstance(w, (QLabel, QAbstractButton)):
        # An eliding label shows part of its text: the whole is what was made, and what is remembered.
        yield Text(w, "text", getattr(w, "full_text", w.text), w.setText)
    if isinstance(w, QGroupBox):
        yield Text(w, "title", w.title, w.setTitle)
    if isinstance(w, (QLineEdit, QPlainTextEdit, QTextEdit)):
        yield Text(w, "placeholder", w.placeholderText, w.setPlaceholderText)
    if isinstance(w, QAbstractSpinBox):
        yield Text(w, "specialValueText", w.specialValueText, w.setSpecialValueText)
    if isinstance(w, QSpinBox):
        yield Text(w, "prefix", w.prefix, w.setPrefix)
        yield Text(w, "suffix", w.suffix, w.setSuffix)
    if isinstance(w, QMenu):
        yield Text(w, "title", w.title, w.setTitle)
    if isinstance(w, QComboBox):
        for i in range(w.count()):
            yield Text(w, f"item{i}", lambda i=i: w.itemText(i), lambda t, i=i: w.setItemText(i, t))
    if isinstance(w, QTabWidget):
        for i in range(w.count()):
            yield Text(w, f"tab{i}", lambda i=i: w.tabText(i), lambda t, i=i: w.setTabText(i, t))
            yield Text(w, f"tabTip{i}", lambda i=i: w.tabToolTip(i), lambda t, i=i: w.setTabToolTip(i, t))
    if isinstance(w, QTableWidget):
        for i in range(w.columnCount()):
            item = w.horizontalHeaderItem(i)
            if item is not None:
                yield Text(w, f"header{i}", item.text, item.setText)
    if isinstance(w, pg.GraphicsView) and w.scene() is not None:
        yield from _plot_texts(w)


def _plot_texts(view: pg.GraphicsView) -> Iterator[Text]:
    """Plot titles, axis titles and legends inside a pyqtgraph canvas (tick labels are tokens or numbers)."""
    for item in view.scene().items():
        if isinstance(item, pg.LabelItem):
            yield Text(item, "text", lambda i=item: i.text, lambda t, i=item: i.setText(t))
        elif isinstance(item, pg.AxisItem) and item.label.isVisible():
            yield Text(item, "label", lambda i=item: i.labelText, lambda t, i=item: i.setLabel(t))


def _action_texts(a: QAction) -> Iterator[Text]:
    yield Text(a, "text", a.text, a.setText)
    yield Text(a, "statusTip", a.statusTip, a.setStatusTip)


def _skipped(obj: QObject) -> bool:
    while obj is not None:
        if obj.property(SKIP):
            return True
        obj = obj.parent()
    return False


def texts(root: QWidget) -> Iterator[Text]:
    """Every translatable text of ``root`` and its descendants (hidden ones too), skipped ones left out."""
    for w in [root, *root.findChildren(QWidget)]:
        if not _skipped(w):
            yield from _widget_texts(w)
    for a in root.findChildren(QAction):
        if not a.isSeparator() and not _skipped(a):
            yield from _action_texts(a)


def retranslate_text(t: Text) -> None:
    current = t.get()
    if not current or not current.strip():
        return
    source, shown = t.owner.property(f"i18n_{t.key}"), t.owner.property(f"i18n_{t.key}_shown")
    if source is None or current != shown:  # first seen, or the code has set a new text since
        source = source_of(current) or current
    new = redo(source)
    if new != current:
        t.set(new)
    t.owner.setProperty(f"i18n_{t.key}", source)
    t.owner.setProperty(f"i18n_{t.key}_shown", new)


def retranslate(root: QWidget) -> int:
    """Put every text of ``root`` into the current language; returns how many texts were looked at."""
    n = 0
    for t in list(texts(root)):
        retranslate_text(t)
        n += 1
    return n


def english_source(owner: QObject, key: str, current: str) -> str:
    """The English behind a text the walk may have translated (``current`` if it never did)."""
    source = owner.property(f"i18n_{key}")
    if source is None or owner.property(f"i18n_{key}_shown") != current:
        source = source_of(current) or current
    if source.startswith('["'):
        template, args = json.loads(source)
        return template.format(**args) if args else template
    return source

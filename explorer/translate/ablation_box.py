"""The translation with heads removed, beside the translation with every head, words that differ marked.

Shown under the translation while any head is removed (explorer/translate/ablation.py). The comparison is by
words (difflib on whitespace-split text): a piece-level diff would mark "▁Haus" against "▁Hause" as two
unrelated pieces, while a reader asks which *words* the removed heads changed.
"""

from __future__ import annotations

import difflib
import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from explorer.ui.flow_layout import FlowLayout
from explorer.ui.i18n import tr
from explorer.ui.style import make_heading, make_muted
from model.records.research import format_head

GONE_STYLE = "background-color:#ffd6d6; text-decoration:line-through;"  # only in the unablated output
NEW_STYLE = "background-color:#c8f0c8; font-weight:bold;"  # only in the ablated output


def word_diff(before: str, after: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """(words of before, words of after), each word paired with True where it differs from the other."""
    a, b = before.split(), after.split()
    marks_a, marks_b = [True] * len(a), [True] * len(b)
    for block in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_matching_blocks():
        for i in range(block.size):
            marks_a[block.a + i] = marks_b[block.b + i] = False
    return list(zip(a, marks_a)), list(zip(b, marks_b))


def diff_html(words: list[tuple[str, bool]], style: str) -> str:
    """Words as HTML, the differing ones in ``style``."""
    return " ".join(f'<span style="{style}">{html.escape(w)}</span>' if changed else html.escape(w)
                    for w, changed in words) or "<i>(empty)</i>"


def format_heads(removed) -> str:
    """(('cross', 3, 1), …) → 'cross 4.2, …' (1-based, as the window names heads)."""
    return ", ".join(format_head(h, " ") for h in removed)


class AblationBox(QFrame):
    """'With every head' and 'With N heads removed' outputs, the difference marked; Restore all."""

    restore_all_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.heading = make_heading(QLabel("Heads removed"))
        self.heads_label = make_muted(QLabel(""))
        self.heads_label.setWordWrap(True)
        self.before_label, self.after_label = QLabel(""), QLabel("")
        for label in (self.before_label, self.after_label):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_label = make_muted(QLabel(""))
        # Every line wraps: an unwrapped one would set the sentence column's width (and squeeze the maps)
        self.summary_label.setWordWrap(True)
        self.restore_button = QPushButton("Restore all heads")
        self.restore_button.setToolTip("Put every removed head back and translate again")
        self.restore_button.clicked.connect(self.restore_all_requested)
        # The button goes under the heading where the column is narrow: side by side, the two set the
        # sentence column's least width (it widened from ~250 to ~335 px while heads were removed).
        row = FlowLayout()
        row.addWidget(self.heading)
        row.addWidget(self.restore_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(row)
        layout.addWidget(self.heads_label)
        layout.addWidget(make_muted(QLabel("With every head:")))
        layout.addWidget(self.before_label)
        self.after_title = make_muted(QLabel("With the heads removed:"))
        layout.addWidget(self.after_title)
        layout.addWidget(self.after_label)
        layout.addWidget(self.summary_label)
        self._changed = (0, 0)
        self.hide()

    def show_translation(self, translation) -> None:
        """Show an ablated Translation beside its ``unablated`` one; hide for any other."""
        maps = getattr(translation, "attention", None)
        removed = maps.removed if maps is not None else ()
        base = getattr(translation, "unablated", None)
        if not removed or base is None:
            self.hide()
            return
        before, after = word_diff(base.text, translation.text)
        self._changed = (sum(c for _, c in before), sum(c for _, c in after))
        n = len(removed)
        self.heading.setText(tr("{n} heads removed", n=n) if n != 1 else tr("1 head removed"))
        self.heads_label.setText(tr("{heads} — right-click a tile in All heads to restore one",
                                    heads=format_heads(removed)))
        self.before_label.setText(diff_html(before, GONE_STYLE))
        self.after_label.setText(diff_html(after, NEW_STYLE))
        if self._changed == (0, 0):
            self.summary_label.setText(tr("Same output: removing these heads changed no word."))
        else:
            self.summary_label.setText(tr("{changed} of {n} words differ (marked)", changed=self._changed[1],
                                          n=len(after)))
        self.show()

    def changed_counts(self) -> tuple[int, int]:
        """(words marked in the unablated output, words marked in the ablated output)."""
        return self._changed

"""Qt's own words that its Chinese translation lacks, supplied here.

Why: Qt's file dialog (the one the app shows on Linux without a desktop's portal) reads its labels from
``qtbase_zh_CN.qm``, which has "Look in:" but not the "&Look in:" and "Files of &type:" the dialog asks
for, nor the type column's "Folder": a Chinese window's Open lesson and Export dialogs said "Look in:"
and "Files of type:" in English (a teacher's walk-through, 2026-12-04). Found by logging every lookup
no installed translation answered while the dialogs were shown (tests/explorer/test_qt_gaps.py repeats
it). The app's own catalogue holds the app's words only, in one context; these keep Qt's contexts.
"""

from __future__ import annotations

from PySide6.QtCore import QTranslator

# {language: {(Qt's context, Qt's English): translation}}; the accelerators (&L) as Qt's own file writes them.
GAPS = {
    "zh_CN": {
        ("QFileDialog", "&Look in:"): "查找范围(&L)：",
        ("QFileDialog", "Files of &type:"): "文件类型(&T)：",
        ("QAbstractFileIconProvider", "Folder"): "文件夹",
        ("QAbstractFileIconProvider", "Drive"): "驱动器",
    },
}


class QtGaps(QTranslator):
    """A translator of the few Qt strings in ``GAPS`` for one language; silent for every other string."""

    def __init__(self, language: str, parent=None) -> None:
        super().__init__(parent)
        self._words = GAPS.get(language, {})

    def isEmpty(self) -> bool:  # noqa: N802 (Qt's name): Qt skips a translator that says it is empty
        return not self._words

    def translate(self, context, source, disambiguation=None, n=-1):  # Qt's override
        return self._words.get((context, source))  # None: not ours, Qt asks the next translator

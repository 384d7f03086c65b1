"""The translate panel's boxes and labels sized to what they hold (a mixin of ``TranslatePanel``): the
source and translation boxes to their wrapped lines, the history to its rows, the wrapped labels under the
translation to their height at the panel's width. Qt's layouts size none of these by their content, and
the sizing is kept apart from what the panel shows.
"""

from __future__ import annotations

QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's "no maximum" for a widget's size (not exported by PySide6)
HISTORY_ROWS = 4  # rows the history list shows before it scrolls
SOURCE_LINES = (2, 4)  # the source box's height follows its text between these many lines
TRANSLATION_LINES = 5  # the most lines the translation box grows to before it scrolls


class PanelFit:
    """Expects ``TranslatePanel``'s ``source_edit``, ``translation_view``, ``history_list``, ``detail_label``,
    ``unknown_label`` and ``error_label``."""

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit_wrapped()

    def _fit_wrapped(self) -> None:
        # A word-wrapped label's height depends on its width, which the layout's minimum ignores;
        # without a fixed height a long message overlaps the rows above it instead of pushing down.
        # The panel's width less the margins: the layout's own rectangle is empty while a relayout
        # is pending, and a label fitted to a width of 1 px stood 380 px tall, a blank gap above it.
        margins = self.layout().contentsMargins()
        width = self.width() - margins.left() - margins.right()
        if width < 40:  # not laid out yet; the first resize fits the labels
            return
        for label in (self.detail_label, self.unknown_label, self.error_label):
            if label.isVisibleTo(self):
                # A QLabel's height for a width never goes below its minimum height: the fixed height
                # set last time is lifted first, or one bad fit would stay for good.
                label.setMinimumHeight(0)
                label.setMaximumHeight(QWIDGETSIZE_MAX)
                height = label.heightForWidth(width)
                if height >= 0:  # -1: the label does not wrap (Qt warns of a negative size)
                    label.setFixedHeight(height)

    def _fit_boxes(self, *_size) -> None:
        """Fit the source and translation boxes to their wrapped lines, and the history to its rows,
        each within its bounds; above them the box scrolls. Called again when a text, its wrapping
        (the column's width) or the font changes."""
        for edit, (least, most) in ((self.source_edit, SOURCE_LINES), (self.translation_view, (2, TRANSLATION_LINES))):
            # A plain text document's layout measures its height in lines, wrapped at the box's width.
            lines = round(edit.document().documentLayout().documentSize().height())
            spacing = edit.fontMetrics().lineSpacing()
            edit.setFixedHeight(min(max(lines, least), most) * spacing + 2 * edit.frameWidth() + 12)
        rows = min(max(self.history_list.count(), 1), HISTORY_ROWS)
        row_height = self.history_list.sizeHintForRow(0) if self.history_list.count() else -1
        if row_height <= 0:  # an empty list has no row to measure
            row_height = self.history_list.fontMetrics().lineSpacing() + 2
        self.history_list.setFixedHeight(rows * row_height + 2 * self.history_list.frameWidth() + 4)

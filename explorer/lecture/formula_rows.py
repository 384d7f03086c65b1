"""The formula walkthrough's rows (a mixin of ``FormulaView``): each step of eq. (1) as the paper's
formula beside its numbers, laid out in one column or two, and the height they need. The dock places
itself by that height (explorer/lecture/formula_dock.py), so the measuring lives apart from what the
rows say, which is the view's job.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGridLayout, QScrollArea, QWidget

from explorer.attention.text_fit import wrapped_height
from explorer.lecture.formula_numbers import SHORT, fitted_count, format_numbers
from explorer.ui.i18n import tr
from model.records import KINDS

NBSP = "\u00a0"

# (step, the paper's formula beside it); the order is the order of the computation.
STEPS = (
    ("q", "q  (the query: x W^Q)"),
    ("k", "k_j  (the clicked key: x_j W^K)"),
    ("dots", "q · k_j  for every key j"),
    ("scaled", "q · k_j / √d_k"),
    ("mask", "mask: −∞ for the future (j > i)"),
    ("softmax", "a = softmax(q Kᵀ / √d_k)"),
    ("output", "Σ_j a_j v_j  (this head's output)"),
    ("sharpness", "without ÷√d_k the row is sharper"),
)


class FormulaRows:
    """Expects ``FormulaView``'s ``formulas``, ``numbers``, ``title``, ``_inner``, ``_grid_box``,
    ``_has_mask``, ``_maps``, ``_vectors`` and ``marked_cell()``."""

    def set_columns(self, columns: int) -> None:
        """1: each step's formula above its numbers (a narrow dock beside the maps); 2: the formula
        beside its numbers, one line per step (a wide, short dock under the maps on a 1024 × 768
        projector, where the steps stacked in two columns needed twice the height and scrolled)."""
        self.columns = 2 if int(columns) >= 2 else 1
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0 if self.columns == 2 else 4)  # one line per step: the lines' own leading parts them
        for n, (step, _) in enumerate(STEPS):
            # Beside their numbers the formulas keep one line (they are short); above them they wrap.
            self.formulas[step].setWordWrap(self.columns == 1)
            if self.columns == 2:
                grid.addWidget(self.formulas[step], n, 0)
                grid.addWidget(self.numbers[step], n, 1)
            else:
                grid.addWidget(self.formulas[step], 2 * n, 0)
                grid.addWidget(self.numbers[step], 2 * n + 1, 0)
        grid.setColumnStretch(self.columns - 1, 1)  # the numbers get the width the formulas leave
        # The labels move to the new box as they are added; the old, empty box goes.
        if self._grid_box is None:
            self._inner.insertWidget(1, box)
        else:
            self._inner.replaceWidget(self._grid_box, box)
            self._grid_box.deleteLater()
        self._grid_box = box

    def whole_height(self, width: int) -> int:
        """The height (px) this view needs at ``width``, in two columns, to show the sentence page's every
        step unscrolled, the mask step included (another kind may show it). Laid out when the sentence
        page is on screen; before (the dock is placed when opened, before the sentence's q, k and v have
        arrived, and the hand example's rows are shorter) estimated from the type and the sentence."""
        outer, inner = self.layout().contentsMargins(), self._inner.contentsMargins()
        width -= outer.left() + outer.right()
        controls = self.layout().itemAt(0).widget()  # the page buttons and check boxes, wrapped to width
        frame = (outer.top() + outer.bottom() + self.layout().spacing() + controls.heightForWidth(width)
                 + 2 * self.findChild(QScrollArea).frameWidth())
        if self.marked_cell() is not None:  # the sentence page, its numbers shown
            mask = 0 if self._has_mask else max(self.formulas["mask"].sizeHint().height(),
                                                self.numbers["mask"].heightForWidth(self.numbers["scaled"].width()))
            body = self._inner.parentWidget()
            return frame + body.heightForWidth(width) + mask + self._inner.spacing()
        return frame + self._estimated_height(width - inner.left() - inner.right())

    def _estimated_height(self, width: int) -> int:
        """The caption and the steps at ``width`` (inside the margins), with numbers of a typical width."""
        # Whichever kind is chosen later: the most keys of any kind.
        keys = max(len(self._maps.labels(kind)[1]) for kind in KINDS) if self._maps is not None else SHORT
        bold, mono = QFontMetrics(self.formulas["q"].font()), QFontMetrics(self.numbers["q"].font())
        formula_width = max(bold.horizontalAdvance(label.text()) for label in self.formulas.values())
        room = width - formula_width - self._grid_box.layout().horizontalSpacing()
        # q, k and the output as long as d_k once captured; before, as long as they are shown short
        # (the count "… (32 in all)" would add a line only on a dock too narrow for it, which the
        # dock's line to spare takes: place_formula_dock).
        d_k = self._vectors.of_kind(KINDS[0]).q.shape[-1] if self._vectors is not None else SHORT
        typical = np.full(d_k, -1.234)
        vector = format_numbers(typical, 3, fitted_count(typical, 3, mono, room))
        scores = format_numbers(np.full(keys, -1.234), 3)
        product = NBSP.join(("q", "·", f"k_{keys}", "=", "−1.234"))
        texts = {"q": vector, "k": vector, "output": vector, "dots": f"{scores}   {product}",
                 "softmax": format_numbers(np.full(keys, 0.123), 3),  # weights: never negative, below 1
                 "sharpness": tr("largest weight {max_s:.2f} → {max_u:.2f} without ÷√d_k;  "
                                 "entropy {ent_s:.2f} → {ent_u:.2f} bits", max_s=0.5, max_u=1.0, ent_s=2.0,
                                 ent_u=0.0)}
        rows = sum(max(bold.height(), wrapped_height(texts.get(step, scores), mono, room)) for step, _ in STEPS)
        caption = wrapped_height(self.title.text() or "X", self.title.fontMetrics(), width)
        return 2 * self._inner.spacing() + caption + rows

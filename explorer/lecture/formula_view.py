"""The attention formula with real numbers, one clicked cell at a time (lecture mode, issue 21).

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V        (eq. 1 of the paper)

Each step is one row: the paper's formula on the left, the numbers the class can check on the right.
The first page works the small hand example; the second shows the model's own q, k and v for the
query and key of the clicked heatmap cell, in the current kind, layer and head. The arithmetic lives
in ``model.analysis.walkthrough`` (NumPy only), so what is shown is what the tests check.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QFontMetricsF
from PySide6.QtWidgets import QButtonGroup, QCheckBox, QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from explorer.attention.tokens import display_piece
from explorer.lecture.formula_numbers import SHORT, fitted_count, format_numbers
from explorer.lecture.formula_rows import NBSP, STEPS, FormulaRows
from explorer.ui.chinese_font import with_chinese
from explorer.ui.flow_layout import FlowLayout
from explorer.ui.i18n import again, tr
from explorer.ui.style import bold_font
from model.analysis.walkthrough import FormulaRow, formula_row, hand_example
from model.records import KIND_TITLES, AttentionMaps, AttentionVectors

HAND, SENTENCE = "hand", "sentence"
MONO_FACTOR = 0.8  # the numbers' size against the app font: a fixed-width face looks larger at equal size


class FormulaView(FormulaRows, QWidget):
    """Eq. (1) step by step for one query row; ``row()`` is the FormulaRow on screen.

    ``cell_changed`` carries the (query, key) worked on the sentence page, or None when no cell of the
    maps is worked (the hand example, no sentence yet): the dock marks that cell on the heatmap."""

    cell_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._maps: AttentionMaps | None = None
        self._vectors: AttentionVectors | None = None
        self._state = ("encoder", 0, 0)
        self._cell = (0, 0)
        self._row: FormulaRow | None = None
        self._key = 0
        self._has_mask = False

        self.hand_button = QPushButton("Example")
        self.sentence_button = QPushButton("Sentence")
        pages = QButtonGroup(self)
        for b in (self.hand_button, self.sentence_button):
            b.setCheckable(True)
            pages.addButton(b)
        self.hand_button.setChecked(True)
        self.hand_button.clicked.connect(lambda: self.show_page(HAND))
        self.sentence_button.clicked.connect(lambda: self.show_page(SENTENCE))
        self.unscaled_box = QCheckBox("without ÷√d_k")
        self.unscaled_box.toggled.connect(self._render)
        self.show_all_box = QCheckBox("show all")
        self.show_all_box.toggled.connect(self._render)
        # One row that wraps: beside the maps the dock is narrow (two short rows), under them it is wide.
        controls = QWidget()
        flow = FlowLayout(controls, spacing=6)
        flow.setContentsMargins(0, 0, 0, 0)
        for w in (self.hand_button, self.sentence_button, self.unscaled_box, self.show_all_box):
            flow.addWidget(w)

        self.title = QLabel()
        self.title.setWordWrap(True)
        # Plain text: the pieces it quotes may be "<s>", which rich text took for strike-through.
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.formulas: dict[str, QLabel] = {}
        self.numbers: dict[str, QLabel] = {}
        for step, formula in STEPS:
            self.formulas[step] = QLabel(formula)
            self.formulas[step].setWordWrap(True)
            # A partial font (bold only), not a style sheet: its size keeps following the app's zoom.
            self.formulas[step].setFont(bold_font())
            self.numbers[step] = QLabel()
            self.numbers[step].setTextFormat(Qt.TextFormat.PlainText)
            self.numbers[step].setWordWrap(True)
            for label in (self.formulas[step], self.numbers[step]):  # a two-line row reads from its top
                label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            self.numbers[step].setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        body = QWidget()
        inner = QVBoxLayout(body)
        inner.setContentsMargins(4, 0, 4, 0)
        inner.setSpacing(2)
        inner.addWidget(self.title)
        self._inner, self._grid_box = inner, None
        self.set_columns(1)
        inner.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 0)  # the dock's height is the maps' loss: no wasted margins
        layout.setSpacing(2)
        layout.addWidget(controls)
        layout.addWidget(scroll)
        self._apply_number_font()
        self._vectors_shown: int | None = None  # how many entries the vector rows show (None: all)
        # The vector rows fit their line whenever their column's width changes (zoom, dock resized).
        self.numbers["q"].installEventFilter(self)
        self.show_page(HAND)

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if watched is self.numbers["q"] and event.type() == QEvent.Type.Resize and self._row is not None:
            if self._fitted_count() != self._vectors_shown:
                self._render()
        return super().eventFilter(watched, event)

    def changeEvent(self, event) -> None:  # Qt override
        # Zoom scales the application font; the numbers' fixed-width font is set explicitly, so it
        # would otherwise keep the size it had when the dock was built while the headings grow.
        if event.type() == QEvent.Type.FontChange:
            self._apply_number_font()
        super().changeEvent(event)

    def _apply_number_font(self) -> None:
        size = max(1.0, self.font().pointSizeF() * MONO_FACTOR)
        mono = with_chinese(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        mono.setPointSizeF(size)
        # Fixed-width faces differ in line spacing: at one size Noto Sans Mono's line is 17 % taller than
        # DejaVu Sans Mono's, and on a machine whose "monospace" is Noto the numbers' lines took 12 px from
        # the head map under the dock at 1024 × 768. So the numbers' lines are never taller than the app
        # font's at that size, whichever face draws them (DejaVu Sans Mono's equal DejaVu Sans's: unchanged).
        plain = QFont(self.font())
        plain.setPointSizeF(size)
        ratio = QFontMetricsF(plain).height() / QFontMetricsF(mono).height()
        if ratio < 1.0:
            mono.setPointSizeF(max(1.0, size * ratio))
        for label in self.numbers.values():
            label.setFont(mono)


    # -- inputs ------------------------------------------------------------------------------------

    def set_translation(self, maps: AttentionMaps | None, vectors: AttentionVectors | None) -> None:
        """The sentence on screen: its attention maps and, when captured, its per-head Q, K, V."""
        same = (maps is not None and self._maps is not None and maps.source_tokens == self._maps.source_tokens
                and maps.target_tokens == self._maps.target_tokens)
        self._maps, self._vectors = maps, vectors
        if not same:  # the same sentence again (translated anew for its q, k, v) keeps its cell
            self._cell = (0, 0)
        if self.page == SENTENCE:
            self._compute()
        else:
            self.cell_changed.emit(None)

    def set_state(self, kind: str, layer: int, head: int) -> None:
        """The attention panel's kind, layer and head."""
        self._state = (kind, layer, head)
        if self.page == SENTENCE:
            self._compute()

    def select_cell(self, query: int, key: int) -> None:
        """A clicked cell: work its query's row, with its key as k; switches to the sentence page."""
        self._cell = (query, key)
        self.show_page(SENTENCE)

    def show_page(self, page: str) -> None:
        self.page = page
        (self.hand_button if page == HAND else self.sentence_button).setChecked(True)
        self._compute()

    def marked_cell(self) -> tuple[int, int] | None:
        """The maps' cell this page works, to be marked on the heatmap: None on the hand example
        and until a sentence's numbers are shown."""
        return self._cell if self.page == SENTENCE and self._row is not None else None

    def row(self) -> FormulaRow | None:
        return self._row

    def cell(self) -> tuple[int, int] | None:
        """The (query, key) worked on the sentence page; None on the hand example (a lesson saves it)."""
        return self._cell if self.page == SENTENCE else None

    # -- drawing -----------------------------------------------------------------------------------

    def _compute(self) -> None:
        self._row, self._key = None, 0
        if self.page == HAND:
            self._row, self._key, self._decimals = hand_example(), 2, (2, 1)
            self._has_mask = False  # three keys, none of them in the future
            self._title = tr("Worked example: q = [1, 2], keys [1, 0], [0, 1], [1, 1], values [10, 0], [0, 20], "
                             "[10, 10]. k below is the third key.")
        else:
            self._compute_sentence()
        self._render()
        self.cell_changed.emit(self.marked_cell())

    def _compute_sentence(self) -> None:
        kind, layer, head = self._state
        self._decimals = (3, 3)
        self._has_mask = False
        if self._maps is None:
            self._title = tr("Translate a sentence first.")
            return
        if self._vectors is None:
            self._title = tr("Translate again with this panel open: its q, k and v are captured only then.")
            return
        hv, rows, cols = self._vectors.of_kind(kind), *self._maps.labels(kind)
        i, j = self._cell
        if not (0 <= layer < hv.q.shape[0] and 0 <= head < hv.q.shape[1] and i < len(rows) and j < len(cols)):
            self._title = tr("Click a cell of the heatmap.")
            return
        self._row = formula_row(hv.q[layer, head, i], hv.k[layer, head], hv.v[layer, head],
                                self._maps.masked(kind)[i])
        self._key = j
        # Only the decoder's self-attention has a causal mask; the other kinds show no mask step.
        self._has_mask = bool(self._maps.masked(kind).any())
        # Rows and columns counted from 1 like layers and heads, and the pieces written as the
        # map's axes write them ("apples", not "▁apples").
        self._title = tr("{kind}, layer {layer}, head {head}: query {i} “{query}”, key {j} “{key}”; "
                         "d_k = {d_k}, √d_k = {scale:.3f}.", kind=tr(KIND_TITLES[kind]), layer=layer + 1,
                         head=head + 1, i=i + 1, query=display_piece(rows[i]), j=j + 1,
                         key=display_piece(cols[j]), d_k=int(self._row.d_k), scale=float(self._row.scale))

    def _fitted_count(self) -> int | None:
        """How many entries of q, k and the output their rows show: as many as fit one line of their
        column, ``SHORT`` at most, ``LEAST_SHOWN`` at least; None (all) with "show all"."""
        if self.show_all_box.isChecked() or self._row is None:
            return None
        label = self.numbers["q"]
        width = label.contentsRect().width()
        if width <= 1 or not label.isVisible():  # not laid out yet: the resize that lays it out fits it
            return SHORT
        (d, d_out), row, metrics = self._decimals, self._row, label.fontMetrics()
        weights = row.weights_unscaled if self.unscaled_box.isChecked() else row.weights
        return min(fitted_count(row.q, d, metrics, width), fitted_count(row.keys[self._key], d, metrics, width),
                   fitted_count(weights @ row.values, d_out, metrics, width))

    def _render(self) -> None:
        self.title.setText(again(self._title))  # again: the language may have changed since
        for label in (self.formulas["mask"], self.numbers["mask"]):
            label.setVisible(self._has_mask)
        row = self._row
        if row is None:
            for label in self.numbers.values():
                label.setText("")
            return
        d, d_out = self._decimals
        limit = None if self.show_all_box.isChecked() else self._fitted_count()
        self._vectors_shown = limit
        unscaled = self.unscaled_box.isChecked()
        j = self._key
        weights = row.weights_unscaled if unscaled else row.weights
        self.formulas["softmax"].setText(tr("a = softmax(q Kᵀ)  (no ÷√d_k)") if unscaled else tr(STEPS[5][1]))
        # Without ÷√d_k the scaling step is skipped: its row and the mask's show what softmax then takes,
        # not the scaled scores beside weights made without them.
        self.formulas["scaled"].setText(tr("q · k_j  (not divided by √d_k)") if unscaled else tr(STEPS[3][1]))
        output = weights @ row.values
        (max_s, max_u), (ent_s, ent_u) = row.sharpness()["max weight"], row.sharpness()["entropy (bits)"]
        texts = {
            "q": format_numbers(row.q, d, limit),
            "k": format_numbers(row.keys[j], d, limit),
            # The clicked key's product wraps whole, never "q · k_9 =" on one line and its number on the next.
            "dots": format_numbers(row.dots, d) + "   " + NBSP.join(
                ("q", "·", f"k_{j + 1}", "=", format_numbers(row.dots[j:j + 1], d)[1:-1])),
            "scaled": format_numbers(row.dots if unscaled else row.scaled, d),
            "mask": format_numbers(row.masked_dots if unscaled else row.masked_scores, d),
            "softmax": format_numbers(weights, d),
            "output": format_numbers(output, d_out, limit),
            "sharpness": tr("largest weight {max_s:.2f} → {max_u:.2f} without ÷√d_k;  "
                            "entropy {ent_s:.2f} → {ent_u:.2f} bits", max_s=float(max_s), max_u=float(max_u),
                            ent_s=float(ent_s), ent_u=float(ent_u)),
        }
        for step, text in texts.items():
            self.numbers[step].setText(text)

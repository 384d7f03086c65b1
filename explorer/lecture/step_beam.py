"""The search's hypotheses after one step: for beam search the k it keeps alive and those that ended.

Live hypotheses are scored by their summed log-probabilities; ended ones (with </s>) by the same sum
divided by the length penalty ((5 + |Y|) / 6)^α, which is how beam search ranks them. The hypothesis
that the final translation grows from is drawn in the accent colour, so the class can follow it.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.tokens import LONE_SPACE, display_piece
from explorer.ui.i18n import N_, tr
from explorer.ui.style import ACCENT, MUTED
from model.records import Hypothesis


def hypothesis_text(pieces) -> str:
    """The pieces as text: SentencePiece's word marks become spaces, the end mark stays visible."""
    text = "".join(p for p in pieces if p != "</s>").replace("\u2581", " ").strip()
    if not text and any(p != "</s>" for p in pieces):
        # Only word marks so far (a Chinese translation starts with a lone "▁"): the row read as blank
        # beside the bars' "␣"; write them as the axes and the bars do.
        text = " ".join(display_piece(p) for p in pieces if p != "</s>")
    return (text + " </s>").strip() if pieces and pieces[-1] == "</s>" else text


def pieces_text(pieces, lead: bool = False) -> str:
    """The pieces as text with "·" where one piece ends and the next goes on the same word: for two
    hypotheses that read the same but were split differently ("我喜欢·读书·。" and "我喜欢·读·书·。").
    lead: a first piece that starts a word shows its space as "␣", for two that part only there ("▁今天"
    and "今天", 99.3 % and 0.0 % in a walk-through, both read "今天")."""
    out = LONE_SPACE if lead and pieces and pieces[0].startswith("\u2581") else ""
    for p in pieces:
        if p == "</s>":
            continue
        if p.startswith("\u2581"):
            out += ("" if out == LONE_SPACE else " ") + p[1:]
        else:
            out += ("·" if out and out != LONE_SPACE else "") + p
    text = out.strip()
    return (text + " </s>").strip() if pieces and pieces[-1] == "</s>" else text


SAME_WORDS_TIP = N_("the same words as another row, split into other pieces: beam search keeps both")


class HypothesisTable(QtWidgets.QTableWidget):
    """Two columns, hypothesis and score; ``set_hypotheses`` fills it, ``texts()`` reads it back."""

    def __init__(self, parent=None) -> None:
        super().__init__(0, 2, parent)
        self.setHorizontalHeaderLabels(["Hypothesis", "Score"])
        self.verticalHeader().hide()
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the step keys belong to the step view
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.setWordWrap(False)

    def set_hypotheses(self, hypotheses: tuple[Hypothesis, ...], followed: tuple[str, ...] = ()) -> None:
        """Fill the rows; the hypothesis equal to ``followed`` (the final output's prefix) is marked."""
        self.setRowCount(len(hypotheses))
        bold = QtGui.QFont(self.font())
        bold.setBold(True)
        marked = None
        plain = [hypothesis_text(h.pieces) for h in hypotheses]
        split = [pieces_text(h.pieces) for h in hypotheses]
        for row, h in enumerate(hypotheses):
            # Two rows that read alike would look like one hypothesis listed twice (a walk-through saw
            # "✓ 我喜欢读书。 </s>" twice): those show where their pieces part, and if they part only at a
            # first word mark, that too.
            twin = plain.count(plain[row]) > 1
            shown = plain[row]
            if twin:
                shown = pieces_text(h.pieces, lead=split.count(split[row]) > 1)
            text = ("✓ " if h.finished else "") + shown
            cells = (QtWidgets.QTableWidgetItem(text), QtWidgets.QTableWidgetItem(f"{h.score:.2f}"))
            tip = " ".join(h.pieces) + ("\nended: its score is divided by the length penalty" if h.finished else "")
            if twin:
                tip += "\n" + tr(SAME_WORDS_TIP)
            for col, item in enumerate(cells):
                item.setToolTip(tip)
                if tuple(h.pieces) == tuple(followed):
                    item.setForeground(QtGui.QColor(ACCENT))
                    item.setFont(bold)
                    marked = row
                elif h.finished:
                    item.setForeground(QtGui.QColor(MUTED))
                self.setItem(row, col, item)
        if marked is not None:  # on a small screen the hypothesis the class follows stays in view
            self.scrollToItem(self.item(marked, 0))

    def texts(self) -> list[tuple[str, str]]:
        """(hypothesis, score) as shown, top to bottom."""
        return [(self.item(r, 0).text(), self.item(r, 1).text()) for r in range(self.rowCount())]

"""The model info panel: what is loaded, from where, on which device, and its configuration.

The headline facts a presenter points at (size, shape, vocabulary) come first in plain words; the full
ModelConfig follows as a two-column table, so nothing about the model is hidden.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.ui.i18n import N_, tr
from explorer.ui.style import make_heading
from explorer.window.models_menu import builtin_display_name


def format_count(n: int) -> str:
    """'63.1 M' style for parameter counts; exact digits stay in the tooltip."""
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return str(n)


def model_display_name(path: str) -> str:
    """The name a person knows a model by: the folder, or for a training checkpoint
    (``…/reverse-20261201-0950/step-00001003``) the run's folder and the step."""
    parts = str(path).rstrip("/\\").replace("\\", "/").rsplit("/", 2)
    name = parts[-1] or str(path)
    match = re.fullmatch(r"step-(\d+)", name)
    if match and len(parts) >= 2 and parts[-2]:
        return tr("{run} (step {step:,})", run=parts[-2], step=int(match.group(1)))
    return name


# A web address or a domain: dot-separated names ending in letters ("tatoeba.org"), with an optional path.
# Version numbers ("GPL-2.0", "CC BY 2.0") do not match, so they never break inside.
_ADDRESS = re.compile(r"(?:https?://)?(?:[\w-]+\.)+[A-Za-z]{2,}(?:/\S*)?")


def breakable_addresses(text: str) -> str:
    """``text`` with a zero-width space after each dot and slash of its web addresses, where a narrow
    label may wrap them; ``InfoPanel.value`` reads the text back without the marks."""
    return _ADDRESS.sub(lambda m: re.sub(r"([./])(?=[^/])", "\\1\u200b", m.group(0)), text)


def shown_name(path: str) -> str:
    """A loaded model's name as the window title and the info panel show it: a built-in or Hub model's
    pair and name, else its folder's (``model_display_name``)."""
    return builtin_display_name(path) or model_display_name(path)


class ConfigTable(QTableWidget):
    """The configuration table asks for a few rows only and takes the column's spare height: asking
    for all its rows made the sentence column taller than a 1024 × 768 screen, so it always scrolled."""

    PREFERRED_ROWS = 3

    def sizeHint(self):  # noqa: N802 - Qt override
        hint = super().sizeHint()
        rows = self.verticalHeader().defaultSectionSize() * self.PREFERRED_ROWS
        hint.setHeight(min(hint.height(), self.horizontalHeader().sizeHint().height() + rows + 2 * self.frameWidth()))
        return hint


class InfoPanel(QWidget):
    """Shows a :class:`model.records.ModelInfo`, or a hint when no model is loaded."""

    _FIELDS = ("Model", "Origin", "Parameters", "Shape", "Vocabulary", "Device", "Licence", "Note")
    # Where a model came from (ModelInfo.origin): its architecture is the paper's either way, its
    # settings (activation, positional layout, ...) are in the table below.
    ORIGINS = {"native": N_("Trained with Attention Explorer"), "marian": N_("Hugging Face Marian (OPUS-MT) folder"),
               "marian-import": N_("Imported from a Marian (OPUS-MT) model")}

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: dict[str, QLabel] = {}
        form = self._form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for name in self._FIELDS:
            value = QLabel("")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._values[name] = value
            form.addRow(f"{name}:", value)

        self.config_table = ConfigTable(0, 2)
        self.config_table.setHorizontalHeaderLabels(["Setting", "Value"])
        self.config_table.verticalHeader().setVisible(False)
        self.config_table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.config_table.horizontalHeader().setStretchLastSection(True)
        self.config_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.config_table.setAlternatingRowColors(True)
        # Tab leaves the table, as everywhere in the column: it went cell by cell through its 16 rows and
        # round again, a trap for anyone on the keyboard.
        self.config_table.setTabKeyNavigation(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 8)
        title = QLabel("Model")
        make_heading(title)
        layout.addWidget(title)
        layout.addLayout(form)
        # The table takes nearly all spare height; the spacer only matters while the table is hidden,
        # keeping the headline rows together at the top instead of spread down the column.
        layout.addWidget(self.config_table, 100)
        layout.addStretch(1)
        self.set_info(None)

    def changeEvent(self, event) -> None:  # Qt override
        # Zoomed, the wrapped values ("Trained with Attention Explorer") kept the heights of their old
        # lines: QFormLayout kept its height for the width it had, and the column's width had not changed,
        # so the labels showed two lines of four. Laid out again once every label has its new font.
        if event.type() == QEvent.Type.FontChange:
            QTimer.singleShot(0, self, self._form.invalidate)
        super().changeEvent(event)

    def set_info(self, info) -> None:
        """Fill the panel from a ModelInfo; None shows that nothing is loaded."""
        if info is None:
            for label in self._values.values():
                label.setText("")
                label.setToolTip("")
            self._values["Model"].setText(tr("No model loaded"))
            self._form.setRowVisible(self._values["Note"], False)
            self.config_table.setRowCount(0)
            self.config_table.hide()  # an empty table with headers only reads like something broke
            return
        self.config_table.show()
        name = shown_name(info.path)
        self._set("Model", name, tooltip=info.path)
        self._set("Parameters", format_count(info.n_params), tooltip=tr("{n:,} parameters", n=info.n_params))
        self._set("Origin", tr(self.ORIGINS[info.origin]) if info.origin in self.ORIGINS else info.origin)
        d_ff = f" · d_ff {info.d_ff}" if info.d_ff else ""
        self._set("Shape", tr("d_model {d_model}{d_ff} · {n} + {n} layers · {h} heads", d_model=info.d_model,
                              d_ff=d_ff, n=info.n_layers, h=info.n_heads))
        # A Marian model with separate vocabularies: the encoder reads one, the decoder and output the other.
        source = dict(info.config).get("src_vocab_size", 0)
        self._set("Vocabulary", tr("{src:,} source + {n:,} target pieces", src=source, n=info.vocab_size) if source
                  else tr("{n:,} pieces", n=info.vocab_size))
        self._set("Device", info.device)
        # The weights' terms (the built-in models are GPL-2.0-or-later, the code MIT); a model trained here
        # says nothing, and it takes the terms of the data it was trained on.
        # A web address may break after its slashes and dots (a zero-width space): "www.manythings.org/anki"
        # was wider than the column at 1024 × 768 and ran past its edge, and in the Chinese window, whose
        # field names are wider, "www.manythings.org/" alone still lost its "/" at the column's edge.
        licence = breakable_addresses(info.licence or "")
        self._set("Licence", licence or tr("not stated: a model takes the terms of its training data"),
                  tooltip=tr("What the weights are distributed under (the model folder's LICENSE or card); "
                             "Attention Explorer's code is MIT-licensed"))
        self._set("Note", info.note)
        self._form.setRowVisible(self._values["Note"], bool(info.note))  # most models have none
        self.config_table.setRowCount(len(info.config))
        for row, (key, value) in enumerate(info.config):
            self.config_table.setItem(row, 0, QTableWidgetItem(str(key)))
            self.config_table.setItem(row, 1, QTableWidgetItem(str(value)))

    def value(self, field: str) -> str:
        """The text shown for one headline field (used by tests and copy-paste), without the break marks."""
        return self._values[field].text().replace("\u200b", "")

    def config_value(self, key: str) -> str | None:
        for row in range(self.config_table.rowCount()):
            if self.config_table.item(row, 0).text() == key:
                return self.config_table.item(row, 1).text()
        return None

    def _set(self, field: str, text: str, tooltip: str = "") -> None:
        self._values[field].setText(text)
        self._values[field].setToolTip(tooltip)

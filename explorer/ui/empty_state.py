"""What the attention tab shows while no model is loaded: a clear message and the two ways forward.

A fresh install may have no built-in model; an empty plot with blank axes would look broken, so the
user instead sees what is happening ("Loading…") or what to do (open a model folder, or train one).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from explorer.ui.style import app_icon, make_muted, make_primary, scaled_font


class EmptyState(QWidget):
    """A centred title, message and "Open model…" / "Get a model…" / "Train…" buttons."""

    open_clicked = Signal()
    train_clicked = Signal()
    get_model_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.icon_label = QLabel()
        self.icon_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title_label = QLabel("Attention Explorer")
        self.title_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message_label = QLabel("")
        self.message_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message_label.setWordWrap(True)
        self.hint_label = QLabel(
            "Open a trained model folder (config.json, model.safetensors, spm.model),\n"
            "or train a new model on a parallel corpus."
        )
        make_muted(self.hint_label)
        self.hint_label.setAlignment(Qt.AlignmentFlag.AlignCenter)

        self.open_button = QPushButton("Open model…")
        make_primary(self.open_button)
        self.open_button.clicked.connect(self.open_clicked)
        self.train_button = QPushButton("Train…")
        self.train_button.clicked.connect(self.train_clicked)
        # A real pretrained model is the quickest way forward for a translator: File › Get a model….
        self.get_button = QPushButton("Get a model…")
        self.get_button.clicked.connect(self.get_model_clicked)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addSpacing(16)
        buttons.addWidget(self.get_button)
        buttons.addSpacing(16)
        buttons.addWidget(self.train_button)
        buttons.addStretch(1)

        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addWidget(self.icon_label)
        layout.addWidget(self.title_label)
        layout.addSpacing(8)
        layout.addWidget(self.message_label)
        layout.addWidget(self.hint_label)
        layout.addSpacing(20)
        layout.addLayout(buttons)
        layout.addStretch(3)
        self.set_font_scale(1.0)

    def set_message(self, message: str, loading: bool = False) -> None:
        """While loading there is nothing to choose yet, so the buttons and hint step aside."""
        self.message_label.setText(message)
        for widget in (self.hint_label, self.open_button, self.get_button, self.train_button):
            widget.setVisible(not loading)

    def message(self) -> str:
        return self.message_label.text()

    def set_font_scale(self, scale: float) -> None:
        self.title_label.setFont(scaled_font(2.0, bold=True))
        self.message_label.setFont(scaled_font(1.3))
        for button in (self.open_button, self.get_button, self.train_button):
            button.setFont(scaled_font(1.15, bold=button is self.open_button))
        size = int(96 * scale)
        self.icon_label.setPixmap(app_icon().pixmap(size, size))

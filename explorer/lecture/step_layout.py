"""Where the step-by-step view's widgets go (a mixin of ``StepView``): the buttons, slider and speed on one
line, the sentence so far with the layer and head below, the maps over the bars and the beam in a splitter;
and the slider moved to a line of its own where the buttons leave it no room. Kept apart from step_view.py,
which steps through the translation and fills the parts; this file only places them.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

SLIDER_LEAST_LINES = 5  # the slider's least width beside the buttons, in lines of text: a thumb to drag


class StepLayout:
    """Expects ``StepView``'s ``back_button``, ``play_button``, ``next_button``, ``slider``, ``step_label``,
    ``speed_combo``, ``so_far``, ``layer_combo``, ``head_combo``, ``maps``, ``bars``, ``bars_title``,
    ``hypotheses`` and ``beam_title``; it sets ``splitter``, ``_controls`` and ``_slider_line``."""

    def _layout(self) -> None:
        controls = QtWidgets.QHBoxLayout()
        for w in (self.back_button, self.play_button, self.next_button):
            controls.addWidget(w)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.step_label)
        controls.addSpacing(12)  # two read-outs, not one phrase: "Step 2 of 6Speed" at the row's 4 px
        controls.addWidget(QtWidgets.QLabel("Speed"))
        controls.addWidget(self.speed_combo)
        line = QtWidgets.QHBoxLayout()
        line.addWidget(self.so_far, 1)
        line.addWidget(QtWidgets.QLabel("Layer"))
        line.addWidget(self.layer_combo)
        line.addWidget(QtWidgets.QLabel("Head"))
        line.addWidget(self.head_combo)
        lower = QtWidgets.QWidget()
        bottom = QtWidgets.QHBoxLayout(lower)
        bottom.setContentsMargins(0, 0, 0, 0)
        for title, widget in ((self.bars_title, self.bars), (self.beam_title, self.hypotheses)):
            column = QtWidgets.QVBoxLayout()
            column.setSpacing(2)
            column.addWidget(title)
            column.addWidget(widget, 1)
            bottom.addLayout(column, 1)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        layout.addLayout(controls)
        self._controls, self._slider_line = controls, QtWidgets.QHBoxLayout()
        layout.addLayout(self._slider_line)  # the slider's own line, where the controls' has no room for it
        layout.addLayout(line)
        # A splitter, so a teacher can give the maps or the bars more of a small screen; the maps first.
        self.splitter = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.maps)
        self.splitter.addWidget(lower)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([640, 360])
        layout.addWidget(self.splitter, 1)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._place_slider()

    def _place_slider(self) -> None:
        """The slider beside the buttons where it has a draggable width there, else on a line of its own:
        zoomed ×1.52 on a 1024 × 768 projector the buttons, "Step 1 of 11" and the speed left it a
        checkbox-sized stub between them."""
        row = [self._controls.itemAt(i).widget() for i in range(self._controls.count())]
        others = [w for w in row if w is not None and w is not self.slider]
        gaps = self._controls.spacing() * len(others) + 12  # the spacing before "Speed"
        margins = self.layout().contentsMargins()
        need = sum(w.sizeHint().width() for w in others) + gaps + margins.left() + margins.right()
        alone = need + SLIDER_LEAST_LINES * self.fontMetrics().height() > self.width()
        if alone == (self._slider_line.indexOf(self.slider) >= 0):
            return
        if alone:
            self._controls.removeWidget(self.slider)
            self._slider_line.addWidget(self.slider)
        else:
            self._slider_line.removeWidget(self.slider)
            self._controls.insertWidget(3, self.slider, 1)  # after Back, Play and Next

    def slider_alone(self) -> bool:
        """Whether the slider has a line of its own (the controls' line being too narrow for it)."""
        return self._slider_line.indexOf(self.slider) >= 0

"""Decoding step by step (lecture mode, issue 21): Back / Next / Play through the generation of the
translation on screen.

Step t (1-based) is the decoder reading <s> and the t − 1 pieces chosen so far and choosing piece t:
its masked self-attention is t × t, its cross-attention row t is boxed over the source, the bars show
softmax(logits) of that choice, and for beam search the table lists the hypotheses the beam holds
after the step. Keys (while the tab has focus): ←/→ step, Space play/pause, Home/End first/last.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Signal

from explorer.lecture.so_far import SoFarLabel
from explorer.lecture.step_bars import ProbabilityBars
from explorer.lecture.step_beam import HypothesisTable
from explorer.lecture.step_layout import StepLayout
from explorer.lecture.step_maps import StepMaps
from explorer.ui import i18n
from explorer.ui.steady_button import SteadyButton
from explorer.ui.style import make_muted
from model.records import Translation

SPEEDS = (("0.5 s", 500), ("1 s", 1000), ("1.5 s", 1500), ("2 s", 2000), ("3 s", 3000))  # per step
DEFAULT_SPEED = 1  # 1 s: time to say what changed, short enough to keep a class watching
EMPTY = "Translate a sentence: its decoding appears here one step at a time."


class StepView(StepLayout, QtWidgets.QWidget):
    """The step-by-step decoding tab; ``set_translation`` takes a Translation carrying ``steps``."""

    step_changed = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._translation: Translation | None = None
        self._step = 0
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self._tick)

        self.back_button = QtWidgets.QPushButton("◀ Back")
        self.play_button = SteadyButton("▶ Play", lambda: (i18n.tr("▶ Play"), i18n.tr("❚❚ Pause")))
        self.next_button = QtWidgets.QPushButton("Next ▶")
        self.back_button.setToolTip("Previous step (←)")
        self.play_button.setToolTip("Play or pause (Space)")
        self.next_button.setToolTip("Next step (→)")
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setMinimum(1)
        self.step_label = QtWidgets.QLabel("")
        self.speed_combo = QtWidgets.QComboBox()
        for text, ms in SPEEDS:
            self.speed_combo.addItem(text, ms)
        self.speed_combo.setCurrentIndex(DEFAULT_SPEED)
        self.speed_combo.setToolTip("Seconds per step while playing")
        self.layer_combo = QtWidgets.QComboBox()
        self.head_combo = QtWidgets.QComboBox()
        # The step keys must reach the view, not move a button's focus ring or a slider by itself.
        for w in (self.back_button, self.play_button, self.next_button, self.slider):
            w.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)

        self.so_far = SoFarLabel(i18n.tr(EMPTY))
        self.maps = StepMaps()
        self.bars = ProbabilityBars()
        # The model's pieces fill the bars; their own words come from tr() as they are made, so the
        # retranslation walk leaves them alone.
        self.bars.setProperty("i18n_skip", True)
        self.hypotheses = HypothesisTable()
        self.bars_title = make_muted(QtWidgets.QLabel("Next piece: softmax of the logits"))
        self.beam_title = make_muted(QtWidgets.QLabel("Hypotheses"))
        for title in (self.bars_title, self.beam_title):
            title.setWordWrap(True)  # a long title wraps rather than widening a projector's window
        self._layout()
        self._connect()
        self._refresh()

    def _connect(self) -> None:
        self.back_button.clicked.connect(self.back)
        self.next_button.clicked.connect(self.next_step)
        self.play_button.clicked.connect(self.toggle_play)
        self.slider.valueChanged.connect(self.set_step)
        self.speed_combo.currentIndexChanged.connect(lambda _: self.timer.setInterval(self.interval_ms()))
        # The layer and head asked for (0-based; None = mean): kept while no translation fills the
        # combos, so a tab opened over a sentence it must translate again still shows the Attention
        # tab's layer and head once the steps come (it showed layer 1, mean: a teacher's walk-through).
        self._wanted: tuple[int, int | None] = (0, None)
        self.layer_combo.currentIndexChanged.connect(lambda _: self._chosen())
        self.head_combo.currentIndexChanged.connect(lambda _: self._chosen())
        self.timer.setInterval(self.interval_ms())
        keys = ((QtCore.Qt.Key.Key_Left, self.back), (QtCore.Qt.Key.Key_Right, self.next_step),
                (QtCore.Qt.Key.Key_Space, self.toggle_play), (QtCore.Qt.Key.Key_Home, lambda: self.set_step(1)),
                (QtCore.Qt.Key.Key_End, lambda: self.set_step(self.n_steps())))
        for key, slot in keys:
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(key), self)
            shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    # -- public API ----------------------------------------------------------------------------

    def set_translation(self, translation: Translation | None) -> None:
        """Show a translation from its first step; one without ``steps`` (or maps) shows the hint."""
        self.pause()
        usable = translation is not None and translation.steps is not None and translation.attention is not None
        self._translation = translation if usable else None
        maps = self._translation.attention if usable else None
        layer, head = self._wanted
        self._fill_combo(self.layer_combo, [str(i + 1) for i in range(maps.n_layers)] if maps else [], layer)
        self._fill_combo(self.head_combo, [i18n.tr("Mean")] + [str(i + 1) for i in range(maps.n_heads)] if maps else [],
                         0 if head is None else head + 1)
        self._step = 1 if usable else 0
        self.slider.blockSignals(True)
        self.slider.setMaximum(max(1, self.n_steps()))
        self.slider.setValue(max(1, self._step))
        self.slider.blockSignals(False)
        self._refresh()

    def translation(self) -> Translation | None:
        return self._translation

    def retranslate(self) -> None:
        """After a language switch: the step's texts made again ("So far: …", the bars' and the beam's
        titles are joined from several pieces, which the window's walk cannot take apart)."""
        self._refresh()

    def n_steps(self) -> int:
        return self._translation.steps.n_steps if self._translation is not None else 0

    def step(self) -> int:
        """The step shown, 1..n_steps (0 when there is nothing to show)."""
        return self._step

    def set_step(self, step: int) -> None:
        if self._translation is None:
            return
        step = max(1, min(int(step), self.n_steps()))
        if step != self._step:
            self._step = step
            self._refresh()
            self.step_changed.emit(step)

    def next_step(self) -> None:
        self.set_step(self._step + 1)

    def back(self) -> None:
        self.set_step(self._step - 1)

    def set_layer_head(self, layer: int, head: int | None) -> None:
        """Choose the layer (0-based) and head (0-based; None = mean over heads) the maps show, now or,
        with no steps shown yet, once they come."""
        self._wanted = (layer, head)
        if 0 <= layer < self.layer_combo.count():
            self.layer_combo.setCurrentIndex(layer)
        index = 0 if head is None else head + 1
        if 0 <= index < self.head_combo.count():
            self.head_combo.setCurrentIndex(index)

    def layer_head(self) -> tuple[int, int | None]:
        head = self.head_combo.currentIndex()
        return max(0, self.layer_combo.currentIndex()), (None if head <= 0 else head - 1)

    def interval_ms(self) -> int:
        return int(self.speed_combo.currentData() or SPEEDS[DEFAULT_SPEED][1])

    def set_speed(self, index: int) -> None:
        self.speed_combo.setCurrentIndex(index)

    def is_playing(self) -> bool:
        return self.timer.isActive()

    def play(self) -> None:
        """Advance one step per interval until the last; from the last step, start again at the first."""
        if self._translation is None:
            return
        if self._step >= self.n_steps():
            self.set_step(1)
        self.timer.start(self.interval_ms())
        self.play_button.setText(i18n.tr("❚❚ Pause"))

    def pause(self) -> None:
        self.timer.stop()
        self.play_button.setText(i18n.tr("▶ Play"))

    def toggle_play(self) -> None:
        self.pause() if self.is_playing() else self.play()

    def set_colormap(self, name: str) -> None:
        self.maps.set_colormap(name)

    def set_font_scale(self, f: float) -> None:
        self.maps.set_font_scale(f)
        QtCore.QTimer.singleShot(0, self, self._place_slider)  # once the controls have their zoomed type

    # -- internals -----------------------------------------------------------------------------

    def _tick(self) -> None:
        if self._step >= self.n_steps():
            self.pause()
            return
        self.next_step()
        if self._step >= self.n_steps():
            self.pause()  # stop on the last step rather than one interval after it

    def _chosen(self) -> None:
        if self.layer_combo.count() and self.head_combo.count():  # a choice, not the combos emptied
            self._wanted = self.layer_head()
        self._refresh()

    @staticmethod
    def _fill_combo(combo: QtWidgets.QComboBox, items: list[str], wanted: int) -> None:
        if [combo.itemText(i) for i in range(combo.count())] == items:
            return  # the same model: keep the layer and head the teacher chose
        combo.blockSignals(True)
        combo.clear()
        combo.addItems(items)
        combo.setCurrentIndex((wanted if wanted < len(items) else len(items) - 1) if items else -1)
        combo.blockSignals(False)

    def _refresh(self) -> None:
        tr = self._translation
        enabled = tr is not None
        for w in (self.back_button, self.play_button, self.next_button, self.slider):
            w.setEnabled(enabled)
        if tr is None:
            self.step_label.setText("")
            self.so_far.show_note(i18n.tr(EMPTY))
            self.maps.set_step(None, 0, None, 0)
            self.bars.clear()
            self.hypotheses.set_hypotheses(())
            return
        steps, t = tr.steps, self._step
        i = t - 1  # the record's 0-based step
        self.back_button.setEnabled(t > 1)
        self.next_button.setEnabled(t < steps.n_steps)
        self.slider.blockSignals(True)
        self.slider.setValue(t)
        self.slider.blockSignals(False)
        self.step_label.setText(i18n.tr("Step {t} of {n}", t=t, n=steps.n_steps))
        self._place_slider()  # the read-out's width counts
        layer, head = self.layer_head()
        self.maps.set_step(tr.attention, layer, head, t)
        self.so_far.show_step(steps.chosen, t)
        self.bars.set_step(steps.top_pieces[i], steps.top_probs[i], steps.chosen[i], float(steps.chosen_probs[i]),
                           int(steps.chosen_ranks[i]))
        search = i18n.tr("greedy: the largest wins") if steps.beam_size == 1 else i18n.tr("beam {k}", k=steps.beam_size)
        self.bars_title.setText(i18n.tr("Step {t}: softmax of the logits ({search})", t=t, search=search))
        followed = steps.chosen[:t]
        self.hypotheses.set_hypotheses(steps.hypotheses[i], followed)
        if steps.beam_size == 1:
            self.beam_title.setText(i18n.tr("Greedy keeps one hypothesis (score: sum of log-probabilities)"))
        else:
            self.beam_title.setText(i18n.tr("Beam {k} after step {t} (✓ ended: ÷ length penalty)",
                                            k=steps.beam_size, t=t))
            more = (i18n.tr("The search ran {n} steps: it ends when {k} hypotheses have ended", n=steps.search_steps,
                            k=steps.beam_size) if steps.search_steps > steps.n_steps else "")
            self.beam_title.setToolTip(more)

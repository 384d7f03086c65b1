"""What the teaching aids may use of the window: small typed ports that ``explorer/window`` fills in.

Lecture mode works on other features' things (the sentence column and its controller, the clock hands, the
window's tabs, docks and status line) but never imports them, and never gets the window itself: it gets
these records of the few callables and signals it needs, so what it can touch is written down here, and a
test (tests/explorer/test_ports.py) checks that it touches nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QDockWidget, QWidget

from explorer.attention.panel import AttentionPanel
from model.records import ModelInfo, Translation


@dataclass(frozen=True)
class Sentence:
    """The sentence on screen and the model's answers to it (the translate feature's column and controller)."""

    translation_ready: SignalInstance  # a Translation, the newest request's only
    failed: SignalInstance  # (kind, message): "translate" when the sentence could not be translated
    model_loaded: SignalInstance  # the ModelInfo of the model now in use
    translation: Callable[[], Translation | None]  # the translation on screen
    model: Callable[[], ModelInfo | None]  # the model in use
    text: Callable[[], str]  # the sentence column's text
    set_text: Callable[[str], None]
    translation_text: Callable[[], str]
    beam_size: Callable[[], int]
    set_beam_size: Callable[[int], None]
    translate: Callable[[], None]  # translate the column's sentence again (with the captures asked for now)


@dataclass(frozen=True)
class Tabs:
    """The window's tabs, as a feature with a tab of its own needs them."""

    insert: Callable[[int, QWidget, str], int]  # (index, widget, English title) -> the index it got
    show: Callable[[QWidget], None]
    current: Callable[[], QWidget | None]
    changed: SignalInstance  # the index of the tab now shown


@dataclass(frozen=True)
class Docks:
    """The window's dock areas, for the formula dock (the window knows its own width and where docks fit)."""

    parent: QWidget  # owns the dock; only handed on, never read
    add: Callable[[QDockWidget], None]  # docked beside the views, hidden
    place: Callable[[QDockWidget], None]  # beside the views when they leave room, else under them
    fit: Callable[[QDockWidget], None]  # once placed under them: its height again, to the steps now shown


@dataclass(frozen=True)
class Clock:
    """The positional-encoding tab's clock hands: what a lesson slide records and sets again."""

    position: Callable[[], int]
    shift: Callable[[], int]
    set_position: Callable[[int], None]
    set_shift: Callable[[int], None]


@dataclass(frozen=True)
class Stage:
    """What presentation mode changes: the window's chrome goes, the fonts grow, the maps lose their
    statistics line; everything comes back when it ends."""

    chrome: tuple[QWidget, ...]  # hidden while presenting: the sentence column, status and menu bars, tab bar
    sentence: Sentence
    attention: AttentionPanel
    font_scale: Callable[[], float]
    set_font_scale: Callable[[float], None]
    # The next (+1) or previous (−1) main tab: its tab bar is hidden meanwhile, and Ctrl+Tab moved only the
    # tab widget that had the focus, so the Positional encoding tab's own two tabs held a presenter there.
    switch_tab: Callable[[int], None] = lambda _step: None
    # The largest zoom the window's width takes (explorer/ui/style.largest_scale): presenting enlarges up
    # to it, not past it (×1.52 × 1.3 on a 1024 × 768 projector crushed the Step tab's maps to a strip).
    largest_scale: Callable[[], float] = lambda: float("inf")

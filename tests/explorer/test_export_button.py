"""The Head view's Export button: its menu arrow has room of its own (a tool button's popup arrow sat in its
corner, against the "t" of "Export"), and each entry asks for its format."""

from __future__ import annotations

import numpy as np

from explorer.attention.controls import EXPORT_FORMATS, AttentionControls


def _inked_runs(widget) -> list[tuple[int, int]]:
    """Runs of pixel columns inside the widget's frame that hold dark ink (letters, the arrow)."""
    image = widget.grab().toImage()
    w, h = image.width(), image.height()
    light = np.array([[image.pixelColor(x, y).lightness() for x in range(3, w - 3)] for y in range(3, h - 3)])
    inked = (light < 100).any(axis=0)
    runs, start = [], None
    for x, ink in enumerate([*inked, False]):
        if ink and start is None:
            start = x
        elif not ink and start is not None:
            runs.append((start, x - 1))
            start = None
    return runs


def test_the_export_arrow_has_room_beside_the_text_and_each_entry_asks_for_its_format(qtbot):
    controls = AttentionControls()
    qtbot.addWidget(controls)
    button = controls.export_button
    button.resize(button.sizeHint())
    button.show()
    qtbot.waitExposed(button)
    *letters, arrow = _inked_runs(button)
    assert len(letters) >= 5  # "Export" (its "p" and "o" may touch), then the arrow
    between_letters = max(b[0] - a[1] for a, b in zip(letters, letters[1:]))
    # The tool button's arrow stood 3 px from the "t", as close as two letters; now it has room.
    assert arrow[0] - letters[-1][1] > 2 * between_letters, (letters, arrow)
    asked = []
    controls.export_requested.connect(asked.append)
    actions = button.menu().actions()
    assert [a.text() for a in actions] == [label for _, label in EXPORT_FORMATS]
    for action in actions:
        action.trigger()
    assert asked == [fmt for fmt, _ in EXPORT_FORMATS]

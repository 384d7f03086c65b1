"""The probe replay's line: its count follows new probes while an older one is looked at, and a language
switch translates it whole although it is shown elided (a walk-through saw "Step 25 (1 of 30)" go stale
and "Step 875 (35 of 35)" stay English in the Chinese window)."""

from __future__ import annotations

from explorer.training.probe_replay import ProbeReplay
from explorer.ui import i18n
from explorer.window.retranslate import retranslate
from tests.explorer.conftest import make_translation


def test_the_count_follows_new_probes_and_a_switch_translates_the_whole_line(qtbot):
    replay = ProbeReplay()
    qtbot.addWidget(replay)
    replay.resize(260, 80)  # narrow: the line is elided
    replay.show()
    for step in (25, 50):
        replay.add(step, make_translation("3 1 4 1 5 9 2 6 5 3 5 8 9 7 9"))
    replay.show_snapshot(0)  # looking at the first
    replay.add(75, make_translation("3 1 4 1 5 9 2 6 5 3 5 8 9 7 9"))
    assert replay.label.full_text().startswith("Step 25  (1 of 3)")  # still the first, counted among three
    assert replay.label.is_elided()
    try:
        i18n.install_language("zh_CN")
        retranslate(replay)
        assert replay.label.full_text().startswith("第 25 步（第 1 个，共 3 个）"), replay.label.full_text()
    finally:
        i18n.install_language("en")
        retranslate(replay)
    assert replay.label.full_text().startswith("Step 25  (1 of 3)")

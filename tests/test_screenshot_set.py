"""tools/screenshot_set.py, the developer script behind issue 31's screenshot set: one picture of it made
for real (the built-in en-de model, headless), the size asked for and with a view drawn in it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from model.builtin import builtin_model

ROOT = Path(__file__).resolve().parents[1]

# A whole-app screenshot in a fresh process (~5 s of the quick suite's 2 cores): a `slow` test, run by .ci/run.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(builtin_model("en-de") is None, reason="no built-in model shipped")]


def test_one_picture_is_the_size_asked_for_and_not_blank(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "tools.screenshot_set", str(tmp_path), "--lang", "en",
                           "--view", "head", "--config", "1024x768"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["en-1024x768-head.png"]
    image = QImage(str(tmp_path / "en-1024x768-head.png"))
    assert (image.width(), image.height()) == (1024, 768)
    # Not blank: the right half (the Head map, its labels and colour bar) holds many colours, and the
    # map's own viridis purples and yellows among them.
    colours = {image.pixel(x, y) for x in range(512, 1024, 3) for y in range(100, 700, 3)}
    assert len(colours) > 200
    hues = {image.pixelColor(x, y).hue() // 30 for x in range(512, 1024, 7) for y in range(100, 700, 7)
            if image.pixelColor(x, y).saturation() > 100}
    assert len(hues) >= 3
    # The window could be made that size (the script warns when its minimum size forbids it).
    assert "saved at" not in done.stderr

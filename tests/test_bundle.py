"""The desktop bundle (``make bundle``) run as a user would, from a folder outside the source tree.

It takes minutes of CPU to build (packaging/README.md), so this test never builds one: it runs on a
bundle already built (``make bundle-check`` builds and then runs it; ``ATTENTION_EXPLORER_BUNDLE`` names
the bundle folder, packaging/dist/attention-explorer by default) and skips when there is none.
The bundle leaves out every library module no run of the app imported (packaging/find_excludes.py), so
these runs walk the app's paths: translate, the window, and training.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BUNDLE = Path(os.environ.get("ATTENTION_EXPLORER_BUNDLE", REPO / "packaging" / "dist" / "attention-explorer"))
EXE = BUNDLE.resolve() / "attention-explorer"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not EXE.is_file(), reason=f"no bundle at {BUNDLE}: `make bundle` builds one "
                                 "(this test never does: it takes long, see packaging/README.md)")]


def _run(cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ATTENTION_EXPLORER_MODEL")}
    return subprocess.run([str(EXE), *argv], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**env, "QT_QPA_PLATFORM": "offscreen"})


def test_the_bundle_translates_with_its_own_model(tmp_path):
    r = _run(tmp_path, "translate", "I love apples.")
    assert r.returncode == 0 and r.stdout.strip() == "Ich liebe Äpfel.", r.stderr
    r = _run(tmp_path, "info")
    assert f"path: {EXE.parent}" in r.stdout, r.stdout  # the copy inside the bundle, not the checkout's


def test_the_bundle_takes_a_screenshot(tmp_path):
    png = tmp_path / "shot.png"
    r = _run(tmp_path, "--screenshot", str(png), "--sentence", "I love apples.", "--size", "1200x800")
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1200, 800)
    colours = {image.pixel(x, y) for x in range(0, 1200, 37) for y in range(0, 800, 29)}
    assert len(colours) > 20  # a drawn window (heatmap, text), not a blank frame


def test_the_bundle_trains_and_uses_what_it_trained(tmp_path):
    run = tmp_path / "run"
    r = _run(tmp_path, "train", "--task", "reverse", "--preset", "tiny", "--max-steps", "4", "--valid-every", "2",
             "--checkpoint-every", "2", "--threads", "1", "--out", str(run))
    assert r.returncode == 0, r.stderr
    step = run / (run / "LATEST").read_text().strip()
    assert (step / "model.safetensors").stat().st_size > 0 and (step / "config.json").is_file()
    r = _run(tmp_path, "translate", "--model", str(run), "3 1 2")
    # Four steps learn nothing: one line out (maybe empty) is all one can ask.
    assert r.returncode == 0 and r.stdout.count("\n") == 1, r.stderr

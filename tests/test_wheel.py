"""The wheel as a user gets it: installed into a fresh virtual environment, run from another folder.

The environment borrows the test environment's packages so torch and PySide6 need not be installed
again; the app itself comes only from the wheel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # No build isolation: the installed setuptools builds it, so nothing is downloaded.
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out)], check=True, capture_output=True, timeout=600)
    (found,) = out.glob("attention_explorer-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    # torch, PySide6 and the rest from the environment running the tests (in CI a venv itself, whose
    # packages --system-site-packages would not see). A path in a .pth file is only appended to sys.path;
    # the .pth files inside it (an editable install of this repository) are not run.
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    parents = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(site) / "test-parent-env.pth").write_text("\n".join(parents) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", str(wheel)],
                   check=True, capture_output=True, timeout=600)
    return env_dir


def test_the_wheel_installs_one_top_level_name_and_the_built_in_model(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = "-".join(wheel.name.split("-")[:2]) + ".dist-info"
    assert {n.split("/")[0] for n in names} == {"attention_explorer", dist_info}  # no generic `model`
    for needed in ("assets/models/en-de/model.safetensors", "assets/models/en-de/spm.model",
                   "assets/models/en-de/config.json", "assets/models/en-de/MODEL_CARD.md",
                   "assets/models/en-de/heldout/test.en", "assets/models/en-de/heldout/test.de",
                   "assets/models/en-de/LICENSE", "assets/models/en-zh/LICENSE",
                   "assets/icons/attention-explorer.svg", "explorer/icons/attention-explorer.svg",
                   "assets/i18n/attention_explorer_zh_CN.qm", "assets/i18n/attention_explorer_zh_CN.ts",
                   "assets/fonts/chinese.ttf", "assets/fonts/LICENSE",
                   "model/corpus/__init__.py", "explorer/attention/heatmap.py",
                   # the native steps' sources, compiled on the user's machine (without the header: no build)
                   "model/native/draft_step.c", "model/native/rows_step.c", "model/native/step_common.h"):
        assert f"attention_explorer/{needed}" in names, needed
    assert any(n.startswith("attention_explorer/model/") and n.endswith("card_template.md") for n in names)
    assert not any("/benchmarks/" in n or n.startswith("tests/") for n in names)


def _run(venv: Path, cwd: Path, *argv: str, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ATTENTION_EXPLORER_MODEL")}
    return subprocess.run([str(venv / "bin" / "attention-explorer"), *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env={**environ, **env})


def test_translate_from_another_folder_uses_the_installed_model(venv, tmp_path):
    r = _run(venv, tmp_path, "translate", "I love apples.")
    assert r.returncode == 0 and r.stdout.strip() == "Ich liebe Äpfel.", r.stderr
    r = _run(venv, tmp_path, "info")
    path = next(line.split(": ", 1)[1] for line in r.stdout.splitlines() if line.strip().startswith("path:"))
    assert Path(path).is_relative_to(venv) and Path(path).name == "en-de"
    r = _run(venv, tmp_path, "--version")
    assert r.returncode == 0 and r.stdout.strip() == "attention-explorer 0.1.0"


def test_screenshot_from_the_installed_app(venv, tmp_path):
    png = tmp_path / "shot.png"
    r = _run(venv, tmp_path, "--screenshot", str(png), "--sentence", "I love apples.", "--size", "1200x800",
             QT_QPA_PLATFORM="offscreen")
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1200, 800)
    colours = {image.pixel(x, y) for x in range(0, 1200, 37) for y in range(0, 800, 29)}
    assert len(colours) > 20  # a drawn window (heatmap, text), not a blank frame


def test_the_installed_app_headless_and_its_workbench_default(venv, tmp_path):
    """#33 items 1 and 2 on the installed wheel: with no display at all, the window says so in one line and
    --screenshot works without QT_QPA_PLATFORM; the workbench's default input (the model's held-out set,
    shipped in the wheel) runs through the code the Workbench runs."""
    bare = {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "ATTENTION_EXPLORER_MODEL", "DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}

    def run(*argv):
        return subprocess.run([str(venv / "bin" / "attention-explorer"), *argv], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300, env=bare)

    r = run()
    assert r.returncode != 0 and "no display" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    png = tmp_path / "headless.png"
    r = run("--screenshot", str(png), "--size", "800x600")
    assert r.returncode == 0 and png.stat().st_size > 10_000, r.stderr
    r = run("heads", "stats", "--limit", "5", "--json")  # no --src: the held-out set inside the wheel
    assert r.returncode == 0, r.stderr
    table = json.loads(r.stdout)
    assert table["sentences"] == 5 and {h["kind"] for h in table["heads"]} == {"encoder", "decoder", "cross"}
    assert all(0.0 < h["confidence"] <= 1.0 for h in table["heads"])

"""The wheel's package list in pyproject.toml names every package of model/ and explorer/ (a new
sub-package that is not listed would be missing from an installed app)."""

from __future__ import annotations

from pathlib import Path

import pytest
from setuptools import find_packages

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; 3.10 has no TOML reader in the standard library
ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_in_the_wheel():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(cfg["packages"])
    found = find_packages(str(ROOT), include=["model", "model.*", "explorer", "explorer.*"])
    expected = {f"attention_explorer.{name}" for name in found} | {"attention_explorer", "attention_explorer.assets"}
    assert expected == listed
    for top, folder in cfg["package-dir"].items():
        assert (ROOT / folder).is_dir(), top
    assert (ROOT / cfg["package-dir"]["attention_explorer"] / "__init__.py").is_file()


def test_the_translations_are_package_data():
    """The window's Chinese is a file under assets/i18n; without it in the wheel the menu would offer a
    language that then says it is missing."""
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    globs = cfg["package-data"]["attention_explorer.assets"]
    shipped = sorted((ROOT / "assets" / "i18n").iterdir())
    assert {p.suffix for p in shipped} == {".ts", ".qm"}
    for path in shipped:
        assert any(path.relative_to(ROOT / "assets").match(g) for g in globs), path


def test_the_bundle_keeps_every_module_the_app_imports():
    """packaging/bundle-excludes.txt leaves library modules out of the desktop bundle; one the app imports
    (after a torch or Qt upgrade, say) would make the bundle fail at start, found only after an hour's
    build. The app's modules are imported in a fresh process, so nothing the tests load counts."""
    import os
    import subprocess
    import sys

    code = ("import sys, explorer.app, explorer.window.main_window, explorer.translate.worker, "
            "explorer.training.worker, model.training.train, model.checkpoint, model.decoding, model.cli; "
            "print(*sorted(sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}).stdout.split()
    assert "torch" in loaded and "PySide6.QtWidgets" in loaded  # the imports above reached both libraries
    lines = (ROOT / "packaging" / "bundle-excludes.txt").read_text(encoding="utf-8").splitlines()
    skipped = {line for line in lines if line and not line.startswith("#")}
    dropped = [m for m in loaded if any(m == s or m.startswith(s + ".") for s in skipped)]
    assert not dropped, f"excluded from the bundle but imported: {dropped[:5]}; run packaging/find_excludes.py"


def test_the_metadata_says_what_the_code_and_the_shipped_models_are(tmp_path):
    """PEP 639: the code is MIT, the built-in models GPL-2.0-or-later with Tatoeba's CC BY attribution, and
    the wheel carries every licence file (issue 33 item 5). Only the metadata is built: seconds, not a wheel."""
    import subprocess
    import sys
    from email.parser import Parser

    code = ("import sys; from setuptools import build_meta; "
            "print(build_meta.prepare_metadata_for_build_wheel(sys.argv[1]))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    dist_info = tmp_path / out.stdout.strip().splitlines()[-1]
    meta = Parser().parsestr((dist_info / "METADATA").read_text(encoding="utf-8"))
    assert meta["License-Expression"] == "MIT AND GPL-2.0-or-later AND LicenseRef-CC-BY-2.0-FR AND Apache-2.0"
    assert meta["License"] is None  # the old free-text field would contradict the expression
    files = set(meta.get_all("License-File"))
    assert files == {"LICENSE", "LICENSES/GPL-2.0-or-later.txt", "assets/models/en-de/LICENSE",
                     "assets/models/en-zh/LICENSE", "assets/fonts/LICENSE"}
    for name in files:
        assert (dist_info / "licenses" / name).is_file(), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "models/*/LICENSE" in cfg["package-data"]["attention_explorer.assets"]  # beside each model, too

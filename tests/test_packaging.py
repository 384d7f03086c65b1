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

"""The installed app's only top-level name.

The repository keeps ``model/`` and ``explorer/`` at its root, and their modules import each other as
``model.…`` and ``explorer.…``. A wheel that installed them under those names would put two generic
top-level packages into site-packages, where they could shadow (or be shadowed by) another project's
``model``. So the wheel installs them *inside* this package (``attention_explorer/model``,
``attention_explorer/explorer``, plus the built-in model in ``attention_explorer/assets``; see
``[tool.setuptools]`` in pyproject.toml), and the entry point puts this folder first on ``sys.path``
before importing the app. Only
the app's own process sees ``model`` and ``explorer``; other programs in the same environment do not.

In a source checkout (or an editable install) this package lives in ``packaging/`` and the two folders
sit at the repository's root, two levels up.
"""

from __future__ import annotations

import sys
from pathlib import Path


def root() -> Path:
    """The folder that holds ``model/`` and ``explorer/``: this package when installed, else the repository."""
    here = Path(__file__).resolve().parent
    return here if (here / "model").is_dir() else here.parents[1]


def use() -> None:
    """Make the app's ``model`` and ``explorer`` the ones ``import`` finds (first on sys.path)."""
    folder = str(root())
    if sys.path[:1] != [folder]:
        sys.path.insert(0, folder)


def main() -> int:
    """Entry point of the ``attention-explorer`` console script."""
    use()
    from explorer.app import main as app_main

    return app_main()

"""Which folders the wheel installs, and under which names (the rest is in pyproject.toml).

The repository's ``model/`` and ``explorer/`` install as ``attention_explorer.model`` and
``attention_explorer.explorer``, and the built-in model as ``attention_explorer/assets``, so the wheel
adds a single top-level name to site-packages (see attention_explorer/__init__.py for why and how the
app still imports them as ``model`` and ``explorer``). ``benchmarks/`` and ``tests/`` are not installed.
The sub-packages are found here rather than listed in pyproject.toml, so a new one cannot be forgotten.
"""

from setuptools import find_packages, setup

TOP = "attention_explorer"
SOURCES = ("model", "explorer")

packages = [TOP, f"{TOP}.assets"] + [
    f"{TOP}.{name}" for name in find_packages(include=[f"{s}{suffix}" for s in SOURCES for suffix in ("", ".*")])
]

setup(
    packages=packages,
    package_dir={TOP: TOP, f"{TOP}.assets": "assets", **{f"{TOP}.{s}": s for s in SOURCES}},
    package_data={
        "": ["*.md"],  # the model card's template, wherever model/ keeps it
        f"{TOP}.explorer": ["icons/*"],
        # The built-in model the app opens by default, its card (the data's licence) and the icon.
        f"{TOP}.assets": ["default-model/config.json", "default-model/model.safetensors",
                          "default-model/spm.model", "default-model/MODEL_CARD.md",
                          "default-model/train_config.json", "icons/*"],
    },
    include_package_data=False,
)

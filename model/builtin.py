"""The built-in models: one folder per language pair in ``assets/models/<src>-<tgt>/`` (``en-de``, ``en-zh``).

Torch-free (the window builds its Models menu from it). A name such as ``en-zh`` is what ``--model`` accepts
on the command line and what the window's Models menu lists; a name is resolved here only when no folder of
that name exists where the user is, so a run folder called ``en-de`` in the current directory still wins
(it is what the user typed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from model.languages import language_name

DEFAULT = "en-de"  # the pair the app opens when nothing else decides (the window in Chinese picks en-zh)
ENV = "ATTENTION_EXPLORER_MODEL"  # a folder that replaces the built-in default (tests, benchmarks)


@dataclass(frozen=True)
class BuiltinModel:
    name: str  # "en-zh"
    path: Path

    @property
    def source(self) -> str:
        return self.name.split("-", 1)[0]

    @property
    def target(self) -> str:
        return self.name.split("-", 1)[1]

    @property
    def label(self) -> str:
        """"English → Chinese": what a menu shows."""
        return f"{language_name(self.source)} → {language_name(self.target)}"


def assets_dir() -> Path:
    """``assets/`` beside the ``model`` package: the repository's, or the copy inside an installed wheel
    (``attention_explorer/assets``, next to ``attention_explorer/model``). Torch-free, for the window."""
    return Path(str(resources.files("model"))).parent / "assets"


def models_dir() -> Path:
    return assets_dir() / "models"


def builtin_models() -> list[BuiltinModel]:
    """The built-in models this installation ships, by name (only folders that hold a config.json)."""
    root = models_dir()
    if not root.is_dir():
        return []
    return [BuiltinModel(p.name, p) for p in sorted(root.iterdir())
            if "-" in p.name and (p / "config.json").is_file()]


def builtin_model(name: str) -> BuiltinModel | None:
    return next((m for m in builtin_models() if m.name == name), None)


def default_model_dir(name: str | None = None) -> Path | None:
    """The built-in model ``name`` (default: $ATTENTION_EXPLORER_MODEL, else ``en-de``), None if absent."""
    if name is None and os.environ.get(ENV):
        path = Path(os.environ[ENV])
        return path if (path / "config.json").is_file() else None
    found = builtin_model(name or DEFAULT)
    return found.path if found else None


def builtin_name(path: str | Path) -> str:
    """"en-zh" when ``path`` is a built-in model's folder, else ""."""
    resolved = Path(path).resolve()
    return next((m.name for m in builtin_models() if m.path.resolve() == resolved), "")


def model_name(path: str | Path) -> str:
    """The name a lesson records for the model at ``path``: a built-in model's ("en-zh"), a downloaded Hub
    model's repository id ("Helsinki-NLP/opus-mt-en-zh"), else "" (a folder of the user's own)."""
    from model.hub.cache import repo_of_folder

    return builtin_name(path) or repo_of_folder(path)


def named_model(name: str) -> Path | None:
    """The folder ``model_name`` named: the built-in model, or the Hub model in the cache; None when this
    machine has neither (nothing is downloaded here)."""
    found = builtin_model(name)
    if found is not None:
        return found.path
    from model.hub.cache import cached_snapshot, looks_like_repo_id, parse_repo

    if "/" in name and looks_like_repo_id(name):
        return cached_snapshot(*parse_repo(name))
    return None


def resolve_model_arg(text: str) -> Path:
    """What ``--model TEXT`` names: an existing path as given, else a built-in model's name, else a Hub
    repository id (``Helsinki-NLP/opus-mt-en-zh``) already in the Hugging Face cache (never downloaded here:
    the message says to run ``get-model``)."""
    path = Path(text).expanduser()
    if not path.exists():
        found = builtin_model(text)
        if found is not None:
            return found.path
        from model.hub.cache import looks_like_repo_id, resolve_repo

        if looks_like_repo_id(text):
            return resolve_repo(text)
    return path

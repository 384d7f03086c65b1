"""The Hub models in the window: File › Get a model…, and Models › every model downloaded so far.

The downloaded models are read from the Hugging Face cache (``model.hub.cache.downloaded_models``, no
network) each time the menu opens and after each download, so a model fetched once is one click away
after a restart too, and one that transformers put in the cache shows up without a download. Each is named
by its language pair, with its repository id beside it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction

from explorer.ui.i18n import tr
from model.hub.cache import cached_snapshot, downloaded_models
from model.hub.catalogue import hub_label

HUB_PREFIX = "hub:"  # the Models menu's settings value for a Hub model: "hub:Helsinki-NLP/opus-mt-en-zh"


def install_hub_entries(window, menu, group, before: QAction) -> None:
    """Get a model… in File (before Open recent) and in Models; the downloaded models above it in Models."""
    window.get_model_action = QAction(tr("&Get a model…"), window)
    window.get_model_action.setToolTip(tr("Download a pretrained OPUS-MT translation model from the Hugging Face Hub"))
    window.get_model_action.triggered.connect(lambda: open_get_model(window))
    window.file_menu.insertAction(window.recent_menu.menuAction(), window.get_model_action)
    window.hub_separator = menu.insertSeparator(before)
    menu.insertAction(before, window.get_model_action)
    window.hub_group, window.hub_actions = group, {}
    # Listed when the menu opens, not at start-up: reading the cache imports huggingface_hub (~0.2 s)
    # and walks every repository in it, which the first painted window should not wait for.
    menu.aboutToShow.connect(lambda: refresh_hub_models(window))


def refresh_hub_models(window) -> None:
    """(Re)list the downloaded Hub models between the built-in ones and Get a model…."""
    for action in window.hub_actions.values():
        window.models_menu.removeAction(action)
        window.hub_group.removeAction(action)
    window.hub_actions = {}
    for model in downloaded_models():
        action = QAction(hub_label(model.repo_id), window, checkable=True)
        action.setProperty("i18n_skip", True)  # a language pair and a repository id: data, not words
        action.setToolTip(str(model.folder))
        action.triggered.connect(lambda _=False, r=model.repo_id, f=model.folder: choose_hub(window, r, f))
        window.hub_group.addAction(action)
        window.models_menu.insertAction(window.hub_separator, action)
        window.hub_actions[model.repo_id] = action
    loaded = getattr(getattr(window, "controller", None), "info", None)
    if loaded is not None:
        mark_hub_loaded(window, loaded.path)


def choose_hub(window, repo_id: str, folder: Path | str) -> None:
    from explorer.window.models_menu import SETTINGS_KEY

    window.settings.setValue(SETTINGS_KEY, HUB_PREFIX + repo_id)
    window.open_model(folder)


def hub_start_model(chosen: str) -> Path | None:
    """The folder of the Hub model remembered as ``hub:owner/name``, when it is still in the cache."""
    if not chosen.startswith(HUB_PREFIX):
        return None
    return cached_snapshot(chosen.removeprefix(HUB_PREFIX))


def mark_hub_loaded(window, path: str) -> None:
    loaded = Path(path).resolve() if path else None
    for action in getattr(window, "hub_actions", {}).values():
        action.setChecked(loaded is not None and Path(action.toolTip()).resolve() == loaded)


def hub_display_name(path: str) -> str | None:
    """"English → Chinese (Helsinki-NLP/opus-mt-en-zh)" for a Hub cache snapshot, else None."""
    folder = Path(path)
    if folder.parent.name == "snapshots" and folder.parent.parent.name.startswith("models--"):
        return hub_label(folder.parent.parent.name.removeprefix("models--").replace("--", "/"))
    return None


def open_get_model(window) -> None:
    """Show the Get-a-model dialog (one per window, kept so that a running download survives closing it)."""
    from explorer.hub.dialog import GetModelDialog

    dialog = getattr(window, "get_model_dialog", None)
    if dialog is None:
        dialog = window.get_model_dialog = GetModelDialog(window)
        dialog.model_ready.connect(lambda repo_id, folder: _ready(window, repo_id, folder))
    dialog.show()
    dialog.raise_()


def _ready(window, repo_id: str, folder: str) -> None:
    refresh_hub_models(window)
    choose_hub(window, repo_id, folder)

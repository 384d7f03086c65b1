"""What a model folder's weights are distributed under, for the window's model info and ``info``.

Torch-free. Three places say it, first found wins: the folder's ``LICENSE`` file with an SPDX line (the
built-in models: ``SPDX-License-Identifier: …`` and an ``Attribution: …`` line), the ``license:`` field of a
Hugging Face model card's front matter (``README.md``), and for a Hub download the licence that
``model.hub.catalogue`` read from the model's card. A model trained here says nothing: it takes the terms
of its training data, which only the person who trained it knows.
"""

from __future__ import annotations

import re
from pathlib import Path

MAX_BYTES = 64 * 1024  # a licence summary or a card's front matter is far shorter; never read a huge file


def _head(path: Path) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(MAX_BYTES)
    except OSError:
        return ""


def _from_license_file(folder: Path) -> str:
    text = _head(folder / "LICENSE")
    spdx = re.search(r"^SPDX-License-Identifier:\s*(.+?)\s*$", text, re.MULTILINE)
    if not spdx:
        return ""
    credit = re.search(r"^Attribution:\s*(.+?)\s*$", text, re.MULTILINE)
    return spdx.group(1) + (f"; credit {credit.group(1)}" if credit else "")


def _from_card(folder: Path) -> str:
    """``license: apache-2.0`` from the YAML front matter of a Hub card (between the first two ``---``)."""
    text = _head(folder / "README.md")
    front = re.match(r"---\s*\n(.*?)\n---", text, re.DOTALL)
    found = re.search(r"^license:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", front.group(1), re.MULTILINE) if front else None
    return found.group(1) if found else ""


def _from_catalogue(folder: Path) -> str:
    """A Hub cache folder (``…/models--Helsinki-NLP--opus-mt-en-de/snapshots/<hash>``) of a catalogue model."""
    from model.hub.catalogue import catalogue_entry

    for part in reversed(folder.parts):
        if part.startswith("models--"):
            entry = catalogue_entry(part[len("models--"):].replace("--", "/", 1))
            return entry.licence if entry is not None else ""
    return ""


def model_licence(folder: Path | str) -> str:
    """One line: the SPDX licence of the weights (and whom to credit), or "" when the folder does not say."""
    folder = Path(folder)
    return _from_license_file(folder) or _from_card(folder) or _from_catalogue(folder)

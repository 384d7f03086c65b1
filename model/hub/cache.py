"""Where Hub models live on this machine: the standard Hugging Face cache, read through huggingface_hub.

The cache is the one ``transformers`` fills too (``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
``~/.cache/huggingface/hub``), so a Marian model a user already has opens without a download. A model
counts as here only when every file the app needs is in one snapshot: a download that stopped halfway is
not a model (it is resumed by ``get-model``), so nothing half-written is ever opened.

Torch-free and network-free (the window lists these models in its Models menu at start-up).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from model.errors import UserError

CONFIG = "config.json"
TOKENIZER_FILES = ("source.spm", "target.spm", "vocab.json")
WEIGHTS = ("model.safetensors", "pytorch_model.bin")  # safetensors first: no pickle at all
# target_vocab.json: only models with separate source and target vocabularies have one (and need it).
OPTIONAL = ("tokenizer_config.json", "generation_config.json", "target_vocab.json")
# huggingface_hub's rule for a repository id: "name" or "owner/name", letters, digits, "-", "_", ".".
_REPO_ID = re.compile(r"^(?:[A-Za-z0-9][\w.-]{0,95}/)?[A-Za-z0-9][\w.-]{0,95}$")
_URL = re.compile(r"^https?://[^/]+/(?P<repo>[^/?#]+/[^/?#]+)(?:/(?:tree|resolve|blob)/(?P<rev>[^/?#]+))?/?$")


@dataclass(frozen=True)
class CachedModel:
    repo_id: str
    folder: Path  # the snapshot folder: config.json, tokenizer files and weights side by side


def cache_dir() -> Path:
    """$HF_HUB_CACHE, else $HF_HOME/hub, else the library's default: read now, not when huggingface_hub was
    first imported (the library reads them once, at import), so a setting made later still counts."""
    import os

    from huggingface_hub import constants

    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.path.expandvars(os.path.expanduser(os.environ["HF_HUB_CACHE"])))
    if os.environ.get("HF_HOME"):
        return Path(os.path.expandvars(os.path.expanduser(os.environ["HF_HOME"]))) / "hub"
    return Path(constants.HF_HUB_CACHE)


def endpoint() -> str:
    """$HF_ENDPOINT (read now, as cache_dir does), else the library's default, https://huggingface.co."""
    import os

    from huggingface_hub import constants

    return (os.environ.get("HF_ENDPOINT") or constants.ENDPOINT).rstrip("/")


def offline() -> bool:
    """HF_HUB_OFFLINE (or transformers' TRANSFORMERS_OFFLINE) set to a true value, now or at import."""
    import os

    from huggingface_hub import constants

    flag = (os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE") or "").upper()
    return flag in {"1", "ON", "YES", "TRUE"} or constants.HF_HUB_OFFLINE


def parse_repo(text: str) -> tuple[str, str | None]:
    """(repo id, revision or None) from ``owner/name``, ``owner/name@rev`` or a Hub URL of the model."""
    text = text.strip()
    revision = None
    match = _URL.match(text)
    if match:
        text, revision = match["repo"], match["rev"]
    elif "@" in text:
        text, revision = text.split("@", 1)
    if not _REPO_ID.match(text) or ".." in text or "/" not in text:
        raise UserError(f"{text!r} is not a Hub repository id (owner/name, e.g. Helsinki-NLP/opus-mt-en-zh)")
    return text, revision or None


def looks_like_repo_id(text: str) -> bool:
    try:
        parse_repo(text)
    except UserError:
        return False
    return True


def _cached(repo_id: str, name: str, revision: str | None) -> Path | None:
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(repo_id, name, cache_dir=cache_dir(), revision=revision)
    return Path(found) if isinstance(found, str) and Path(found).is_file() else None


def cached_snapshot(repo_id: str, revision: str | None = None) -> Path | None:
    """The snapshot folder of ``repo_id`` when every file the app needs is in it, else None."""
    config = _cached(repo_id, CONFIG, revision)
    if config is None:
        return None
    folder = config.parent
    if any(_cached(repo_id, name, revision) is None for name in TOKENIZER_FILES):
        return None
    if not any(_cached(repo_id, name, revision) for name in WEIGHTS):
        return None
    return folder


def repo_of_folder(folder: str | Path) -> str:
    """"owner/name" when ``folder`` is a snapshot in a Hugging Face cache (``models--owner--name/snapshots/<rev>``,
    the cache's documented layout, where "--" stands for "/"), else "". Paths only: nothing is read."""
    folder = Path(folder)
    repo = folder.parent.parent.name
    if folder.parent.name != "snapshots" or not repo.startswith("models--"):
        return ""
    repo_id = repo[len("models--"):].replace("--", "/")
    return repo_id if looks_like_repo_id(repo_id) else ""


def resolve_repo(text: str) -> Path:
    """The cached snapshot ``--model owner/name`` names; one line saying how to get it when it is not here."""
    repo_id, revision = parse_repo(text)
    folder = cached_snapshot(repo_id, revision)
    if folder is None:
        raise UserError(f"{text} is neither a folder nor a downloaded Hub model (looked in {cache_dir()}); get "
                        f"it where there is network with: attention-explorer get-model {repo_id}")
    return folder


def downloaded_models() -> list[CachedModel]:
    """Every complete Marian model in the cache, by repository id (what the Models menu lists)."""
    from huggingface_hub import scan_cache_dir
    from huggingface_hub.errors import CacheNotFound, CorruptedCacheException

    try:
        repos = scan_cache_dir(cache_dir()).repos
    except (CacheNotFound, CorruptedCacheException, OSError):
        return []
    found = []
    for repo in sorted(repos, key=lambda r: r.repo_id.lower()):
        if repo.repo_type != "model":
            continue
        folder = cached_snapshot(repo.repo_id)
        if folder is not None and _is_marian(folder):
            found.append(CachedModel(repo.repo_id, folder))
    return found


def _is_marian(folder: Path) -> bool:
    from model.marian.folder import read_hf_config

    try:
        return read_hf_config(folder) is not None
    except UserError:
        return False

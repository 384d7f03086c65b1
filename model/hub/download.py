"""Download a Marian (OPUS-MT) model from the Hub into the standard cache, resumably and cancellably.

huggingface_hub does the talking: the repository listing (``HfApi.model_info``), each file's metadata
(``get_hf_file_metadata``: commit, ETag, size, the CDN address) and the transfer (``http_get``, which also
retries a dropped connection). What we add is what a desktop app needs and ``hf_hub_download`` (1.x and
later) does not keep: a download that is cancelled, killed or cut off *resumes* where it stopped. So each
file is streamed into ``blobs/<etag>.incomplete`` of the repository's cache folder (the name the library
itself used for partial files), checked (size, and SHA-256 for the large files, whose ETag is their hash),
and only then renamed into the cache layout huggingface_hub documents (``blobs/<etag>``, a link in
``snapshots/<commit>/``, ``refs/<branch>`` last), so the cache never holds a file that looks finished but
is not. ``cached_snapshot`` then reads it back through the library, as transformers would.

Before any weight is fetched, the listing must show a Marian translation model: config.json, both
SentencePiece models, vocab.json and safetensors weights (else ``pytorch_model.bin``, which is only ever
read with ``torch.load(weights_only=True)``).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# At the top, not inside the functions: packaging/find_excludes.py learns what the bundle needs from the
# modules a `get-model` run imports, and the transfer's modules must be among them.
from huggingface_hub import HfApi, constants, get_hf_file_metadata, hf_hub_url
from huggingface_hub.file_download import http_get
from huggingface_hub.utils import build_hf_headers
from tqdm.auto import tqdm

from model.files import fsync_dir, usual_mode, write_atomic
from model.hub.cache import CONFIG, OPTIONAL, TOKENIZER_FILES, WEIGHTS, cache_dir, cached_snapshot, endpoint, offline
from model.hub.errors import DownloadCancelled, HubError, OfflineError, explain

CHUNK = 64 * 1024  # bytes between progress reports, so Cancel is answered within a second on a slow line
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


@dataclass(frozen=True)
class Plan:
    """What one download will fetch: the resolved commit and each file with its size in bytes."""
    repo_id: str
    revision: str  # what the user asked for ("main" by default)
    commit: str
    files: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(size for _, size in self.files)


Progress = Callable[[str, int, int], None]  # (file, bytes done over all files, total bytes)


def plan_download(repo_id: str, revision: str | None = None) -> Plan:
    """List the repository and choose its files; refuse anything that is not a Marian model, before fetching."""
    revision = revision or "main"
    if offline():
        raise explain(OfflineError(), repo_id, revision)
    try:
        info = HfApi(endpoint=endpoint()).model_info(repo_id, revision=revision, files_metadata=True)
    except Exception as exc:  # noqa: BLE001 - every failure becomes one line (errors.explain)
        raise explain(exc, repo_id, revision) from None
    sizes = {s.rfilename: int(s.size or 0) for s in (info.siblings or [])}
    model_type = (info.config or {}).get("model_type") if isinstance(info.config, dict) else None
    if model_type not in (None, "marian"):
        raise HubError(f"{repo_id} is a {model_type!r} model, not a Marian (OPUS-MT) translation model")
    missing = [n for n in (CONFIG, *TOKENIZER_FILES) if n not in sizes]
    weights = next((n for n in WEIGHTS if n in sizes), None)
    if missing or weights is None:
        lacks = ", ".join(missing + ([] if weights else ["model.safetensors (or pytorch_model.bin)"]))
        raise HubError(f"{repo_id} is not a Marian (OPUS-MT) translation model: it has no {lacks}")
    names = [CONFIG, *TOKENIZER_FILES, *(n for n in OPTIONAL if n in sizes), weights]
    return Plan(repo_id, revision, str(info.sha), tuple((n, sizes[n]) for n in names))


def download(plan: Plan, progress: Progress | None = None, cancelled: Callable[[], bool] = lambda: False) -> Path:
    """Fetch every file of the plan (resuming partial ones) and return the finished snapshot folder."""
    repo = cache_dir() / ("models--" + plan.repo_id.replace("/", "--"))
    done = 0
    for name, size in plan.files:
        def on_bytes(n: int, name: str = name) -> None:
            nonlocal done
            done += n
            if progress:
                progress(name, done, plan.total)

        try:
            written = _fetch_file(repo, plan, name, on_bytes, cancelled)
        except (DownloadCancelled, HubError):
            raise
        except Exception as exc:  # noqa: BLE001 - one line, the partial file kept for the next try
            raise explain(exc, plan.repo_id, plan.revision, name) from None
        done += max(size - written, 0)  # a file already there counts as done (sizes from the listing)
    if not _COMMIT.match(plan.revision):  # a branch or tag: point it at this commit, last of all
        ref = repo / "refs" / plan.revision
        ref.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(ref, plan.commit)
    folder = cached_snapshot(plan.repo_id, plan.commit)
    if folder is None:
        raise HubError(f"{plan.repo_id}: the download finished but the cache does not hold every file; run again")
    return folder


def _fetch_file(repo: Path, plan: Plan, name: str, on_bytes: Callable[[int], None],
                cancelled: Callable[[], bool]) -> int:
    """Download one file into the cache (resuming ``.incomplete``); the number of bytes it streamed."""
    meta = get_hf_file_metadata(hf_hub_url(plan.repo_id, name, revision=plan.commit, endpoint=endpoint()),
                                endpoint=endpoint())
    etag, size = meta.etag, meta.size
    if not etag or size is None:
        raise HubError(f"{plan.repo_id}: the Hub gave no ETag or size for {name}; cannot check the download")
    blobs, snapshot = repo / "blobs", repo / "snapshots" / plan.commit
    blob, part = blobs / etag, blobs / f"{etag}.incomplete"
    streamed = 0
    if not (blob.is_file() and blob.stat().st_size == size):
        blobs.mkdir(parents=True, exist_ok=True)
        constants.DOWNLOAD_CHUNK_SIZE = min(constants.DOWNLOAD_CHUNK_SIZE, CHUNK)
        have = part.stat().st_size if part.is_file() else 0
        if have > size:  # not a prefix of this file: start again
            part.unlink()
            have = 0
        on_bytes(have)
        with open(part, "ab") as out:
            http_get(meta.location, out, resume_size=have, headers=build_hf_headers(), expected_size=size,
                     tqdm_class=_progress_class(on_bytes, cancelled))
            out.flush()
            os.fsync(out.fileno())
        streamed = part.stat().st_size
        _check(part, etag, size, plan.repo_id, name)
        usual_mode(part)
        os.replace(part, blob)
        fsync_dir(blobs)
    _link(snapshot / name, blob)
    return streamed


def _check(part: Path, etag: str, size: int, repo_id: str, name: str) -> None:
    got = part.stat().st_size
    if got != size:
        raise HubError(f"{repo_id}: {name} stopped at {got:,} of {size:,} bytes; run again to resume")
    if _SHA256.match(etag):  # large (LFS) files: the ETag is the content's SHA-256
        digest = hashlib.sha256()
        with open(part, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() != etag:
            part.unlink()
            raise HubError(f"{repo_id}: {name} arrived damaged (its SHA-256 is not the Hub's); it was removed, "
                           "run again to download it afresh")


def _link(pointer: Path, blob: Path) -> None:
    """snapshots/<commit>/<name> → ../../blobs/<etag>, as huggingface_hub lays it out (a copy where links fail)."""
    pointer.parent.mkdir(parents=True, exist_ok=True)
    tmp = pointer.with_name(pointer.name + ".link-tmp")
    tmp.unlink(missing_ok=True)
    try:
        tmp.symlink_to(os.path.relpath(blob, pointer.parent))
    except OSError:  # e.g. Windows without developer mode: the library copies then too
        import shutil

        shutil.copyfile(blob, tmp)
    os.replace(tmp, pointer)


def _progress_class(on_bytes: Callable[[int], None], cancelled: Callable[[], bool]):
    """A silent tqdm whose every update reports the bytes and stops the transfer once Cancel was asked."""
    class _Progress(tqdm):
        def __init__(self, *args, **kwargs):
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            if cancelled():
                raise DownloadCancelled("download cancelled; run again to resume where it stopped")
            if n:
                on_bytes(int(n))

    return _Progress

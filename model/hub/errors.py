"""Every way a download fails, as one line that says what happened and what to do.

huggingface_hub raises its own classes for the Hub's answers (no such repository, revision or file,
offline mode) and its HTTP client's for the network (refused, timed out, cut off); a full disk is an
OSError. ``explain`` maps each to a ``HubError`` whose message a person can act on: the command to run
where there is network, or "run again to resume" when the partial file is kept.
"""

from __future__ import annotations

import errno

from model.errors import UserError


class HubError(UserError):
    """A download or Hub listing that failed; the message is for the user."""


class DownloadCancelled(HubError):
    """The user cancelled; the partial file stays and the next download resumes it."""


class OfflineError(Exception):
    """Raised before any request when HF_HUB_OFFLINE is set (the library would refuse each request anyway)."""


def _endpoint() -> str:
    from model.hub.cache import endpoint

    return endpoint()


def _classes(exc: BaseException) -> set[str]:
    """The exception's class names, so that the checks hold across huggingface_hub's HTTP clients (requests,
    httpx, httpx2), whose classes share names but not modules."""
    return {c.__name__ for c in type(exc).__mro__}


def _cut_off(exc: BaseException) -> bool:
    """The line dropped mid-transfer (after the library's own retries): the partial file is worth keeping."""
    return bool(_classes(exc) & {"RemoteProtocolError", "ReadError", "ReadTimeout", "ChunkedEncodingError"})


def _network_failure(exc: BaseException) -> bool:
    """No answer at all: refused, unreachable, timed out."""
    return bool(_classes(exc) & {"TransportError", "ConnectionError", "Timeout", "TimeoutException", "NetworkError"})


def explain(exc: BaseException, repo_id: str, revision: str = "main", name: str = "") -> HubError:
    from huggingface_hub import errors as hub

    where = f"{repo_id}: {name}" if name else repo_id
    retry = f"attention-explorer get-model {repo_id}"
    if isinstance(exc, HubError):
        return exc
    if isinstance(exc, (OfflineError, hub.OfflineModeIsEnabled)):
        return HubError(f"offline (HF_HUB_OFFLINE is set): nothing is downloaded; where there is network run: "
                        f"{retry}")
    # Before "not found": the library's gated error is a kind of RepositoryNotFoundError.
    if isinstance(exc, hub.GatedRepoError):
        return HubError(f"{repo_id} is gated: accept its terms on the Hub and log in (hf auth login) first")
    if isinstance(exc, hub.RepositoryNotFoundError) or getattr(exc, "status", None) == 404 and not name:
        return HubError(f"{repo_id} is not on the Hub ({_endpoint()}), or it is private or gated")
    if isinstance(exc, hub.RevisionNotFoundError):
        return HubError(f"{repo_id} has no revision {revision!r}")
    if isinstance(exc, (hub.RemoteEntryNotFoundError, hub.EntryNotFoundError)):
        return HubError(f"{where} is missing on the Hub; the repository is incomplete")
    if isinstance(exc, hub.HfHubHTTPError):
        status = getattr(getattr(exc, "response", None), "status_code", None)
        return HubError(f"the Hub answered {status or 'an error'} for {where}; try again later")
    if _cut_off(exc):
        return HubError(f"{where}: the connection dropped mid-file; run {retry} again to resume")
    if _network_failure(exc):
        return HubError(f"cannot reach {_endpoint()} (no network?): nothing was changed; where there is network "
                        f"run: {retry}" + (" (the partial download resumes)" if name else ""))
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return HubError(f"the disk holding {_cache()} is full: free some space and run {retry} again "
                        "(the partial download resumes)")
    if isinstance(exc, OSError) and "Consistency check failed" in str(exc):
        return HubError(f"{where} arrived cut short; run {retry} again to resume")
    if isinstance(exc, OSError):
        return HubError(f"{where}: {exc.strerror or exc} ({getattr(exc, 'filename', '') or _cache()})")
    return HubError(f"{where}: {type(exc).__name__}: {exc}")


def _cache() -> str:
    from model.hub.cache import cache_dir

    return str(cache_dir())

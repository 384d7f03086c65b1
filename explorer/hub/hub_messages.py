"""The Hub's download errors and progress line in the window's language (File › Get a model…).

They reach the dialog as model/hub's English (errors.py explains every failure in one line, download.py
and cache.py add their own, progress.py words the progress), with varying parts: a repository, a
file, the endpoint, the command that would resume. Recognised by their form as the window's model
errors are (explorer/ui/message_forms.py). A classroom without network meets the first of them:
"cannot reach https://huggingface.co (no network?)". tests/explorer/test_hub_messages.py makes each
with model/hub's own code.
"""

from __future__ import annotations

from explorer.ui.i18n import N_
from explorer.ui.message_forms import MessageForms

FORMS = (
    # model/hub/errors.py: explain()
    N_("offline (HF_HUB_OFFLINE is set): nothing is downloaded; where there is network run: {command}"),
    N_("{repo} is not on the Hub ({endpoint}), or it is private or gated"),
    N_("{repo} has no revision {revision}"),
    N_("{where} is missing on the Hub; the repository is incomplete"),
    N_("{repo} is gated: accept its terms on the Hub and log in (hf auth login) first"),
    N_("the Hub answered an error for {where}; try again later"),
    N_("the Hub answered {status} for {where}; try again later"),
    N_("{where}: the connection dropped mid-file; run {command} again to resume"),
    # the longer form first: the shorter one would take its last words for part of the command
    N_("cannot reach {endpoint} (no network?): nothing was changed; where there is network run: {command} "
       "(the partial download resumes)"),
    N_("cannot reach {endpoint} (no network?): nothing was changed; where there is network run: {command}"),
    N_("the disk holding {folder} is full: free some space and run {command} again (the partial download resumes)"),
    N_("{where} arrived cut short; run {command} again to resume"),
    # model/hub/download.py
    N_("{repo} is a {kind} model, not a Marian (OPUS-MT) translation model"),
    N_("{repo} is not a Marian (OPUS-MT) translation model: it has no {lacks}"),
    N_("{repo}: the download finished but the cache does not hold every file; run again"),
    N_("{repo}: the Hub gave no ETag or size for {name}; cannot check the download"),
    N_("{repo}: {name} stopped at {got} of {size} bytes; run again to resume"),
    N_("{repo}: {name} arrived damaged (its SHA-256 is not the Hub's); it was removed, run again to download "
       "it afresh"),
    N_("download cancelled; run again to resume where it stopped"),
    # model/hub/cache.py: what was typed under "or any other Hub model"
    N_("{text} is not a Hub repository id (owner/name, e.g. Helsinki-NLP/opus-mt-en-zh)"),
    # explorer/hub/worker.py: anything else, with Python's own words
    N_("Unexpected error: {reason}"),
)
PROGRESS = (  # model/hub/progress.Rate.describe
    N_("{done} of {total} · {speed}/s · {eta} left"),
    N_("{done} of {total}"),
)
_FORMS = MessageForms(FORMS, numbers=("got", "size"))
_PROGRESS = MessageForms(PROGRESS)  # apart: "{done} of {total}" would fit many an error's words


def hub_message(text: str) -> str:
    """``text``, an error line of model/hub, in the window's language where its form is known."""
    return _FORMS.say(text)


def progress_message(text: str) -> str:
    """A download's progress ("12.5 MB of 301.2 MB · 2.1 MB/s · 2m17s left") in the window's language."""
    return _PROGRESS.say(text)

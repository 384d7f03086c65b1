"""``attention-explorer get-model REPO_ID [--revision REV]``: a Marian (OPUS-MT) model from the Hub into the
standard Hugging Face cache, with progress on stderr; afterwards ``--model REPO_ID`` opens it offline.

Run again after an interruption (Ctrl-C, a dropped line, a full disk) and it resumes where it stopped.
"""

from __future__ import annotations

import sys
import time


def _run(a) -> int:
    from model.hub.cache import parse_repo
    from model.hub.catalogue import hub_label
    from model.hub.download import download, plan_download
    from model.hub.progress import Rate, fmt_bytes

    repo_id, revision = parse_repo(a.repo_id)
    plan = plan_download(repo_id, a.revision or revision)
    err = sys.stderr
    tty = err.isatty()
    print(f"{hub_label(repo_id)}: {len(plan.files)} files, {fmt_bytes(plan.total)} (commit {plan.commit[:10]})",
          file=err)
    rate, last = Rate(), [0.0, -1]

    def show(name: str, done: int, total: int) -> None:
        rate.add(done)
        now, tenth = time.monotonic(), int(10 * done / max(total, 1))
        if tty and now - last[0] >= 0.2 or not tty and tenth != last[1]:  # a log gets a line per 10 %
            last[0], last[1] = now, tenth
            text = f"{name}: {rate.describe(total)}"
            err.write(("\r" + text.ljust(90)) if tty else text + "\n")
            err.flush()

    folder = download(plan, show)
    if tty:
        err.write("\n")
    print(f"{repo_id} is ready: attention-explorer --model {repo_id} (files in {folder})")
    return 0


def add_cli(subparsers) -> None:
    p = subparsers.add_parser("get-model", help="download a Marian (OPUS-MT) translation model from the Hugging "
                                                "Face Hub into its cache (resumes an interrupted download)")
    p.add_argument("repo_id", metavar="REPO_ID",
                   help="owner/name on the Hub, e.g. Helsinki-NLP/opus-mt-en-zh (a model's Hub URL works too)")
    p.add_argument("--revision", metavar="REV", help="branch, tag or commit (default: main)")
    p.set_defaults(func=_run)

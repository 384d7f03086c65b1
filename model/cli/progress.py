"""The training progress line of the command line (``train``, ``train --gpus N``)."""

from __future__ import annotations

import math
import sys


def fmt_time(s: float | None) -> str:
    if s is None or math.isnan(s) or math.isinf(s):
        return "?"
    s = int(s)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class ProgressBar:
    """One self-rewriting line on a terminal; a plain line per report otherwise (logs, CI)."""

    def __init__(self, stream=None) -> None:
        stream = stream or sys.stderr  # looked up now, not at import: tests and callers may swap sys.stderr
        self.stream, self.tty = stream, stream.isatty()

    def show(self, p) -> None:
        if p.event == "start":
            self.line(p.message)
            return
        if p.event in ("valid", "checkpoint", "done", "stopped", "error"):
            bleu = f", BLEU {p.valid_bleu:.1f}" if p.valid_bleu is not None else ""
            extra = {"valid": lambda: f"valid loss {p.valid_loss:.3f}{bleu}",
                     "checkpoint": lambda: f"checkpoint {p.checkpoint}"}.get(p.event, lambda: p.message)()
            self.line(f"step {p.step}: {extra}")
            return
        if p.event != "step":
            return
        total = p.max_steps or 0
        bar = ""
        if total:
            done = int(20 * p.step / total)
            bar = f"[{'#' * done}{'.' * (20 - done)}] "
        text = (f"{bar}step {p.step}{'/' + str(total) if total else ''} epoch {p.epoch} loss {p.loss:.3f} "
                f"lr {p.lr:.2e} {p.tokens_per_s / 1000:.1f}k tok/s ETA {fmt_time(p.eta_s)}")
        if self.tty:
            self.stream.write("\r" + text.ljust(100))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def line(self, text: str) -> None:
        self.stream.write(("\r" if self.tty else "") + text.ljust(100 if self.tty else 0) + "\n")
        self.stream.flush()

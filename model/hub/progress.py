"""Bytes, speed and time left of a download, in words, for the command line and the window alike."""

from __future__ import annotations

import time


def fmt_bytes(n: float) -> str:
    """"312.4 MB" (decimal units, as the Hub's pages give sizes)."""
    for unit in ("B", "kB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


class Rate:
    """Speed over the last few seconds (not since the start: a resumed download's first bytes came from
    disk, and a line that slows down should show it) and the time left at that speed."""

    def __init__(self, window_s: float = 5.0, clock=time.monotonic) -> None:
        self.window_s, self.clock = window_s, clock
        self.points: list[tuple[float, int]] = []

    def add(self, done: int) -> None:
        now = self.clock()
        self.points.append((now, done))
        while len(self.points) > 2 and now - self.points[0][0] > self.window_s:
            self.points.pop(0)

    def speed(self) -> float | None:
        """Bytes per second, None until two reports at least 0.2 s apart."""
        if len(self.points) < 2:
            return None
        (t0, d0), (t1, d1) = self.points[0], self.points[-1]
        return (d1 - d0) / (t1 - t0) if t1 - t0 >= 0.2 else None

    def eta_s(self, total: int) -> float | None:
        speed = self.speed()
        if not speed or speed <= 0 or not self.points:
            return None
        return max(total - self.points[-1][1], 0) / speed

    def describe(self, total: int) -> str:
        """"12.5 MB of 301.2 MB · 2.1 MB/s · 2m17s left"."""
        from model.cli.progress import fmt_time

        done = self.points[-1][1] if self.points else 0
        text = f"{fmt_bytes(done)} of {fmt_bytes(total)}"
        speed = self.speed()
        if speed:
            text += f" · {fmt_bytes(speed)}/s · {fmt_time(self.eta_s(total))} left"
        return text

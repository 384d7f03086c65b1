"""GUI latency with real widgets (offscreen): translate → painted, head and layer switches, the grid, cold start.

The window is the app's own ``MainWindow`` with its ``Controller`` and model worker thread, showing the
benchmark model (see ``benchmarks.latency``). A figure is the time from the action (a call on the
controller or the attention panel) until the view on screen has *finished* painting the result: a paint
probe on the view's viewport notices the first Paint event after the action, and a zero-time timer
queued from there fires once that whole paint pass is over. Qt batches repaints (the offscreen and xcb
platforms wait about 5 ms after an ``update()``), which is part of what a user waits for. The "settled"
figures of a head or layer switch wait on: until the window has run no paint pass for 50 ms, and report
when the last pass ended and how many passes there were (layout requests that climb the window after
the map's first paint add passes, each repainting what it touches).

Cold start runs a fresh ``python`` that does what ``attention-explorer`` does up to the first frame
(``explorer.app.run_gui``: QApplication, theme, MainWindow, show) and prints when the window's first
paint is done, measured from just before the process was spawned.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
from PySide6.QtWidgets import QApplication

from benchmarks.machine import percentile, summary_ms

REPO_ROOT = Path(__file__).resolve().parents[1]
WINDOW_SIZE = (1600, 1000)

COLD_START = r"""
import sys, time
t_spawn = float(sys.argv[1])
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from explorer.ui import style
app = QApplication(sys.argv[:1])
app.setApplicationName("Attention Explorer")
style.apply_theme(app)
from explorer.window.main_window import MainWindow
window = MainWindow(show_dialogs=False, remember_recent=False)
window.resize(1600, 1000)
def done():
    print(f"FIRST_PAINT {time.time() - t_spawn:.4f}", flush=True)
    app.quit()
class Probe(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, done)
        return False
probe = Probe()
window.installEventFilter(probe)
window.show()
app.exec()
window.close()
"""


class PaintProbe(QObject):
    """Notes when a widget has finished its first paint after ``arm()``."""

    def __init__(self) -> None:
        super().__init__()
        self.armed, self.done_at = False, None
        self._watched: QObject | None = None

    def watch(self, widget) -> None:
        if self._watched is not None:
            self._watched.removeEventFilter(self)
        self._watched = widget
        widget.installEventFilter(self)

    def arm(self) -> None:
        self.armed, self.done_at = True, None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if self.armed and event.type() == QEvent.Type.Paint:
            self.armed = False
            QTimer.singleShot(0, self._finished)  # runs once the current paint pass is over
        return False

    def _finished(self) -> None:
        self.done_at = time.perf_counter()


class PaintPasses(QObject):
    """Counts the window's paint passes (one UpdateRequest each) and notes when the latest one ended.

    A head switch's first paint of the map is what ``PaintProbe`` times; layout requests that climb the
    window afterwards can add passes of their own, repainting what they touch, so the "settled" figures
    wait until no pass has run for ``QUIET_S`` and report when the last one ended."""

    def __init__(self, window) -> None:
        super().__init__()
        self.count, self.last_end = 0, time.perf_counter()
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.UpdateRequest:
            self.count += 1
            QTimer.singleShot(0, self._ended)  # after the pass this request starts
        return False

    def _ended(self) -> None:
        self.last_end = time.perf_counter()


QUIET_S = 0.05  # no paint pass for this long: the window has settled


def wait_for(predicate, timeout_s: float = 60.0) -> bool:
    """Run the event loop until predicate() holds (checked every millisecond) or the timeout passes."""
    if predicate():
        return True
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: loop.quit() if predicate() or time.perf_counter() > deadline else None)
    timer.start()
    loop.exec()
    timer.stop()
    return predicate()


def cold_start(repeats: int) -> list[float]:
    """Seconds from spawning ``python`` to the first painted window, one fresh process per repeat."""
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        env["ATTENTION_EXPLORER_SETTINGS"] = str(Path(tmp) / "settings.ini")  # never the user's settings
        for _ in range(repeats):
            t_spawn = time.time()
            out = subprocess.run([sys.executable, "-c", COLD_START, repr(t_spawn)], cwd=REPO_ROOT, env=env,
                                 capture_output=True, text=True, timeout=120, check=False)
            line = [ln for ln in out.stdout.splitlines() if ln.startswith("FIRST_PAINT")]
            if out.returncode != 0 or not line:
                raise RuntimeError(f"cold start failed (exit {out.returncode}): {out.stderr.strip()[-500:]}")
            times.append(float(line[0].split()[1]))
    return times


def run(model_folder: Path, sentence: str, quick: bool = False, log=print) -> dict:
    """All GUI figures; needs a QApplication (the caller makes it, offscreen when headless)."""
    from explorer.window.main_window import MainWindow

    app = QApplication.instance()
    window = MainWindow(show_dialogs=False, remember_recent=False)
    window.resize(*WINDOW_SIZE)
    window.show()
    try:
        return _measure(app, window, model_folder, sentence, quick, log)
    finally:
        window.close()  # stops the worker thread


def _measure(app, window, model_folder: Path, sentence: str, quick: bool, log) -> dict:
    c, panel = window.controller, window.attention_panel
    loaded: list = []
    c.model_loaded.connect(loaded.append)
    errors: list = []
    c.error.connect(lambda kind, message: errors.append(f"{kind}: {message}"))
    window.open_model(str(model_folder))
    if not wait_for(lambda: loaded or errors, 300):
        raise RuntimeError("the model did not load within 5 minutes")
    if errors:
        raise RuntimeError(errors[0])
    info = loaded[0]
    probe = PaintProbe()
    # Connected after the window's own slot, so the views hold the new maps when the probe is armed:
    # the next paint is the one that shows them.
    c.translation_ready.connect(lambda _translation: probe.arm())

    def translate_once() -> None:
        probe.watch(panel.heatmap.canvas.viewport())
        probe.armed, probe.done_at = False, None
        c.translate(sentence)
        if not wait_for(lambda: probe.done_at is not None, 120):
            raise RuntimeError(f"no painted translation within 2 minutes ({errors[-1:] or 'no error'})")

    passes = PaintPasses(window)
    settled: dict[str, list[float]] = {"head_switch": [], "layer_switch": []}
    pass_counts: dict[str, list[int]] = {"head_switch": [], "layer_switch": []}

    def switch(action, viewport) -> None:
        probe.watch(viewport)
        probe.arm()
        action()
        if not wait_for(lambda: probe.done_at is not None, 30):
            raise RuntimeError("the view did not repaint within 30 s")

    def settle(name: str, t0: float, count0: int) -> None:
        wait_for(lambda: time.perf_counter() - passes.last_end > QUIET_S, 30)
        settled[name].append(passes.last_end - t0)
        pass_counts[name].append(passes.count - count0)

    window.show_view("head")
    translate_once()  # warm-up: the first answer also swaps the empty state for the panel
    wait_for(lambda: False, 0.2)  # let deferred layout settle
    rounds = 3 if quick else 15
    n_layers, n_heads = info.n_layers, info.n_heads
    times: dict[str, list[float]] = {"translate": [], "head_switch": [], "layer_switch": [], "grid": []}
    kinds = ("encoder", "cross", "decoder")
    log(f"  gui: {rounds} rounds of translate / head / layer / grid")
    for r in range(rounds):
        window.show_view("head")
        wait_for(lambda: False, 0.05)
        t0 = time.perf_counter()
        translate_once()
        times["translate"].append(probe.done_at - t0)
        kind, layer, head, _ = panel.state()
        for name, new in (("head_switch", (kind, layer, (head + 1) % n_heads)),
                          ("layer_switch", (kind, (layer + 1) % n_layers, (head + 1) % n_heads))):
            wait_for(lambda: time.perf_counter() - passes.last_end > QUIET_S, 30)
            t0, count0 = time.perf_counter(), passes.count
            switch(lambda new=new: panel.set_state(*new), panel.heatmap.canvas.viewport())
            times[name].append(probe.done_at - t0)
            settle(name, t0, count0)
        window.show_view("grid")
        wait_for(lambda: False, 0.05)
        t0 = time.perf_counter()
        switch(lambda kind=kinds[(r + 1) % 3]: panel.set_state(kind, 0, 0), panel.grid.canvas.viewport())
        times["grid"].append(probe.done_at - t0)
    cold = cold_start(1 if quick else 3)
    stats = {name: summary_ms(ts) for name, ts in times.items()}
    return {
        "paint_ms_p50": stats["translate"]["p50"],
        "head_switch_ms_p50": stats["head_switch"]["p50"],
        "layer_switch_ms_p50": stats["layer_switch"]["p50"],
        "grid_ms_p50": stats["grid"]["p50"],
        "head_switch_settled_ms_p50": round(percentile(settled["head_switch"], 50) * 1e3, 2),
        "layer_switch_settled_ms_p50": round(percentile(settled["layer_switch"], 50) * 1e3, 2),
        "head_switch_paint_passes_p50": percentile(pass_counts["head_switch"], 50),
        "layer_switch_paint_passes_p50": percentile(pass_counts["layer_switch"], 50),
        "cold_start_s": percentile(cold, 50),
        "gui": {"window": list(WINDOW_SIZE), "sentence": sentence, "rounds": rounds, "layers": n_layers,
                "heads": n_heads, "cases_ms": stats, "cold_start_s": [round(t, 3) for t in cold],
                "platform": app.platformName()},
    }


# A classroom sentence: 11 pieces with </s>, few enough that every cell of the Head map carries its number
# (the main benchmark's 20-piece sentence has none, so it leaves the numbers' cost out).
SHORT_SENTENCE = "The weather is nice today and I like apples."


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    p = argparse.ArgumentParser(prog="python -m benchmarks.gui_latency", description=__doc__.split("\n")[0])
    p.add_argument("--model", metavar="DIR", help="model folder (default: the built-in model)")
    p.add_argument("--sentence", default=SHORT_SENTENCE)
    a = p.parse_args(argv)
    from model.checkpoint import default_model_dir

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ATTENTION_EXPLORER_SETTINGS"] = str(Path(tmp) / "settings.ini")  # the user's are left alone
        out = run(Path(a.model or default_model_dir()), a.sentence, log=lambda m: print(m, file=sys.stderr))
    del app
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

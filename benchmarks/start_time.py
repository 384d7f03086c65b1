"""Start time of whole processes, as a user meets it: ``attention-explorer`` to its first painted window,
``attention-explorer --screenshot`` from spawn to exit, and ``attention-explorer translate`` from spawn to exit.

Each runs the console script's own entry point (``attention_explorer.main``) in a fresh ``python``, timed
from just before the process is spawned. A shared machine only ever adds time, so the headline figure is
the *best of N* runs (the JSON keeps every run); on a loaded machine it is still an upper bound.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "I love apples."
# The console script: the packaging shim first on sys.path, as an installed or editable app has it.
ENTRY = ("import sys; sys.path.insert(0, {packaging!r}); import attention_explorer; "
         "sys.argv[1:] = {argv!r}; sys.exit(attention_explorer.main())")
# The window's start up to its first frame: the real main(), whose after_first_paint (the moment the window
# starts the model's load) is wrapped to print the time and quit.
FIRST_PAINT = r"""
import sys, time
t_spawn = float(sys.argv[1])
sys.path.insert(0, sys.argv[2])
import attention_explorer
attention_explorer.use()
import explorer.app as app
import explorer.ui.startup as startup  # Qt-free at import: the timing still starts with main()
real = startup.after_first_paint
def first_paint(widget, callback, fallback_ms=1000):
    from PySide6.QtWidgets import QApplication
    def done():
        print("FIRST_PAINT", time.time() - t_spawn, flush=True)
        QApplication.instance().quit()
    real(widget, done, fallback_ms)
startup.after_first_paint = first_paint
sys.exit(app.main([]))
"""


def _env(tmp: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["QT_QPA_PLATFORM"] = os.environ.get("QT_QPA_PLATFORM", "offscreen")
    env["ATTENTION_EXPLORER_SETTINGS"] = str(Path(tmp) / "settings.ini")  # never the user's settings
    return env


def _whole(argv: list[str], env: dict, cwd: str) -> float:
    code = ENTRY.format(packaging=str(REPO_ROOT / "packaging"), argv=argv)
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=300, check=False)
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:2])} failed (exit {out.returncode}): {out.stderr.strip()[-500:]}")
    return seconds


def _first_paint(env: dict, cwd: str) -> float:
    t_spawn = time.time()
    out = subprocess.run([sys.executable, "-c", FIRST_PAINT, repr(t_spawn), str(REPO_ROOT / "packaging")],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("FIRST_PAINT")]
    if out.returncode != 0 or not line:
        raise RuntimeError(f"the window did not paint (exit {out.returncode}): {out.stderr.strip()[-500:]}")
    return float(line[0].split()[1])


def run(quick: bool = False, log=print) -> dict:
    repeats = 1 if quick else 5
    times: dict[str, list[float]] = {"window": [], "screenshot": [], "translate": []}
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        shot = str(Path(tmp) / "shot.png")
        for _ in range(repeats):  # interleaved, so that a burst of load elsewhere hits all three alike
            times["window"].append(_first_paint(env, tmp))
            times["screenshot"].append(_whole(["--screenshot", shot, "--sentence", SENTENCE], env, tmp))
            times["translate"].append(_whole(["translate", SENTENCE], env, tmp))
    best = {name: min(ts) for name, ts in times.items()}
    log(f"  start: window painted {best['window']:.2f} s, screenshot {best['screenshot']:.2f} s, "
        f"CLI translate {best['translate']:.2f} s (best of {repeats})")
    return {"start_window_s": best["window"], "start_screenshot_s": best["screenshot"],
            "start_translate_s": best["translate"],
            "start": {"repeats": repeats, "statistic": "best of N", "sentence": SENTENCE,
                      "runs_s": {k: [round(t, 3) for t in ts] for k, ts in times.items()}}}


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick="--quick" in sys.argv, log=lambda m: print(m, file=sys.stderr)), indent=2))

"""The screenshot set of issue 31: every view a class sees, in English and in Chinese, at the sizes of a
projector (1024 × 768, with fonts ×1 and after Ctrl+= twice) and of a desk (1600 × 1000).

    python -m tools.screenshot_set OUT_DIR [--lang en] [--view head] [--config 1024x768]

writes ``OUT_DIR/{lang}-{config}-{view}.png`` for the views Head, All heads (grid), Step by step, PE, the
clock, Train *while a run is training* (curves and the probe's maps drawn), Workbench (head importance
with its numbers) and the formula dock open over the Head map, using the built-in models (en-de for the
English window, en-zh for the Chinese one, as the app starts them). A developer script, not shipped.

Like ``attention-explorer --screenshot`` it runs headless (offscreen) and grabs the window itself, but in
one process per language: loading torch and the model once, running head importance once and one short
training run for all of a language's pictures keeps the whole set to a few minutes on two cores. The
window's settings and the importance cache go to a temporary folder, never to the user's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VIEWS = ("head", "grid", "steps", "pe", "clock", "workbench", "formula", "train")
# name: (width, height, Ctrl+= presses). 1008 × 728: a 1024 × 768 screen less a window's title bar and
# borders, the size the projector layout tests use.
CONFIGS = {"1024x768": (1024, 768, 0), "1024x768-zoom2": (1024, 768, 2), "1008x728": (1008, 728, 0),
           "1600x1000": (1600, 1000, 0)}
LANGUAGES = ("en", "zh_CN")
MODELS = {"en": "en-de", "zh_CN": "en-zh"}  # the built-in model each window language starts on
SENTENCE = "The cat sat on the mat."
IMPORTANCE_SENTENCES = 6  # enough for numbers in every cell; the held-out set's first few
TRAIN_STEP = 200  # the reverse task's anti-diagonal has begun to show (training/defaults.py), ~15 s in
SETTLE_MS = 400  # pyqtgraph's deferred layout, and the fitting of cell numbers to the cells
WAIT_MS = 240_000  # any one wait (a load, the importance run, the training's first probes)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.screenshot_set", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the PNGs into (created)")
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="a language (repeatable; default both)")
    parser.add_argument("--view", action="append", choices=VIEWS, help="a view (repeatable; default all)")
    parser.add_argument("--config", action="append", choices=tuple(CONFIGS), help="a size (repeatable; default all)")
    parser.add_argument("--one-language", choices=LANGUAGES, help=argparse.SUPPRESS)  # the child process
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    views, configs = args.view or list(VIEWS), args.config or list(CONFIGS)
    if args.one_language:
        return run_language(args.one_language, views, configs, args.out)
    rc = 0
    for lang in args.lang or LANGUAGES:
        # A process per language: the app's translator and its model are process-wide.
        with tempfile.TemporaryDirectory(prefix="screenshot-set-") as tmp:
            env = {**os.environ, "ATTENTION_EXPLORER_SETTINGS": str(Path(tmp) / "settings.ini"),
                   "ATTENTION_EXPLORER_CACHE": str(Path(tmp) / "cache"), "TMPDIR": tmp}
            env.setdefault("QT_QPA_PLATFORM", "offscreen")
            command = [sys.executable, "-m", "tools.screenshot_set", str(args.out), "--one-language", lang]
            command += [f"--view={v}" for v in views] + [f"--config={c}" for c in configs]
            start = time.monotonic()
            rc = subprocess.run(command, env=env).returncode or rc
            print(f"{lang}: {time.monotonic() - start:.0f} s", file=sys.stderr)
    return rc


class Script:
    """Runs a generator on the Qt event loop: it yields milliseconds to wait, or a predicate to wait for."""

    def __init__(self, app, steps) -> None:
        self.app, self.steps, self.rc = app, steps, 0
        self.deadline = 0.0

    def start(self) -> int:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self._next)
        self.app.exec()
        return self.rc

    def _next(self, value=None) -> None:
        from PySide6.QtCore import QTimer

        try:
            wanted = self.steps.send(value)
        except StopIteration:
            self.app.quit()
            return
        except Exception as exc:  # a failed step ends the run with its reason, not a hung window
            self._fail(exc)
            return
        if callable(wanted):
            self.deadline = time.monotonic() + WAIT_MS / 1000
            self._poll(wanted)
        else:
            QTimer.singleShot(int(wanted), self._next)

    def _fail(self, exc: BaseException) -> None:
        print(f"screenshot_set: {type(exc).__name__}: {exc}", file=sys.stderr)
        self.rc = 1
        self.app.quit()

    def _poll(self, predicate) -> None:
        from PySide6.QtCore import QTimer

        if predicate():
            QTimer.singleShot(0, self._next)
        elif time.monotonic() > self.deadline:
            self.steps.close()
            self._fail(TimeoutError(f"waited {WAIT_MS // 1000} s for {predicate.__doc__ or predicate}"))
        else:
            QTimer.singleShot(100, lambda: self._poll(predicate))


def run_language(lang: str, views: list[str], configs: list[str], out: Path) -> int:
    from PySide6.QtWidgets import QApplication

    from explorer.ui import style
    from explorer.ui.gc_guard import MainThreadGC
    from explorer.ui.startup import quiet_headless_warnings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    quiet_headless_warnings(app)
    app.setApplicationName("Attention Explorer")
    style.apply_theme(app)
    app.gc_guard = MainThreadGC(app)

    from explorer.window.language_menu import set_language
    from explorer.window.main_window import MainWindow

    window = MainWindow(show_dialogs=False, remember_recent=False)
    if lang != "en":
        set_language(window, lang, remember=False)
    window.translate_panel.set_text(SENTENCE)
    rc = Script(app, shots(window, lang, views, configs, out)).start()
    window.close()  # stops the worker threads before the interpreter tears Qt down
    return rc


def shots(window, lang: str, views: list[str], configs: list[str], out: Path):
    """The whole run, step by step (see Script)."""
    from model.builtin import builtin_model

    c = window.controller
    got = []
    c.translation_ready.connect(got.append)
    window.resize(*CONFIGS[configs[0]][:2])
    window.show()
    window.open_model(builtin_model(MODELS[lang]).path)
    yield lambda: bool(got)
    if "workbench" in views:
        yield from head_importance(window)
    for config in configs:
        yield from apply_config(window, config)
        for view in views:
            if view != "train":
                yield from show(window, view, got)
                save(window, out / f"{lang}-{config}-{view}.png", CONFIGS[config])
    if "train" in views:
        yield from train_shots(window, lang, configs, out)


def apply_config(window, config: str):
    """The window's size, and its fonts as Ctrl+= pressed that many times from ×1."""
    width, height, zoom = CONFIGS[config]
    window.reset_zoom()
    for _ in range(zoom):
        window.zoom_in()
    window.resize(width, height)
    yield SETTLE_MS
    # Each picture shows the window as opened at its size: the sentence column shared as at first show,
    # not as the previous (wider) picture left the splitter.
    window.fit_sidebar()
    yield SETTLE_MS


def show(window, view: str, got: list):
    """Bring ``view`` forward; the Step tab and the formula dock translate again, with what they need."""
    dock = window.formula_dock
    if view != "formula" and dock.isVisible():
        dock.toggleViewAction().trigger()
    before = len(got)
    if view == "workbench":
        window.show_tab("Workbench")
        window.workbench.tabs.setCurrentWidget(window.workbench.importance_view)
    elif view == "formula":
        window.show_view("head")
        if not dock.isVisible():
            dock.toggleViewAction().trigger()
        if window.controller.translation.vectors is None:
            yield lambda: len(got) > before and got[-1].vectors is not None
        maps = got[-1].attention
        # A cell worth explaining: the last source piece's query, on its strongest key.
        row = len(maps.source_tokens) - 2
        window.formula_dock.widget().select_cell(row, int(window.attention_panel.current_matrix()[row].argmax()))
    else:
        window.show_view(view)
        if view == "steps" and window.controller.translation.steps is None:
            yield lambda: len(got) > before and got[-1].steps is not None
    yield SETTLE_MS


def save(window, path: Path, config: tuple[int, int, int]) -> None:
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    if not window.grab().toImage().save(str(path)):
        raise OSError(f"could not write {path}")
    if (window.width(), window.height()) != config[:2]:
        print(f"screenshot_set: {path.name}: the window cannot be {config[0]}x{config[1]}; "
              f"saved at {window.width()}x{window.height()}", file=sys.stderr)


def head_importance(window):
    """Run head importance on the first few held-out sentences, as its Run button would."""
    bench = window.workbench
    view = bench.importance_view
    yield lambda: view.run_bar.run_button.isEnabled()
    view.run_bar.count.setValue(IMPORTANCE_SENTENCES)  # what the picture says it ran on
    view.run_bar.run_button.click()
    # The exact result, not the gradient estimate shown on the way (view.result stays None for that).
    yield lambda: view.result is not None


def train_shots(window, lang: str, configs: list[str], out: Path):
    """A short reverse-task run started from the Train tab, captured while it trains."""
    panel = window.train_panel
    form = panel.form
    if window.formula_dock.isVisible():  # the formula's picture came last: its dock would take the height
        window.formula_dock.toggleViewAction().trigger()
    window.show_tab("Train")
    form.corpus_combo.setCurrentIndex(form.corpus_combo.findData("task"))
    form.task_combo.setCurrentText("reverse")
    form.task_size_spin.setValue(2000)
    form.max_steps_spin.setValue(2000)  # far more than the pictures need: it is stopped after them
    form.probe_every_spin.setValue(10)
    form.valid_every_spin.setValue(0)
    form.checkpoint_every_spin.setValue(0)
    form.out_field.edit.setText(str(Path(tempfile.gettempdir()) / "train-run"))
    if not panel.start():
        raise RuntimeError(f"the training run did not start: {panel.error_text()}")
    def far_enough() -> bool:
        """the run's step TRAIN_STEP"""
        return bool(panel.snapshots()) and panel.last_record is not None and panel.last_record.step >= TRAIN_STEP

    yield far_enough
    for config in configs:
        yield from apply_config(window, config)
        if not panel.is_training():
            raise RuntimeError("the run ended before it was captured")
        save(window, out / f"{lang}-{config}-train.png", CONFIGS[config])
    panel.stop()
    yield panel.is_idle


if __name__ == "__main__":
    sys.exit(main())

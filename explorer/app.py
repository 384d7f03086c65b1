"""``attention-explorer``: the command-line entry point of the app.

Two faces share one command. ``attention-explorer train|translate|heads|align|… …`` (every command of
``python -m model.cli``, read from its parser) hands the arguments to the model's command line *without
importing Qt*, so training on a headless server never needs a display. Anything else opens the window.

Cold start: only Qt and the views are imported before the window is shown; the model worker imports
torch on its own thread once the window has painted, so the first frame appears in well under 3 s.

``--screenshot OUT.png`` loads the model, translates ``--sentence``, shows the chosen view, saves a PNG
of the window and exits (0; 2 for a bad model folder or sentence, 1 for anything else, with a
one-line message on stderr). It works headless with
``QT_QPA_PLATFORM=offscreen`` and is how documentation images and CI smoke tests are made.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial

from model.records import KINDS

VIEWS = ("grid", "head", "lines", "pe", "clock")
LANGUAGE_CODES = ("en", "zh_CN")  # explorer.ui.i18n.LANGUAGES; spelled out so the model commands never load Qt
SCREENSHOT_TIMEOUT_MS = 300_000  # a generous cap so a hung load cannot keep CI waiting forever
SETTLE_MS = 200  # lets pyqtgraph finish its deferred layout before the window is grabbed


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1600x1000, got {text!r}")
    if w < 200 or h < 150:
        raise argparse.ArgumentTypeError(f"window size {text} is too small (at least 200x150)")
    return w, h


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("layers and heads are numbered from 1")
    return value


def _version() -> str:
    from model.cli import version  # torch-free: model.cli imports the model only inside its commands

    return version()


def cli_commands() -> tuple[str, ...]:
    """The model command line's commands, read from its own parser: one list, so a command added there
    (``heads``, ``align``) is never taken for window arguments here. Torch-free and without Qt."""
    from model.cli import build_parser as build_model_parser

    for action in build_model_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return tuple(action.choices)
    return ()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attention-explorer",
        description="Look inside a Transformer translation model: every attention head, live.",
        epilog=f"Model commands (no window): attention-explorer {{{','.join(cli_commands())}}} --help",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("--model", metavar="DIR",
                        help="model folder to open, a built-in model by name (en-de, en-zh) or a Hub model "
                             "downloaded with get-model (owner/name) (default: the Models menu's last choice, "
                             "else en-zh for the Chinese window, en-de otherwise)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="save a PNG of the window and exit")
    parser.add_argument("--sentence", metavar="TEXT", help="sentence to translate first")
    parser.add_argument("--view", choices=VIEWS, help="attention view to show, or 'pe' / 'clock' (positional encoding)")
    parser.add_argument("--kind", choices=KINDS, help="attention kind to show")
    parser.add_argument("--layer", type=_positive, metavar="N", help="layer to show, from 1")
    parser.add_argument("--head", type=_positive, metavar="N", help="head to show, from 1")
    parser.add_argument("--size", type=_size, default=None, metavar="WxH",
                        help="window size (default 1600x1000, or the screen's free area less the frame, if smaller)")
    parser.add_argument("--font-scale", type=float, default=1.0, metavar="F",
                        help="scale all fonts, e.g. 1.5 for a large room")
    parser.add_argument("--lang", choices=LANGUAGE_CODES, default=None,
                        help="language of the window: en (English) or zh_CN (简体中文); remembered "
                             "(default: the last one chosen, else English)")
    return parser


def one_line(message: str) -> str:
    """Messages may span lines; a command-line failure should print exactly one."""
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``attention-explorer`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-"):
        commands = cli_commands()
        if argv[0] in commands:
            from model.cli import main as cli_main  # no Qt on this path

            return int(cli_main(argv) or 0)
        # The window takes no positional arguments: a bare word is a mistyped command, not a sentence.
        import difflib

        near = difflib.get_close_matches(argv[0], commands, n=1)
        hint = f"did you mean {near[0]}? " if near else ""
        print(f"attention-explorer: {argv[0]!r} is not a command; {hint}(commands: {', '.join(commands)}; "
              "the window's options: attention-explorer --help)", file=sys.stderr)
        return 2
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has already printed
        return int(exc.code or 0)
    return run_gui(args)


def first_model(window, args: argparse.Namespace, language: str) -> str | None:
    """The folder to open first: --model (a path, or a built-in name such as en-zh), else the built-in model
    of the user's last Models pick or of the window's language; None: the default built-in model. A
    screenshot ignores the remembered pick (it is a document of the options given)."""
    import os

    from model.builtin import ENV, resolve_model_arg

    if args.model:
        return str(resolve_model_arg(args.model))
    if os.environ.get(ENV):  # an explicit default folder (tests, benchmarks) is not overridden
        return None
    from explorer.window.models_menu import start_model
    settings = window.settings if not args.screenshot else _NoSettings()
    path = start_model(settings, language)
    return str(path) if path is not None else None


class _NoSettings:
    def value(self, key, default=None):
        return default


def run_gui(args: argparse.Namespace) -> int:
    if sys.platform.startswith("linux"):
        from explorer.ui.platform_check import no_display, xcb_problem

        problem = no_display(screenshot=bool(args.screenshot)) or xcb_problem()
        if problem:  # Qt itself would abort with a core dump and a misleading message
            print(f"attention-explorer: {problem}", file=sys.stderr)
            return 2
    from PySide6.QtWidgets import QApplication

    from explorer.ui import style
    from explorer.ui.startup import after_first_paint, quiet_headless_warnings
    from explorer.window.view_state import apply_state_once

    app = QApplication.instance() or QApplication(sys.argv[:1])
    quiet_headless_warnings(app)
    app.setApplicationName("Attention Explorer")
    app.setOrganizationName("AttentionExplorer")
    app.setDesktopFileName("attention-explorer")  # lets Wayland docks match the .desktop file
    app.setWindowIcon(style.app_icon())
    style.apply_theme(app)
    from explorer.ui.gc_guard import MainThreadGC

    app.gc_guard = MainThreadGC(app)  # no worker thread may collect the GUI's Qt objects (see gc_guard)

    from explorer.ui.i18n import SETTINGS_KEY
    from explorer.window.display import DEFAULT_SIZE
    from explorer.window.language_menu import saved_language, set_language
    from explorer.window.main_window import MainWindow  # after QApplication: views may create fonts

    screenshot = bool(args.screenshot)
    window = MainWindow(show_dialogs=not screenshot, remember_recent=not screenshot)
    window.controller.model_loaded.connect(app.gc_guard.settle)  # later GUI-thread passes stay short
    # A screenshot is a document: its language is the one asked for, never a leftover setting.
    language = args.lang or ("en" if screenshot else saved_language(window.settings))
    if language != "en":  # a problem (a missing translation file) is one line on stderr; English then
        set_language(window, language, remember=args.lang is not None and not screenshot)
    elif args.lang and not screenshot:
        window.settings.setValue(SETTINGS_KEY, "en")
    window.set_font_scale(args.font_scale)
    if screenshot or args.size is not None:
        # An explicit size is honoured exactly (a documentation image must be the size asked for);
        # otherwise the window starts as large as the default allows on this screen.
        args.size = args.size or (DEFAULT_SIZE.width(), DEFAULT_SIZE.height())
        window.resize(*args.size)
    else:
        window.fit_to_screen(DEFAULT_SIZE)
    if args.sentence is not None:
        window.translate_panel.set_text(args.sentence)
    if args.view:
        window.show_view(args.view)
    if screenshot:
        return _run_screenshot(app, window, args)

    apply_state_once(window, args, on_error=window.show_status)
    first = first_model(window, args, language)
    start = partial(window.open_model, first) if first else window.load_default_model
    # The worker's torch import competes with the GUI thread for the GIL; starting it only after
    # the first frame is on screen keeps the window from appearing late and blank.
    after_first_paint(window, start)
    window.show()
    return app.exec()


def _run_screenshot(app, window, args) -> int:
    from PySide6.QtCore import QTimer

    from explorer.translate.worker import UNEXPECTED
    from explorer.window.view_state import select_state

    result = {"rc": 1}

    def finish(rc: int, message: str = "") -> None:
        if result.get("done"):
            return  # the first outcome wins; a late error must not overwrite a saved screenshot
        result["done"] = True
        if message:
            print(f"attention-explorer: {one_line(message)}", file=sys.stderr)
        result["rc"] = rc
        app.exit(rc)

    def on_translation(_translation) -> None:
        window.controller.translation_ready.disconnect(on_translation)
        try:
            if args.kind or args.layer or args.head:
                select_state(window, args)
        except ValueError as exc:
            finish(2, str(exc))
            return
        QTimer.singleShot(SETTLE_MS, save)

    def save() -> None:
        app.processEvents()
        image = window.grab().toImage()
        if image.isNull() or not image.save(args.screenshot):
            finish(1, f"could not write the screenshot to {args.screenshot}")
            return
        if (window.width(), window.height()) != tuple(args.size):
            # Qt will not shrink a window below its widgets' minimum size; say so rather than
            # let a documentation build silently get a differently sized image.
            print(f"attention-explorer: warning: the window cannot be {args.size[0]}x{args.size[1]}; "
                  f"saved at {window.width()}x{window.height()}", file=sys.stderr)
        finish(0)

    c = window.controller
    # A bad --model folder or sentence is the user's error (2); only an unexpected failure is 1.
    c.error.connect(lambda _kind, message: finish(1 if message.startswith(UNEXPECTED) else 2, message))
    c.no_default_model.connect(
        lambda: finish(1, "no built-in model is installed; pass --model DIR")
    )
    c.translation_ready.connect(on_translation)
    QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, lambda: finish(1, "timed out waiting for the model"))

    if not window.translate_panel.text():
        finish(2, "--sentence is empty: give a sentence to translate")
        return result["rc"]
    window.show()
    first = first_model(window, args, args.lang or "en")
    if first:
        window.open_model(first)
    else:
        window.load_default_model()
    app.exec()
    window.close()  # stops the worker thread before the interpreter tears Qt down
    return result["rc"]


if __name__ == "__main__":
    sys.exit(main())

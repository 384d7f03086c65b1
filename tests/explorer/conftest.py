"""Shared fixtures for the explorer tests: headless Qt and synthetic attention maps (no torch)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest

from model.records import AttentionMaps

TARGET = ("<s>", "▁Das", "▁Haus", "▁ist")


def _softmax_rows(logits: np.ndarray, masked: np.ndarray | None = None) -> np.ndarray:
    if masked is not None:
        logits = np.where(masked, -np.inf, logits)
    logits = logits - logits.max(axis=-1, keepdims=True)
    weights = np.exp(logits)
    return (weights / weights.sum(axis=-1, keepdims=True)).astype(np.float32)


def make_synthetic_maps(n_layers: int = 2, n_heads: int = 4, source=None, target=None,
                        seed: int = 0) -> AttentionMaps:
    """Random softmax rows; decoder self-attention is exactly 0 above the diagonal (causal mask)."""
    source = tuple(source or ("▁The", "▁house", "▁is", "▁big", "</s>"))
    target = tuple(target or TARGET)
    s, t = len(source), len(target)
    rng = np.random.default_rng(seed)
    # A temperature of 2 makes rows peaked enough to look like real attention, not uniform noise.
    encoder = _softmax_rows(2.0 * rng.standard_normal((n_layers, n_heads, s, s)))
    causal = np.triu(np.ones((t, t), dtype=bool), k=1)
    decoder = _softmax_rows(2.0 * rng.standard_normal((n_layers, n_heads, t, t)), causal)
    cross = _softmax_rows(2.0 * rng.standard_normal((n_layers, n_heads, t, s)))
    predicted = target[1:] + ("▁groß",)
    return AttentionMaps(encoder, decoder, cross, source, target, predicted)


@pytest.fixture
def synthetic_maps() -> AttentionMaps:
    """L=2, H=4, S=5 source pieces, T=4 target pieces, seeded."""
    maps = make_synthetic_maps()
    assert np.all(np.triu(maps.decoder_self, k=1) == 0.0)
    return maps


# -- the application shell (main window, controller, worker) --------------------------------------
# Settings are redirected into each test's tmp folder so nothing touches the user's real settings. A
# test that leaves a QThread running fails: a running QThread destroyed at interpreter exit aborts the
# whole process, and the crash would be blamed on whichever test happened to run last.
# ``fake_model`` swaps the worker's lazily imported ``model.checkpoint`` / ``model.decoding.decode`` for small
# torch-free stand-ins that return synthetic records, so the shell is testable without a trained model.

import dataclasses  # noqa: E402
import gc  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402
from pathlib import Path  # noqa: E402

from PySide6.QtCore import QEvent, QObject, QSettings, QThread, Signal  # noqa: E402
from PySide6.QtGui import QFont  # noqa: E402

from model.errors import CheckpointError, UserError  # noqa: E402
from model.records import AttentionVectors, DecodeSteps, HeadVectors, Hypothesis, ModelInfo, Translation  # noqa: E402


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, monkeypatch):
    """Point the app's QSettings (and any default-constructed QSettings) into the test's tmp dir."""
    folder = tmp_path / "settings"
    folder.mkdir()
    monkeypatch.setenv("ATTENTION_EXPLORER_SETTINGS", str(folder / "attention-explorer.ini"))
    monkeypatch.setenv("ATTENTION_EXPLORER_CACHE", str(folder / "cache"))  # the workbench's importance cache
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    return folder


@pytest.fixture(scope="session", autouse=True)
def chinese_glyphs(qapp):
    """The bundled Chinese font where the machine has none, as the app's theme registers it: the layout
    tests of the Chinese window measure real glyphs, not the empty boxes of a machine without them."""
    from explorer.ui.chinese_font import ensure_chinese_glyphs  # noqa: PLC0415
    return ensure_chinese_glyphs()


@pytest.fixture(scope="session", autouse=True)
def gui_thread_gc(qapp):
    """Garbage collection on the GUI thread only, as the app does (explorer/ui/gc_guard.py): collected on a
    worker thread, a cycle holding an earlier test's widgets crashed the suite with a segfault."""
    # The libraries' own objects (torch, Qt, pyqtgraph, the window's modules: ~400,000) are kept out of
    # the collections after each test, which otherwise walked them all (~0.2 s a pass, the suite's largest
    # teardown cost). Only objects made before any test are frozen: a test's window, frozen while still
    # referenced, would never be collected after, and a lesson's application-wide key filter lived on.
    import explorer.window.main_window  # noqa: F401, PLC0415
    import model.decoding.decode  # noqa: F401, PLC0415
    from explorer.ui.gc_guard import MainThreadGC  # noqa: PLC0415

    gc.collect()
    gc.freeze()
    guard = MainThreadGC()
    yield guard
    guard.stop()


@pytest.fixture(autouse=True)
def collect_after_test(gui_thread_gc):
    """Each test's garbage goes on the GUI thread before the next test starts its workers."""
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def no_running_qthreads(monkeypatch):
    """Fail the test if any QThread it started is still running after its widgets were closed.

    pytest-qt closes the widgets registered with ``qtbot.addWidget`` before fixtures are torn down,
    so a window whose closeEvent forgets to stop its worker is caught here."""
    started: list[QThread] = []
    original_start = QThread.start

    def tracking_start(self, *args, **kwargs):
        started.append(self)
        return original_start(self, *args, **kwargs)

    monkeypatch.setattr(QThread, "start", tracking_start)
    yield
    running = []
    for thread in started:
        try:
            if thread.isRunning():
                running.append(thread.objectName() or repr(thread))
                thread.quit()
                thread.wait(5000)  # stop it anyway, so one leak does not crash later tests
        except RuntimeError:  # the C++ object is already deleted, so it cannot be running
            pass
    if running:
        pytest.fail(f"QThread(s) still running after the test: {', '.join(running)}")


@pytest.fixture(autouse=True)
def app_font_kept(qapp):
    """The application font as each test found it: a test that zooms the shared QApplication (a window's
    zoom, ``style.set_font_scale``) without ``restore_app_look`` left later tests of its worker in 1.7×
    type, and their layouts measured against the wrong font (a full run, 2026-12-05). Restored only when
    changed: setting a font repolishes every widget."""
    font = QFont(qapp.font())
    yield
    if qapp.font() != font:
        qapp.setFont(font)


@pytest.fixture
def restore_app_look(qapp):
    """The app themes and zooms the shared QApplication; undo it so later tests see Qt's defaults."""
    style, palette, font = qapp.style().name(), qapp.palette(), qapp.font()
    yield
    qapp.setPalette(palette)
    qapp.setStyle(style)
    qapp.setFont(font)


def make_translation(text: str, request_id: int = 0) -> Translation:
    """A Translation whose 'translation' is the source reversed word by word (easy to assert)."""
    words = text.split()
    source = tuple("\u2581" + w for w in words)
    target = tuple("\u2581" + w for w in reversed(words))
    maps = make_synthetic_maps(source=source + ("</s>",), target=("<s>",) + target, seed=len(text))
    return Translation(source=text, text=" ".join(reversed(words)), source_pieces=source,
                       target_pieces=target, score=-1.5, attention=maps, request_id=request_id)


def make_synthetic_vectors(like: AttentionMaps, d_k: int = 4, seed: int = 0) -> tuple[AttentionMaps, AttentionVectors]:
    """Random per-head Q, K, V with the tokens of ``like``, and the maps and head outputs they imply."""
    rng = np.random.default_rng(seed)
    n_layers, n_heads = like.n_layers, like.n_heads
    s, t = len(like.source_tokens), len(like.target_tokens)
    parts, maps = {}, {}
    for kind, rows, cols in (("encoder", s, s), ("decoder", t, t), ("cross", t, s)):
        q = rng.standard_normal((n_layers, n_heads, rows, d_k)).astype(np.float32)
        k, v = (rng.standard_normal((n_layers, n_heads, cols, d_k)).astype(np.float32) for _ in range(2))
        masked = np.triu(np.ones((rows, cols), dtype=bool), k=1) if kind == "decoder" else None
        maps[kind] = _softmax_rows(q @ k.swapaxes(-1, -2) / np.sqrt(d_k), masked)
        parts[kind] = HeadVectors(q=q, k=k, v=v, out=(maps[kind] @ v).astype(np.float32))
    new_maps = AttentionMaps(maps["encoder"], maps["decoder"], maps["cross"], like.source_tokens,
                             like.target_tokens, like.predicted_tokens)
    return new_maps, AttentionVectors(parts["encoder"], parts["decoder"], parts["cross"])


def make_synthetic_steps(maps: AttentionMaps, beam_size: int = 1, top_k: int = 4, seed: int = 0) -> DecodeSteps:
    """Steps over maps.predicted_tokens: a random softmax over a small vocabulary per step, in which
    greedy's chosen piece is the most probable and beam's is second at every other step."""
    rng = np.random.default_rng(seed)
    vocab = sorted(set(maps.predicted_tokens) | {"\u2581und", "\u2581nicht", "\u2581ja", "\u2581so", "."})
    top_pieces, top_probs, chosen_probs, ranks, hyps = [], [], [], [], []
    total = 0.0
    for t, chosen in enumerate(maps.predicted_tokens):
        probs = _softmax_rows(2.0 * rng.standard_normal(len(vocab)))
        order = list(np.argsort(-probs))
        want = 1 if beam_size > 1 and t % 2 else 0  # where the chosen piece should stand
        order.remove(vocab.index(chosen))
        order.insert(want, vocab.index(chosen))
        probs = probs[np.argsort(-probs)][np.argsort(order)]  # the same values, re-ranked as wanted
        top_pieces.append(tuple(vocab[i] for i in order[:top_k]))
        top_probs.append(probs[order[:top_k]])
        chosen_probs.append(probs[vocab.index(chosen)])
        ranks.append(want)
        total += float(np.log(chosen_probs[-1]))
        prefix = Hypothesis(maps.predicted_tokens[:t + 1], total)
        if beam_size == 1:
            hyps.append((prefix,))
        else:
            rival = Hypothesis(maps.predicted_tokens[:t] + ("\u2581so",), total - 0.5)
            hyps.append((prefix, rival))
    return DecodeSteps(chosen=maps.predicted_tokens, top_pieces=tuple(top_pieces),
                       top_probs=np.array(top_probs, np.float32), chosen_probs=np.array(chosen_probs, np.float32),
                       chosen_ranks=np.array(ranks, np.int64), hypotheses=tuple(hyps), beam_size=beam_size,
                       search_steps=len(maps.predicted_tokens))


def make_info(path: str, d_model=32, n_layers=2, n_heads=4) -> ModelInfo:
    config = (("d_model", d_model), ("n_layers", n_layers), ("n_heads", n_heads), ("d_ff", 64))
    return ModelInfo(path=path, config=config, n_params=123_456, vocab_size=500, device="cpu",
                     d_model=d_model, n_layers=n_layers, n_heads=n_heads)


class FakeModel:
    """Stand-ins for ``model.checkpoint`` and ``model.decoding.decode`` with knobs for the tests."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.default_dir: Path | None = None
        self.translate_delay = 0.0
        self.translate_threads: list[str] = []
        self.translated_ids: list[int] = []
        self.beam_sizes: list[int] = []
        self.vector_requests: list[bool] = []
        self.step_requests: list[bool] = []

    def make_model_dir(self, name: str = "fake-model") -> Path:
        folder = self.root / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text("{}")
        return folder

    # model.checkpoint
    def load_model(self, path, device="cpu"):
        path = Path(path)
        if not (path / "config.json").is_file():
            raise CheckpointError(f"{path} is not a model folder: config.json is missing.")
        return types.SimpleNamespace(path=path, device=device, info=lambda: make_info(str(path)))

    def default_model_dir(self):
        return self.default_dir

    # model.decoding.decode
    def translate(self, loaded, text, beam_size=1, capture_attention=True, request_id=0, capture_vectors=False,
                  capture_steps=False):
        self.translate_threads.append(threading.current_thread().name)
        if not text.strip():
            raise UserError("Type a sentence to translate.")
        if text == "boom":
            raise RuntimeError("kaboom")
        time.sleep(self.translate_delay)
        self.translated_ids.append(request_id)
        self.beam_sizes.append(beam_size)
        self.vector_requests.append(capture_vectors)
        self.step_requests.append(capture_steps)
        translation = make_translation(text, request_id)
        if capture_vectors:
            maps, vectors = make_synthetic_vectors(translation.attention)
            translation = dataclasses.replace(translation, attention=maps, vectors=vectors)
        if capture_steps:
            steps = make_synthetic_steps(translation.attention, beam_size)
            translation = dataclasses.replace(translation, steps=steps)
        return translation


@pytest.fixture
def fake_model(tmp_path, monkeypatch) -> FakeModel:
    fake = FakeModel(tmp_path / "models")
    checkpoint = types.ModuleType("model.checkpoint")
    checkpoint.load_model = fake.load_model
    checkpoint.default_model_dir = fake.default_model_dir
    decode = types.ModuleType("model.decoding.decode")
    decode.translate = fake.translate
    monkeypatch.setitem(sys.modules, "model.checkpoint", checkpoint)
    monkeypatch.setitem(sys.modules, "model.decoding.decode", decode)
    return fake


# The main window, themed as the app themes it, and the same with the fake model loaded and the default
# sentence translated: shared by the window tests (test_window, test_window_projector).
WINDOW_TIMEOUT = 10_000


@pytest.fixture
def window(qtbot, fake_model, restore_app_look, qapp):
    from explorer.ui import style  # noqa: PLC0415 (the window's modules load with the tests that use them)
    from explorer.window.main_window import MainWindow  # noqa: PLC0415

    style.apply_theme(qapp)  # as the app does: zoom must work under the real theme

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def loaded(qtbot, window, fake_model):
    """A window with the fake model loaded and the default sentence translated."""
    with qtbot.waitSignal(window.controller.translation_ready, timeout=WINDOW_TIMEOUT):
        window.open_model(fake_model.make_model_dir())
    return window


REAL_TIMEOUT = 60_000  # loading imports torch on first use; the CPU may be shared with other work


def open_real_window(qtbot, model_dir, sentence: str, size=(1400, 900), **window_args):
    """A shown MainWindow with the real worker, ``model_dir`` loaded and ``sentence`` translated."""
    from explorer.window.main_window import MainWindow  # noqa: PLC0415

    win = MainWindow(**window_args)
    qtbot.addWidget(win)
    win.resize(*size)
    win.translate_panel.set_text(sentence)
    win.show()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.open_model(model_dir)
    return win


class Heard(QObject):
    """A signal of a worker on its own QThread, re-emitted on the GUI thread: wait on ``Heard(sig).heard``,
    whose one argument is the tuple of the worker signal's arguments. Keep the object while waiting.

    Why not ``qtbot.waitSignal(worker.sig)``: pytest-qt hears a signal through a plain callable, which Qt
    runs on the emitting thread. The blocker then stops its timeout timer and quits its event loop from
    the worker's thread; a quit that lands before the loop starts is lost, and a full run hung for 10
    minutes that way (tests/explorer/test_worker_signals.py). A method of an object on the GUI thread is
    queued to that thread, as the window's own connections are."""

    heard = Signal(tuple)

    def __init__(self, signal) -> None:
        super().__init__()
        signal.connect(self._hear)

    def _hear(self, *args) -> None:
        self.heard.emit(args)


class EventCounter(QObject):
    """Counts the events of one type (a Paint, a LayoutRequest) that each watched object receives."""

    def __init__(self, objects, kind: QEvent.Type) -> None:
        super().__init__()
        self.kind, self.counts = kind, dict.fromkeys(objects, 0)
        for o in objects:
            o.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == self.kind and obj in self.counts:
            self.counts[obj] += 1
        return False

    def total(self) -> int:
        return sum(self.counts.values())

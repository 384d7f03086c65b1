"""The native draft step (model/native) drafts what the fp32 model would choose, and never changes a result.

It drafts only: speculative.checked_greedy checks every piece in fp32. So the tests hold its logits to
the fp32 model's within int8 rounding (the PyTorch int8 copy's error, for scale), and hold greedy search
through it to the fp32 greedy output and maps exactly, also when its drafts are wrong and must be
corrected (a draft from another model's weights). Building: a cache it reuses, and no compiler or
``ATTENTION_EXPLORER_NATIVE=0`` means no native step, never an error.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.decoding import decode, speculative
from model.native import NativeDraft, NativeWeights, build, draft_weights, supports
from model.transformer import DecoderState, Transformer
from tests.model.native_models import MODELS, config_model

pytestmark = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


def _model(**changes) -> Transformer:
    return config_model(3, **changes)


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


@pytest.mark.parametrize("name", MODELS)
def test_each_step_gives_the_fp32_logits_within_int8_rounding(name):
    model = _model(**MODELS[name])
    weights = NativeWeights.of(model, wait=True)
    src = torch.tensor([[5, 9, 7, 4, 8, 3]])
    logits = np.empty(model.cfg.vocab_size, np.float32)
    agree = 0
    with torch.inference_mode():
        memory, _ = model.encode(src)
        state = DecoderState(model, memory, src)
        draft = NativeDraft(weights, state.cross_kv, capacity=16)
        token = model.cfg.bos_id
        for _ in range(12):
            best = draft.step(token, logits)
            hidden, _, _ = model.decode(torch.tensor([[token]]), memory, src, state=state)
            ref = model.next_logits(hidden[0, -1])
            assert logits[model.cfg.pad_id] == -np.inf and best != model.cfg.pad_id
            real = torch.isfinite(ref)
            err = float((torch.from_numpy(logits)[real] - ref[real]).norm() / ref[real].norm())
            assert err < 0.03, err  # int8 weights: ~1 % (the PyTorch int8 copy's own error)
            assert best == int(np.argmax(logits))
            agree += best == int(ref.argmax())
            token = int(ref.argmax())  # teacher-forced by the fp32 choice, as the checks do
    assert agree >= 10
    assert draft.position == 12


def test_rewind_replays_the_same_steps():
    model = _model()
    weights = NativeWeights.of(model, wait=True)
    src = torch.tensor([[5, 9, 7, 4]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        draft = NativeDraft(weights, DecoderState(model, memory, src).cross_kv, capacity=8)
        first = [np.empty(61, np.float32) for _ in range(5)]
        for token, out in zip([2, 7, 8, 9, 10], first):
            draft.step(token, out)
        draft.rewind(2)
        again = [np.empty(61, np.float32) for _ in range(3)]
        for token, out in zip([8, 9, 11], again):
            draft.step(token, out)
    np.testing.assert_array_equal(first[2], again[0])
    np.testing.assert_array_equal(first[3], again[1])
    assert not np.array_equal(first[4], again[2])  # another piece fed there
    draft.step(1), draft.step(1), draft.step(1)  # positions 5, 6, 7 exist …
    assert draft.position == 8 and draft.step(1) == -1  # … and none past the capacity


def test_greedy_through_native_drafts_is_the_fp32_greedy_output_and_maps(loaded):
    native = dataclasses.replace(loaded, native_cache=NativeWeights.of(loaded.model, wait=True))
    fp32 = dataclasses.replace(loaded, int8_search=False)
    for text in ["abc", "hello world", "zyx wvu tsr", "a b c d e f g h i j k l m n o"]:
        a, b = decode.translate(native, text), decode.translate(fp32, text)
        assert a.target_pieces == b.target_pieces
        assert a.piece_probs == pytest.approx(b.piece_probs, abs=1e-6)
        for kind in ("encoder_self", "decoder_self", "cross"):
            np.testing.assert_array_equal(getattr(a.attention, kind), getattr(b.attention, kind))


def test_wrong_drafts_are_corrected_to_the_fp32_output(loaded):
    """Drafts from a differently initialised model go wrong at once; every piece must still be fp32's."""
    other = Transformer(loaded.model.cfg).eval()
    wrong = NativeWeights.of(other, wait=True)
    src = torch.tensor([decode.encode_source(loaded, "hello world again")])
    max_len = src.size(1) + 20
    with torch.inference_mode():
        ref = decode.greedy(loaded.model, src, max_len)[0]
        out, _, probs = speculative.checked_greedy(loaded.model, wrong, src, max_len)
    assert out == ref and len(probs) == len(ref)


def test_supports_only_what_the_step_computes():
    assert supports(_model())
    assert not supports(_model().train())
    assert not supports(_model(d_model=36, n_heads=4, d_ff=48))  # rows not whole 16-wide blocks


def test_build_caches_the_library_and_reuses_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert build._build() is not None
    built = list((tmp_path / "attention-explorer" / "native").iterdir())
    assert len(built) == 1 and built[0].suffix == ".so"
    stamp = built[0].stat().st_mtime_ns
    assert build._build() is not None
    assert [p.stat().st_mtime_ns for p in (tmp_path / "attention-explorer" / "native").iterdir()] == [stamp]


def test_another_cpu_builds_its_own_library(tmp_path, monkeypatch):
    """-march=native: a library built where the CPU has AVX-512 dies of SIGILL on one without, so a cache
    that moves to another machine must not be loaded there."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cc = build.compiler()
    here = build._target(cc)
    assert build.cpu_identity().strip()  # something names this CPU
    monkeypatch.setattr(build, "cpu_identity", lambda: "model name : another\nflags : fpu sse2")
    assert build._target(cc) != here


def test_a_process_that_exits_while_compiling_leaves_the_library_not_a_part_file(tmp_path):
    """The command line's ``translate`` exits in ~2 s; its compile ran in a daemon thread that died with it,
    leaving a temporary file, so the library was never built for a user of the command line alone."""
    import os  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415

    folder = tmp_path / "attention-explorer" / "native"
    folder.mkdir(parents=True)
    stale = [folder / "tmpdead.so", folder / "killed.so.part"]  # left by earlier killed compiles
    for path in stale:
        path.write_bytes(b"half")
        os.utime(path, (time.time() - 2 * build.STALE_S,) * 2)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    # Starts the build in the background and exits at once, as a short process does (build.py alone:
    # the package would import torch first, and the process would not exit at once).
    code = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('build', sys.argv[1]); "
            "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b); "
            "assert b.library(wait=False) is None")
    subprocess.run([sys.executable, "-c", code, build.__file__], env=env, check=True, timeout=120)
    deadline = time.time() + 120
    while [p.suffix for p in folder.iterdir()] != [".so"] and time.time() < deadline:
        time.sleep(0.1)  # the compile, then its rename, in a process of their own
    names = [p.name for p in folder.iterdir()]
    assert len(names) == 1 and names[0].startswith("steps-") and names[0].endswith(".so"), names
    import ctypes  # noqa: PLC0415

    assert ctypes.CDLL(str(folder / names[0])).ae_rows_step  # a whole library, not a part of one


def test_no_compiler_or_switched_off_means_no_native_step(tmp_path, monkeypatch, loaded):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, gcc or clang on it
    monkeypatch.delenv("CC", raising=False)
    assert build.compiler() is None and build._build() is None
    monkeypatch.setenv("ATTENTION_EXPLORER_NATIVE", "0")
    assert build.library(wait=True) is None
    fresh = dataclasses.replace(loaded, native_cache=None)
    assert draft_weights(fresh) is None
    assert decode.translate(fresh, "abc").text == decode.translate(
        dataclasses.replace(loaded, int8_search=False), "abc").text

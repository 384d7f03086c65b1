"""Downloading Marian models from the Hub, against a loopback server (tests/hub_server.py): no network.

The repository served is a tiny random transformers MarianMTModel built offline (conftest's marian_model).
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import torch

from model.errors import UserError
from model.hub.cache import cache_dir, cached_snapshot, downloaded_models, parse_repo, resolve_repo
from model.hub.download import download, plan_download
from model.hub.errors import DownloadCancelled, HubError
from tests.hub_server import REPO, FakeHub

ROOT = Path(__file__).resolve().parents[2]


def hub_folder(hub) -> Path:
    return hub.folders[REPO]


def _partials() -> list[Path]:
    return list(cache_dir().glob("models--*/blobs/*.incomplete"))


def test_download_lands_in_the_standard_cache_and_opens_as_the_same_model(hub, marian_model):
    from model.checkpoint import load_model

    reports = []
    plan = plan_download(REPO)
    assert [n for n, _ in plan.files][-1] == "model.safetensors"  # weights last, after the cheap checks
    assert plan.total == sum((marian_model[1] / n).stat().st_size for n, _ in plan.files)
    folder = download(plan, lambda name, done, total: reports.append((name, done, total)))
    done = [d for _, d, _ in reports]
    assert done == sorted(done) and done[-1] == plan.total and {t for *_, t in reports} == {plan.total}
    assert folder == cache_dir() / "models--test-org--opus-mt-en-de" / "snapshots" / plan.commit
    for name, _ in plan.files:  # byte for byte, behind the links huggingface_hub lays out
        assert (folder / name).read_bytes() == (marian_model[1] / name).read_bytes()
        assert (folder / name).is_symlink()
    assert (folder.parent.parent / "refs" / "main").read_text() == plan.commit
    assert not _partials()

    ours, original = load_model(folder), load_model(marian_model[1])
    src = torch.tensor([ours.tokenizer.encode("I love apples.") + [ours.config.eos_id]])
    tgt = torch.tensor([[ours.config.bos_id, 5, 6, 7]])
    with torch.no_grad():
        assert torch.equal(ours.model(src, tgt)[0], original.model(src, tgt)[0])
    assert [m.repo_id for m in downloaded_models()] == [REPO]
    assert resolve_repo(REPO) == folder == resolve_repo(f"{hub.url}/{REPO}")


def test_transformers_reads_what_we_downloaded_from_the_cache(hub, marian_model):
    """The layout is the library's own: transformers opens it offline, as it would its own download."""
    from transformers import MarianMTModel

    download(plan_download(REPO))
    hf = MarianMTModel.from_pretrained(REPO, cache_dir=cache_dir(), local_files_only=True)
    for name, tensor in marian_model[0].state_dict().items():
        assert torch.equal(hf.state_dict()[name], tensor), name


def test_cancel_mid_file_answers_fast_and_the_next_download_resumes(hub, marian_model):
    hub.throttle = 150_000  # bytes/s: the first file takes ~1.6 s
    plan = plan_download(REPO)
    asked, failure, state = threading.Event(), [], {}

    def progress(name, done, total):
        if name == "source.spm" and done > 60_000 and not asked.is_set():
            state["asked_at"] = time.monotonic()
            asked.set()

    def run():
        try:
            download(plan, progress, cancelled=asked.is_set)
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            failure.append((exc, time.monotonic()))

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(10)
    assert failure and isinstance(failure[0][0], DownloadCancelled)
    assert failure[0][1] - state["asked_at"] < 1.0  # answered within a second
    (partial,) = _partials()
    kept = partial.stat().st_size
    assert 0 < kept < (marian_model[1] / "source.spm").stat().st_size
    assert cached_snapshot(REPO) is None  # nothing that looks finished
    with pytest.raises(UserError, match="get-model"):
        resolve_repo(REPO)

    hub.throttle, hub.requests[:] = None, []
    folder = download(plan_download(REPO))
    ranges = [r for m, p, r in hub.requests if m == "GET" and p.endswith("/source.spm")]
    assert ranges == [f"bytes={kept}-"]  # only the rest was asked for
    assert (folder / "source.spm").read_bytes() == (marian_model[1] / "source.spm").read_bytes()
    assert not _partials()


def test_a_connection_cut_for_good_is_one_line_and_resumes_later(hub, marian_model, monkeypatch):
    import types

    import huggingface_hub.file_download as hf_download

    # The library waits a second before each of its five retries; what is tested is what is kept.
    monkeypatch.setattr(hf_download, "time", types.SimpleNamespace(sleep=lambda seconds: None))
    hub.cut_after["source.spm"] = 150_000  # of 240 kB; the library retries five times, then gives up
    with pytest.raises(HubError, match="dropped mid-file; run .*again to resume") as caught:
        download(plan_download(REPO))
    assert "\n" not in str(caught.value) and "source.spm" in str(caught.value)
    (partial,) = _partials()
    kept = partial.stat().st_size
    assert 0 < kept <= 150_000 and cached_snapshot(REPO) is None  # whole chunks kept, nothing finished
    del hub.cut_after["source.spm"]
    hub.requests[:] = []
    folder = download(plan_download(REPO))
    assert [r for m, p, r in hub.requests if m == "GET" and p.endswith("/source.spm")] == [f"bytes={kept}-"]
    assert (folder / "source.spm").read_bytes() == (marian_model[1] / "source.spm").read_bytes()


def test_damaged_weights_are_refused_and_removed(hub):
    hub.corrupt.add("model.safetensors")
    with pytest.raises(HubError, match="damaged"):
        download(plan_download(REPO))
    weights = FakeHub.etag("model.safetensors", (hub_folder(hub) / "model.safetensors").read_bytes())
    assert not _partials() and not (cache_dir() / "models--test-org--opus-mt-en-de" / "blobs" / weights).exists()
    assert cached_snapshot(REPO) is None


def test_a_full_disk_is_one_line_and_keeps_the_partial_file(hub, monkeypatch):
    import model.hub.download as fd

    real = fd.http_get

    def fills_up(url, temp_file, **kw):
        if url.endswith("model.safetensors"):
            temp_file.write(b"x" * 1000)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(url, temp_file, **kw)

    monkeypatch.setattr(fd, "http_get", fills_up)
    with pytest.raises(HubError, match="full.*resumes"):
        download(plan_download(REPO))
    assert [p.stat().st_size for p in _partials()] == [1000] and cached_snapshot(REPO) is None


def test_what_is_not_a_marian_model_is_refused_before_any_file_is_fetched(hub, marian_model, tmp_path):
    bert = tmp_path / "bert"
    bert.mkdir()
    (bert / "config.json").write_text('{"model_type": "bert"}')
    (bert / "model.safetensors").write_bytes(b"0" * 10)
    hub.add_folder("someone/bert", bert)
    lacking = tmp_path / "lacking"
    lacking.mkdir()
    for p in marian_model[1].iterdir():
        if p.name != "target.spm":
            (lacking / p.name).write_bytes(p.read_bytes())
    hub.add_folder("someone/lacking", lacking)
    hub.requests[:] = []
    with pytest.raises(HubError, match="'bert' model, not a Marian"):
        plan_download("someone/bert")
    with pytest.raises(HubError, match="it has no target.spm"):
        plan_download("someone/lacking")
    with pytest.raises(HubError, match="nobody/nothing is not on the Hub"):
        plan_download("nobody/nothing")
    assert all("/resolve/" not in p for _, p, _ in hub.requests)


def test_offline_and_no_network_each_say_which_command_to_run(hub, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    hub.requests[:] = []
    with pytest.raises(HubError, match=f"offline.*get-model {REPO}"):
        plan_download(REPO)
    assert hub.requests == []  # not even a listing
    monkeypatch.delenv("HF_HUB_OFFLINE")
    hub.stop()
    with pytest.raises(HubError, match=f"cannot reach .*get-model {REPO}"):
        plan_download(REPO)


@pytest.mark.parametrize("text, expected", [
    ("Helsinki-NLP/opus-mt-en-zh", ("Helsinki-NLP/opus-mt-en-zh", None)),
    ("Helsinki-NLP/opus-mt-en-zh@v1", ("Helsinki-NLP/opus-mt-en-zh", "v1")),
    ("https://huggingface.co/Helsinki-NLP/opus-mt-en-zh", ("Helsinki-NLP/opus-mt-en-zh", None)),
    ("https://huggingface.co/Helsinki-NLP/opus-mt-en-zh/tree/main", ("Helsinki-NLP/opus-mt-en-zh", "main")),
])
def test_repository_ids_and_urls(text, expected):
    assert parse_repo(text) == expected


@pytest.mark.parametrize("text", ["opus-mt-en-zh", "a/b/c", "../etc/passwd", "org/na me", ""])
def test_what_is_not_a_repository_id_is_one_line(text):
    with pytest.raises(UserError, match="not a Hub repository id"):
        parse_repo(text)


def _cli(*args, env):
    return subprocess.run([sys.executable, "-m", "model.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env}, timeout=300)


def test_cli_get_model_then_model_repo_id_works_without_network(hub, tmp_path, monkeypatch, capsys):
    """get-model, the refusals and the missing model run in this process (the hub fixture points HF_HOME
    and HF_ENDPOINT here); the offline translation runs in a fresh one, as HF_HUB_OFFLINE is read at start."""
    from model.cli import main

    assert main(["get-model", REPO]) == 0
    got = capsys.readouterr()
    assert "model.safetensors" in got.err and " of " in got.err  # progress on stderr
    assert f"--model {REPO}" in got.out
    hub.stop()
    offline = {"HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1", "HF_ENDPOINT": "http://127.0.0.1:9"}
    out = _cli("translate", "--model", REPO, "--sentences", "--beam", "1", "I love apples.", env=offline)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()
    for name, value in offline.items():
        monkeypatch.setenv(name, value)
    assert main(["info", "--model", "nobody/nothing"]) == 2
    missing = capsys.readouterr().err
    assert missing.count("\n") == 1 and "get-model nobody/nothing" in missing
    assert main(["get-model", REPO]) == 2
    refused = capsys.readouterr().err
    assert "offline" in refused and refused.count("\n") == 1


def test_opus_mt_en_zh_gets_its_target_language_code_and_other_models_none(marian_model, tmp_path):
    """opus-mt-en-zh's card: "a sentence initial language token is required"; the app adds >>cmn_Hans<<
    when the sentence has none, keeps one the user typed, and adds nothing to a model that needs none."""
    import json
    import shutil

    from model.checkpoint import load_model

    def snapshot(repo_id: str) -> Path:
        folder = tmp_path / f"models--{repo_id.replace('/', '--')}" / "snapshots" / ("0" * 40)
        shutil.copytree(marian_model[1], folder)
        vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        spare = next(p for p in reversed(vocab) if p.startswith("\u2581") and "apple" not in p.lower())
        vocab[">>cmn_Hans<<"] = vocab.pop(spare)  # the tiny vocabulary has no free id: reuse a piece's
        (folder / "vocab.json").write_text(json.dumps(vocab))
        return folder

    zh = load_model(snapshot("Helsinki-NLP/opus-mt-en-zh"))
    code = zh.tokenizer.vocab[">>cmn_Hans<<"]
    plain = zh.tokenizer.source.encode("I love apples.", out_type=str)
    assert zh.tokenizer.encode("I love apples.") == [code] + zh.tokenizer._ids(plain)
    assert zh.tokenizer.encode(">>cmn_Hans<< I love apples.")[0] == code  # typed: used once, not twice
    assert zh.tokenizer.encode(">>cmn_Hans<< I love apples.").count(code) == 1
    de = load_model(snapshot("Helsinki-NLP/opus-mt-en-de"))
    assert de.tokenizer.prefix == "" and de.tokenizer.encode("I love apples.")[0] != de.tokenizer.vocab[">>cmn_Hans<<"]

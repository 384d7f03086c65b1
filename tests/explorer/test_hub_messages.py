"""File › Get a model… in the Chinese window: every way a download fails, and its progress line, said in
Chinese (explorer/hub/hub_messages.py). Each message is made by model/hub's own code, so a change of
wording there fails here instead of reaching the Chinese dialog in English; the English dialog shows each
unchanged. No network and no server: the library's exceptions are made by hand, the listing is a stand-in."""

from __future__ import annotations

import errno
from types import SimpleNamespace

import pytest
from huggingface_hub import errors as hub

import model.hub.download as download
from explorer.hub.hub_messages import hub_message, progress_message
from explorer.ui import i18n
from model.hub.cache import endpoint, parse_repo
from model.hub.errors import HubError, OfflineError, explain
from model.hub.progress import Rate
from tests.explorer.said_in_chinese import said_in_chinese

REPO = "someone/opus-mt-xx-yy"
RETRY = f"attention-explorer get-model {REPO}"


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.install_language("en")


def _http(cls, status: int | None = 503):
    response = SimpleNamespace(headers={}, status_code=status, request=None, url="http://127.0.0.1:9/x")
    return cls("the library's own words", response=response)


class ConnectionError(Exception):  # noqa: A001 - named as the HTTP clients name theirs (errors.py reads names)
    pass


class ReadTimeout(Exception):
    pass


def test_every_explained_failure_is_said_in_chinese():
    home = endpoint()
    cases = [
        (explain(OfflineError(), REPO), "离线", "HF_HUB_OFFLINE", RETRY),
        (explain(_http(hub.RepositoryNotFoundError, 404), REPO), "没有", REPO, home, "Hub"),
        (explain(_http(hub.RevisionNotFoundError, 404), REPO, "v9"), "版本", REPO, "'v9'"),
        (explain(_http(hub.RemoteEntryNotFoundError, 404), REPO, name="source.spm"), "不完整", REPO,
         "source.spm", "Hub"),
        (explain(_http(hub.GatedRepoError, 403), REPO), "授权", REPO, "Hub", "hf auth login"),
        (explain(_http(hub.HfHubHTTPError, 503), REPO), "稍后", REPO, "Hub", "503"),
        (explain(_http(hub.HfHubHTTPError, None), REPO), "错误", REPO, "Hub"),
        (explain(ReadTimeout(), REPO, name="model.safetensors"), "续传", REPO, "model.safetensors", RETRY),
        (explain(ConnectionError(), REPO, name="model.safetensors"), "已下载的部分", home, RETRY),
        (explain(ConnectionError(), REPO), "没有网络", home, RETRY),
        (explain(OSError(errno.ENOSPC, "No space left on device"), REPO, name="x"), "磁盘已满", RETRY,
         str(download.cache_dir())),
        (explain(OSError("Consistency check failed: file should be 10 bytes"), REPO, name="vocab.json"),
         "没有下载完整", REPO, "vocab.json", RETRY),
        (explain(KeyError("z"), REPO), "", REPO),  # not ours to word: kept as Python said it
    ]
    for error, chinese, *data in cases:
        assert isinstance(error, HubError)
        message = str(error)
        if not chinese:
            assert hub_message(message) == message
            continue
        said_in_chinese(hub_message, message, chinese, *data)
    # The gated answer used to be taken for "not on the Hub": the library's class is a kind of that one.
    assert "gated: accept its terms" in str(explain(_http(hub.GatedRepoError, 403), REPO))


def _made(action) -> str:
    with pytest.raises(HubError) as caught:
        action()
    return str(caught.value)


def test_what_is_no_marian_model_and_a_damaged_file_are_said_in_chinese(monkeypatch, tmp_path):
    listing = {}

    class Api:  # the Hub's listing, as HfApi.model_info gives it
        def __init__(self, endpoint):
            del endpoint

        def model_info(self, repo_id, revision, files_metadata):
            return SimpleNamespace(siblings=[SimpleNamespace(rfilename=n, size=1) for n in listing["files"]],
                                   config=listing["config"], sha="0" * 40)

    monkeypatch.setattr(download, "HfApi", Api)
    monkeypatch.setattr(download, "offline", lambda: False)
    listing.update(files=["config.json"], config={"model_type": "bert"})
    said_in_chinese(hub_message, _made(lambda: download.plan_download(REPO)), "翻译模型", REPO, "'bert'",
                    "Marian", "OPUS-MT")
    listing.update(files=["config.json", "model.safetensors"], config={"model_type": "marian"})
    message = _made(lambda: download.plan_download(REPO))
    lacks = message.split("it has no ", 1)[1]  # the files' names: data
    said_in_chinese(hub_message, message, "它没有", REPO, "Marian", "OPUS-MT", *lacks.split(", "))

    part = tmp_path / "blob.incomplete"
    part.write_bytes(b"x" * 10)
    message = _made(lambda: download._check(part, "e" * 64, 2_000, REPO, "model.safetensors"))
    said_in_chinese(hub_message, message, "续传", REPO, "model.safetensors", "10", "2,000")
    message = _made(lambda: download._check(part, "e" * 64, 10, REPO, "model.safetensors"))
    said_in_chinese(hub_message, message, "损坏", REPO, "model.safetensors", "SHA-256", "Hub")


def test_a_typed_name_that_is_no_repository_and_the_progress_line_are_said_in_chinese():
    with pytest.raises(ValueError) as caught:
        parse_repo("not a repo")
    said_in_chinese(hub_message, str(caught.value), "不是", "'not a repo'", "Hub", "owner/name",
                    "Helsinki-NLP/opus-mt-en-zh")
    clock = iter([0.0, 1.0])
    rate = Rate(clock=lambda: next(clock))
    rate.add(0)
    rate.add(2_500_000)
    line = rate.describe(10_000_000)  # "2.5 MB of 10.0 MB · 2.5 MB/s · 3s left"
    said_in_chinese(progress_message, line, "还剩", "2.5 MB", "10.0 MB", "MB/s")
    said_in_chinese(progress_message, Rate().describe(10_000_000), "/", "0 B", "10.0 MB")


def test_the_chinese_dialog_shows_a_failed_download_and_a_bad_name_in_chinese(qtbot):
    from explorer.hub.dialog import GetModelDialog  # noqa: PLC0415

    i18n.install_language("zh_CN")
    dialog = GetModelDialog()
    qtbot.addWidget(dialog)
    try:
        dialog._stopped(str(explain(ConnectionError(), REPO)))  # what the worker's failed signal carries
        assert dialog.status.text().startswith("无法连接") and RETRY in dialog.status.text()
        dialog.other.setText("not a repo")
        assert dialog.chosen() == ("", "")
        assert dialog.status.text().startswith("'not a repo' 不是 Hub 仓库名"), dialog.status.text()
    finally:
        dialog.shutdown()


def test_a_dialog_made_in_english_lists_its_models_in_chinese_once_the_window_is(qtbot):
    """Kept between openings, the dialog listed "English → German" and "see the model card" in a window
    switched to Chinese since it was first opened."""
    from explorer.hub.dialog import GetModelDialog  # noqa: PLC0415

    i18n.install_language("en")
    dialog = GetModelDialog()
    qtbot.addWidget(dialog)
    try:
        assert "→" in dialog.table.item(0, 0).text() and "English" in dialog.table.item(0, 0).text()
        i18n.install_language("zh_CN")
        dialog.show()
        qtbot.waitExposed(dialog)
        pairs = [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]
        assert pairs and not any("English" in p for p in pairs) and "英语" in pairs[0], pairs
    finally:
        dialog.hide()
        dialog.shutdown()
        i18n.install_language("en")

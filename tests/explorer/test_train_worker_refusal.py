"""The window's training path refuses a folder that holds a run, with the same check as the command line."""

from __future__ import annotations

import shutil

import pytest

from model.errors import UserError


def test_gui_training_refuses_a_folder_that_holds_a_run(tiny_model_dir, tmp_path):
    from explorer.training.worker import TrainRequest, TrainWorker
    from model.config import TrainConfig, preset
    run = tmp_path / "run"
    shutil.copytree(tiny_model_dir, run / "step-00000060")
    (run / "LATEST").write_text("step-00000060")
    request = TrainRequest(TrainConfig(out_dir=str(run), model=preset("tiny"), task="reverse", max_steps=2))
    with pytest.raises(UserError, match="already holds a training run: continue it with “Resume"):
        next(TrainWorker()._records(request))
    assert (run / "LATEST").read_text() == "step-00000060"


def test_gui_training_refuses_a_folder_of_the_users_files_and_keeps_its_stop(tmp_path):
    """A teacher's Documents folder chosen for a run: the run wrote among the files and took a file named
    STOP for its own (the command line deleted one). The message is the window's language."""
    from explorer.training.model_errors import model_error
    from explorer.training.worker import TrainRequest, TrainWorker
    from explorer.ui import i18n
    from model.config import TrainConfig, preset
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "STOP").write_text("my notes")
    request = TrainRequest(TrainConfig(out_dir=str(docs), model=preset("tiny"), task="reverse", max_steps=2))
    with pytest.raises(UserError, match="holds other files and no run") as refused:
        next(TrainWorker()._records(request))
    assert sorted(p.name for p in docs.iterdir()) == ["STOP"] and (docs / "STOP").read_text() == "my notes"
    i18n.install_language("zh_CN")
    try:
        assert "中有其他文件" in model_error(str(refused.value))
    finally:
        i18n.install_language("en")

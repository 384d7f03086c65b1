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

"""A failed training run's message in the Chinese Train log: the model's English errors said again.

explorer/training/model_errors.py knows the forms the model writes its errors in. Every message here is made
by the model's (or the GUI worker's) own code: a run folder refused, a corpus file missing or not UTF-8, a
NaN loss in the real training loop, a full disk while saving. A change of wording there fails here rather
than reaching the Chinese log in English; the English window must show each message unchanged.
"""

from __future__ import annotations

import errno
import math
import os
import re
from collections import deque
from pathlib import Path

import pytest
import torch

from explorer.training.model_errors import model_error
from explorer.training.panel import TrainPanel
from explorer.training.worker import TrainRequest, TrainWorker, error_message
from explorer.ui import i18n
from model.config import PRESETS, TrainConfig
from model.records import TrainProgress
from tests.explorer.said_in_chinese import said_in_chinese

RUN_TIMEOUT_MS = 60_000


@pytest.fixture
def english_after():
    yield
    i18n.install_language("en")


def check_said(message: str, chinese: str, *data: str) -> str:
    return said_in_chinese(model_error, message, chinese, *data)


def worker_error(request: TrainRequest) -> str:
    """The message of the "error" record the GUI's worker sends for ``request``, run on this thread."""
    worker, records = TrainWorker(), []
    worker.progress.connect(records.append)
    worker.run(request)
    errors = [r.message for r in records if r.event == "error"]
    assert len(errors) == 1, [(r.event, r.message) for r in records]
    return errors[0]


def corpus_config(tmp_path: Path, **corpus) -> TrainConfig:
    return TrainConfig(out_dir=str(tmp_path / "run"), model=PRESETS["tiny"], vocab_size=40, max_steps=2, **corpus)


# -- the run folder: refused before anything is read -------------------------------------------------------
def test_a_folder_that_holds_a_run_or_is_a_file_or_cannot_be_written(tmp_path, english_after):
    run = tmp_path / "run"
    (run / "step-00000001").mkdir(parents=True)
    (run / "LATEST").write_text("step-00000001")
    message = worker_error(TrainRequest(corpus_config(tmp_path, task="reverse")))
    check_said(message, "中已有一次训练运行：可在“继续自”中选择它", str(run), "step-*", "LATEST")

    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    message = worker_error(TrainRequest(corpus_config(tmp_path, task="reverse").replace(out_dir=str(a_file))))
    check_said(message, "是一个文件，不是文件夹", str(a_file))

    below = a_file / "run"  # mkdir fails: its parent is a file
    message = worker_error(TrainRequest(corpus_config(tmp_path, task="reverse").replace(out_dir=str(below))))
    assert message.endswith(": Not a directory")
    check_said(message, "无法写入输出文件夹", str(below), "不是文件夹")


def test_a_folder_another_run_is_writing_to(tmp_path, english_after):
    from model.errors import UserError
    from model.training.lock import RunLock

    held = RunLock(tmp_path).acquire()
    try:
        with pytest.raises(UserError) as refused:
            RunLock(tmp_path).acquire()
    finally:
        held.release()
    line = check_said(error_message(refused.value), "正在写入", str(os.getpid()), str(tmp_path), "STOP")
    assert "另一次训练运行（进程" in line


def test_a_resume_folder_that_is_missing_or_no_model(tmp_path, english_after):
    config = corpus_config(tmp_path, task="reverse")
    missing = tmp_path / "nowhere"
    check_said(worker_error(TrainRequest(config, resume=str(missing))), "找不到模型文件夹", str(missing))
    empty = tmp_path / "empty"
    empty.mkdir()
    message = worker_error(TrainRequest(config, resume=str(empty)))
    check_said(message, "不是模型文件夹", str(empty), "config.json", "model.safetensors", "spm.model")


# -- the corpus: read by the worker's run ---------------------------------------------------------------
@pytest.mark.parametrize(("content", "chinese", "data"), [
    (None, "找不到语料文件", ("{tsv}",)),
    ("folder", "语料路径是一个文件夹，不是文件", ("{tsv}",)),
    (b"a\tb\n\xff\xfe\tc\n", "不是 UTF-8 文本（第 2 行有无效字节）", ("{tsv}", "UTF-8", "iconv")),
    (b"a\tb\x00\n", "看起来是二进制文件，不是文本", ("{tsv}",)),
    (b"just one column\nand another\n", "中没有以制表符分隔的句对", ("{tsv}", "TSV")),
    (b"\tb\na\t\n", "中没有可用的句对（跳过了 2 行）", ("{tsv}",)),
    (b"a\tb\n" * 12, "留出验证集后没有剩下任何训练句对；语料太少", ()),  # every pair's source held out
])
def test_a_tsv_corpus_that_cannot_be_used(tmp_path, english_after, content, chinese, data):
    tsv = tmp_path / "pairs.tsv"
    if content == "folder":
        tsv.mkdir()
    elif content is not None:
        tsv.write_bytes(content)
    message = worker_error(TrainRequest(corpus_config(tmp_path, tsv=str(tsv))))
    check_said(message, chinese, *(part.format(tsv=tsv) for part in data))


def test_a_corpus_file_that_cannot_be_read(tmp_path, english_after, monkeypatch):
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("a\tb\n", encoding="utf-8")
    read_bytes = Path.read_bytes

    def refused(self):  # as a file of another user's would be (the tests run as root, which may read anything)
        if self == tsv:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", refused)
    message = worker_error(TrainRequest(corpus_config(tmp_path, tsv=str(tsv))))
    check_said(message, "无法读取语料文件", str(tsv), "权限不足")


def test_parallel_files_of_unequal_length(tmp_path, english_after):
    src, tgt = tmp_path / "train.en", tmp_path / "train.de"
    src.write_text("a\nb\nc\n", encoding="utf-8")
    tgt.write_text("x\ny\n", encoding="utf-8")
    message = worker_error(TrainRequest(corpus_config(tmp_path, src=str(src), tgt=str(tgt))))
    line = check_said(message, "两个文件必须逐行对齐", str(src), str(tgt))
    assert f"{src} 有 3 行，而 {tgt} 有 2 行" in line


def test_no_pair_fits_the_length_limit(tmp_path, english_after):
    from model.errors import UserError
    from model.training.data import split
    from model.training.prepare import prepare_data
    from model.training.tasks import make_task

    cfg = corpus_config(tmp_path, task="reverse").replace(max_tokens_per_sentence=2)
    with pytest.raises(UserError) as refused:
        prepare_data(cfg, *split(make_task("reverse", 300, seed=1), 20, seed=1))
    check_said(error_message(refused.value), "分词后没有一个训练句对符合长度限制")


# -- the training loop: the real loop on a tiny task, its step or its save made to fail ---------------------
@pytest.fixture(scope="module")
def data(tmp_path_factory):
    from model.training.data import split
    from model.training.prepare import prepare_data
    from model.training.tasks import make_task

    cfg = corpus_config(tmp_path_factory.mktemp("data"), task="reverse")
    return prepare_data(cfg, *split(make_task("reverse", 300, seed=1), 20, seed=1))


def loop_error(tmp_path: Path, data, monkeypatch, loss=None, save=None, **settings) -> tuple[str, Path]:
    """The "error" record's message of model.training.train.train with its loss (a function of the step and
    the real loss) or its checkpoint save (a function of the step) replaced; and the run folder."""
    from model.training import train as loop
    from model.training.schedule import step_loss as real_loss
    from model.training.state import save_checkpoint as real_save

    steps = []
    if loss is not None:
        def step_loss(*args):
            steps.append(None)
            return loss(len(steps), real_loss(*args))
        monkeypatch.setattr(loop, "step_loss", step_loss)
    if save is not None:
        monkeypatch.setattr(loop, "save_checkpoint", lambda *args: save(args[5]) or real_save(*args))
    cfg = corpus_config(tmp_path, task="reverse").replace(**{"report_every": 1, "max_steps": 20, **settings})
    records = list(loop.train(cfg, data))
    assert records[-1].event == "error", [(r.event, r.message) for r in records]
    return records[-1].message, cfg.out_path


def test_a_nan_loss_stops_the_run(tmp_path, data, monkeypatch, english_after):
    message, _ = loop_error(tmp_path, data, monkeypatch, loss=lambda step, real: real * math.nan)
    check_said(message, "训练已停止：第 1 步的损失变成了 nan；还没有写入任何检查点。请试试更小的学习率倍数", "nan")
    message, out = loop_error(tmp_path / "b", data, monkeypatch, checkpoint_every=1,
                              loss=lambda step, real: real * (math.nan if step == 3 else 1))
    line = check_said(message, "第 3 步的损失变成了 nan", "nan", str(out / "step-00000002"))
    assert f"最后一个有效的检查点 {out / 'step-00000002'} 完好无损" in line


def test_a_diverging_loss_stops_the_run(tmp_path, data, monkeypatch, english_after):
    message, _ = loop_error(tmp_path, data, monkeypatch, loss=lambda step, real: real * 0 + 50)
    line = check_said(message, "训练在第 5 步停止：损失发散：连续 5 次报告为 50，比在 ", "ln")
    assert f"在 {data.tokenizer.vocab_size} 个子词中均匀猜测还差" in line
    # Low once, then five times higher: a rise against the best so far, though below the ceiling.
    message, _ = loop_error(tmp_path / "b", data, monkeypatch,
                            loss=lambda step, real: real * 0 + (0.5 if step == 1 else 5))
    check_said(message, "训练在第 6 步停止：损失发散：连续 5 次报告为 5，而本次运行早些时候曾为 0.5")


def test_the_gpu_running_out_of_memory_in_the_loop(tmp_path, data, monkeypatch, english_after):
    def out_of_memory(step, real):
        if step == 2:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory")
        return real

    message, _ = loop_error(tmp_path, data, monkeypatch, loss=out_of_memory, batch_tokens=512)
    check_said(message, "GPU 显存在第 2 步耗尽（每批 512 个词元）；请减少每批词元数（例如 256）。", "GPU")
    message, out = loop_error(tmp_path / "b", data, monkeypatch, loss=out_of_memory, batch_tokens=512,
                              checkpoint_every=1)
    check_said(message, f"（例如 256）。最后一个有效的检查点 {out / 'step-00000001'} 完好无损。", "GPU",
               str(out / "step-00000001"))


@pytest.mark.parametrize(("code", "why"), [(errno.ENOSPC, "所在的磁盘已满"), (errno.EACCES, "（权限不足）")])
def test_a_checkpoint_that_cannot_be_saved(tmp_path, data, monkeypatch, english_after, code, why):
    def full(step):
        if step == 2:
            raise OSError(code, os.strerror(code))

    message, out = loop_error(tmp_path, data, monkeypatch, save=full, checkpoint_every=1)
    line = check_said(message, f"保存第 2 步时出错：{'' if code == errno.ENOSPC else '无法写入 '}{out}", str(out),
                      "step-00000001")
    assert why in line and line.endswith("上一个检查点 step-00000001 完好无损")
    message, out = loop_error(tmp_path / "b", data, monkeypatch, save=lambda step: full(2), checkpoint_every=1)
    assert check_said(message, why, str(out)).endswith("这次运行还没有更早的检查点")


# -- settings, resuming, several processes, the unforeseen ------------------------------------------------
def test_a_model_too_large_for_the_memory(monkeypatch, english_after):
    from model.errors import UserError
    from model.training import memory

    monkeypatch.setattr(memory, "available_bytes", lambda device: 2**20)
    with pytest.raises(UserError) as refused:
        memory.check_fits(PRESETS["base"], torch.device("cpu"))
    message = error_message(refused.value)
    params, need, free = re.search(r"of (\S+) M .* least (\S+) GiB .* has (\S+) GiB", message).groups()
    line = check_said(message, "的模型至少需要", params, need, free, "GiB", "Adam", "cpu", "d_model")
    assert f"但 cpu 只有 {free} GiB 可用" in line


def test_a_checkpoint_of_another_model(tmp_path, data, english_after):
    from model.errors import UserError
    from model.training import train as loop
    from model.training.state import restore

    cfg = corpus_config(tmp_path, task="reverse").replace(max_steps=1)
    saved = Path(list(loop.train(cfg, data))[-1].checkpoint)
    other = PRESETS["tiny"].replace(vocab_size=data.tokenizer.vocab_size, n_layers=PRESETS["tiny"].n_layers + 1)
    with pytest.raises(UserError) as refused:
        restore(saved, None, other, None, None, torch.device("cpu"))
    check_said(error_message(refused.value), "检查点的模型配置与这次运行的不同")


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    """A run of two steps through the GUI's worker, copied by each case before it is damaged."""
    tmp = tmp_path_factory.mktemp("finished")
    worker = TrainWorker()
    events = []
    worker.progress.connect(lambda r: events.append(r.event))
    cfg = corpus_config(tmp, task="reverse")
    worker.run(TrainRequest(cfg))
    assert events[-1] == "done", events
    return Path(cfg.out_dir)


def _json_edit(path: Path, edit) -> None:
    import json
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _unfit_state(step: Path) -> None:
    state = torch.load(step / "train_state.pt", weights_only=True)
    state["optimizer"]["param_groups"] = []
    torch.save(state, step / "train_state.pt")


@pytest.mark.parametrize(("damage", "chinese", "data"), [
    (lambda run, step: (run / "LATEST").write_text("step-09999999"), "指向 step-09999999，但它不存在；此处的检查点：",
     ("{run}/LATEST", "step-09999999", "{step}")),
    (lambda run, step: (run / "LATEST").write_text(""), "是空的；此处的检查点：", ("{run}/LATEST", "{step}")),
    (lambda run, step: (run / "LATEST").write_text("../elsewhere"), "它不是 ",
     ("{run}/LATEST", "'../elsewhere'", "{run}", "{step}")),
    (lambda run, step: (run / step / "config.json").rename(run / "moved.json"),
     "但其中没有 config.json；该文件夹中没有检查点",
     ("{run}/LATEST", "{step}", "config.json")),
    (lambda run, step: _json_edit(run / step / "config.json", lambda d: d["meta"].update(step="x")),
     "必须是不小于 0 的整数，实际为 'x'", ("{run}/{step}/config.json", "meta.step", "'x'")),
    (lambda run, step: _json_edit(run / step / "config.json", lambda d: d.update(meta=[])),
     "“meta”必须是一个对象，实际为 []", ("{run}/{step}/config.json", "meta")),
    (lambda run, step: _json_edit(run / step / "config.json", lambda d: d["meta"].update(elapsed_s="1h")),
     "必须是秒数，实际为 '1h'", ("{run}/{step}/config.json", "meta.elapsed_s", "'1h'")),
    (lambda run, step: _json_edit(run / step / "train_config.json", lambda d: d.update(model=5)),
     "训练配置：“model”必须是描述模型尺寸的对象，实际为 5", ("model",)),
    (lambda run, step: _json_edit(run / step / "train_config.json", lambda d: d.update(stages=3)),
     "训练配置：stages 必须是对象列表，实际为 3", ("stages",)),
    (lambda run, step: (run / step / "train_config.json").write_text("[]"),
     "训练配置 不是本应用的训练配置：其中没有 JSON 对象", ("JSON",)),
    (lambda run, step: _json_edit(run / step / "train_config.json", lambda d: d.pop("model")),
     "不是本应用的训练配置：其中没有“model”部分", ("model",)),
])
def test_a_damaged_run_to_resume(tmp_path, finished_run, english_after, damage, chinese, data):
    import shutil
    run = tmp_path / "copy"
    shutil.copytree(finished_run, run)
    step = (run / "LATEST").read_text().strip()
    damage(run, step)
    config = corpus_config(tmp_path, task="reverse").replace(out_dir=str(tmp_path / "next"))
    message = worker_error(TrainRequest(config, resume=str(run)))
    check_said(message, chinese, *(part.format(run=run, step=step) for part in data))


def test_a_training_state_of_another_shape(tmp_path, finished_run, english_after):
    import shutil
    run = tmp_path / "copy"
    shutil.copytree(finished_run, run)
    step = run / (run / "LATEST").read_text().strip()
    _unfit_state(step)
    config = corpus_config(tmp_path, task="reverse").replace(out_dir=str(tmp_path / "next"))
    message = worker_error(TrainRequest(config, resume=str(run)))
    assert message.endswith("does not fit this model: its optimizer has 0 parameter groups, the run's has 1")
    i18n.install_language("zh_CN")
    try:
        line = model_error(message)
    finally:
        i18n.install_language("en")
    # The frame is said again; the optimizer's detail is technical and stays as the model wrote it.
    assert line == f"{step / 'train_state.pt'} 与这个模型不匹配：its optimizer has 0 parameter groups, the run's has 1"


def test_a_damaged_run_of_many_checkpoints_names_the_newest(tmp_path, english_after):
    from model.checkpoint import CheckpointError, resolve
    for step in range(1, 6):
        (tmp_path / f"step-{step:08d}").mkdir()
        (tmp_path / f"step-{step:08d}" / "config.json").write_text("{}")
    (tmp_path / "LATEST").write_text("")
    with pytest.raises(CheckpointError) as refused:
        resolve(tmp_path)
    newest = [f"step-{step:08d}" for step in (3, 4, 5)]
    line = check_said(str(refused.value), f"是空的；此处的检查点：{', '.join(newest)}（以及 2 个更早的）",
                      str(tmp_path / "LATEST"), *newest)
    assert line.startswith(f"{tmp_path / 'LATEST'} 是空的；")


def test_the_training_processes_failing(tmp_path, english_after):
    from model.training.torchrun import _failure

    (tmp_path / "LATEST").write_text("step-00000010")
    crash = _failure(None, None, 1, deque(["RuntimeError: NCCL error in: x.cpp"]), tmp_path, {})
    line = check_said(crash.message, "训练进程失败（退出码 1）；最后一个有效的检查点", str(tmp_path / "step-00000010"),
                      "RuntimeError: NCCL error in: x.cpp")
    assert line.endswith("最后的消息：\nRuntimeError: NCCL error in: x.cpp")
    said = TrainProgress(3, 10, 0, 0.0, 0.0, 0.0, 0.0, event="error",
                         message="corpus file not found: /data/pairs.tsv")
    wrapped = _failure(None, said, 2, deque(), tmp_path, {})
    check_said(wrapped.message, "找不到语料文件：/data/pairs.tsv（训练进程以退出码 2 结束）", "/data/pairs.tsv")


def test_an_unforeseen_error_and_an_unknown_form(english_after):
    line = check_said(error_message(ValueError("bad thing")), "意外错误：", "ValueError", "bad thing")
    assert line == "意外错误：ValueError：bad thing"
    odd = "something the model never said"
    i18n.install_language("zh_CN")
    assert model_error(odd) == odd


# -- end to end: the Train tab in Chinese, a run that fails ------------------------------------------------
def test_the_chinese_train_tab_logs_a_failed_runs_error_in_chinese(qtbot, tmp_path, english_after, monkeypatch):
    i18n.install_language("zh_CN")
    panel = TrainPanel()
    qtbot.addWidget(panel)
    form = panel.form
    form.corpus_combo.setCurrentIndex(form.corpus_combo.findData("tsv"))
    missing = tmp_path / "missing.tsv"
    form.tsv_field.edit.setText(str(missing))
    assert form.corpus_error.text() == f"找不到语料文件：{missing}"  # said before Start, in Chinese
    # A file that goes between the form's check and the worker's read: the worker's own error, logged.
    monkeypatch.setattr(form, "corpus_problem", lambda: "")
    form.preset_combo.setCurrentText("tiny")
    form.out_field.edit.setText(str(tmp_path / "run"))
    failed: list[TrainProgress] = []
    panel.record_received.connect(lambda p: p.event == "error" and failed.append(p))
    assert panel.start()
    qtbot.waitUntil(lambda: bool(failed) and panel.is_idle(), timeout=RUN_TIMEOUT_MS)
    panel.shutdown()
    assert failed[0].message == f"corpus file not found: {missing}"  # the model's English, as it came
    assert panel.error_text() == f"找不到语料文件：{missing}"
    assert panel.log_lines()[-1].split("  ", 1)[1] == f"错误：找不到语料文件：{missing}"

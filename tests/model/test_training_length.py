"""The longest training sequence a model folder records (train_config.json), carried to ModelInfo for the
positional-encoding tab's "never seen in training" marks."""

from __future__ import annotations

import shutil

from model.checkpoint import TRAIN_CONFIG, load_model, save_model, training_length


def test_a_trained_folder_reports_its_max_tokens_per_sentence(tiny_model_dir):
    # train_tiny leaves TrainConfig's default, 128 pieces; the run wrote it beside the checkpoint.
    assert (tiny_model_dir / TRAIN_CONFIG).is_file()
    assert load_model(tiny_model_dir).info().max_train_length == 128


def test_the_value_written_is_the_value_read(tiny_model_dir, tmp_path):
    loaded = load_model(tiny_model_dir)
    text = (tiny_model_dir / TRAIN_CONFIG).read_text().replace('"max_tokens_per_sentence": 128',
                                                              '"max_tokens_per_sentence": 37')
    out = save_model(tmp_path / "m", loaded.model, loaded.tokenizer, extra_files={TRAIN_CONFIG: text})
    assert load_model(out).info().max_train_length == 37
    # Re-saving a loaded model writes its meta back: the length must not leak into config.json.
    assert "max_train_length" not in (out / "config.json").read_text()


def test_unknown_when_the_folder_does_not_say(tiny_model_dir, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(tiny_model_dir, folder)
    (folder / TRAIN_CONFIG).unlink()
    assert load_model(folder).info().max_train_length == 0
    for bad in ("not json", "[1, 2]", '{"max_tokens_per_sentence": "128"}', '{"max_tokens_per_sentence": -3}',
                '{"max_tokens_per_sentence": true}'):
        (folder / TRAIN_CONFIG).write_text(bad)
        assert training_length(folder) == 0, bad

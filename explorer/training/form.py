"""The settings form of the Train tab: corpus, model, schedule, limits, output folder, device.

It turns what is on screen into a :class:`explorer.training.worker.TrainRequest` and nothing more; the
panel decides when to run it. The configuration classes come from ``model.choices``, which is torch-free,
so the window still opens without importing torch. Their own checks (d_model divisible by the heads,
positive sizes …) are the single source of truth: the form shows their messages rather than repeating
the rules.

Choosing a corpus fills in settings that suit it (``explorer.training.defaults``): a synthetic task must
converge on a CPU while a class watches, a real corpus needs the small preset and the paper's schedule.
The run's folder, and the corpus of a run to resume, are ``explorer.training.form_folders``'s.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets
from PySide6.QtCore import Signal

from explorer.training.defaults import CORPORA, DIGIT_PROBE, PROBES, TASK_DEFAULTS, TEXT_DEFAULTS
from explorer.training.form_folders import RunFolder
from explorer.training.worker import CPU_BF16, TrainRequest
from explorer.ui import style
from explorer.ui.form_fields import PathField, spin_box
from explorer.ui.i18n import N_, tr, translate
from model.choices import PRESETS, TrainConfig, UserError


class TrainForm(RunFolder, QtWidgets.QWidget):
    """Every setting of a run; ``request()`` builds the TrainRequest or raises UserError."""

    validity_changed = Signal(bool)

    def __init__(self, tasks: tuple[str, ...], ding_available: bool, parent=None) -> None:
        super().__init__(parent)
        self._auto_out = True  # the output folder follows the corpus until the user picks one
        self._setting_out = False
        self._devices_touched = False
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)

        corpus = self._group(layout, "Corpus")
        self.corpus_combo = QtWidgets.QComboBox()
        for key, label in CORPORA.items():
            if key != "ding" or ding_available:
                self.corpus_combo.addItem(label, key)
        corpus.addRow("Train on", self.corpus_combo)
        self.task_combo = QtWidgets.QComboBox()
        self.task_combo.addItems(list(tasks))
        self.task_combo.setProperty("i18n_skip", True)  # the names `train --task` takes; the code reads them
        self.task_size_spin = spin_box(100, 10_000_000, 1000)
        self.task_size_spin.setValue(20_000)
        self.src_field = PathField(N_("Source-language file"))
        self.tgt_field = PathField(N_("Target-language file"))
        self.tsv_field = PathField(N_("Tab-separated file"))
        self.ding_combo = QtWidgets.QComboBox()
        self.ding_combo.addItem("English → German", False)
        self.ding_combo.addItem("German → English", True)
        self._corpus_rows = {"task": [("Task", self.task_combo), ("Pairs", self.task_size_spin)],
                             "files": [("Source file", self.src_field), ("Target file", self.tgt_field)],
                             "tsv": [("TSV file", self.tsv_field)], "ding": [("Direction", self.ding_combo)]}
        for rows in self._corpus_rows.values():
            for label, widget in rows:
                corpus.addRow(label, widget)
        self._corpus_form = corpus
        # Why Start will refuse: a missing file was found only after Start (a run folder made for nothing,
        # the panel saying "Failed").
        self.corpus_error = style.make_error(QtWidgets.QLabel(""))
        self.corpus_error.setWordWrap(True)
        self.corpus_error.hide()
        corpus.addRow(self.corpus_error)

        model = self._group(layout, "Model")
        self.preset_combo = QtWidgets.QComboBox()
        self.preset_combo.addItems(list(PRESETS))
        self.preset_combo.setProperty("i18n_skip", True)  # the names `train --preset` takes
        model.addRow("Preset", self.preset_combo)
        self.vocab_spin = spin_box(8, 1_000_000, 1000)
        self.layers_spin = spin_box(1, 48)
        self.d_model_spin = spin_box(8, 8192, 64)
        self.heads_spin = spin_box(1, 128)
        self.d_ff_spin = spin_box(8, 65536, 256)
        self.dropout_spin = QtWidgets.QDoubleSpinBox()
        self.dropout_spin.setRange(0.0, 0.9)
        self.dropout_spin.setSingleStep(0.05)
        # Section 3.4 of the paper; unticked gives source, target and output their own matrices.
        self.share_check = QtWidgets.QCheckBox("source, target and output (paper)")
        self.share_check.setToolTip("One matrix for the source and target embeddings and the pre-softmax "
                                    "projection (paper, section 3.4). Untick to give each its own.")
        for label, widget in (("Vocabulary", self.vocab_spin), ("Layers (N)", self.layers_spin),
                              ("d_model", self.d_model_spin), ("Heads (h)", self.heads_spin),
                              ("d_ff", self.d_ff_spin), ("Dropout", self.dropout_spin),
                              ("Shared embedding", self.share_check)):
            model.addRow(label, widget)
        self.model_error = style.make_error(QtWidgets.QLabel(""))
        self.model_error.setWordWrap(True)
        model.addRow(self.model_error)

        train = self._group(layout, "Training")
        self.warmup_spin = spin_box(1, 1_000_000, 50)
        self.lr_scale_spin = QtWidgets.QDoubleSpinBox()
        self.lr_scale_spin.setRange(0.01, 10.0)
        self.lr_scale_spin.setSingleStep(0.1)
        self.batch_spin = spin_box(16, 1_000_000, 256)
        self.smoothing_spin = QtWidgets.QDoubleSpinBox()
        self.smoothing_spin.setRange(0.0, 0.9)
        self.smoothing_spin.setSingleStep(0.05)
        self.smoothing_spin.setValue(TrainConfig.label_smoothing)  # the paper's ε_ls = 0.1
        self.smoothing_spin.setToolTip("ε_ls of the paper's section 5.4; 0 = plain cross-entropy")
        self.max_steps_spin = spin_box(0, 10_000_000, 100, "no limit")
        self.max_minutes_spin = spin_box(0, 100_000, 5, "no limit")
        self.valid_every_spin = spin_box(0, 1_000_000, 50, "never")
        self.checkpoint_every_spin = spin_box(0, 1_000_000, 50, "only at the end")
        self.probe_edit = QtWidgets.QLineEdit()
        self.probe_edit.setPlaceholderText("a source sentence to watch (optional)")
        self.probe_every_spin = spin_box(0, 1_000_000, 5, "never")
        self.out_field = PathField(N_("Output folder"), folder=True)
        self.resume_field = PathField(N_("Resume from checkpoint"), folder=True,
                                      placeholder="(a new run)")
        self.resume_field.setToolTip("A run or checkpoint folder. Resuming keeps its model and corpus; "
                                     "the limits and intervals set here apply.")
        self.device_combo = QtWidgets.QComboBox()
        self.device_combo.addItem("CPU", "cpu")
        for label, widget in (("Warmup steps", self.warmup_spin), ("LR scale", self.lr_scale_spin),
                              ("Batch tokens", self.batch_spin), ("Label smoothing", self.smoothing_spin),
                              ("Max steps", self.max_steps_spin),
                              ("Max minutes", self.max_minutes_spin), ("Validate every", self.valid_every_spin),
                              ("Checkpoint every", self.checkpoint_every_spin), ("Probe sentence", self.probe_edit),
                              ("Probe every", self.probe_every_spin), ("Output folder", self.out_field),
                              ("Resume from", self.resume_field), ("Device", self.device_combo)):
            train.addRow(label, widget)
        layout.addStretch(1)

        self.corpus_combo.currentIndexChanged.connect(self._on_corpus)
        self.task_combo.currentTextChanged.connect(lambda _t: self._on_corpus())
        self.ding_combo.currentIndexChanged.connect(lambda _i: self._on_corpus())
        self.preset_combo.currentTextChanged.connect(self.apply_preset)
        for spin in (self.layers_spin, self.d_model_spin, self.heads_spin, self.d_ff_spin, self.vocab_spin):
            spin.valueChanged.connect(lambda _v: self.validate_model())
        self.dropout_spin.valueChanged.connect(lambda _v: self.validate_model())
        self.out_field.changed.connect(self._on_out_changed)
        self.resume_field.edited.connect(self._on_resume_chosen)
        self.src_field.edited.connect(self._refresh_out)
        self.tsv_field.edited.connect(self._refresh_out)
        for field in (self.src_field, self.tgt_field, self.tsv_field):
            field.changed.connect(lambda _t: self.validate_model())
        self.device_combo.activated.connect(lambda _i: setattr(self, "_devices_touched", True))
        self._on_corpus()

    def _group(self, layout: QtWidgets.QVBoxLayout, title: str) -> QtWidgets.QFormLayout:
        box = QtWidgets.QGroupBox(title)
        form = QtWidgets.QFormLayout(box)
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # A field too wide beside its label goes under it, so a narrow pane never clips a field.
        form.setRowWrapPolicy(QtWidgets.QFormLayout.RowWrapPolicy.WrapLongRows)
        layout.addWidget(box)
        return form

    # ----------------------------------------------------------------------------------- public API
    def corpus_kind(self) -> str:
        return self.corpus_combo.currentData()

    def apply_preset(self, name: str) -> None:
        cfg = PRESETS[name]
        self.preset_combo.blockSignals(True)
        self.preset_combo.setCurrentText(name)
        self.preset_combo.blockSignals(False)
        # Digit and date tasks need a few dozen pieces; a bigger vocabulary would only be padding.
        vocab = min(cfg.vocab_size, 64) if self.corpus_kind() == "task" else max(cfg.vocab_size, 8000)
        for spin, value in ((self.vocab_spin, vocab), (self.layers_spin, cfg.n_layers),
                            (self.d_model_spin, cfg.d_model), (self.heads_spin, cfg.n_heads),
                            (self.d_ff_spin, cfg.d_ff)):
            spin.setValue(value)
        self.dropout_spin.setValue(cfg.dropout)
        self.share_check.setChecked(cfg.share_embeddings)
        self.validate_model()

    def set_devices(self, choices: list[tuple[str, str]]) -> None:
        """Add the GPUs found (key, label) after the CPU; pick the first unless the user chose."""
        while self.device_combo.count() > 1:
            self.device_combo.removeItem(1)
        for key, label in choices:
            self.device_combo.addItem(translate(label), key)  # a GPU's own name has no translation
        gpus = [i for i in range(self.device_combo.count()) if self.device_combo.itemData(i).startswith("cuda")]
        if gpus and not self._devices_touched:
            self.device_combo.setCurrentIndex(gpus[0])

    def set_device(self, key: str) -> None:
        index = self.device_combo.findData(key)
        if index < 0:
            raise ValueError(f"no device {key!r}")
        self.device_combo.setCurrentIndex(index)
        self._devices_touched = True

    def validate_model(self) -> bool:
        """Check the corpus's files and the model fields (ModelConfig's own rules); each message shows under
        its group. Returns whether a run can start; ``validity_changed`` (Start's state) follows the model
        fields alone."""
        problem = self.corpus_problem()
        self.corpus_error.setText(problem)
        self.corpus_error.setVisible(bool(problem))
        try:
            self._model_config()
        except UserError as exc:
            self.model_error.setText(str(exc))
            self.model_error.show()
            self.validity_changed.emit(False)
            return False
        self.model_error.setText("")
        self.model_error.hide()
        # Start stays on for a missing file (it may be written meanwhile, which no field change would
        # tell the form); pressing it checks again and refuses while the file is not there.
        self.validity_changed.emit(True)
        return not problem

    def corpus_problem(self) -> str:
        """Why the chosen corpus cannot be read ("" when it can or when no file is chosen yet: Start then
        asks for it by name): a file that is not there."""
        fields = {"files": (self.src_field, self.tgt_field), "tsv": (self.tsv_field,)}.get(self.corpus_kind(), ())
        for field in fields:
            path = field.path().strip()
            if path and not Path(path).expanduser().is_file():
                return tr("corpus file not found: {path}", path=path)
        return ""

    def probe_sentence(self) -> str:
        return self.probe_edit.text().strip()

    def request(self) -> TrainRequest:
        """The run the form describes; UserError with a message for a person if it is incomplete."""
        self._settle_out_folder()
        kind, resume = self.corpus_kind(), self.resume_field.path()
        corpus: dict = {}
        if kind == "task":
            # Mixed-length batches: short digit sequences pad little, and steps on one length at a time
            # would make the live attention flicker between lengths (see model.training.tasks).
            corpus = {"task": self.task_combo.currentText(), "task_size": self.task_size_spin.value(),
                      "valid_bleu_sentences": 100, "length_buckets": False}
        elif kind == "files" and (self.src_field.path() or self.tgt_field.path() or not resume):
            if not (self.src_field.path() and self.tgt_field.path()):
                raise UserError("Choose both the source-language and the target-language file.")
            corpus = {"src": self.src_field.path(), "tgt": self.tgt_field.path()}
        elif kind == "tsv" and (self.tsv_field.path() or not resume):
            if not self.tsv_field.path():
                raise UserError("Choose the tab-separated corpus file.")
            corpus = {"tsv": self.tsv_field.path()}
        if not self.output_folder():
            raise UserError("Choose an output folder for the checkpoints.")
        device = self.device_combo.currentData()
        n_gpus = int(device.split(":")[1]) if device.startswith("all:") else 0
        cpu_amp = device == CPU_BF16
        if cpu_amp:
            device = "cpu"
        cfg = TrainConfig(
            out_dir=str(Path(self.output_folder()).expanduser()), model=self._model_config(),
            max_steps=self.max_steps_spin.value() or None, max_minutes=self.max_minutes_spin.value() or None,
            warmup_steps=self.warmup_spin.value(), lr_scale=self.lr_scale_spin.value(),
            batch_tokens=self.batch_spin.value(), label_smoothing=round(self.smoothing_spin.value(), 3),
            valid_every=self.valid_every_spin.value(),
            checkpoint_every=self.checkpoint_every_spin.value(), device="cuda" if n_gpus else device,
            probe_sentence=self.probe_sentence(), probe_every=self.probe_every_spin.value(), cpu_amp=cpu_amp,
            **corpus)
        # A resumed run reads its corpus from the checkpoint's saved settings: no need to rebuild it.
        ding = self.ding_combo.currentData() if kind == "ding" and not resume else None
        return TrainRequest(cfg, resume=resume, n_gpus=n_gpus, ding_reverse=ding)

    # ------------------------------------------------------------------------------------ internals
    def _model_config(self):
        return PRESETS[self.preset_combo.currentText()].replace(
            vocab_size=self.vocab_spin.value(), n_layers=self.layers_spin.value(),
            d_model=self.d_model_spin.value(), n_heads=self.heads_spin.value(),
            d_ff=self.d_ff_spin.value(), dropout=round(self.dropout_spin.value(), 3),
            share_embeddings=self.share_check.isChecked())

    def _on_corpus(self) -> None:
        """Show the corpus's own fields and fill in the settings that suit it."""
        kind = self.corpus_kind()
        for key, rows in self._corpus_rows.items():
            for _label, widget in rows:
                self._corpus_form.setRowVisible(widget, key == kind)
        d = TASK_DEFAULTS if kind == "task" else TEXT_DEFAULTS
        self.apply_preset(d["preset"])
        for spin, key in ((self.warmup_spin, "warmup"), (self.batch_spin, "batch"),
                          (self.max_steps_spin, "max_steps"), (self.valid_every_spin, "valid_every"),
                          (self.checkpoint_every_spin, "checkpoint_every"), (self.probe_every_spin, "probe_every")):
            spin.setValue(d[key])
        self.lr_scale_spin.setValue(d["lr_scale"])
        self.max_minutes_spin.setValue(0)
        if kind == "task":
            task = self.task_combo.currentText()
            self.probe_edit.setText(PROBES.get(task, DIGIT_PROBE))
        elif kind == "ding":
            self.probe_edit.setText(PROBES["ding-de" if self.ding_combo.currentData() else "ding-en"])
        else:
            self.probe_edit.setText("")  # only the user knows the language of their files
        self._refresh_out()


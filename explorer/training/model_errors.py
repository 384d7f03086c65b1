"""The training run's English error messages, said again in the window's language for the Train tab.

A failed run reaches the panel as one "error" record whose ``message`` is the model's own English (the model
package never imports Qt): a NaN loss, a full disk, a corpus file that is missing or not UTF-8, a folder
that already holds a run. As with the data report (model_lines.py), the Train tab recognises the forms the
model writes and formats each again with ``tr()``; a message of any other form is shown as it came.

Each form is written once, as the model's English with its varying parts named: ``{step}``, ``{path}``.
That text is both the ``tr()`` template (so the English window shows the message unchanged) and, with its
named parts turned into groups, the pattern that recognises it (explorer/ui/message_forms.py). Some parts
are sentences of their own (which checkpoint is intact, the operating system's reason a write failed):
those are said again too.
tests/explorer/test_train_log_errors.py makes each message with the model's own code, so a change of
wording there fails a test instead of reaching the Chinese log in English.
"""

from __future__ import annotations

from explorer.ui.i18n import N_, translate
from explorer.ui.message_forms import MessageForms

# Where the model writes each form: model/training/train.py (the loop), state.py (saving, resuming),
# data.py and model/corpus/lines.py (reading the corpus), prepare.py, checkpoint.py (the run folder), lock.py,
# memory.py, torchrun.py (several processes) and explorer/training/worker.py (an error nobody foresaw).
# A message whose last part is free text (a path, another message) matches the first form that fits, so
# the torchrun suffix, which ends every other message it wraps, comes first.
FORMS = (
    N_("{message} (the training processes exited with code {code})"),  # torchrun._failure
    N_("the training processes failed (exit code {code}); {kept}. Last messages:\n{lines}"),  # torchrun._failure
    N_("training stopped: the loss became {value} at step {step}; {kept}. "
       "Try a smaller learning-rate scale or more warmup steps."),  # train._train, a NaN or infinite loss
    N_("training stopped at step {step}: {diverged}; {kept}. "
       "Try a smaller learning-rate scale or more warmup steps."),  # train._train, DivergenceWatch
    N_("the GPU ran out of memory at step {step} with batches of {tokens} tokens; "
       "try fewer batch tokens (e.g. {half}). "),  # train._train, before any checkpoint
    N_("the GPU ran out of memory at step {step} with batches of {tokens} tokens; "
       "try fewer batch tokens (e.g. {half}). The last good checkpoint {path} is intact."),
    N_("{why} while saving step {step}; {kept}"),  # state.save_failure
    N_("cannot write to the output folder {path}: {reason}"),  # train.train, worker.check_writable, torchrun
    N_("{path} is a file, not a folder: choose a folder for the run"),  # run_folder.check_new_run
    N_("{path} holds other files and no run; choose a new or empty folder for the run"),  # the same
    # run_folder.check_new_run with the hints the GUI worker gives it (worker.RESUME_HINT, OVERWRITE_HINT)
    N_("{path} already holds a training run: continue it with “Resume from”, choose another folder, "
       "or delete its step-* folders and LATEST to start over in it"),
    N_("another training run (pid {pid}) is writing to {path}; wait for it or stop it (touch STOP in the "
       "folder), or choose another --out"),  # lock.RunLock.acquire
    N_("corpus file not found: {path}"),  # corpus.lines.read_text
    N_("the corpus path is a folder, not a file: {path}"),
    N_("cannot read the corpus file {path}: {reason}"),
    N_("{path} is not UTF-8 text (bad byte at line {line}); convert it with iconv"),  # corpus.lines.decode_text
    N_("{path} looks like a binary file, not text"),
    N_("{path} holds no usable sentence pairs ({n} lines skipped)"),  # data._collect
    N_("{path} has {n} lines but {other} has {m}: the files must be aligned line by line"),  # data.read_parallel
    N_("{path} holds no tab-separated pairs (is it a TSV file?)"),  # data.read_tsv
    N_("no training pairs are left after holding out the validation set; the corpus is too small"),  # prepare
    N_("no training pair fits the length limit after tokenization"),  # prepare.prepare_data
    N_("the checkpoint's model config differs from the run's; resume with the same model"),  # state.restore
    N_("model folder not found: {path}"),  # checkpoint.resolve, a "Resume from" folder
    N_("not a model folder: {path} has no {file} (expected {files})"),
    N_("a model of {params} M parameters needs at least {need} GiB to train (weights, gradients and Adam's "
       "two moments, before activations), but {device} has {free} GiB free; "
       "choose a smaller preset or d_model"),  # memory.check_fits
    # A damaged run named in "Resume from": its LATEST (checkpoint.resolve), a checkpoint's meta
    # (folder_checks.check_meta), its train_state.pt (state.check_state_fits), its train_config.json
    # (config.TrainConfig.from_json). The technical detail after "does not fit this model:" stays English.
    N_("{path} names {name}, which is missing; {here}"),
    N_("{path} names {name}, which has no {file}; {here}"),
    N_("{path} names {name}, which is not a checkpoint folder inside {run}; {here}"),
    N_("{path} is empty; {here}"),
    N_("{path}: 'meta' must be an object, got {value}"),
    N_("{path}: meta.{field} must be a whole number of at least 0, got {value}"),
    N_("{path}: meta.elapsed_s must be a number of seconds, got {value}"),
    N_("{path} does not fit this model: {detail}"),
    N_("{where} is not a training config of this app: it holds no JSON object"),
    N_("{where} is not a training config of this app: it has no 'model' section"),
    N_("{where}: 'model' must be an object of the model's sizes, got {value}"),
    N_("{where}: stages must be a list of objects, got {value}"),
    N_("Unexpected error: {kind}: {error}"),  # explorer/training/worker.error_message
)
HERE = (  # checkpoint._checkpoints_here: which checkpoints a damaged run still has
    N_("checkpoints here: {names} (and {n} older)"),
    N_("checkpoints here: {names}"),
    N_("the folder holds no checkpoint"),
)
WHERE = (N_("the training config"),)  # TrainConfig.from_json's name for a config without a file
# Parts that are sentences of their own, by the name the forms give them.
KEPT = (  # what is left on disk: train._train, state.save_failure, torchrun._failure
    N_("the last good checkpoint {path} is intact"),
    N_("no checkpoint was written yet"),
    N_("no checkpoint was written"),
    N_("the previous checkpoint {name} is intact"),
    N_("no earlier checkpoint of this run exists"),
)
DIVERGED = (  # divergence.DivergenceWatch.update
    N_("the loss diverged: {loss} for {reports} reports in a row, worse than guessing uniformly among "
       "{vocab} pieces (ln V = {ln_v})"),
    N_("the loss diverged: {loss} for {reports} reports in a row, against {best} earlier in the run"),
)
WHY = (  # state.save_failure
    N_("no space left on the disk of {path}"),
    N_("cannot write to {path} ({reason})"),
)
# The operating system's reasons (OSError.strerror) a teacher meets most: a fixed English text each.
REASONS = (N_("Permission denied"), N_("No space left on device"), N_("Read-only file system"),
           N_("No such file or directory"), N_("Not a directory"), N_("Is a directory"))
NUMBERS = {"step", "code", "line", "n", "m", "tokens", "half", "reports", "vocab"}


def model_error(text: str) -> str:
    """``text``, a failed run's message, in the window's language if it is one of the known forms."""
    return _RUN.say(text)


def _where(value: str) -> str:
    """TrainConfig.from_json's ``where``: its fixed name for the config said again, a path kept."""
    return translate(value) if value in WHERE else value


def os_reason(value: str) -> str:
    """The operating system's reason a write failed, said again where it is one of the common ones."""
    return translate(value) if value in REASONS else value


# Parts that are sentences of their own, said again (in any of the forms, which nest); the rest (paths,
# values) are data, kept as they came.
_PARTS: dict = {}
_RUN, _KEPT, _DIVERGED, _WHY, _HERE = (MessageForms(forms, NUMBERS, _PARTS)
                                       for forms in (FORMS, KEPT, DIVERGED, WHY, HERE))
_PARTS.update(message=model_error, reason=os_reason, kept=_KEPT.say, diverged=_DIVERGED.say, why=_WHY.say,
              here=_HERE.say, where=_where)

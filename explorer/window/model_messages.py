"""The model worker's English errors in the window's language: a sentence it cannot translate, a folder it
cannot open as a model.

Both reach the window as the model's own text (model/decoding/decode.py, model/checkpoint.py), and the
error line under the sentence or the "Could not open the model" box shows it. A fixed message is in the
catalogue as it is; these have varying parts (a count, a folder), so they are recognised by their form
(explorer/ui/message_forms.py). tests/explorer/test_window_messages.py makes each with the model's own
code, so a change of wording there fails a test instead of reaching the Chinese window in English.
"""

from __future__ import annotations

from explorer.ui.i18n import N_, translate
from explorer.ui.message_forms import MessageForms

FORMS = (
    # decode.encode_source: the sentence typed
    N_("the sentence is too long ({n} characters; at most {limit}); split it"),
    N_("the sentence is too long ({n} pieces; at most {limit}); split it"),
    N_("the sentence must be text"),
    # checkpoint.resolve, load_model: the folder chosen (File › Open model folder…, a recent model)
    N_("model folder not found: {path}"),
    N_("not a model folder (it is a file): {path}"),
    N_("not a model folder: {path} has no {file} (expected {files})"),
    N_("{path} has no model.safetensors (found {found}; only safetensors weights are loaded)"),
    N_("{path} has no model.safetensors"),
    N_("{path} has no tokenizer (spm.model)"),
    N_("{path} has no 'model' section: not an Attention Explorer model"),
    N_("{path} is a Marian model without {name} (it needs {files})"),  # marian/tokenizer.py
    N_("{path} holds an invalid model config: {reason}"),
    N_("{path} is corrupt or truncated ({reason})"),
    N_("{path}: {name} holds NaN or infinite values"),
)
_FORMS = MessageForms(FORMS, numbers=("n", "limit"))


def model_message(text: str) -> str:
    """``text``, an error of the model worker, in the window's language where it is a known one."""
    said = translate(text)  # a fixed message: in the catalogue as it is
    return said if said != text else _FORMS.say(text)

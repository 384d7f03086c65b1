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
# ModelConfig's checks (model/config.py), the {reason} of "holds an invalid model config". Field names and
# values are data: what the user finds in config.json, as written there (true, false included).
CONFIG_FORMS = (
    N_("pad_id must be a piece id below vocab_size, got {value}"),
    N_("vocab_size must leave room for the 4 special pieces"),
    N_("a separate source vocabulary (src_vocab_size) needs share_embeddings false"),
    N_("src_vocab_size must be 0 (shared) or between 5 and {limit}, got {value}"),
    N_("pad_id ({value}) is outside the source vocabulary of {size}"),
    N_("d_model ({d_model}) must be divisible by n_heads ({n_heads})"),
    N_("norm_eps must be in (0, 1), got {value}"),
    N_("unknown model config fields: {names}"),
    N_("{name} must be a whole number, got {value}"),
    N_("{name} must be between 1 and {limit}, got {value}"),
    N_("{name} must be a number, got {value}"),
    N_("{name} must be true or false, got {value}"),
    N_("{name} must be one of {choices}, got {value}"),
    N_("{name} ({value}) is outside the vocabulary of {size}"),
    N_("{name} must be in [0, 1), got {value}"),
)
_CONFIG = MessageForms(CONFIG_FORMS)
_FORMS = MessageForms(FORMS, numbers=("n", "limit"), parts={"reason": _CONFIG.say})


def model_message(text: str) -> str:
    """``text``, an error of the model worker, in the window's language where it is a known one."""
    said = translate(text)  # a fixed message: in the catalogue as it is
    return said if said != text else _FORMS.say(text)

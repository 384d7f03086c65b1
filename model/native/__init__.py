"""Native code for the one place where PyTorch's per-operation cost dominates: a greedy draft step.

``draft_weights(loaded)`` is what decoding asks for: the model's native draft weights, or None (no C
compiler, a model the step does not cover, int8 search off, or the library still compiling in the
background), in which case the PyTorch int8 copy drafts (model/decoding/int8.py).
"""

from __future__ import annotations

from model.checkpoint import LoadedModel
from model.native import build
from model.native.engine import NativeDraft, NativeWeights, supports

__all__ = ["NativeDraft", "NativeWeights", "build", "draft_weights", "supports"]


def draft_weights(loaded: LoadedModel) -> NativeWeights | None:
    """The native draft weights of a loaded model, built once the library is ready and kept on it."""
    if not loaded.int8_search:
        return None
    if loaded.native_cache is None:
        if not supports(loaded.model):
            loaded.native_cache = False  # never for this model: do not ask again
        else:
            lib = build.library(wait=False)
            if lib is not None:
                loaded.native_cache = NativeWeights(loaded.model, lib)
            elif not build.pending():
                loaded.native_cache = False  # no compiler, or it failed
    return loaded.native_cache or None

"""Errors that carry a message meant for a person, not a traceback."""


class UserError(ValueError):
    """Bad input from the user (a file, a sentence, an option): show the message, keep running."""


class CheckpointError(UserError):
    """A model folder that is missing, incomplete, corrupt, mismatched or unsafe."""


class CorpusError(UserError):
    """A corpus that cannot be read or holds nothing usable."""


class TrainingError(RuntimeError):
    """Training stopped for a reason the user must see (NaN loss, out of memory, crashed child)."""

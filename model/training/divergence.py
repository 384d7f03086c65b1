"""Divergence: a run whose loss has left every sensible level stops, instead of writing diverged checkpoints.

NaN already stops a run. A learning rate far too high (``--lr-scale 1e6`` was tried) rarely gives NaN: the
loss climbs to hundreds of thousands and checkpoint after checkpoint of useless weights is written, each
pushing a good one out of ``--keep``. Two signs, each needing ``PATIENCE`` reports in a row so that one bad
batch never stops a run:

* the loss is above ``ln(V) + MARGIN``: worse than guessing every piece uniformly, which a model that learned
  nothing at all already does (label smoothing keeps a trained model well below it);
* the loss is more than ``RATIO`` times, and ``MIN_RISE`` nats above, the lowest it has been in this run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

PATIENCE = 5
MARGIN = 3.0
RATIO = 3.0
MIN_RISE = 3.0


@dataclass
class DivergenceWatch:
    vocab_size: int
    best: float = math.inf
    _bad: int = field(default=0, repr=False)

    @property
    def suspicious(self) -> bool:
        """The last report was out of line: hold checkpoints back until the loss is back or the run stops,
        so a diverging run never pushes good checkpoints out of ``--keep`` with bad ones."""
        return self._bad > 0

    def update(self, loss: float) -> str | None:
        """Feed one reported loss; the reason when the run has diverged, else None."""
        ceiling = math.log(max(self.vocab_size, 2)) + MARGIN
        rose = self.best < math.inf and loss > RATIO * self.best and loss > self.best + MIN_RISE
        if loss > ceiling or rose:
            self._bad += 1
        else:
            self._bad = 0
        self.best = min(self.best, loss)
        if self._bad < PATIENCE:
            return None
        if loss > ceiling:
            return (f"the loss diverged: {loss:.4g} for {PATIENCE} reports in a row, worse than guessing "
                    f"uniformly among {self.vocab_size:,} pieces (ln V = {math.log(max(self.vocab_size, 2)):.2f})")
        return (f"the loss diverged: {loss:.4g} for {PATIENCE} reports in a row, against {self.best:.4g} "
                "earlier in the run")

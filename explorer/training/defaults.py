"""What the Train tab's form fills in for each corpus: labels, probe sentences, schedules, run folder.

Choosing a corpus fills in settings that suit it, because the right numbers differ by orders of
magnitude: a synthetic task must converge on a CPU while a class watches, a real corpus needs the
small preset and the paper-like schedule. Apart from the form so the numbers can be read (and tuned)
in one place, without Qt.
"""

from __future__ import annotations

from pathlib import Path

CORPORA = {"task": "Synthetic task", "files": "Two aligned files", "tsv": "TSV file (source<TAB>target)",
           "ding": "Ding dictionary (English–German)"}
DIGIT_PROBE = "3 1 4 1 5 9 2 6"
PROBES = {"dates": "14 March 1879", "ding-en": "I would like a cup of coffee.",
          "ding-de": "Ich hätte gern eine Tasse Kaffee."}
# Settings that converge on the reverse task in about a minute on two CPU cores (the anti-diagonal
# shows by step ~250); the warmup is short because the tiny model tolerates a high early rate.
TASK_DEFAULTS = {"preset": "tiny", "warmup": 150, "lr_scale": 1.0, "batch": 1536, "max_steps": 800,
                 "valid_every": 200, "checkpoint_every": 200, "probe_every": 25}
TEXT_DEFAULTS = {"preset": "small", "warmup": 4000, "lr_scale": 1.0, "batch": 4096, "max_steps": 20000,
                 "valid_every": 500, "checkpoint_every": 1000, "probe_every": 100}
RUNS_ROOT = Path.home() / "AttentionExplorer" / "runs"

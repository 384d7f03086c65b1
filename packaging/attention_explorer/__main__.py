"""``python -m attention_explorer``: the same as the ``attention-explorer`` command."""

import sys

from attention_explorer import main

sys.exit(main())

"""``python -m explorer`` in a source checkout: the same as the ``attention-explorer`` command.

(An installed wheel keeps ``explorer`` inside ``attention_explorer``, whose ``python -m attention_explorer``
does the same there: packaging/attention_explorer/__init__.py says why.)"""

import sys

from explorer.app import main

sys.exit(main())

"""Entry script of the desktop bundle: the same as the ``attention-explorer`` command."""

import sys

from attention_explorer import main

if __name__ == "__main__":
    sys.exit(main())

import sys

from model.card.card import main

sys.exit(main())

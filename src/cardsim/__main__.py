import sys

from cardsim.cli import main

sys.exit(main())

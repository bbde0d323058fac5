"""`python -m tiebreak.cli`: the `tiebreak` command."""

import sys

from . import main

sys.exit(main())

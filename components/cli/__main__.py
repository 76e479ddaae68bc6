"""``python -m components.cli``: the ``rankwise`` command."""
import sys

from components.cli import main

sys.exit(main())

"""``python -m agentbus``: the same as the ``agentbus`` command."""

import sys

from .cli import main

sys.exit(main())

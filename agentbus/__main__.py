"""``python -m agentbus``: the same as the ``agentbus`` command.

The working directory is already off the import path here: the package's
``__init__`` removed it (see :mod:`agentbus._import_path`).
"""

import sys

from .cli import main

sys.exit(main())

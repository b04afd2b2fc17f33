"""Start ``agentbus sandbox`` in milliseconds: run this file by path (``python -I _launch.py``).

``import agentbus`` loads the whole bus (tens of milliseconds), and a rewritten
exec call pays the launcher's start-up on every command. The launcher needs only
the standard library and its own modules, so this file registers the packages
on their paths without running their ``__init__`` and calls it.
"""

import os
import sys
import types


def _bare_package(name: str, path: str) -> None:
    if name not in sys.modules:
        module = types.ModuleType(name)
        module.__path__ = [path]
        sys.modules[name] = module


if __name__ == "__main__":
    _here = os.path.dirname(os.path.abspath(__file__))
    _bare_package("agentbus", os.path.dirname(_here))
    _bare_package("agentbus.guards", _here)
    from agentbus.guards.sandbox import main

    sys.exit(main())

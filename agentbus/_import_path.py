"""Keep the working directory off the import path of agentbus's own commands.

``python -m agentbus`` puts the working directory first on ``sys.path``, and a
Claude Code hook runs in the project directory, which the agent writes: a
``structlog.py`` there would be imported, in the hook, in place of the real
one. So when agentbus is started with ``-m``, the interpreter's entry for the
working directory is removed before anything else is imported (entries the
user set in ``PYTHONPATH`` stay), and the hook and the server remove every
entry naming the working or project directory (:func:`drop_working_directory`).
The console script (``agentbus``) never had it. Only a file named
``agentbus.py`` (or an ``agentbus/`` package) in the working directory is out
of reach: Python imports it for ``-m agentbus`` before any code of ours runs;
``python -P -m agentbus`` (3.11+) or the console script avoid that.
"""

from __future__ import annotations

import os
import sys

__all__ = ["drop_working_directory"]


def drop_working_directory(*directories: str | os.PathLike[str]) -> None:
    """Remove ``''``, ``'.'`` and every entry naming the working directory (or one of
    ``directories``) from ``sys.path``."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the working directory was deleted
        here = None
    banned = {os.path.realpath(directory) for directory in directories}
    if here is not None:
        banned.add(here)

    def names_one(entry: str) -> bool:
        if entry in ("", "."):
            return True
        try:
            return os.path.realpath(entry) in banned
        except (OSError, ValueError):
            return False

    sys.path[:] = [entry for entry in sys.path if not names_one(entry)]


def _drop_interpreters_entry() -> None:
    """Remove the entry ``python -m`` put first: the working directory (never one the user set)."""
    if sys.path and not getattr(sys.flags, "safe_path", False):
        try:
            if sys.path[0] in ("", ".") or os.path.realpath(sys.path[0]) == os.path.realpath(os.getcwd()):
                del sys.path[0]
        except (OSError, ValueError):
            pass


def _started_as_agentbus() -> bool:
    """True for ``python -m agentbus ...``: not for another ``-m`` module that imports agentbus,
    whose own imports from the working directory must keep working."""
    argv: list[str] = list(getattr(sys, "orig_argv", ()))
    for index, arg in enumerate(argv[1:], 1):
        if arg == "-m":
            return index + 1 < len(argv) and argv[index + 1].split(".")[0] == "agentbus"
        if arg.startswith("-m"):
            return arg[2:].split(".")[0] == "agentbus"
    return False


if sys.argv[:1] == ["-m"] and _started_as_agentbus():  # `python -m agentbus...`, being located
    _drop_interpreters_entry()

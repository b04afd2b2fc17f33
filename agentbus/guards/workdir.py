"""The directory an exec call runs in, for the guards that read what it names (scripts run from disk).

A call may say where it runs (a ``cwd`` argument); Claude Code says it beside the
call (the hook payload's ``cwd``), which the hook hands over with
:func:`working_directory` for the decision; else the process's own directory is
the call's. Kept apart from the guards so that the hook sets it without loading them.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator

__all__ = [
    "call_directory",
    "given_directory",
    "judging_line",
    "line_start",
    "moved_by_the_line",
    "working_directory",
]

_working_directory: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "agentbus_call_working_directory", default=None
)
_line_directory: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "agentbus_line_working_directory", default=None
)


@contextlib.contextmanager
def _absolute_in(variable: contextvars.ContextVar[str | None], cwd: str | None) -> Iterator[None]:
    """``variable`` set to ``cwd`` (an absolute path; else None) inside the block."""
    token = variable.set(cwd if isinstance(cwd, str) and cwd.startswith("/") else None)
    try:
        yield
    finally:
        variable.reset(token)


def working_directory(cwd: str | None) -> contextlib.AbstractContextManager[None]:
    """Decide the calls inside the block as run in ``cwd`` (an absolute path; else ignored)."""
    return _absolute_in(_working_directory, cwd)


def given_directory(args: object = None) -> str | None:
    """The directory the runtime says an exec call runs in: its ``cwd`` argument, else the hook's
    (:func:`working_directory`); None when it says none (an in-process shell: :mod:`.session_directory`)."""
    if isinstance(args, dict):
        for key in ("cwd", "workdir", "working_directory"):
            value = args.get(key)
            if isinstance(value, str) and value.startswith("/"):
                return value
    return _working_directory.get()


def call_directory(args: object = None) -> str | None:
    """The directory an exec call runs in: its own ``cwd`` argument, the hook's, else the process's."""
    found = given_directory(args)
    if found is None:
        with contextlib.suppress(OSError):  # the process's directory may be gone
            found = os.getcwd()
    return found


def judging_line(cwd: str | None) -> contextlib.AbstractContextManager[None]:
    """Judge the command line inside the block as started in ``cwd`` (the directory its caller gave)."""
    return _absolute_in(_line_directory, cwd)


def line_start() -> str | None:
    """Where the command line being judged started: the directory its caller gave, else the call's."""
    return _line_directory.get() or call_directory()


def moved_by_the_line(cwd: str | None) -> bool:
    """Whether ``cwd`` (where a command of the line runs) is not where the line started: a ``cd`` in it
    moved there (``cd /root && cat root.txt``)."""
    start = line_start()
    return bool(cwd and start and cwd.rstrip("/") != start.rstrip("/"))

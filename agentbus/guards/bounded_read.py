"""Read a file a guard judges: a regular file, opened without blocking, at most a limit.

A command names a file (a script it runs, a chart archive it installs) and a
guard reads it to judge what the command will do. The file is the project's,
so hostile: a FIFO or a device would hang the read, a file swapped between the
guard's look (``os.stat``) and its open would be judged in another's place, a
huge one would fill memory. So it is opened without blocking, checked to be
the regular file the guard looked at (``os.fstat``), and read to at most
``limit + 1`` bytes: one more than the limit says it is over.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Unreadable", "opened", "read_at_most"]

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


class Unreadable(Exception):
    """Why the file cannot be judged, said of it: "it cannot be read (Permission denied)"."""


@contextmanager
def opened(path: str, before: os.stat_result) -> Iterator[tuple[int, os.stat_result]]:
    """The descriptor of ``path`` and its ``fstat``, if it is still the regular file ``before`` saw.

    Raises :class:`Unreadable` when it cannot be opened, changed, or a read in the
    ``with`` block fails; closes the descriptor on leaving it.
    """
    try:
        descriptor = os.open(path, _FLAGS)
    except OSError as exc:
        raise Unreadable(_cannot_read(exc)) from None
    try:
        after = os.fstat(descriptor)
        if not stat.S_ISREG(after.st_mode) or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            raise Unreadable("it changed while the guard opened it")
        yield descriptor, after
    except OSError as exc:
        raise Unreadable(_cannot_read(exc)) from None
    finally:
        os.close(descriptor)


def read_at_most(descriptor: int, limit: int, start: bytes = b"") -> bytes:
    """``start`` and what follows it, to at most ``limit + 1`` bytes in all (more: over the limit)."""
    chunks = [start]
    size = len(start)
    while size <= limit:
        chunk = os.read(descriptor, limit + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _cannot_read(exc: OSError) -> str:
    return f"it cannot be read ({exc.strerror or type(exc).__name__})"

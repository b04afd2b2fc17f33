"""The JSON-lines record log: one ``record.to_dict()`` per line, appended.

This is the observation plane's log (what every layer did, one line per
finished call), the one ``agentbus tail`` follows and ``bus.log_to(path)``
writes. The ``audit`` middleware (:mod:`agentbus.middleware.audit`) is the
other kind: one entry per tool call with its (redacted) arguments, written from
inside the stack; ``agentbus tail`` reads its files too.

It is written by processes that may run side by side (the Claude Code hook
runs one process per tool call; ``agentbus serve`` runs for days), so every
line is a single ``write()`` on a file opened with ``O_APPEND``: the kernel
moves to the end and writes in one step, and lines shorter than ``PIPE_BUF``
(4 KiB) never interleave. There is no buffer to flush: a record is on disk (in
the page cache) when the observer returns, so ``agentbus tail`` sees it at once.

Any string JSON can carry is written, lone surrogates (``"\\ud800"``) too:
they are written as JSON escapes, so every line is valid UTF-8 and parses back
to the same value. The file is private (0600 in a 0700 directory, see
:func:`agentbus.userdirs.open_private`).

An audit log must never break the agent it audits: a directory that does not
exist yet is created, and a write that fails (disk full, permissions) is
counted in :attr:`RecordLog.errors` and reported once on stderr, never raised.
When the file is rotated away (renamed or deleted, as logrotate does), the
next write after a second reopens the path, like
:class:`logging.handlers.WatchedFileHandler`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable

from .records import Record, RecordSource, level_number
from .userdirs import open_private

__all__ = ["RecordLog", "json_bytes", "log_to"]

_REOPEN_CHECK = 1.0
"""Seconds between checks that the path still names the open file."""


def json_bytes(value: object, *, compact: bool = False) -> bytes:
    """``value`` as UTF-8 JSON, whatever its strings hold.

    Text stays readable (``ensure_ascii=False``) unless a string holds a lone
    surrogate, which UTF-8 cannot encode: then the whole value is written with
    ASCII escapes (``"\\ud800"``), which any JSON reader turns back into the
    same string. ``repr`` stands in for objects JSON has no form for.
    """
    separators = (",", ":") if compact else None
    text = json.dumps(value, ensure_ascii=False, separators=separators, default=repr)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, separators=separators, default=repr).encode("ascii")


class RecordLog:
    """An observer that appends each record to ``path`` as one JSON line.

    The file is private, 0600 in a 0700 directory: records can hold tool
    arguments and results. Call :meth:`close` (or the undo function of :func:`log_to`) when
    done; the file is opened lazily, on the first record.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        from pathlib import Path  # here: the Claude Code hook imports this module, and not pathlib

        self.path = Path(path).expanduser()
        self.errors = 0
        """Records that could not be written."""
        self.last_error: OSError | None = None
        self.written = 0
        self._fd: int | None = None
        self._inode: tuple[int, int] | None = None
        self._checked = 0.0

    def __call__(self, record: Record) -> None:
        self.write_bytes(json_bytes(record.to_dict(), compact=True))

    def write_line(self, line: str) -> bool:
        """Append one line (without its newline); return False if it failed.

        A lone surrogate in ``line`` is written as ``\\ud800`` (backslashreplace).
        """
        return self.write_bytes(line.encode("utf-8", "backslashreplace"))

    def write_bytes(self, line: bytes) -> bool:
        """Append one line of UTF-8 (without its newline); return False if it failed."""
        data = line + b"\n"
        try:
            fd = self._file()
            written = os.write(fd, data)
            while written < len(data):  # rare on regular files; finish the line rather than lose it
                written += os.write(fd, data[written:])
        except OSError as exc:
            self._failed(exc)
            return False
        self.written += 1
        return True

    def _file(self) -> int:
        fd = self._fd
        now = time.monotonic()
        if fd is not None and now - self._checked >= _REOPEN_CHECK:
            self._checked = now
            try:
                stat = os.stat(self.path)
                moved = (stat.st_dev, stat.st_ino) != self._inode
            except FileNotFoundError:
                moved = True
            if moved:
                self.close()
                fd = None
        if fd is None:
            fd = open_private(self.path)
            stat = os.fstat(fd)
            self._fd, self._inode, self._checked = fd, (stat.st_dev, stat.st_ino), now
        return fd

    def _failed(self, error: OSError) -> None:
        self.errors += 1
        self.last_error = error
        self.close()  # reopen on the next record: the problem may be gone by then
        if self.errors == 1:
            try:
                print(
                    f"agentbus: cannot write the audit log {self.path}: {error}; "
                    f"the agent goes on, further failures are only counted",
                    file=sys.stderr,
                )
            except (OSError, ValueError):
                pass

    def close(self) -> None:
        """Close the file; the next record reopens it."""
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


def log_to(
    bus: RecordSource, path: str | os.PathLike[str], *, level: int | str = "info"
) -> Callable[[], None]:
    """Append ``bus``'s records at ``level`` and up, and one line per finished
    dispatch, to ``path``; return an undo function that also closes the file.
    """
    log = RecordLog(path)
    remove = bus.on_event(log, level=level_number(level), dispatches=True)

    def undo() -> None:
        remove()
        log.close()

    return undo

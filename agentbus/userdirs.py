"""Where agentbus keeps the user's own files, and how it creates private ones.

Two places belong to the user, never to a project:

- the **config directory** (``$XDG_CONFIG_HOME/agentbus``, else
  ``~/.config/agentbus``; ``%APPDATA%\\agentbus`` on Windows) holds the user's
  configuration file, ``config.toml`` (or ``config.yaml``): trusted, like a
  flag on the command line;
- the **data directory** (``$AGENTBUS_HOME``, else ``~/.agentbus``) holds what
  agentbus writes: the audit log, the list of trusted projects. A project's
  configuration may only send its audit log in here.

Audit logs hold commands, arguments and reasons that may carry secrets, and
other local users must not read them: every file agentbus writes is created
0600, every directory it creates 0700 (:func:`open_private`).
"""

from __future__ import annotations

import os
import stat
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "CLAUDE_CONFIG_ENV",
    "HOME_ENV",
    "claude_config_dir_name",
    "config_dir",
    "data_dir",
    "data_dir_name",
    "make_private_dir",
    "open_private",
]

HOME_ENV = "AGENTBUS_HOME"
CLAUDE_CONFIG_ENV = "CLAUDE_CONFIG_DIR"

# pathlib is imported only by the functions that return a Path: the Claude Code hook,
# a process per tool call, works with data_dir_name() and os.path (pathlib and the
# urllib.parse it imports cost that process about 3% of `import anyio, attrs, structlog`).


def config_dir() -> Path:
    """The user's agentbus configuration directory (the platform's convention)."""
    from pathlib import Path

    return Path(config_dir_name())


def config_dir_name() -> str:
    """:func:`config_dir` as a string, without importing pathlib."""
    if sys.platform == "win32":  # pragma: no cover - tested on POSIX only
        base = os.environ.get("APPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Roaming")
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or ""
        if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
            base = os.path.expanduser("~/.config")
    return os.path.join(base, "agentbus")


def data_dir() -> Path:
    """agentbus's own data directory: audit logs and the trusted projects."""
    from pathlib import Path

    return Path(data_dir_name())


def data_dir_name() -> str:
    """:func:`data_dir` as a string, without importing pathlib."""
    chosen = os.environ.get(HOME_ENV)
    return os.path.expanduser(chosen) if chosen else os.path.expanduser("~/.agentbus")


def claude_config_dir_name() -> str:
    """Claude Code's own directory for the user: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``.

    Claude Code 2.1.332 keeps the user's settings.json, shell snapshots and session
    environments there when the variable is set, and never reads ``~/.claude`` then
    (seen with the real CLI, tests/e2e/test_claude_code_config_dir.py).
    """
    chosen = os.environ.get(CLAUDE_CONFIG_ENV)
    return os.path.expanduser(chosen) if chosen else os.path.expanduser("~/.claude")


def make_private_dir(directory: str | os.PathLike[str]) -> None:
    """Create ``directory`` (and missing parents) with mode 0700.

    An existing directory is left as it is, except agentbus's own data
    directory, which is narrowed to 0700 if it is wider (it is ours).
    """
    missing: list[str] = []
    current = os.fspath(directory)
    while not os.path.exists(current) and current != os.path.dirname(current):
        missing.append(current)
        current = os.path.dirname(current)
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)  # the umask can only narrow 0700 further
        except FileExistsError:
            pass
    if _same_path(directory, data_dir_name()) and not missing:
        _narrow(directory, 0o700)


def _same_path(one: str | os.PathLike[str], other: str) -> bool:
    """Equal as two Paths are: the same parts, whatever the redundant separators."""
    return os.path.normpath(one) == os.path.normpath(other)


def open_private(path: str | os.PathLike[str], flags: int = os.O_WRONLY | os.O_APPEND | os.O_CREAT) -> int:
    """Open ``path`` for writing as a private file: 0600 in a 0700 directory.

    A file that already exists with wider permissions is narrowed to 0600
    (a note goes to stderr); one we may not change (another user's) is used
    as it is, with a warning.
    """
    make_private_dir(os.path.dirname(os.fspath(path)) or ".")
    fd = os.open(path, flags, 0o600)
    try:
        _narrow(path, 0o600, fd=fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _narrow(path: str | os.PathLike[str], mode: int, *, fd: int | None = None) -> None:
    """Take away group and other permissions from ``path`` if it has any."""
    if sys.platform == "win32":  # pragma: no cover - no POSIX modes; the profile's ACLs apply
        return
    try:
        current = stat.S_IMODE(os.fstat(fd).st_mode if fd is not None else os.stat(path).st_mode)
    except OSError:
        return
    if not current & 0o077:
        return
    try:
        if fd is not None:
            os.fchmod(fd, current & mode)
        else:
            os.chmod(path, current & mode)
    except OSError as exc:
        _warn(f"{path} is readable by other users (mode {current:04o}) and agentbus cannot narrow it: {exc}")
    else:
        _warn(f"narrowed the permissions of {path} from {current:04o} to {current & mode:04o} (private)")


def _warn(message: str) -> None:
    try:
        print(f"agentbus: {message}", file=sys.stderr)
    except (OSError, ValueError):
        pass

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
from pathlib import Path

__all__ = ["HOME_ENV", "config_dir", "data_dir", "make_private_dir", "open_private"]

HOME_ENV = "AGENTBUS_HOME"


def config_dir() -> Path:
    """The user's agentbus configuration directory (the platform's convention)."""
    if sys.platform == "win32":  # pragma: no cover - tested on POSIX only
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or ""
        if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
            base = str(Path("~/.config").expanduser())
    return Path(base) / "agentbus"


def data_dir() -> Path:
    """agentbus's own data directory: audit logs and the trusted projects."""
    chosen = os.environ.get(HOME_ENV)
    return Path(chosen).expanduser() if chosen else Path("~/.agentbus").expanduser()


def make_private_dir(directory: Path) -> None:
    """Create ``directory`` (and missing parents) with mode 0700.

    An existing directory is left as it is, except agentbus's own data
    directory, which is narrowed to 0700 if it is wider (it is ours).
    """
    missing: list[Path] = []
    current = directory
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)  # the umask can only narrow 0700 further
        except FileExistsError:
            pass
    if directory == data_dir() and not missing:
        _narrow(directory, 0o700)


def open_private(path: Path, flags: int = os.O_WRONLY | os.O_APPEND | os.O_CREAT) -> int:
    """Open ``path`` for writing as a private file: 0600 in a 0700 directory.

    A file that already exists with wider permissions is narrowed to 0600
    (a note goes to stderr); one we may not change (another user's) is used
    as it is, with a warning.
    """
    make_private_dir(path.parent)
    fd = os.open(path, flags, 0o600)
    try:
        _narrow(path, 0o600, fd=fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _narrow(path: Path, mode: int, *, fd: int | None = None) -> None:
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

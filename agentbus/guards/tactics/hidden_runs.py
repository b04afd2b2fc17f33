"""Tactic family ``hidden runs``: a program run from where no installed program lives, and payloads hide.

Malware drops its payload in shared memory (``/dev/shm``, a file system in RAM that
leaves nothing on disk) or under a dot name in a shared temporary directory
(``/tmp/.x``, ``/tmp/.ICE-unix/.x``, ``/var/tmp/.cache/sshd``, macOS's ``/Users/Shared/.agent``), then
runs it: ``cd /dev/shm && ./x``, or hands it to an interpreter (``node /tmp/.x.js``,
``osascript -l JavaScript /tmp/.p.js``).
A developer runs builds from ``/tmp/build`` or ``./bin``, not from there. What such a
program does cannot be seen (a binary is not read; a script is judged by
:mod:`..script_files` too), so the finding is
:data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT`: a person is asked (blocked unattended).
"""

from __future__ import annotations

import posixpath

from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, inline_code
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, shell_mode
from ..verdict import UNJUDGED_SCRIPT, Verdict

__all__ = ["hiding_place", "judge"]

_SHARED = ("/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/tmp/", "/Users/Shared/")


def hiding_place(path: str) -> str | None:
    """Why ``path`` (absolute, normalised) is where payloads hide, or None."""
    if path.startswith("/dev/shm/"):
        return "shared memory (/dev/shm), where nothing stays on disk"
    for shared in _SHARED:
        if path.startswith(shared):
            parts = path[len(shared) :].split("/")
            # /tmp/.x, /tmp/.ICE-unix/.x/kworker: hidden where anyone looks first; not a project's
            # own dot directory further down (/tmp/work/app/.venv/bin/python).
            hidden = parts[0] if parts[0].startswith(".") else parts[-1] if parts[-1].startswith(".") else ""
            if hidden:
                return f"a hidden name ({hidden}) in the shared {shared.rstrip('/')}"
    return None


_VALUED = frozenset({"-l", "-m", "-W", "-X", "-r", "--require", "-I", "--import", "--loader", "-s"})
"""Interpreter options whose value is not the script (osascript's ``-l JavaScript``, node's ``-r MOD``)."""


def _script_operand(values: list[str]) -> str | None:
    """The script file an interpreter runs: its first operand that is no option's value."""
    skip = False
    for value in values:
        if skip:
            skip = False
        elif value in _VALUED:
            skip = True
        elif not value.startswith("-"):
            return value
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A program (or a shell script: ``sh /dev/shm/x``) this command runs by a path into such a
    place, or None."""
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if invocation.name in SHELLS:
        mode = shell_mode(invocation)
        head = command.static(mode.file) if mode.file is not None else None
    elif INTERPRETERS.match(invocation.name) and inline_code(invocation) is None:
        head = _script_operand(_values(invocation))
    elif not head or posixpath.basename(head).lower() != invocation.name.lower():
        return None  # (names are read without case: /tmp/.X-AbC runs as `.x-abc`)
    if not head or "/" not in head:
        return None
    path = normalize_path(head, home=home, cwd=invocation.cwd)
    where = hiding_place(path) if path.startswith("/") else None
    if where is None:
        return None
    return _verdict(UNJUDGED_SCRIPT, invocation, f"runs {path} from {where}: what it does cannot be seen")

"""Tactic family ``dependency lists``: another application's list of packages to install, written.

``echo ./evil >> /srv/webapp/requirements.txt``, ``cd /opt/app && echo 'git+https://h/x' >>
requirements.txt``: the line is a package its next ``pip install -r`` installs, and installing a
package runs its setup code (as the service's account, or root's deploy job). The project's own
requirements are the agent's to edit; a requirements or constraints file outside the project (not in
the call's working directory, the user's home or a temporary directory) belongs to an installed
application, so a write to it is :data:`~agentbus.guards.verdict.SERVICE`: a person is asked.
"""

from __future__ import annotations

import posixpath

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..paths import normalize_path
from ..programs import Invocation
from ..verdict import SERVICE, Verdict
from .writes import writes

__all__ = ["judge"]

_LIST_NAME = lazy_compile(r"^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$")
_TEMPORARY = ("/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/", "/dev/shm/")
_READ_HOW = frozenset({"moves away", "deletes"})


def _others(path: str, home: str) -> bool:
    """Whether ``path`` (absolute, normalised) is outside the project, the home and the temporary places."""
    from ..workdir import call_directory

    if path.startswith(_TEMPORARY) or (path + "/").startswith(home.rstrip("/") + "/"):
        return False
    cwd = call_directory()
    return not (cwd and (path + "/").startswith(normalize_path(cwd).rstrip("/") + "/"))


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A write to an installed application's requirements file, or None."""
    if not invocation.command.redirects and invocation.name not in ("tee", "cp", "mv", "install", "sed"):
        return None
    for write in writes(invocation):
        if write.how in _READ_HOW or not _LIST_NAME.match(posixpath.basename(write.path)):
            continue
        path = normalize_path(write.path, home=home, cwd=invocation.cwd)
        if path.startswith("/") and _others(path, home):
            why = f"{write.how} {path}, an installed application's packages: its next install runs them"
            return _verdict(SERVICE, invocation, why)
    return None

"""What a project's Claude Code settings put in the hook's environment, that agentbus reads.

Claude Code starts its hooks with the environment of the session, and a
project's ``.claude/settings.json`` (or ``settings.local.json``) adds to it
with ``"env"``: the project's author chooses those values. A name agentbus
reads there (``AGENTBUS_CONFIG``, ``AGENTBUS_HOME``, ``AGENTBUS_AUDIT_LOG``,
``XDG_CONFIG_HOME``, ``HOME``) would let the project pick agentbus's
configuration or move its audit log, so the hook does not decide with them:
it drops them and denies (:func:`agentbus.hook.run`). Python's own variables
(``PYTHONPATH``) are ignored by the interpreter, which the installed hook runs
in isolated mode (:func:`agentbus.install.hook_command`).
"""

from __future__ import annotations

import json
import os

__all__ = ["READ_BY_AGENTBUS", "project_env_names"]

READ_BY_AGENTBUS = frozenset({"HOME", "XDG_CONFIG_HOME"})
"""Names outside ``AGENTBUS_*`` that decide where agentbus looks for its files."""

_SETTINGS = ("settings.json", "settings.local.json")
_LARGEST = 4 * 1024 * 1024


def project_env_names(project: str) -> list[tuple[str, str]]:
    """(settings file, name) for each variable agentbus reads that the project's settings set.

    A file that cannot be read or is not JSON is skipped: Claude Code takes
    nothing from it either. A file too large to read whole is not: padded past
    the limit, it would hide its ``"env"`` from this check and not from Claude
    Code, so it counts as setting what it may set.
    """
    found = []
    for name in _SETTINGS:
        path = os.path.join(project, ".claude", name)
        try:
            with open(path, "rb") as file:
                text = file.read(_LARGEST + 1)
        except OSError:
            continue
        if len(text) > _LARGEST:
            found.append((path, f'"env" (the file is over {_LARGEST // (1024 * 1024)} MiB: not read)'))
            continue
        try:
            settings = json.loads(text)
        except ValueError:
            continue
        env = settings.get("env") if isinstance(settings, dict) else None
        for variable in env if isinstance(env, dict) else ():
            if _read_by_agentbus(str(variable)):
                found.append((path, str(variable)))
    return found


def _read_by_agentbus(name: str) -> bool:
    upper = name.upper()
    return upper.startswith("AGENTBUS_") or upper in READ_BY_AGENTBUS

"""One exec call judged the way the built-in guards judge it: parsed once, every command guard.

:func:`judge_command` is what a shell command costs the stack (the command
safety guard with the scripts it runs from disk, and the shell-file guard,
sharing one parse), without the caches that make a repeated command free: the
function ``agentbus bench`` measures per kilobyte, and the one to call when a
whole decision is wanted at once.
"""

from __future__ import annotations

import os

from . import danger, files, script_files
from .budget import decide
from .parse import Script, parse
from .paths import normalize_path
from .verdict import Verdict
from .workdir import working_directory

__all__ = ["judge_command"]


def judge_command(command: str, *, home: str | None = None, cwd: str | None = None) -> Verdict | None:
    """The first block the command guards give ``command``, or None; uncached, within the budget."""
    if not isinstance(command, str) or not command.strip():
        return None
    home = home or normalize_path("~")
    environment_home = os.environ.get("HOME", "")

    script: Script | None = None

    def judge() -> Verdict | None:
        nonlocal script
        script = parse(command)
        return danger._judge_command(command, home, script) or files._judge_shell_files(
            command, cwd, environment_home, script
        )

    with working_directory(cwd):
        verdict = decide(command, judge)
    if verdict is None or verdict.decision != "block":
        # The scripts it runs from disk, by their content (a budget of their own).
        found = script_files.check_script_files(command, cwd=cwd, home=home, script=script)
        verdict = script_files.stricter(verdict, found)
    return verdict

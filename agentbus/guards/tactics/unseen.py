"""Tactic family ``unseen``: code that runs while the guard cannot see what it is.

The parser works out the values a line gives its variables, so ``read x <<< 'rm -rf ~';
$x`` is judged as ``rm -rf ~``. When a builtin makes the value at run time from what the
guard cannot read (``read x`` from a file or the terminal, ``printf -v x`` of the clock,
``set -- $(cat f)``; see :mod:`..shell_values`), and that value is then run as a command,
handed to ``eval``, ``sh -c`` or ``source``, no judge can tell what runs. The same holds
for a library loaded into the shell (``enable -f X.so``) and for commands re-run from the
shell's history when the line loaded it from a file (``history -r F; fc -s``). Each finding is
:data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT` (ask by default: a person sees it; blocked
unattended).

A value from the environment (``$EDITOR file``, ``"$@"`` of a wrapper script) is the
user's, as before: only what a builtin made at run time is held.
"""

from __future__ import annotations

from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..parse import RUNTIME, Script
from ..programs import SHELLS, Invocation, runtime_program, shell_mode, walk
from ..verdict import UNJUDGED_SCRIPT, Verdict

__all__ = ["judge", "judge_script"]

_CODE_RUNNERS = frozenset({"eval", "source", ".", "trap"})


def _runtime(invocation: Invocation, word: str) -> str | None:
    """The variable (``$x``) made at run time that ``word`` holds, if any."""
    found = [sub.text for sub in invocation.command.substitutions_in(word) if sub.kind == RUNTIME]
    return found[0] if found else None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """Code run in this command that no judge can see, or None."""
    name = invocation.name
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    variable = runtime_program(command, command.words[at]) if invocation.dynamic and at >= 0 else None
    if variable is not None:
        why = f"runs {variable} as a command, a value made at run time that the guard cannot see"
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    if name in _CODE_RUNNERS or (name in SHELLS and shell_mode(invocation).script is not None):
        for word in invocation.args:
            variable = _runtime(invocation, word)
            if variable is not None:
                why = f"runs {variable} as code in {name}, a value made at run time that the guard cannot see"
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
    if name == "enable":
        values = _values(invocation)
        if any(v.startswith("-") and "f" in v and not v.startswith("--") for v in values):
            why = "loads a compiled library into the shell (enable -f)"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """``history -r FILE; fc -s``: a history loaded from a file, then run again by ``fc``.

    A shell that is not interactive keeps no history, so ``fc`` alone runs nothing; what
    ``history -s CMD`` adds is judged where it is added (:mod:`..programs`), and what
    ``history -r``/``-n`` loads from a file is not seen: running it is held.
    """
    loaded: Invocation | None = None
    for stages in walk(script):
        for invocation in stages:
            values = _values(invocation)
            if invocation.name == "history" and any(_option(v, "rn") for v in values):
                loaded = loaded or invocation
            elif invocation.name == "fc" and loaded is not None and not any(_option(v, "l") for v in values):
                why = f"runs again what {loaded.text!r} loaded into the history, unseen by the guard"
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


def _option(value: str, letters: str) -> bool:
    return value.startswith("-") and not value.startswith("--") and any(c in value[1:] for c in letters)

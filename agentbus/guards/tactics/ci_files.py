"""A CI runner's command files turned against the job's later steps.

GitHub Actions reads ``$GITHUB_ENV`` and ``$GITHUB_PATH`` after each step: every later step of the
job runs with the variables and the PATH written there, and with the job's secrets. The retired
``::set-env name=X::V`` and ``::add-path::DIR`` workflow commands did the same from a step's output
(Project Zero issue 2070). A step that writes a variable making programs load code of its choosing
(``LD_PRELOAD=/tmp/x.so``, ``NODE_OPTIONS=--require /tmp/hook.js``, ``BASH_ENV=...``) plants that code
in every later step: :data:`~..verdict.STEALTH_PERSISTENCE`. A temporary directory put first on the
PATH (``echo /tmp/.bin >> $GITHUB_PATH``) shadows ``git``, ``npm`` ... for the later steps: a person
is asked (:data:`~..verdict.PROFILE`, the job's profile), as tools are sometimes unpacked there.

Ordinary steps pass: ``echo "FOO=bar" >> $GITHUB_ENV``, ``echo "$HOME/.local/bin" >> $GITHUB_PATH``,
``NODE_OPTIONS=--max-old-space-size=4096``, ``LD_PRELOAD`` of an installed library (jemalloc).
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding
from ..programs import Invocation
from ..verdict import PROFILE, STEALTH_PERSISTENCE, Verdict

__all__ = ["judge"]

_WRITERS = frozenset({"echo", "printf"})
"""The programs a step writes its command files with (a ``tee`` in a pipeline is not judged here)."""
_COMMAND_FILE = lazy_compile(r"^\$\{?(GITHUB_ENV|GITHUB_PATH)\}?$")
"""A redirection to the runner's environment or PATH file (``>> "$GITHUB_ENV"``, ``>> ${GITHUB_PATH}``)."""
_WORKFLOW_COMMAND = lazy_compile(r"^\s*::(set-env\s+name=([A-Za-z_]\w*)::(.*)|add-path::(.*))$", re.DOTALL)
"""The retired workflow commands a step's output gives: ``::set-env name=X::V``, ``::add-path::DIR``."""
_ASSIGNMENT = lazy_compile(r"^\s*([A-Za-z_]\w*)=(.*)$")
_PRELOADERS = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV"})
"""Variables whose whole value is code every later program (or shell) loads."""
_OPTION_LOADERS = frozenset({"NODE_OPTIONS", "PERL5OPT", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
                             "JDK_JAVA_OPTIONS", "PYTHONSTARTUP"})  # fmt: skip
"""Variables that carry options; only some options load code (``--require``, ``-javaagent:``, ``-M``)."""
_LOADING_OPTION = lazy_compile(
    r"(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader)(?:[=\s]|$)|-javaagent:|-agentpath:"
    r"|(?:^|\s)-[mM]\w|(?:^|\s)-r\w|data:text/javascript"
)
_SYSTEM_LIBRARY = lazy_compile(r"^/(?:usr/)?(?:local/)?lib(?:32|64|x32)?/")
_TEMPORARY = lazy_compile(r"(?:^|[\s=:,\"'])(?:/private)?/(?:tmp|var/tmp|dev/shm)(?:/|$|[\s\"'])")
"""A value naming a shared temporary directory (where a step drops what it fetched)."""
_COMPUTED = lazy_compile(r"\$\(|`")


def _loads_code(name: str, value: str) -> bool:
    """Whether ``name=value`` makes later programs load code an attacker chose."""
    if name in _PRELOADERS:
        if name.startswith(("LD_", "DYLD_")):
            libraries = [v for v in re.split(r"[:\s]+", value.strip("'\"")) if v]
            return any(not _SYSTEM_LIBRARY.match(lib) for lib in libraries)
        return bool(value.strip("'\""))
    if name in _OPTION_LOADERS:
        if name == "PYTHONSTARTUP":
            return bool(_TEMPORARY.search(value) or _COMPUTED.search(value))
        return bool(_LOADING_OPTION.search(value)) and bool(
            _TEMPORARY.search(value) or _COMPUTED.search(value) or "data:" in value
        )
    return False


def _environment_line(invocation: Invocation, line: str) -> Verdict | None:
    assignment = _ASSIGNMENT.match(line)
    if assignment is None:
        return None
    name, value = assignment.groups()
    if _loads_code(name, value):
        why = f"{name} in the CI environment file loads {value.strip()} in every later step"
        return finding(STEALTH_PERSISTENCE, invocation, why)
    return None


def _path_line(invocation: Invocation, line: str) -> Verdict | None:
    directory = line.strip().strip("'\"")
    if directory and _TEMPORARY.search(directory):
        return finding(PROFILE, invocation, f"puts {directory} first on the PATH of every later CI step")
    return None


def _written_lines(invocation: Invocation) -> list[str]:
    """The lines ``echo``/``printf`` print (their static text; a computed part stays as written)."""
    command = invocation.command
    args = [command.render(a) for a in invocation.args]
    if invocation.name == "echo":
        words = [a for a in args if not re.fullmatch(r"-[neE]+", a)]
        text = " ".join(words)
    else:
        text = args[0] if args else ""
    text = text.replace("\\n", "\n")
    return [line for line in text.split("\n") if line.strip()]


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """``echo``/``printf`` writing the runner's command files, or printing a retired workflow command."""
    if invocation.name not in _WRITERS:
        return None
    lines = _written_lines(invocation)
    if not lines:
        return None
    for line in lines:
        command = _WORKFLOW_COMMAND.match(line)
        if command is None:
            continue
        if command.group(4) is not None:
            found = _path_line(invocation, command.group(4))
        elif _loads_code(command.group(2), command.group(3)):
            found = finding(
                STEALTH_PERSISTENCE, invocation, f"::set-env gives every later CI step {command.group(2)}"
            )
        else:
            found = None
        if found is not None:
            return found
    for redirect in invocation.command.redirects:
        target = _COMMAND_FILE.match(redirect.target.strip("\"'"))
        if target is None or redirect.op not in (">>", ">"):
            continue
        check = _environment_line if target.group(1) == "GITHUB_ENV" else _path_line
        for line in lines:
            found = check(invocation, line)
            if found is not None:
                return found
    return None

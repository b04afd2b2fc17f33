"""Tactic family ``temp scripts``: a script run from a shared temporary directory that is not there to read.

A dropper fetches its stage into ``/tmp``, ``/var/tmp`` or ``/dev/shm`` in one step and runs it in
another, often left running on its own: ``nohup bash /tmp/x.sh &``, ``sh /var/tmp/update.sh``, ``perl
/tmp/bot.pl``, right in the directory. Every account and service may write there, so what runs is
whatever was put there last.
A script on disk is judged by its text when it runs (:mod:`..script_files`), and one the same line
writes first (``cat > /tmp/t.sh <<EOF … EOF; bash /tmp/t.sh``) by what it writes; one that is neither
cannot be judged, so the finding is :data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT` (asked), as
:mod:`.hidden_runs` finds a program run from a hidden name there. A program built or run there by its
path without a script's suffix (``go build -o /tmp/app && /tmp/app``) is a program, not a script.
"""

from __future__ import annotations

import os
import posixpath

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..parse import WRITE_OPERATORS, Script
from ..paths import normalize_path
from ..programs import Invocation, walk
from ..transfers import download
from ..verdict import UNJUDGED_SCRIPT, Verdict
from .hidden_runs import launched_file

__all__ = ["judge_script"]

_SHARED_TEMP = lazy_compile(r"^((?:/private)?/tmp|(?:/private)?/var/tmp|/dev/shm|/run/shm)/[^/]+$")
"""A file right in a directory every account and service may write: where a dropper's stage lands (a
folder there, ``/tmp/build/gen.py``, is a build's tree; a hidden one is :mod:`.hidden_runs`')."""
_SCRIPT_SUFFIXES = (".sh", ".bash", ".py", ".pl", ".rb", ".js", ".php", ".lua")
"""A file run by its own path (``/tmp/x.sh``) is a script by its suffix; without one, a program. Handed
to a shell or an interpreter, one with no suffix (``bash /tmp/x``) is a stage too, one with a data
file's suffix (``python3 /tmp/notes.txt``) not."""
_WRITERS = frozenset({"tee", "cp", "mv", "install", "ln", "rsync", "dd", "unzip", "tar", "touch", "scp"})
"""Programs that may write their operands (a copy's destination, an unpacked file)."""


def _written(invocation: Invocation, home: str) -> set[str]:
    """The files ``invocation`` may write: redirects, a writer's operands, a download's files."""
    command = invocation.command
    targets = [command.static(r.target) for r in command.redirects if r.op in WRITE_OPERATORS]
    if invocation.name in _WRITERS:
        targets += [v.partition("=")[2] if v.startswith("of=") else v for v in _values(invocation)]
    fetched = download(invocation)
    if fetched is not None:
        targets += list(fetched.files)
    return {normalize_path(t, home=home, cwd=invocation.cwd) for t in targets if t and not t.startswith("-")}


def _script_run(invocation: Invocation) -> str | None:
    """The script ``invocation`` runs, as written: a shell's or an interpreter's file, or a program run
    by its path with a script's suffix (``/tmp/x.sh``)."""
    launched = launched_file(invocation)
    if launched is not None:
        # python -m pytest /tmp/t.py: a module runs, given the file as data
        return None if "-m" in _values(invocation) else launched
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if head and "/" in head and head.endswith(_SCRIPT_SUFFIXES):
        return head
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """A script in a shared temporary directory run while it is not on disk and the line has not
    written it before."""
    written: set[str] = set()
    for stages in walk(script):
        for invocation in stages:
            run = _script_run(invocation)
            path = normalize_path(run, home=home, cwd=invocation.cwd) if run else ""
            suffix = posixpath.splitext(path)[1]
            if suffix and suffix not in _SCRIPT_SUFFIXES:
                continue  # python3 /tmp/notes.txt: a data file's name, not a stage's
            place = _SHARED_TEMP.match(path) if path.startswith("/") else None
            if place is not None and path not in written and not os.path.lexists(path):
                why = (f"runs {path} from the shared {place.group(1)}, where any account may write, and it "
                       "is not on disk to read: what it does cannot be seen")  # fmt: skip
                return _verdict(UNJUDGED_SCRIPT, invocation, why)
            written |= _written(invocation, home)
    return None

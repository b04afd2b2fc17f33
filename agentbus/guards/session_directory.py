"""Where a session's persistent shell is: the directory its earlier calls' ``cd`` left it in.

Claude Code says where each Bash call runs (the hook's ``cwd``: its CLI follows the
shell's ``cd`` from call to call). An in-process runtime that keeps one shell for the
session (LangChain's ``ShellToolMiddleware``, a REPL-like exec tool) says nothing:
``cd /root`` in one call and ``cat root.txt`` in the next reads ``/root/root.txt``,
while the guards would read ``root.txt`` in the project. So the exec guards judge a
call of such a session as the line it continues (:func:`judged_as`): after ``cd DIR``,
for the directory the session's earlier calls left the shell in. ``cat root.txt`` is
judged as ``cd /root`` + ``cat root.txt``, by the rules for a line that moved
(:func:`.workdir.moved_by_the_line`); ``cat main.py`` after ``cd src`` reads the
project's ``src/main.py``.

What moves the shell is the call's top-level ``cd``, ``pushd`` and ``popd`` (and their
``builtin``/``command`` forms), in order: statements of the line and of ``{ ...; }``,
each side of ``&&``; not one in a subshell, a pipeline (bash runs each stage in a
subshell), a function body, a substitution or the background (``&``). A call moves
the shell only if it ran: a call is settled when the session's next call is judged,
by its decision (blocked: it did not run; allowed: it ran; asked: it may have, and
both directories stay possible). ``cd -`` and ``pushd``/``popd`` follow the
directories this module saw (``OLDPWD`` and the stack); a ``cd`` to a symbolic link
is judged where the link leads when the next call is judged.

Where the target cannot be known from the text (``cd "$X"``, ``cd "$(...)"``, ``cd ~bob``,
``cd d*``, ``cd -`` with no directory before it, a ``cd`` inside an ``if`` or a loop or
on the right of ``||``, ``eval``/``source``/``.``, which may ``cd`` anywhere, ``pushd
+N``), the shell's directory is unknown from then on, until a ``cd`` to a directory the
text names. A later call is then judged three ways, the stricter verdict winning: from
the last directory known (the likeliest: a ``cd "$(git rev-parse --show-toplevel)"``
stays in the project), as the same line after ``cd "$X"`` would be (a relative name
whose start is unknown: the rules that know a secret by its name, ``id_rsa``, ``.env``,
``.aws/credentials``, hold it wherever it is), and, for the file guard's reads, from the
root (``cat etc/shadow``). Not from another account's home (``/root``): every relative
name there is that account's private file, so every ``cat README.md`` after ``cd
"$(git rev-parse --show-toplevel)"`` would be held; and not by asking, for the same
reason.

Not tracked: a call whose runtime says where it runs (a ``cwd`` argument, Claude Code's
hook: :func:`.workdir.given_directory`), and a shell that ends with each call
(:func:`.definitions.shell_per_call`). ``restart`` (LangChain's shell tool) starts the
shell again where the session started. Limits: the session starts in the call's
directory (:func:`.workdir.call_directory`, the process's unless given), not a shell
tool's own workspace; a ``cd`` that fails, a shell the runtime restarts by itself (a
timeout) and ``CDPATH`` are not seen; one process's memory holds :data:`MAX_SESSIONS`.
"""

from __future__ import annotations

import os
import posixpath
import shlex
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..lazy_regex import lazy_compile
from .workdir import call_directory, given_directory

if TYPE_CHECKING:
    from tree_sitter import Node

    from ..events import ToolCall

__all__ = ["MAX_SESSIONS", "Shell", "from_the_root", "judged_as", "lines_in", "settled_shell", "shell_after"]

MAX_SESSIONS = 1024
"""Sessions whose shell is followed in memory (least recently used first out)."""
MAX_MOVES = 64
"""Commands that may move the shell read in one call; past them, where it went is not known."""
MAX_PLACES = 3
"""Directories an asked call may leave the shell in, or not, kept at most (the likeliest first)."""
UNKNOWN_START = 'cd "$AGENTBUS_UNKNOWN_DIRECTORY"'
"""The statement a call is judged after when the shell may be anywhere: a ``cd`` to a computed
directory, after which the guards read a relative name as of an unknown start."""

_MOVES = frozenset({"cd", "pushd", "popd"})
_RUNS_CODE_HERE = frozenset({"eval", "source", "."})
"""They run code in this shell that may ``cd`` anywhere."""
_SKIPPED = frozenset({"subshell", "pipeline", "function_definition", "command_substitution"})
"""Nodes whose ``cd`` leaves this shell where it was."""
_COMPUTED = frozenset("$`*?[{")


class Shell(NamedTuple):
    """Where a session's shell is, as far as the calls it ran tell."""

    places: tuple[str, ...]
    """The directories it may be in, the likeliest first (one, unless an asked call moved it)."""
    unknown: bool = False
    """It may also be where no text tells (after ``cd "$X"``)."""
    previous: str | None = None
    """``OLDPWD``: where ``cd -`` goes (None: unset or unknown)."""
    stack: tuple[str | None, ...] = ()
    """``pushd``'s stack, top first (None: an entry not known)."""


_lock = threading.Lock()  # agentbus serve decides on worker threads
_sessions: OrderedDict[str, tuple[Shell, ToolCall | None]] = OrderedDict()
"""Each session's shell and its latest exec call, not yet settled (its decision may change)."""


def judged_as(call: ToolCall, command: str | None) -> list[str]:
    """The command lines ``call`` is judged as: ``command`` after a ``cd`` to where the session's
    shell is (:class:`Shell`), the likeliest first; ``[command]`` when the shell has not moved or is
    not followed (and ``[]`` without a command: a ``restart`` is noted all the same)."""
    if given_directory(call.args) is not None or _shell_per_call():
        return [] if command is None else [command]
    start = call_directory(call.args)
    if start is None:
        return [] if command is None else [command]
    shell = settled_shell(call, start)
    return [] if command is None else lines_in(shell, start, command)


def lines_in(shell: Shell, start: str, command: str) -> list[str]:
    """``command`` as run in ``shell`` (a session's, which started in ``start``): after a ``cd`` to
    each place it may be, the likeliest first."""
    seen: list[str] = []
    for place in shell.places:
        real = _real(place)
        line = command if real is None or real == _real(start) else f"cd {shlex.quote(real)}\n{command}"
        if real is None:  # a link that cannot be followed: the directory is not known
            line = f"{UNKNOWN_START}\n{command}"
        seen.append(line)
    if shell.unknown:
        seen.append(f"{UNKNOWN_START}\n{command}")
    return list(dict.fromkeys(seen))


def shell_after(commands: Sequence[str], start: str) -> Shell:
    """Where a session's shell is after ``commands``, its earlier calls, all taken as run
    (``agentbus explain --after``), from ``start``."""
    shell = Shell((start,))
    for command in commands:
        try:
            shell = _moved(shell, command)
        except Exception:  # as _after: a call that cannot be read loses the shell
            shell = _lost(shell)
    return shell


def from_the_root(call: ToolCall, command: str) -> str | None:
    """``command`` after ``cd /`` when the session's shell may be where no text tells (the file
    guard's reads, judged from the root too: ``cat etc/shadow``), else None."""
    with _lock:
        kept = _sessions.get(call.session_key or "")
    return f"cd /\n{command}" if kept is not None and kept[0].unknown else None


def settled_shell(call: ToolCall, start: str) -> Shell:
    """The session's shell before ``call`` (the session's calls before it settled: whether each ran,
    by its decision); ``call`` is kept to be settled when the next call comes."""
    session = call.session_key or ""
    with _lock:
        shell, pending = _sessions.pop(session, (Shell((start,)), None))
        if pending is not None and pending is not call:
            shell = _after(shell, pending, start)
            pending = None
        _sessions[session] = (shell, call if pending is None else pending)
        while len(_sessions) > MAX_SESSIONS:
            _sessions.popitem(last=False)
    return shell


def _shell_per_call() -> bool:
    from .definitions import shell_ends_each_call

    return shell_ends_each_call()


def _after(shell: Shell, call: ToolCall, start: str) -> Shell:
    """The shell after ``call``, as its decision says it ran."""
    from .danger import command_text

    decision = call.decision
    if decision == "block":
        return shell
    if call.args.get("restart") is True:
        moved = Shell((start,))
    else:
        command = command_text(call.args)
        try:
            moved = shell if command is None else _moved(shell, command)
        except Exception:  # an earlier call that cannot be read must not fail this one
            moved = _lost(shell)
    # Asked: approved (it ran) or not yet answered; both places stay possible.
    return moved if decision is None else _either(moved, shell)


def _either(moved: Shell, shell: Shell) -> Shell:
    """The shell after a move that may or may not have happened: in either place."""
    if moved == shell:
        return moved
    places = tuple(dict.fromkeys((*moved.places, *shell.places)))[:MAX_PLACES]
    return moved._replace(places=places, unknown=moved.unknown or shell.unknown)


def _real(place: str) -> str | None:
    """``place`` with its symbolic links followed (as it is when the next call runs); None for a
    link that cannot be followed (a loop, a directory that may not be searched)."""
    try:
        return os.path.realpath(place, strict=True)
    except OSError:
        return None if os.path.islink(place) else os.path.realpath(place)


# -- what a call does to the shell ------------------------------------------------------------


def _moved(shell: Shell, command: str) -> Shell:
    from .parse import _parse_within_budget, as_read

    if _MOVE_WORDS.search(command) is None:
        return shell  # the most calls: nothing in them can move the shell
    try:
        root = _parse_within_budget(as_read(command).encode("utf-8", "surrogatepass")).root_node
        moving = _moving(root)
        return _lost(shell) if moving is None else _statements(shell, root, moving)
    except Exception:  # too long, too deep or too slow to read (the budget): where it went is not known
        return _lost(shell)


_MOVE_WORDS = lazy_compile(r"\b(?:cd|pushd|popd|eval|source|builtin|command)\b|(?:^|[\s;&|(){}])[.$]")
"""A word that may move the shell, or a command name that may be one (``. f``, ``$c /root``)."""


def _lost(shell: Shell) -> Shell:
    return shell._replace(unknown=True, previous=None)


def _statements(shell: Shell, node: Node, moving: set[int]) -> Shell:
    """The shell after the statements of ``node`` (the line, a ``{ ...; }``), run in order."""
    children = node.children
    for index, child in enumerate(children):
        if not child.is_named:
            continue
        following = children[index + 1] if index + 1 < len(children) else None
        if following is not None and following.type == "&":
            continue  # in the background: a subshell
        shell = _statement(shell, child, moving)
    return shell


def _statement(shell: Shell, node: Node, moving: set[int]) -> Shell:
    kind = node.type
    if kind in _SKIPPED or node.id not in moving:
        return shell
    if kind == "command":
        return _command(shell, node)
    if kind in ("redirected_statement", "negated_command"):
        body = next((child for child in node.children if child.is_named), None)
        return shell if body is None else _statement(shell, body, moving)
    if kind in ("compound_statement", "program"):
        return _statements(shell, node, moving)
    if kind == "list":
        named = [child for child in node.children if child.is_named]
        operator = next((child.type for child in node.children if not child.is_named), "&&")
        if len(named) != 2:
            return _lost(shell)
        left = _statement(shell, named[0], moving)
        if operator == "||":  # the right runs only when the left failed: it may or may not move
            return _either(_statement(left, named[1], moving), left)
        return _statement(left, named[1], moving)
    # if, while, for, case: moves that may or may not run, in an order the text does not fix.
    return _lost(_either(_statements(shell, node, moving), shell))


def _moving(root: Node) -> set[int] | None:
    """The nodes (by id) that hold a command that may move this shell, outside what runs apart
    (a subshell, a pipeline ...): one walk of the tree, each node marked once. None past
    :data:`MAX_MOVES` such commands (each is read on its own: the work stays small)."""
    moving: set[int] = set()
    found = 0
    stack = [root]
    while stack:
        current = stack.pop()
        stack.extend(current.children)
        if current.type != "command_name":
            continue
        name = (current.text or b"").decode("utf-8", "replace").strip("\"'\\")
        if not (name in _MOVES or name in _RUNS_CODE_HERE or name in ("builtin", "command") or "$" in name):
            continue
        found += 1
        if found > MAX_MOVES:
            return None
        node: Node | None = current.parent
        while node is not None and node.id not in moving:
            moving.add(node.id)
            if node.type in _SKIPPED:
                break  # what runs apart holds it; what holds that does not
            node = node.parent
    return moving


def _command(shell: Shell, node: Node) -> Shell:
    from .parse import parsed
    from .programs import walk

    text = (node.text or b"").decode("utf-8", "surrogatepass")
    stages = next(iter(walk(parsed(text))), [])
    if len(stages) != 1:
        return _lost(shell)
    invocation = stages[0]
    if invocation.name in _RUNS_CODE_HERE or not invocation.name:
        return _lost(shell)
    if invocation.name not in _MOVES:
        return shell
    values = [invocation.command.static(word) for word in invocation.args]
    if any(value is None for value in values):
        return _lost(shell)
    words = [value for value in values if value is not None]
    if invocation.name == "cd":
        return _cd(shell, words)
    if invocation.name == "pushd":
        return _pushd(shell, words)
    return _popd(shell, words)


def _operands(words: list[str]) -> list[str] | None:
    """The operands after ``-L``/``-P``/``-e``/``-@`` and ``--``; None for any other option."""
    for index, word in enumerate(words):
        if word == "--":
            return words[index + 1 :]
        if word == "-" or not word.startswith("-"):
            return words[index:]
        if word.strip("LPe@") != "-":
            return None
    return []


def _cd(shell: Shell, words: list[str]) -> Shell:
    operands = _operands(words)
    if operands is None or len(operands) > 1:
        return _lost(shell)
    target = operands[0] if operands else "~"
    if target == "-":
        if shell.previous is None:
            return _lost(shell)
        target = shell.previous
    return _went(shell, target)


def _went(shell: Shell, target: str, stack: tuple[str | None, ...] | None = None) -> Shell:
    """The shell after it changed to ``target`` (text as the command gave it)."""
    home = os.path.expanduser("~")
    if target == "~" or target.startswith("~/"):
        target = home + target[1:]
    elif target in ("$HOME", "${HOME}") or target.startswith(("$HOME/", "${HOME}/")):
        target = home + target[target.index("}") + 1 if target.startswith("${") else 5 :]
    if target.startswith("~") or any(letter in _COMPUTED for letter in target) or not target:
        return _lost(shell)
    here = shell.places[0]
    places = tuple(posixpath.normpath(posixpath.join(place, target)) for place in shell.places)
    absolute = target.startswith("/")
    return Shell(
        places=places[:1] if absolute else tuple(dict.fromkeys(places)),
        unknown=shell.unknown and not absolute,
        previous=None if shell.unknown else here,
        stack=shell.stack if stack is None else stack,
    )


def _pushd(shell: Shell, words: list[str]) -> Shell:
    operands = _operands(words)
    if operands is None or len(operands) > 1 or (operands and operands[0][:1] in ("+", "-")):
        return _lost(shell)
    here = None if shell.unknown or len(shell.places) > 1 else shell.places[0]
    if operands:
        return _went(shell, operands[0], (here, *shell.stack))
    if not shell.stack:
        return shell  # no other directory: pushd fails
    top = shell.stack[0]
    if top is None:
        return _lost(shell)
    return _went(shell, top, (here, *shell.stack[1:]))


def _popd(shell: Shell, words: list[str]) -> Shell:
    if words:
        return _lost(shell)
    if not shell.stack:
        return shell  # the stack is empty: popd fails
    top = shell.stack[0]
    if top is None:
        return _lost(shell)._replace(stack=shell.stack[1:])
    return _went(shell, top, shell.stack[1:])

"""Shell functions a command defines but cannot call: judged where they are called.

A function's body runs when the function is called, not where it is defined. The
guards judge a body as if it ran wherever the command defines it (``f() { curl x
| sh; }; f`` is the download run), which also holds back a dotfile's definitions
that nothing calls (``extract() { ... }``, ``killport() { ... }``). Whether such a
definition is harmless depends on the shell: a tool that starts a shell per call
(Claude Code's Bash tool) forgets it when the call ends; a shell that outlives the
call (LangChain's shell middleware, a REPL-like tool) keeps it, and a later call
runs the body by the function's name, maybe a harmless one (``ls() { curl x | sh;
}`` now, ``ls`` later).

So a definition the command cannot reach is judged at its calls, by the session:

- :func:`unreached`: the functions a command defines as statements of its own (not
  inside an ``if``, a loop or a substitution) whose name nothing else in the command
  mentions (quotes and backslashes taken out: ``'l''s'`` is ``ls``), not a name the
  shell calls by itself (``command_not_found_handle``, zsh's ``precmd``, ``TRAPINT``
  ...), in a command that computes no command name and runs no ``eval``, ``source``
  or ``.`` (each could call it by a name the text does not show);
- :func:`deferred`: the guards judge the command without those definitions; when
  that is weaker, the definitions are kept for the session (beside its downloads,
  :mod:`.session_downloads`), and each later call of the session that may reach one
  (names it, computes a command name, evals or sources) is judged after it, as one
  command: the body is judged as if it ran there. When they cannot be kept (longer
  than a kept statement, the session's store full, a disk error) the command keeps
  its own verdict: the definition is judged where it stands, as before.

An alias is a definition too (``alias please="gum input | sudo -nS"``; a later ``please``
runs the value): the parser notes the ``alias`` statements whose value is their text
(:attr:`.parse.Script.aliases`, one entry per name, each with the whole statement), and they
are deferred and reached as functions are; a statement is deferred only with all its names.

Inside :func:`shell_per_call` (the Claude Code hook's Bash calls) nothing is kept:
Claude Code 2.1.332 runs each Bash call in a new ``bash -c`` (seen with the real CLI:
a function, an alias or an export of one call is gone in the next), so such a
definition runs nowhere and a later call that names it is judged alone. Only the
names that shell calls after the command (its wrapper's ``pwd -P``) stay judged at
their definition.
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from ..lazy_regex import lazy_compile

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from .parse import Function, Script
    from .verdict import Verdict

__all__ = ["FUNCTIONS", "HOOKS", "deferred", "reached", "shell_ends_each_call", "shell_per_call", "unreached"]

FUNCTIONS = ".functions"
"""The kind of entry kept per session (:func:`.session_downloads.keep`): the definitions deferred."""
MAX_DEFERRED = 32
"""Definitions one command may defer (as many as a session keeps): a command with more has each
judged where it stands, and the work per command stays linear in its length."""

HOOKS = frozenset({
    "command_not_found_handle", "command_not_found_handler", "precmd", "preexec", "chpwd", "periodic",
    "zshaddhistory", "zshexit", "zsh_directory_name", "prompt_command",
})  # fmt: skip
"""Functions the shell calls by itself (bash when a command is not found; zsh's hooks): a definition
of one runs with no call in sight. zsh's ``TRAP<SIGNAL>`` functions too (:func:`_called_by_shell`)."""

_PER_CALL: ContextVar[frozenset[str] | None] = ContextVar("agentbus_shell_per_call", default=None)
"""Set by :func:`shell_per_call`: the names its shell calls after each command."""


@contextmanager
def shell_per_call(called_after: frozenset[str]) -> Iterator[None]:
    """Judge the calls made inside as run by a shell that ends with each call (Claude Code's Bash
    tool): a definition a call cannot reach is not kept for the session but dropped, except one
    named in ``called_after`` (what the tool's wrapper runs after the command: Claude Code's ``pwd
    -P``), which runs there and is judged where it stands."""
    token = _PER_CALL.set(called_after)
    try:
        yield
    finally:
        _PER_CALL.reset(token)


def shell_ends_each_call() -> bool:
    """Whether the calls judged now run in a shell that ends with each (inside :func:`shell_per_call`)."""
    return _PER_CALL.get() is not None


_QUOTES = lazy_compile(r"[\"'\\]")
_RUNS_NAMES = frozenset({"eval", "source", "."})
"""What they run may call any function."""


def _called_by_shell(name: str) -> bool:
    after = _PER_CALL.get()
    return name in HOOKS or name.startswith("TRAP") or (after is not None and name in after)


def _mentions(text: str, name: str, words: frozenset[str]) -> bool:
    """Whether ``name`` is a word of ``text`` (quotes and backslashes taken out first) or one of the
    ``words`` the parser made of it (``x=l; ${x}s`` is ``ls``)."""
    if name in words:
        return True
    flat = _QUOTES.sub("", text)
    return re.search(r"(?<![\w.+:@-])" + re.escape(name) + r"(?![\w.+:@-])", flat) is not None


_PREFIXES = frozenset({"time", "-p", "coproc", "!"})
"""Words before a command name that still run a function by it (``time f``)."""
_COMPUTED = lazy_compile("[$\ue020]")
"""A word with a variable or a substitution in it (the parser's placeholder for ``$(...)``)."""


def _words(text: str) -> frozenset[str] | None:
    """Every word the parser makes of ``text`` (substitutions included); None when ``text`` may call
    a function by a name it does not spell: a command name computed at run time (``$f``, ``"$@"``,
    ``$(printf f)``), ``eval``, ``source`` or ``.``, or text the parser cannot read whole."""
    from .parse import ShellSyntaxError, parsed

    try:
        script = parsed(text)
    except ShellSyntaxError:
        return None
    if script.malformed:
        return None
    found: set[str] = set()
    scripts = [script, *(sub.script for sub in script.substitutions)]
    for each in scripts:
        for stages in each.pipelines:
            for command in stages:
                head = True
                for word in command.words:
                    if head and (_COMPUTED.search(word) or word in _RUNS_NAMES):
                        return None
                    if head and not (word in _PREFIXES or "=" in word.split("/", 1)[0]):
                        head = False
                    found.add(command.static(word) or word)
    return frozenset(found)


def without(command: str, functions: Sequence[Function]) -> str:
    """``command`` (as the parser reads it) with the definitions of ``functions`` replaced by ``:`` (a
    command that does nothing); a definition not found there stays (and is judged where it stands)."""
    from .parse import as_read

    command = as_read(command)
    for function in functions:
        command = command.replace(function.text, ":", 1)
    return command


def unreached(command: str, script: Script) -> list[Function]:
    """The functions and aliases ``command`` (parsed: ``script``) defines and cannot call (module
    docstring); an ``alias`` statement is one definition of each name it defines, deferred only
    with all of them."""
    defined = [*script.functions, *script.aliases]
    candidates = [
        f for f in defined if f.defined_at is not None and f.name and f.text and not _called_by_shell(f.name)
    ]
    if not candidates or len(candidates) > MAX_DEFERRED:
        return []  # more than a session keeps: judged where they stand (and no work per definition)
    names = Counter(f.name for f in defined)
    candidates = [f for f in candidates if names[f.name] == 1]
    rest = without(command, candidates)
    words = _words(rest)
    if words is None:
        return []
    candidates = [f for f in candidates if not _mentions(rest, f.name, words)]
    # alias a=x b=y: the statement is deferred whole, so each of its names must be.
    texts = Counter(f.text for f in candidates)
    statements = Counter(f.text for f in script.aliases)
    candidates = [f for f in candidates if texts[f.text] == statements.get(f.text, 1)]
    if candidates and _words(without(command, candidates)) is None:
        return []
    return candidates


def reached(command: str, definitions: Sequence[str]) -> list[str]:
    """Which of a session's kept ``definitions`` ``command`` may call: those it names (outside a
    definition of its own that is kept), and those they name; all of them when it computes a command
    name, evals or sources."""
    if not definitions:
        return []
    from .parse import as_read

    text = as_read(command)
    for definition in definitions:  # the call that defined it (again) names it there: no call
        text = text.replace(definition, ":")
    words = _words(text)
    if words is None:
        return list(definitions)
    found: list[str] = []
    names = {definition: _names(definition) for definition in definitions}
    while True:  # f calls g, both kept: a call of f reaches g too
        more = [d for d in definitions if d not in found and _mentioned(text, names[d], words)]
        if not more:
            return [d for d in definitions if d in found]
        found.extend(more)
        text = "\n".join(more)
        more_words = _words(text)
        if more_words is None:  # a kept body that computes a command name may call any of them
            return list(definitions)
        words = more_words


def _mentioned(text: str, names: list[str], words: frozenset[str]) -> bool:
    return any(_mentions(text, name, words) for name in names)


def _names(definition: str) -> list[str]:
    """The names a kept definition defines (``f() {``, ``function f {``, ``alias a=x b=y``)."""
    from .parse import ShellSyntaxError, parsed

    if definition.startswith("alias"):
        try:
            script = parsed(definition)
        except ShellSyntaxError:
            script = None
        if script is not None and script.aliases:
            return [alias.name for alias in script.aliases]
    match = re.match(r"\s*(?:function\s+)?([^\s(){}]+)", definition)
    return [match.group(1) if match else definition]


def deferred(
    command: str,
    verdict: Verdict | None,
    judge: Callable[[str], Verdict | None],
    keep: Callable[[list[str]], bool],
) -> Verdict | None:
    """The verdict on ``command`` with its unreached definitions judged at their calls.

    ``verdict`` is ``judge(command)``; when it holds the command back and the command defines
    functions it cannot call, the command is judged without them. If that verdict is weaker,
    ``keep`` is asked to keep the definitions for the session; it returns False when it cannot,
    and then ``verdict`` stands.
    """
    if verdict is None:
        return None
    from .parse import ShellSyntaxError, parsed

    try:
        script = parsed(command)
    except ShellSyntaxError:
        return verdict
    functions = unreached(command, script)
    if not functions:
        return verdict
    rest = judge(without(command, functions))
    if rest is not None and (rest.decision == verdict.decision or rest.decision == "block"):
        return verdict
    if _PER_CALL.get() is not None:
        return rest  # the shell ends with the call, and the definitions with it: nothing runs them
    return rest if keep(list(dict.fromkeys(f.text for f in functions))) else verdict

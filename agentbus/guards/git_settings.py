"""git configuration a command gives git without a configuration file.

git reads settings from its command line (``git -c KEY=VALUE``, ``git --config-env=KEY=VARIABLE``)
and from its environment: ``GIT_CONFIG_PARAMETERS`` (what ``-c`` itself passes on to the git
programs it starts: ``'KEY'='VALUE' …``) and ``GIT_CONFIG_COUNT`` with ``GIT_CONFIG_KEY_<n>`` and
``GIT_CONFIG_VALUE_<n>``. Each of them sets any key for the one command, whatever the repository:
``core.fsmonitor``, ``core.sshCommand``, ``core.pager``, ``core.hooksPath``, a filter or diff
driver, an alias that starts with ``!`` make git run a program, and ``remote.NAME.url`` points a
remote anywhere. :func:`settings` gives them all as (key, value) pairs, so that the rules that
judge ``-c`` (:mod:`.carriers`: the command a key runs; the git rule: hooks taken away;
:mod:`.clones`: where a remote fetches from) judge every spelling alike.

An ``export`` (``declare -x``, an assignment after ``set -a``) gives those variables, and the
others git (``GIT_SSH_COMMAND``, ``GIT_CONFIG_GLOBAL`` ...) and go (``GOPROXY``, ``GOSUMDB`` ...)
read, to every later git or go of the shell: :class:`Exported` follows them through a line, and
:func:`.programs.walk` gives them to each later ``git``/``go`` as its own environment (as
``VAR=value git …``). A shell that outlives the call (an in-process bus's session) keeps them for
the session's later calls: the command guard keeps each call's exports (:func:`exported_statements`)
and judges later calls after them; a shell per call (Claude Code's Bash tool,
:func:`.definitions.shell_per_call`) forgets them, and nothing is kept.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .exports import Exports

if TYPE_CHECKING:
    from .programs import Invocation

__all__ = [
    "ENVIRONMENT_KEYS",
    "GLOBAL_VALUES",
    "Exported",
    "environment_settings",
    "exported_statements",
    "settings",
    "subcommand_at",
]

ENVIRONMENT_KEYS = ("GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")
"""The names (and prefixes) of the variables git takes configuration from."""

GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                           "--exec-path", "--super-prefix"})  # fmt: skip
"""git's own options that take a value in the next word (before the subcommand)."""


def subcommand_at(values: Sequence[str]) -> int:
    """Where git's subcommand stands in its arguments ``values``: past git's own options and the
    values they take (``git -C ../app ls-files .env``: ``ls-files``, not ``../app``); ``len(values)``
    when there is none."""
    index = 0
    while index < len(values) and values[index].startswith("-"):
        index += 2 if values[index] in GLOBAL_VALUES else 1
    return min(index, len(values))


_MAX_COUNT = 64
"""The ``GIT_CONFIG_<n>`` pairs read (git reads as many as ``GIT_CONFIG_COUNT`` says)."""


def settings(options: Sequence[str], env: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(key, value) of each setting git's own options (``options``: the words before the
    subcommand) and the assignments in its environment (``env``: ``NAME=VALUE``) give it."""
    variables = dict(assignment.partition("=")[::2] for assignment in env)
    found = environment_settings(env)
    for index, option in enumerate(options):
        given = options[index + 1] if index + 1 < len(options) else None
        if option == "-c" and given is not None:
            key, _, value = given.partition("=")
            found.append((key, value))
        elif option == "--config-env" and given is not None:
            key, _, variable = given.partition("=")
            found.append((key, variables.get(variable, "")))
        elif option.startswith("--config-env="):
            key, _, variable = option[len("--config-env=") :].partition("=")
            found.append((key, variables.get(variable, "")))
    return found


def environment_settings(env: Sequence[str]) -> list[tuple[str, str]]:
    """(key, value) of each setting ``GIT_CONFIG_PARAMETERS`` and the ``GIT_CONFIG_COUNT`` pairs
    in the assignments ``env`` (``NAME=VALUE``) give git."""
    variables = {}
    for assignment in env:
        name, equals, value = assignment.partition("=")
        if equals and name.startswith("GIT_CONFIG_"):
            variables[name] = value
    if not variables:
        return []
    found = list(_parameters(variables.get("GIT_CONFIG_PARAMETERS", "")))
    count = variables.get("GIT_CONFIG_COUNT", "")
    # git reads pairs up to the count; a count not written as a number is read up to what is there.
    limit = min(int(count), _MAX_COUNT) if count.strip().isdigit() else _MAX_COUNT
    for index in range(limit):
        key = variables.get(f"GIT_CONFIG_KEY_{index}")
        if key is None:
            if count.strip().isdigit():
                continue
            break
        found.append((key, variables.get(f"GIT_CONFIG_VALUE_{index}", "")))
    return found


def _parameters(text: str) -> Iterator[tuple[str, str]]:
    """``'core.pager'='less -R' 'user.name=x'``: git's own quoting (single quotes, ``'\\''``), as the
    shell reads it; each word is ``KEY=VALUE`` (quoted apart or together)."""
    if not text.strip():
        return
    try:
        words = shlex.split(text)
    except ValueError:  # an unclosed quote: git refuses it too, but judge what it says
        words = text.replace("'", " ").split()
    for word in words:
        key, _, value = word.partition("=")
        if key:
            yield key, value


_FAMILY = re.compile(
    r"^(?:GIT_[A-Z0-9_]+|GO(?:PROXY|SUMDB|NOSUMDB|NOSUMCHECK|PRIVATE|INSECURE|FLAGS|NOPROXY|VCS))$"
)
"""The variables an export gives every later git (``GIT_*``) and go (the module fetch's) of the shell."""
READERS = frozenset({"git", "go"})
"""The programs given the exported variables of :data:`_FAMILY`."""


class Exported(Exports):
    """The variables of :data:`_FAMILY` a line has exported so far (:class:`~.exports.Exports`:
    ``export X=v``, ``declare -x X=v``, ``X=v; export X``, an assignment after ``set -a``; ``unset X``,
    ``export -n X`` take one back)."""

    __slots__ = ()

    def words(self) -> tuple[str, ...]:
        """The exported variables of the family as the assignments of a command's environment
        (``X=VALUE``, the words as the parser gives them: quotes taken out); one made at run time is
        left out."""
        return tuple(
            f"{name}={value}"
            for name, value in self.exported.items()
            if value is not None and _FAMILY.match(name)
        )


def exported_statements(stages: Iterable[Sequence[Invocation]]) -> list[str]:
    """The statement (``set -a; export X=VALUE …``) that leaves exported what the statements
    ``stages`` (a walked line) leave exported of :data:`_FAMILY` (none: an empty list), for the
    session's later calls."""
    exported = Exported()
    for pipeline in stages:
        for invocation in pipeline:
            exported.note(invocation)
    words = exported.words()
    parts = ["set -a"] if exported.exporting_all else []  # set -a: later assignments are exported too
    if words:
        parts.append(" ".join(("export", *map(shlex.quote, words))))
    return ["; ".join(parts)] if parts else []

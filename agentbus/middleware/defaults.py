"""Default arguments for tools (seed 000: "Inject default arguments into specific tools").

Two kinds of default:

- :class:`DefaultArgs` fills in arguments the agent left out (``{"count": 5}``
  for ``web_search``); an argument the agent gave is never overwritten. A
  null counts as left out, since OpenAI's strict function calling sends null
  for every optional argument it does not use (``fill_none=False`` keeps it).
- :class:`CommandFlag` adds a flag to the programs of a shell command, the
  seed's ``--color=never`` for ``exec``. The seed appends the flag to the whole
  command line, which breaks ``cd src && ls`` (``cd`` gets the flag) and
  ``grep x -- file`` (the flag becomes a file name). This one puts it right
  after each named program in the command, outside quotes, and leaves a
  command that mentions the flag's name (``--color``) alone.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..events import ToolCall
from ..registry import Registry
from ..tools import normalize_tool_name

__all__ = ["COLOR_PROGRAMS", "CommandFlag", "DefaultArgs", "default_args", "install", "no_color"]

COLOR_PROGRAMS: tuple[str, ...] = ("ls", "dir", "vdir", "grep", "egrep", "fgrep", "diff", "rg", "fd")
"""Programs that accept ``--color=never``."""


class DefaultArgs:
    """A tool.before handler: set each default the call does not already have.

    Values are copied per call, so a mutable default (a list) is never shared.
    """

    def __init__(self, defaults: Mapping[str, Any], *, fill_none: bool = True) -> None:
        self.defaults = dict(defaults)
        self.fill_none = fill_none

    def __call__(self, call: ToolCall) -> None:
        args = call.args
        for name, value in self.defaults.items():
            if name not in args or (self.fill_none and args[name] is None):
                args[name] = copy.deepcopy(value)


def default_args(**defaults: Any) -> DefaultArgs:
    """``bus.intercept("tool.before", default_args(count=5), tool="web_search")``."""
    return DefaultArgs(defaults)


# Where a new simple command starts: after a control operator or an opening group.
_SEPARATORS = frozenset(";&|\n(")
_WORD = re.compile(r"[^\s;&|()<>]+")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def _command_words(command: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of the first word of each simple command, outside quotes.

    Leading ``NAME=value`` assignments are skipped. Quoted and escaped text
    never starts a command, so ``echo "ls; grep"`` yields only ``echo``.
    """
    words: list[tuple[int, int, str]] = []
    at_start = True
    quote: str | None = None
    index, length = 0, len(command)
    while index < length:
        char = command[index]
        if quote is not None:
            if char == "\\" and quote == '"':
                index += 2
                continue
            if char == quote:
                quote = None
            index += 1
            continue
        if char in "'\"":
            quote, at_start = char, False
        elif char == "\\":
            index, at_start = index + 2, False
            continue
        elif char in _SEPARATORS:
            at_start = True
        elif at_start and not char.isspace():
            match = _WORD.match(command, index)
            if match is not None:
                if _ASSIGNMENT.match(match.group()):
                    index = match.end()
                    continue
                words.append((match.start(), match.end(), match.group()))
                index, at_start = match.end(), False
                continue
            at_start = False
        index += 1
    return words


class CommandFlag:
    """A tool.before handler for ``exec``: add ``flag`` after each of ``programs``.

    ``ls -la && grep -r x .`` becomes ``ls --color=never -la && grep
    --color=never -r x .``. A command that already mentions the flag's name
    (``--color``) anywhere is left alone, as in the seed.
    """

    def __init__(self, flag: str, programs: Iterable[str], *, argument: str = "command") -> None:
        self.flag = flag
        self.programs = frozenset(programs)
        self.argument = argument
        self.name = flag.split("=", 1)[0]

    def __call__(self, call: ToolCall) -> None:
        command = call.args.get(self.argument)
        if not isinstance(command, str) or self.name in command:
            return
        targets = [
            end for _, end, word in _command_words(command) if word.rsplit("/", 1)[-1] in self.programs
        ]
        if not targets:
            return
        for end in reversed(targets):
            command = f"{command[:end]} {self.flag}{command[end:]}"
        call.args[self.argument] = command


def no_color(programs: Iterable[str] = COLOR_PROGRAMS) -> CommandFlag:
    """The seed's example: ``--color=never`` for the programs that accept it."""
    return CommandFlag("--color=never", programs)


def install(
    registry: Registry,
    *,
    tools: Mapping[str, Mapping[str, Any]] | None = None,
    tool: str | None = None,
    args: Mapping[str, Any] | None = None,
    no_color: bool = False,
    fill_none: bool = True,
    priority: int = 10,
) -> None:
    """Add default arguments per tool, and optionally ``--color=never`` for exec.

    ``tools`` maps a tool name to its defaults: ``{"web_search": {"count":
    5}}``; ``tool="web_search", args={"count": 5}`` is the same for one tool
    (the form seed 002's per-tool config passes). Each tool gets its own
    registration, ``defaults:TOOL``; plugin tool names are declared on the
    registry so that they validate. Priority 10, the seed's band for argument
    transformation.
    """
    per_tool = dict(tools or {})
    if args is not None:
        if tool is None:
            raise ValueError("defaults.install: args= needs tool= (or use tools={name: {...}})")
        per_tool[tool] = args
    for name, defaults in per_tool.items():
        canonical = normalize_tool_name(name)
        if canonical not in registry.known_tools:
            registry.declare_tools(canonical)
        registry.add(
            "tool.before", DefaultArgs(defaults, fill_none=fill_none), id=f"defaults:{canonical}",
            priority=priority,
            tool=[canonical],
        )  # fmt: skip
    if no_color:
        registry.add(
            "tool.before", CommandFlag("--color=never", COLOR_PROGRAMS), id="defaults:no-color",
            priority=priority, tool=["exec"],
        )  # fmt: skip

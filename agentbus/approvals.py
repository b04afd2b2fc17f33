"""Approvers: who answers when a tool.before layer calls ``call.ask(reason)``.

Claude Code's permission "ask" and seed 003's confirm dialog: a layer decides
that a person must approve a call. The bus hands such calls to its approver
(``Bus(approver=...)``); without one they are denied. Three approvers, for the
three situations an agent runs in:

- :class:`ConsolePrompt`: a person at a terminal answers ``y``/``n``;
- :class:`Callback`: your code decides (a GUI dialog, a chat message, a policy);
- :class:`Deny`: nobody can answer (CI, a daemon), so the call is denied with a
  reason that says so.

:func:`default_approver` picks the console prompt when stdin is a terminal and
denial otherwise. Every approver is time-limited (default 60 s): no answer in
time is a denial, never an approval. A denied call's reason (what the agent
sees) says who denied it and why; approvers set it with ``call.block(reason)``,
which the bus keeps.
"""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Awaitable, Callable
from typing import IO, Any, Union

import anyio
import anyio.to_thread

from .events import ToolCall

__all__ = ["Callback", "ConsolePrompt", "Deny", "default_approver"]

DEFAULT_TIMEOUT = 60.0

_YES = frozenset({"y", "yes"})


def _describe(call: ToolCall) -> str:
    try:
        args = json.dumps(call.args, ensure_ascii=False, default=repr)
    except ValueError:  # circular structures
        args = repr(call.args)
    return f"{call.tool} {args}"


class Deny:
    """Deny every "ask", with a reason that says nobody could answer.

    The default when no person is at a terminal: an unattended agent must not
    run a call that a policy wanted a person to see.
    """

    def __init__(self, reason: str = "no one is available to approve it") -> None:
        self.reason = reason

    async def __call__(self, call: ToolCall) -> bool:
        call.block(f"approval required ({call.block_reason}) and {self.reason}; denied")
        return False


class ConsolePrompt:
    """Ask the person at the terminal: ``Allow exec {"command": ...}? [y/N]``.

    The prompt goes to ``output`` (stderr by default, so it never mixes with
    a program's stdout) and the answer is read from ``input`` (stdin) in a
    worker thread, so the event loop keeps running while the person thinks.
    Only ``y`` or ``yes`` approves; anything else, end of input or no answer
    within ``timeout`` seconds denies. Prompts from concurrent calls are asked
    one at a time.

    A read that times out leaves its thread waiting for the line, which the
    next prompt then cannot see: a terminal answer typed too late is ignored,
    not misapplied.
    """

    def __init__(
        self,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        input: IO[str] | None = None,
        output: IO[str] | None = None,
    ) -> None:
        self.timeout = timeout
        self.input = input
        self.output = output
        self._lock: anyio.Lock | None = None

    async def __call__(self, call: ToolCall) -> bool:
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            return await self._ask(call)

    async def _ask(self, call: ToolCall) -> bool:
        source = self.input if self.input is not None else sys.stdin
        sink = self.output if self.output is not None else sys.stderr
        sink.write(f'\n⚠️ {call.tool} needs approval — "{call.block_reason}"\n   {_describe(call)}\n')
        wait = f" (denied in {self.timeout:g} s)" if self.timeout is not None else ""
        sink.write(f"Allow?{wait} [y/N] ")
        sink.flush()
        answer: str | None = None
        with anyio.move_on_after(self.timeout):
            answer = await anyio.to_thread.run_sync(source.readline, abandon_on_cancel=True)
        if answer is None:
            sink.write("\n")
            sink.flush()
            call.block(f"approval required ({call.block_reason}); no answer within {self.timeout:g} s")
            return False
        if answer == "":
            call.block(f"approval required ({call.block_reason}); the console closed without an answer")
            return False
        if answer.strip().lower() in _YES:
            return True
        call.block(f"denied at the console: {call.block_reason}")
        return False


CallbackResult = Union[bool, Awaitable[bool]]


class Callback:
    """Let code decide: ``fn(call) -> bool`` (sync or async), True approves.

    To give the agent a reason of your own, call ``call.block(reason)`` in
    ``fn`` and return False. A sync ``fn`` runs in a worker thread, so a
    blocking dialog neither stalls the event loop nor escapes the time limit.
    A callback that raises, returns something else than a bool, or does not
    answer within ``timeout`` seconds denies.
    """

    def __init__(
        self, fn: Callable[[ToolCall], CallbackResult], *, timeout: float | None = DEFAULT_TIMEOUT
    ) -> None:
        self.fn = fn
        self.timeout = timeout

    async def __call__(self, call: ToolCall) -> bool:
        answer: Any = None
        with anyio.move_on_after(self.timeout) as scope:
            if inspect.iscoroutinefunction(self.fn):
                answer = await self.fn(call)
            else:
                answer = await anyio.to_thread.run_sync(self.fn, call, abandon_on_cancel=True)
                if inspect.isawaitable(answer):
                    answer = await answer
        if scope.cancelled_caught:
            call.block(f"approval required ({call.block_reason}); no answer within {self.timeout:g} s")
            return False
        if answer is True:
            return True
        if answer is not False:
            call.block(
                f"approval required ({call.block_reason}); the approval callback returned "
                f"{answer!r}, not True or False"
            )
            return False
        call.block(f"denied by the approval callback: {call.block_reason}")
        return False


def default_approver(
    *, timeout: float | None = DEFAULT_TIMEOUT, input: IO[str] | None = None
) -> ConsolePrompt | Deny:
    """A console prompt if a person is at the terminal (stdin is a tty), else :class:`Deny`."""
    source = input if input is not None else sys.stdin
    try:
        interactive = source is not None and source.isatty()
    except (ValueError, OSError):  # a closed or detached stream
        interactive = False
    if interactive:
        return ConsolePrompt(timeout=timeout, input=input)
    return Deny("no one is at a terminal to approve it")

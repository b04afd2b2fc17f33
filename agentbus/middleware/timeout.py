"""A time limit on tool execution (tool.call middleware).

A tool that hangs (a shell waiting for input, a fetch that never returns)
stalls the whole agent. This layer cancels the execution after ``seconds``
with an anyio cancel scope and turns it into the tool's error: the agent
receives ``{"status": "error", "tool": ..., "error": "TimeoutError: exec did
not finish within 30 s"}`` and tool.after sees ``is_error``. The tool must be
cancellable (async, or run in a worker thread with cancellable=True); a
blocking sync call cannot be interrupted by anything in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio

from ..events import ToolCall
from ..registry import Matcher, Registry
from ..tools import normalize_tool_name
from ..typing import CallNext

__all__ = ["ToolTimeout", "install"]


class ToolTimeout:
    """tool.call middleware: fail a tool call that runs longer than its limit.

    ``seconds`` is the limit for every tool (None: no limit), ``per_tool``
    overrides it for some (``{"web_fetch": 10}``; a value of None exempts a
    tool).
    """

    def __init__(self, seconds: float | None, *, per_tool: Mapping[str, float | None] | None = None) -> None:
        for name, value in {"seconds": seconds, **(per_tool or {})}.items():
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
            ):
                raise ValueError(f"the timeout for {name} must be a number of seconds > 0, got {value!r}")
        self.seconds = seconds
        self.per_tool = {normalize_tool_name(tool): value for tool, value in (per_tool or {}).items()}

    async def __call__(self, call: ToolCall, call_next: CallNext) -> Any:
        seconds = self.per_tool.get(call.tool, self.seconds)
        if seconds is None:
            return await call_next(call)
        with anyio.move_on_after(seconds):
            return await call_next(call)
        # Only reached when the scope cancelled the call: the body returns or raises.
        error = TimeoutError(f"{call.tool} did not finish within {seconds:g} s")
        # Marked as the tool's own error, so that the pipeline reports it as the
        # tool's result and outer tool.call layers (retry) can see it as such.
        call.tool_error = error
        raise error


def install(
    registry: Registry,
    *,
    seconds: float | None = 30.0,
    per_tool: Mapping[str, float | None] | None = None,
    tool: Matcher = None,
    priority: int = 20,
    id: str = "timeout:tools",
) -> None:
    """Limit every tool call (or those of ``tool``) to ``seconds``.

    Priority 20: inside a retry layer (30), so each attempt has its own limit,
    and outside a concurrency limit (10), so waiting for a slot counts.
    """
    registry.add(
        "tool.call", ToolTimeout(seconds, per_tool=per_tool), kind="middleware", id=id,
        priority=priority, tool=tool,
    )  # fmt: skip

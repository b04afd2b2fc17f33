"""Limits on tool calls: how many per run, how many at once.

- :class:`ToolCallLimit` (tool.before) blocks calls past ``max_calls`` in one
  run, with a reason that tells the agent to stop and answer. A run is keyed
  by (agent id, session key); the count starts over when the runtime notifies
  ``agent.start`` for that key, so an adapter that reports
  lifecycle events gets per-run limits, and one that does not gets a limit
  per session.
- :class:`ConcurrencyLimit` (tool.call) lets at most N calls of a tool run at
  the same time, with an :class:`anyio.CapacityLimiter` per tool; the others
  wait their turn. It wraps the execution, so blocked calls never take a slot.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import anyio

from ..events import Lifecycle, ToolCall
from ..registry import Matcher, Registry
from ..tools import normalize_tool_name
from ..typing import CallNext

__all__ = ["ConcurrencyLimit", "ToolCallLimit", "install"]

RunKey = tuple[str | None, str | None]

MAX_TRACKED_RUNS = 10_000
"""Runs whose counts are kept; the least recently used are forgotten past this."""


class ToolCallLimit:
    """Block tool calls past ``max_calls`` per run (agent id, session key).

    Calls that an earlier layer blocked already do not count. Register
    :meth:`reset` on ``agent.start`` (``install`` does) to start each run at 0.
    """

    def __init__(self, max_calls: int) -> None:
        if isinstance(max_calls, bool) or not isinstance(max_calls, int) or max_calls < 0:
            raise ValueError(f"max_calls must be an int >= 0, got {max_calls!r}")
        self.max_calls = max_calls
        self._counts: OrderedDict[RunKey, int] = OrderedDict()
        # agentbus serve decides requests on worker threads: counting is read-then-write,
        # so without the lock two calls can both take the last slot.
        self._lock = threading.Lock()

    def count(self, agent_id: str | None = None, session_key: str | None = None) -> int:
        """How many calls the run has made so far."""
        return self._counts.get((agent_id, session_key), 0)

    def __call__(self, call: ToolCall) -> None:
        if call.blocked:
            return
        key = (call.agent_id, call.session_key)
        counts = self._counts
        with self._lock:
            made = counts.get(key, 0)
            if made < self.max_calls:
                counts[key] = made + 1
                counts.move_to_end(key)
                if len(counts) > MAX_TRACKED_RUNS:
                    counts.popitem(last=False)
                return
        call.block(
            f"tool-call limit reached: {self.max_calls} calls in this run; "
            f"stop calling tools and answer with what you have"
        )

    def reset(self, event: Lifecycle) -> None:
        """An agent.start handler: the run that ``event`` names starts at 0."""
        with self._lock:
            self._counts.pop((event.agent_id, event.session_key), None)

    def reset_all(self) -> None:
        """Forget every run's count."""
        with self._lock:
            self._counts.clear()


class ConcurrencyLimit:
    """tool.call middleware: at most ``limits[tool]`` (else ``default``) concurrent calls of a tool.

    A tool without a limit (``default=None`` and not in ``limits``) passes
    straight through. The limiters are made on first use, inside the event
    loop that uses them.
    """

    def __init__(self, default: int | None = None, *, limits: Mapping[str, int] | None = None) -> None:
        for name, value in {"default": default, **(limits or {})}.items():
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"the concurrency limit for {name} must be an int >= 1, got {value!r}")
        self.default = default
        self.limits = {normalize_tool_name(tool): value for tool, value in (limits or {}).items()}
        self._limiters: dict[str, anyio.CapacityLimiter] = {}

    def limiter(self, tool: str) -> anyio.CapacityLimiter | None:
        """The limiter of ``tool``, or None if it has no limit."""
        limiter = self._limiters.get(tool)
        if limiter is None:
            total = self.limits.get(tool, self.default)
            if total is None:
                return None
            limiter = self._limiters[tool] = anyio.CapacityLimiter(total)
        return limiter

    async def __call__(self, call: ToolCall, call_next: CallNext) -> Any:
        limiter = self.limiter(call.tool)
        if limiter is None:
            return await call_next(call)
        # A token per call, not the task: one task may run nested or sequential calls.
        token = object()
        await limiter.acquire_on_behalf_of(token)
        try:
            return await call_next(call)
        finally:
            limiter.release_on_behalf_of(token)


def install(
    registry: Registry,
    *,
    max_calls: int | None = None,
    concurrency: int | None = None,
    concurrency_per_tool: Mapping[str, int] | None = None,
    tool: Matcher = None,
    priority: int = 90,
    concurrency_priority: int = 10,
) -> None:
    """Install a tool-call limit per run and/or a concurrency limit per tool.

    ``max_calls`` adds ``limits:calls`` (tool.before, priority 90: after the
    guards, so blocked calls do not count) and ``limits:reset`` (agent.start).
    ``concurrency`` / ``concurrency_per_tool`` add ``limits:concurrency``
    (tool.call, priority 10: inside retry and timeout, so each attempt takes a
    slot and a backoff does not hold one).
    """
    if max_calls is None and concurrency is None and not concurrency_per_tool:
        raise ValueError("limits.install needs max_calls=, concurrency= or concurrency_per_tool=")
    if max_calls is not None:
        limit = ToolCallLimit(max_calls)
        registry.add("tool.before", limit, id="limits:calls", priority=priority, tool=tool)
        registry.add("agent.start", limit.reset, id="limits:reset")
    if concurrency is not None or concurrency_per_tool:
        registry.add(
            "tool.call", ConcurrencyLimit(concurrency, limits=concurrency_per_tool), kind="middleware",
            id="limits:concurrency", priority=concurrency_priority, tool=tool,
        )  # fmt: skip

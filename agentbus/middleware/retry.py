"""Retrying failed tool calls with exponential backoff (tool.call middleware).

Transient failures (a dropped connection, a timeout, a rate limit) should not
cost the agent a turn. This layer runs the tool again when it raises one of
``retry_on``, waiting ``initial_delay * multiplier ** n`` seconds (at most
``max_delay``, plus random jitter so that parallel calls do not retry in step)
between attempts. After the last attempt the last error is the tool's result.

Why a loop and not stamina or tenacity: both are good libraries, but their
async support detects asyncio or trio by hand, while this loop sleeps with
:func:`anyio.sleep`, so it is correct on both backends and under any cancel
scope, and cancellation (a ``BaseException``) is never retried. The whole
policy is twenty lines that a reader can check; a dependency would add more
configuration than code.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable
from typing import Any

import anyio

from ..events import ToolCall
from ..registry import Matcher, Registry
from ..typing import CallNext

__all__ = ["DEFAULT_RETRY_ON", "Retry", "install"]

DEFAULT_RETRY_ON: tuple[type[Exception], ...] = (ConnectionError, TimeoutError)
"""Errors worth another attempt: the network and time limits. Not OSError in
general, since FileNotFoundError or PermissionError will not go away."""


class Retry:
    """tool.call middleware: up to ``attempts`` tries while the tool raises ``retry_on``.

    Only the tool's own errors are retried (not the failure of another layer).
    ``sleep`` is the wait (``anyio.sleep``; tests pass a recorder).
    """

    def __init__(
        self,
        *,
        attempts: int = 3,
        retry_on: Iterable[type[Exception]] = DEFAULT_RETRY_ON,
        initial_delay: float = 0.5,
        multiplier: float = 2.0,
        max_delay: float = 10.0,
        jitter: float = 0.1,
        sleep: Callable[[float], Any] = anyio.sleep,
    ) -> None:
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise ValueError(f"attempts must be an int >= 1, got {attempts!r}")
        if min(initial_delay, multiplier, max_delay, jitter) < 0:
            raise ValueError("delays, multiplier and jitter must be >= 0")
        self.attempts = attempts
        self.retry_on = tuple(retry_on)
        self.initial_delay = initial_delay
        self.multiplier = multiplier
        self.max_delay = max_delay
        self.jitter = jitter
        self.sleep = sleep

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        base = min(self.max_delay, self.initial_delay * self.multiplier ** (attempt - 1))
        return base + random.uniform(0, base * self.jitter)

    async def __call__(self, call: ToolCall, call_next: CallNext) -> Any:
        attempt = 1
        while True:
            try:
                return await call_next(call)
            except self.retry_on as exc:
                if attempt >= self.attempts or exc is not call.tool_error:
                    raise
            call.tool_error = None
            await self.sleep(self.delay(attempt))
            attempt += 1


def install(
    registry: Registry,
    *,
    attempts: int = 3,
    retry_on: Iterable[type[Exception] | str] = DEFAULT_RETRY_ON,
    initial_delay: float = 0.5,
    multiplier: float = 2.0,
    max_delay: float = 10.0,
    tool: Matcher = None,
    priority: int = 30,
    id: str = "retry:tools",
) -> None:
    """Retry tool calls (or those of ``tool``) that raise ``retry_on``.

    ``retry_on`` may name exception classes as strings (``"ConnectionError"``
    for builtins, ``"httpx:TransportError"`` otherwise), for config files.
    Priority 30: outside a timeout layer (20), so each attempt has its own limit.
    """
    layer = Retry(
        attempts=attempts, retry_on=[_exception_type(spec) for spec in retry_on],
        initial_delay=initial_delay, multiplier=multiplier, max_delay=max_delay,
    )  # fmt: skip
    registry.add("tool.call", layer, kind="middleware", id=id, priority=priority, tool=tool)


def _exception_type(spec: type[Exception] | str) -> type[Exception]:
    found: Any = spec
    if isinstance(spec, str):
        module_name, _, name = spec.rpartition(":")
        try:
            found = getattr(importlib.import_module(module_name or "builtins"), name)
        except (ImportError, AttributeError):
            found = None
    if not (isinstance(found, type) and issubclass(found, Exception)):
        raise ValueError(
            f"retry_on must name exception classes ('ConnectionError', 'module:Class'), got {spec!r}"
        )
    return found

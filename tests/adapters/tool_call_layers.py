"""tool.call layers the adapters' tests run around a real framework's tool.

Written once, so that each adapter is held to the same behaviour: a retry, a
deadline and a cache, each a plain agentbus middleware.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio

import agentbus

Layer = Callable[[agentbus.ToolCall, Any], Awaitable[Any]]


def retry_once_on(error: type[Exception]) -> Layer:
    """Runs the tool again once when it raises ``error``."""

    async def retry(call: agentbus.ToolCall, call_next: Any) -> Any:
        try:
            return await call_next(call)
        except error:
            return await call_next(call)

    return retry


def deadline(seconds: float) -> Layer:
    """Fails the call with TimeoutError when the tool runs longer than ``seconds``."""

    async def bounded(call: agentbus.ToolCall, call_next: Any) -> Any:
        with anyio.fail_after(seconds):
            return await call_next(call)

    return bounded


def cache_by(arg: str, cache: dict[Any, Any], seen: list[dict[str, Any]]) -> Layer:
    """Answers from ``cache`` by the value of ``arg``; ``seen`` gets the args of every call."""

    async def cached(call: agentbus.ToolCall, call_next: Any) -> Any:
        seen.append(dict(call.args))
        key = call.args[arg]
        if key not in cache:
            cache[key] = await call_next(call)
        return cache[key]

    return cached


async def slow(seconds: float = 5) -> None:
    """What a slow tool awaits: far longer than a deadline allows, but bounded, so that a
    broken deadline fails the test instead of hanging it."""
    with anyio.move_on_after(seconds):
        await anyio.Event().wait()

"""Retries with backoff for tool.call, through a real bus."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

import agentbus
from agentbus.middleware import retry, timeout
from agentbus.middleware.retry import Retry

pytestmark = pytest.mark.anyio


def flaky(failures: list[BaseException]) -> Any:
    calls: list[int] = []

    async def execute(args: dict[str, Any]) -> str:
        calls.append(1)
        if failures:
            raise failures.pop(0)
        return f"done after {len(calls)}"

    return execute


def retrying(**options: Any) -> tuple[agentbus.Bus, list[float]]:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    bus = agentbus.Bus(log_level=None)
    bus.middleware("tool.call", Retry(sleep=sleep, jitter=0, **options), id="retry")
    return bus, waits


async def test_transient_errors_are_retried_with_exponential_backoff() -> None:
    bus, waits = retrying(attempts=4, initial_delay=0.5, multiplier=2)
    tool = flaky([ConnectionError("reset"), TimeoutError("slow"), ConnectionError("reset")])
    assert await bus.call_tool("web_fetch", {}, tool) == "done after 4"
    assert waits == [0.5, 1.0, 2.0]


async def test_the_last_error_is_the_result_when_attempts_run_out() -> None:
    bus, waits = retrying(attempts=2, initial_delay=1, max_delay=1)
    tool = flaky([ConnectionError("one"), ConnectionError("two"), ConnectionError("three")])
    assert await bus.call_tool("web_fetch", {}, tool) == {
        "status": "error",
        "tool": "web_fetch",
        "error": "ConnectionError: two",
    }
    assert waits == [1]


async def test_other_errors_are_not_retried() -> None:
    bus, waits = retrying()
    tool = flaky([FileNotFoundError("nope")])
    assert (await bus.call_tool("read", {}, tool))["error"] == "FileNotFoundError: nope"
    assert waits == []


async def test_each_attempt_gets_its_own_timeout_when_installed_together() -> None:
    bus = agentbus.Bus(log_level=None)
    retry.install(bus.registry, attempts=3, initial_delay=0, retry_on=["TimeoutError"])
    timeout.install(bus.registry, seconds=0.01)
    attempts: list[int] = []

    async def slow_then_fast(args: dict[str, Any]) -> str:
        attempts.append(1)
        if len(attempts) < 3:
            await anyio.Event().wait()
        return "done"

    assert await bus.call_tool("web_fetch", {}, slow_then_fast) == "done"
    assert len(attempts) == 3


def test_exception_names_are_resolved_for_config_files() -> None:
    registry = agentbus.Registry()
    retry.install(registry, retry_on=["ConnectionError", "json:JSONDecodeError"])
    with pytest.raises(ValueError, match="retry_on must name exception classes"):
        retry.install(agentbus.Registry(), retry_on=["NoSuchError"])
    with pytest.raises(ValueError, match="attempts"):
        Retry(attempts=0)

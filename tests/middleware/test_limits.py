"""Tool-call limits per run and concurrency limits per tool, through a real bus."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

import agentbus
from agentbus.middleware import limits
from agentbus.middleware.limits import ConcurrencyLimit

pytestmark = pytest.mark.anyio


async def ok(args: dict[str, Any]) -> str:
    return "done"


async def test_calls_past_the_limit_are_blocked_with_a_reason_until_the_next_run() -> None:
    bus = agentbus.Bus(log_level=None)
    limits.install(bus.registry, max_calls=2)
    results = [await bus.call_tool("read", {"path": "a"}, ok, session_key="s1") for _ in range(3)]
    assert results[:2] == ["done", "done"]
    assert results[2]["status"] == "blocked"
    assert "tool-call limit reached: 2 calls" in results[2]["reason"]
    assert await bus.call_tool("read", {"path": "a"}, ok, session_key="s2") == "done", (
        "other sessions count apart"
    )
    await bus.notify("agent.start", session_key="s1")
    assert await bus.call_tool("read", {"path": "a"}, ok, session_key="s1") == "done"


async def test_calls_blocked_by_a_guard_do_not_count() -> None:
    bus = agentbus.Bus(log_level=None)
    limits.install(bus.registry, max_calls=1)

    @bus.intercept("tool.before", priority=100)
    def guard(call: agentbus.ToolCall) -> None:
        if call.args.get("bad"):
            call.block("guarded")

    assert (await bus.call_tool("exec", {"bad": True}, ok))["reason"] == "guarded"
    assert await bus.call_tool("exec", {}, ok) == "done"


async def test_at_most_n_calls_of_a_tool_run_at_once() -> None:
    bus = agentbus.Bus(log_level=None)
    limits.install(bus.registry, concurrency=2, concurrency_per_tool={"web_fetch": 1})
    running = {"exec": 0, "web_fetch": 0}
    peak = {"exec": 0, "web_fetch": 0}
    release = anyio.Event()

    def tool(name: str) -> Any:
        async def execute(args: dict[str, Any]) -> str:
            running[name] += 1
            peak[name] = max(peak[name], running[name])
            await release.wait()
            running[name] -= 1
            return "done"

        return execute

    async with anyio.create_task_group() as tg:
        for _ in range(5):
            tg.start_soon(bus.call_tool, "exec", {}, tool("exec"))
            tg.start_soon(bus.call_tool, "web_fetch", {}, tool("web_fetch"))
        await anyio.wait_all_tasks_blocked()
        assert running == {"exec": 2, "web_fetch": 1}
        release.set()
    assert peak == {"exec": 2, "web_fetch": 1}


async def test_one_task_can_make_nested_calls_of_a_limited_tool() -> None:
    bus = agentbus.Bus(log_level=None)
    bus.middleware("tool.call", ConcurrencyLimit(2))

    async def outer(args: dict[str, Any]) -> Any:
        return await bus.call_tool("exec", {}, ok)

    assert await bus.call_tool("exec", {}, outer) == "done"


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="max_calls"):
        limits.install(agentbus.Registry(), max_calls=-1)
    with pytest.raises(ValueError, match="exec must be an int >= 1"):
        ConcurrencyLimit(limits={"exec": 0})
    with pytest.raises(ValueError, match="needs max_calls"):
        limits.install(agentbus.Registry())


def test_the_call_limit_holds_when_threads_count_at_once() -> None:
    # agentbus serve decides requests on worker threads, each with its own event loop.
    import sys
    import threading

    limit = limits.ToolCallLimit(max_calls=10_000)
    allowed: list[int] = []
    start = threading.Barrier(8)

    def worker() -> None:
        start.wait()
        passed = 0
        for _ in range(2_500):
            call = agentbus.ToolCall(tool="read", args={}, session_key="shared")
            limit(call)
            passed += not call.blocked
        allowed.append(passed)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so that a race shows
    try:
        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert sum(allowed) == 10_000
    assert limit.count(session_key="shared") == 10_000

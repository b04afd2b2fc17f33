"""The tool.call time limit, through a real bus."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

import agentbus
from agentbus.middleware import timeout
from agentbus.middleware.timeout import ToolTimeout

pytestmark = pytest.mark.anyio


async def hang(args: dict[str, Any]) -> str:
    await anyio.Event().wait()
    return "never"


async def ok(args: dict[str, Any]) -> str:
    return "done"


async def test_a_hanging_tool_becomes_an_error_result_and_tool_after_sees_it() -> None:
    bus = agentbus.Bus(log_level=None)
    timeout.install(bus.registry, seconds=0.01)
    seen: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", seen.append)
    result = await bus.call_tool("web_fetch", {"url": "x"}, hang)
    assert result == {
        "status": "error",
        "tool": "web_fetch",
        "error": "TimeoutError: web_fetch did not finish within 0.01 s",
    }
    assert seen[0].is_error
    assert isinstance(seen[0].error, TimeoutError)


async def test_a_tool_within_its_limit_returns_its_result() -> None:
    bus = agentbus.Bus(log_level=None)
    timeout.install(bus.registry, seconds=60)
    assert await bus.call_tool("exec", {}, ok) == "done"


async def test_per_tool_limits_override_and_none_exempts() -> None:
    bus = agentbus.Bus(log_level=None)
    bus.middleware("tool.call", ToolTimeout(None, per_tool={"Bash": 0.01}))
    assert (await bus.call_tool("exec", {}, hang))["error"].startswith("TimeoutError: exec")
    with anyio.move_on_after(0.05) as scope:
        await bus.call_tool("read", {}, hang)
    assert scope.cancelled_caught, "read has no limit: only the outer scope ended it"


def test_a_non_positive_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="web_fetch must be a number of seconds > 0"):
        ToolTimeout(5, per_tool={"web_fetch": 0})

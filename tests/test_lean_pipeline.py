"""The pipeline builds only what somebody reads (issue 15.2), and keeps every decision.

A ToolResult exists for tool.after layers and for dispatch observers; a call
that has neither returns the tool's result without one. ToolCall's hand-written
``__init__`` must set every field attrs declares, to the declared default.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import agentbus.bus
from agentbus import Bus, Record, ToolCall, ToolResult

pytestmark = pytest.mark.anyio


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[ToolResult]:
    """Every ToolResult the bus builds."""
    made: list[ToolResult] = []

    def counting(*args: Any, **kwargs: Any) -> ToolResult:
        made.append(ToolResult(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(agentbus.bus, "ToolResult", counting)
    return made


async def tool(args: dict[str, Any]) -> Any:
    return {"ran": args["command"]}


def check(call: ToolCall) -> None:
    if "rm" in call.args["command"]:
        call.block("no rm")


async def test_no_tool_result_when_nothing_reads_one(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    blocked = await bus.call_tool("exec", {"command": "rm -rf /"}, tool)
    assert blocked["status"] == "blocked"
    assert "no rm" in blocked["reason"]
    assert built == []


async def test_a_tool_after_layer_gets_its_tool_result(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    seen: list[Any] = []
    bus.registry.add("tool.after", lambda event: seen.append(event.result))
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    assert len(built) == 1
    assert seen == [{"ran": "ls"}]


async def test_a_dispatch_observer_gets_its_tool_result(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    ends: list[Record] = []
    bus.on_event(ends.append, dispatches=True)
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    assert len(built) == 1
    assert any(record.point == "tool.call" for record in ends)


async def test_run_tool_always_returns_the_tool_result(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    event = await bus.run_tool("exec", {"command": "ls"}, tool)
    assert built == [event]
    assert event.result == {"ran": "ls"}


def test_tool_call_init_sets_every_declared_field() -> None:
    call = ToolCall("exec", {"command": "ls"})
    for field in attrs.fields(ToolCall):
        value = getattr(call, field.name)  # an unset slot raises AttributeError
        if field.alias in ("tool", "args"):
            continue
        default: Any = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory(call) if default.takes_self else default.factory()
        assert value == default, field.name
    assert call.notes is not ToolCall("exec", {}).notes  # a list of its own

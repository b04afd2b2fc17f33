"""The seed's headline behaviour, end to end through one bus."""

from __future__ import annotations

from typing import Any

import pytest

import agentbus

pytestmark = pytest.mark.anyio


async def shell(args: dict[str, Any]) -> str:
    return f"ran {args['command']}"


async def test_blocked_call_never_runs_and_returns_the_blocked_result() -> None:
    bus = agentbus.Bus(log_level=None)
    ran: list[str] = []

    @bus.intercept("tool.before", tool=r"^exec$", priority=100, id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    async def tool(args: dict[str, Any]) -> str:
        ran.append(args["command"])
        return "done"

    result = await bus.call_tool("bash", {"command": "rm -rf /"}, tool)
    assert result == {"status": "blocked", "tool": "exec", "reason": "rm -rf is not allowed"}
    assert ran == []


async def test_metadata_flows_from_message_before_to_params_before() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("message.before")
    def classify(message: agentbus.Message) -> None:
        message.metadata["complexity"] = "high" if "debug" in message.message else "low"

    @bus.intercept("params.before")
    def think(input: agentbus.Params, output: agentbus.Params) -> None:
        if input.metadata["complexity"] == "high":
            output.think_level = "high"

    _, params = await bus.prepare("please debug this")
    assert params.think_level == "high"
    _, params = await bus.prepare("hello")
    assert params.think_level is None

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


async def test_a_layer_that_handles_secrets_records_field_names_not_values() -> None:
    bus = agentbus.Bus(log_level=None)
    records: list[agentbus.Record] = []
    bus.on_event(records.append, level="info")

    @bus.intercept("tool.after", id="redact", record_values=False)
    def redact(event: agentbus.ToolResult) -> None:
        event.result = str(event.result).replace("hunter2", "***")

    async def tool(args: dict[str, Any]) -> str:
        return "password=hunter2"

    assert await bus.call_tool("read", {"path": "x"}, tool) == "password=***"
    (record,) = records
    assert set(record.changes) == {"result"}
    assert "hunter2" not in repr(record.to_dict())


async def test_a_low_priority_handler_in_the_same_group_sees_who_blocked() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[str | None] = []

    @bus.intercept("tool.before", priority=100, id="gate")
    def gate(call: agentbus.ToolCall) -> None:
        call.block("no")

    @bus.intercept("tool.before", priority=-10, id="auditor")
    def auditor(call: agentbus.ToolCall) -> None:
        seen.append(call.blocked_by)

    event = await bus.run_tool("exec", {"command": "x"}, shell)
    assert event.blocked
    assert seen == ["gate"]

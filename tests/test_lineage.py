"""Sub-agents' parents (agentbus.lineage), tool.list, the system prompt and end_run, on the bus itself."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

import agentbus
from agentbus import lineage

pytestmark = pytest.mark.anyio


async def test_events_built_inside_a_running_tool_name_its_agent_as_their_parent() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str, str | None, str | None]] = []

    @bus.intercept("tool.before", id="watch")
    def watch(call: agentbus.ToolCall) -> None:
        seen.append((call.point, call.agent_id, call.parent_agent_id))

    bus.intercept("agent.start", lambda e: seen.append((e.point, e.agent_id, e.parent_agent_id)), id="start")

    async def sub_agent(args: dict[str, Any]) -> str:
        await bus.notify("agent.start", agent_id="inner")
        await bus.call_tool("read", {"path": "/a"}, lambda a: "text", agent_id="inner")
        return "done"

    async def outer_tool(args: dict[str, Any]) -> str:
        with lineage.running("outer"):  # what an adapter does around a tool
            return await sub_agent(args)

    await bus.call_tool("ask", {}, outer_tool, agent_id="outer")

    assert seen == [
        ("tool.before", "outer", None),
        ("agent.start", "inner", "outer"),
        ("tool.before", "inner", "outer"),
    ]


async def test_the_parent_follows_into_tasks_and_nests() -> None:
    parents: dict[str, str | None] = {}

    async def child(agent_id: str, key: str) -> None:
        parents[key] = agentbus.ToolCall("x", {}, agent_id=agent_id).parent_agent_id

    with lineage.running("a"), lineage.running("b"):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(child, "c", "c in b's tool")
            tasks.start_soon(child, "b", "b's own event")  # b runs inside a's tool
    await child("a", "a at the top")

    assert parents == {"c in b's tool": "b", "b's own event": "a", "a at the top": None}


async def test_tool_list_hides_and_describes_but_cannot_add_tools() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.list", agent="intern", id="intern")
    def intern(listing: agentbus.ToolList) -> None:
        listing.hide("bash", "not-a-tool")
        listing.tools["read"] = "Read files under /tmp."

    offered = {"bash": "Run a command.", "read": "Read a file.", "grep": "Search."}

    assert await bus.list_tools(offered, agent_id="intern") == {
        "read": "Read files under /tmp.",
        "grep": "Search.",
    }
    assert await bus.list_tools(offered, agent_id="lead") == offered

    bus.intercept("tool.list", lambda listing: listing.tools.update(sudo="Be root."), id="adds")
    with pytest.raises(ValueError, match="added 'sudo'"):
        await bus.list_tools(offered, agent_id="lead")


def test_tool_list_fields_are_checked() -> None:
    listing = agentbus.ToolList(tools={"a": "A"})
    with pytest.raises(TypeError, match="description"):
        listing.tools = {"a": 1}  # type: ignore[dict-item]
    with pytest.raises(AttributeError):
        listing.agent_id = "x"  # type: ignore[misc]


async def test_params_carry_the_system_prompt_a_layer_can_replace() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("params.before", id="policy")
    def policy(params: agentbus.Params) -> None:
        params.system_prompt = f"{params.system_prompt} Be brief."

    message = await bus.process_message("hi")
    params = await bus.resolve_params(message, system_prompt="You help.")

    assert params.system_prompt == "You help. Be brief."
    with pytest.raises(TypeError, match="system_prompt must be a str"):
        params.system_prompt = 3  # type: ignore[assignment]


@pytest.mark.parametrize("on_error", ["continue", "block", "raise"])
async def test_end_run_passes_every_failure_policy_and_the_tool_never_runs(on_error: str) -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="stop", on_error=on_error)  # type: ignore[arg-type]
    def stop(call: agentbus.ToolCall) -> None:
        call.end_run("enough")

    ran: list[str] = []
    with pytest.raises(agentbus.RunEnded, match="enough") as ended:
        await bus.call_tool("bash", {"command": "ls"}, lambda args: ran.append("ran"), agent_id="a")

    assert ran == []
    assert (ended.value.reason, ended.value.point, ended.value.agent_id) == ("enough", "tool.before", "a")


async def test_end_run_from_a_tool_call_middleware_and_a_lifecycle_point() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.middleware("tool.call", id="stop", on_error="continue")
    async def stop(call: agentbus.ToolCall, call_next: Any) -> Any:
        call.end_run("no more calls")

    bus.intercept("turn.start", lambda event: event.end_run("no more turns"), id="turns")

    with pytest.raises(agentbus.RunEnded, match="no more calls"):
        await bus.call_tool("bash", {"command": "ls"}, lambda args: "x")
    with pytest.raises(agentbus.RunEnded, match="no more turns"):
        await bus.notify("turn.start", agent_id="a")

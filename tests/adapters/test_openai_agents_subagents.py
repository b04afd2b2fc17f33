"""OpenAI Agents SDK: sub-agents, handoffs, MCP servers, tool.list, the system prompt, end_run.

Real ``Runner.run`` with a scripted model per agent (the SDK's ``Model``
interface); the MCP server is a small in-process implementation of the SDK's
own ``MCPServer`` base class.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("agents", reason="the openai-agents extra is not installed")

import mcp_types
from agents import Agent, function_tool, handoff
from agents.mcp import MCPServer
from mcp import types as mcp_client_types

import agentbus
from agentbus.adapters import openai_agents

from .openai_agents_script import ScriptModel, final, tool_call

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """The Agents SDK runs on asyncio only."""
    return "asyncio"


def make_bash(ran: list[str]) -> Any:
    @function_tool(name_override="bash")
    async def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    return bash


def watching_bus() -> tuple[agentbus.Bus, list[tuple[str, str | None, str | None]]]:
    """A bus that blocks rm -rf and records (point, agent, parent) for every event."""
    bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str, str | None, str | None]] = []

    @bus.intercept("tool.before", id="no-rm")
    def no_rm(tool_call: agentbus.ToolCall) -> None:
        seen.append((f"tool.before {tool_call.tool}", tool_call.agent_id, tool_call.parent_agent_id))
        if "rm -rf" in str(tool_call.args.get("command", "")):
            tool_call.block("rm -rf is not allowed")

    for point in ("agent.start", "agent.end"):

        @bus.intercept(point, id=f"watch-{point}")
        def watch(event: agentbus.Lifecycle) -> None:
            seen.append((event.point, event.agent_id, event.parent_agent_id))

    return bus, seen


async def test_an_agent_used_as_a_tool_has_its_own_tool_calls_intercepted_with_its_parent() -> None:
    bus, seen = watching_bus()
    ran: list[str] = []
    inner_model = ScriptModel([tool_call("bash", {"command": "rm -rf /"}, "i1")], [final("could not")])
    inner = Agent(name="sysadmin", model=inner_model, tools=[make_bash(ran)])
    outer_model = ScriptModel([tool_call("ask_sysadmin", {"input": "clean up"}, "o1")], [final("done")])
    outer = Agent(
        name="lead",
        model=outer_model,
        tools=[inner.as_tool(tool_name="ask_sysadmin", tool_description="Ask the sysadmin.")],
    )

    result = await openai_agents.run(bus, outer, "tidy the disk")

    assert result.final_output == "done"
    assert ran == []  # the inner agent's rm -rf was blocked
    assert seen == [
        ("agent.start", "lead", None),
        ("tool.before ask_sysadmin", "lead", None),
        ("agent.start", "sysadmin", "lead"),
        ("tool.before exec", "sysadmin", "lead"),
        ("agent.end", "sysadmin", "lead"),
        ("agent.end", "lead", None),
    ]
    # The caller's agents are left as they were.
    assert not getattr(inner.tools[0].on_invoke_tool, "__agentbus_wrapped__", False)
    assert outer.tools[0]._agent_instance is inner


@pytest.mark.parametrize("as_object", [False, True], ids=["agent", "handoff()"])
async def test_a_handoff_target_is_intercepted_and_lifecycle_events_stay_balanced(as_object: bool) -> None:
    bus, seen = watching_bus()
    ran: list[str] = []
    target = Agent(
        name="sysadmin",
        model=ScriptModel(
            [tool_call("bash", {"command": "rm -rf /"}, "t1")],
            [tool_call("bash", {"command": "ls"}, "t2")],
            [final("ok")],
        ),
        tools=[make_bash(ran)],
    )
    triage = Agent(
        name="triage",
        model=ScriptModel([tool_call("transfer_to_sysadmin", {}, "h1")]),
        handoffs=[handoff(target) if as_object else target],
    )

    result = await openai_agents.run(bus, triage, "tidy the disk")

    assert result.final_output == "ok"
    assert ran == ["ls"]
    points = [(point, agent) for point, agent, _ in seen]
    assert points == [
        ("agent.start", "triage"),
        ("agent.end", "triage"),
        ("agent.start", "sysadmin"),
        ("tool.before exec", "sysadmin"),
        ("tool.before exec", "sysadmin"),
        ("agent.end", "sysadmin"),
    ]
    assert all(parent is None for _, _, parent in seen)  # a handoff takes over the run: no parent


async def test_handoff_lifecycle_data_says_who_handed_off_to_whom() -> None:
    bus = agentbus.Bus(log_level=None)
    events: list[agentbus.Lifecycle] = []
    bus.intercept("agent.start", events.append, id="starts")
    bus.intercept("agent.end", events.append, id="ends")
    target = Agent(name="billing", model=ScriptModel([final("paid")]))
    triage = Agent(
        name="triage", model=ScriptModel([tool_call("transfer_to_billing", {}, "h1")]), handoffs=[target]
    )

    await openai_agents.run(bus, triage, "pay")

    assert [(e.point, e.agent_id) for e in events] == [
        ("agent.start", "triage"),
        ("agent.end", "triage"),
        ("agent.start", "billing"),
        ("agent.end", "billing"),
    ]
    assert events[1].data["status"] == "handoff"
    assert events[1].data["handed_off_to"] == "billing"
    assert events[2].data["handed_off_from"] == "triage"


class InProcessServer(MCPServer):
    """An MCP server in this process, through the SDK's own MCPServer interface."""

    def __init__(self, ran: list[str]) -> None:
        super().__init__()
        self.ran = ran

    async def connect(self) -> None:
        pass

    async def cleanup(self) -> None:
        pass

    @property
    def name(self) -> str:
        return "shell-server"

    async def list_tools(self, run_context: Any = None, agent: Any = None) -> list[mcp_types.Tool]:
        schema = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
        return [mcp_types.Tool(name="run_command", description="Run a command.", input_schema=schema)]

    async def call_tool(self, tool_name: str, arguments: dict[str, Any] | None, meta: Any = None) -> Any:
        command = (arguments or {})["command"]
        self.ran.append(command)
        return mcp_client_types.CallToolResult(
            content=[mcp_client_types.TextContent(type="text", text=f"ran {command}")]
        )

    async def list_prompts(self) -> Any:
        raise NotImplementedError

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        raise NotImplementedError


@pytest.mark.parametrize("declared_by", ["registry", "tool_kinds"])
async def test_tools_of_an_agents_mcp_servers_are_intercepted(declared_by: str) -> None:
    bus, seen = watching_bus()
    if declared_by == "registry":
        bus.registry.declare_tools({"run_command": "exec"})
    ran: list[str] = []
    model = ScriptModel(
        [
            tool_call("run_command", {"command": "rm -rf /"}, "m1"),
            tool_call("run_command", {"command": "ls"}, "m2"),
        ],
        [final("done")],
    )
    agent = Agent(name="ops", model=model, mcp_servers=[InProcessServer(ran)])

    kinds_seen: list[str | None] = []
    bus.intercept("tool.before", lambda tool_call: kinds_seen.append(tool_call.kind), id="kinds")
    kinds = {"run_command": "exec"} if declared_by == "tool_kinds" else None
    await openai_agents.run(bus, agent, "go", tool_kinds=kinds)

    assert kinds_seen == ["exec", "exec"]
    assert ran == ["ls"]  # the guard judged the renamed shell tool: rm -rf never reached the server
    assert [s for s in seen if s[0].startswith("tool")] == [("tool.before run_command", "ops", None)] * 2


async def test_tool_list_hides_and_describes_tools_per_agent_and_turn() -> None:
    bus = agentbus.Bus(log_level=None)
    turns: list[int] = []

    @bus.intercept("tool.list", id="first-turn-read-only")
    def first_turn_read_only(listing: agentbus.ToolList) -> None:
        turns.append(len(listing.tools))
        if len(turns) == 1:
            listing.hide("bash")
        listing.tools["read"] = "Read a file under /data."

    @function_tool(name_override="read")
    def read(path: str) -> str:
        """Read a file."""
        return path

    model = ScriptModel([tool_call("read", {"path": "/data/a"}, "r1")], [final("done")])
    agent = Agent(name="reader", model=model, tools=[make_bash([]), read])

    await openai_agents.run(bus, agent, "go")

    assert model.tools == [["read"], ["bash", "read"]]
    assert model.descriptions[0] == {"read": "Read a file under /data."}


async def test_params_before_reads_and_replaces_the_system_prompt() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[str | None] = []

    @bus.intercept("params.before", id="policy")
    def policy(params: agentbus.Params) -> None:
        seen.append(params.system_prompt)
        params.system_prompt = f"{params.system_prompt} Never run rm."

    model = ScriptModel([final("ok")])
    agent = Agent(name="a", model=model, instructions="You are careful.")

    await openai_agents.run(bus, agent, "go")

    assert seen == ["You are careful."]
    assert model.instructions == ["You are careful. Never run rm."]
    assert agent.instructions == "You are careful."


async def test_a_layer_ends_the_run_with_a_reason() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="budget")
    def budget(tool_call: agentbus.ToolCall) -> None:
        tool_call.end_run("the budget is spent")

    ran: list[str] = []
    model = ScriptModel([tool_call("bash", {"command": "ls"}, "b1")], [final("never")])
    agent = Agent(name="a", model=model, tools=[make_bash(ran)])

    with pytest.raises(agentbus.RunEnded, match="the budget is spent") as ended:
        await openai_agents.run(bus, agent, "go")

    assert ran == []
    assert (ended.value.point, ended.value.agent_id) == ("tool.before", "a")

"""pydantic-ai: an agent run inside a tool, tool.list, the system prompt and end_run (FunctionModel runs)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pydantic_ai", reason="the pydantic-ai extra is not installed")

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import agentbus
from agentbus.adapters.pydantic_ai import AgentbusCapability

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """pydantic-ai drives its runs with asyncio itself, so it cannot run on trio."""
    return "asyncio"


class Script:
    """Calls the given tools once, then answers; keeps what pydantic-ai offered on each request."""

    def __init__(self, *calls: tuple[str, dict[str, Any]]) -> None:
        self.calls = calls
        self.infos: list[AgentInfo] = []
        self.model = FunctionModel(self.respond)

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.infos.append(info)
        returns = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
        if self.calls and not returns:
            return ModelResponse(parts=[ToolCallPart(name, args) for name, args in self.calls])
        return ModelResponse(parts=[TextPart(repr([r.content for r in returns]))])


def watching_bus() -> tuple[agentbus.Bus, list[tuple[str, str | None, str | None]]]:
    bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str, str | None, str | None]] = []

    @bus.intercept("tool.before", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        seen.append((f"tool.before {call.tool}", call.agent_id, call.parent_agent_id))
        if "rm -rf" in str(call.args.get("command", "")):
            call.block("rm -rf is not allowed")

    for point in ("agent.start", "agent.end"):

        @bus.intercept(point, id=f"watch-{point}")
        def watch(event: agentbus.Lifecycle) -> None:
            seen.append((event.point, event.agent_id, event.parent_agent_id))

    return bus, seen


async def test_an_agent_run_inside_a_tool_is_intercepted_with_its_parent() -> None:
    bus, seen = watching_bus()
    ran: list[str] = []
    inner = Agent(
        Script(("bash", {"command": "rm -rf /"})).model,
        name="sysadmin",
        capabilities=[AgentbusCapability(bus)],
    )

    @inner.tool_plain
    def bash(command: str) -> str:
        ran.append(command)
        return f"ran {command}"

    outer = Agent(
        Script(("ask_sysadmin", {"task": "clean up"})).model,
        name="lead",
        capabilities=[AgentbusCapability(bus)],
    )

    @outer.tool_plain
    async def ask_sysadmin(task: str) -> str:
        return (await inner.run(task)).output

    result = await outer.run("tidy the disk")

    assert ran == []
    assert "blocked" in result.output
    assert seen == [
        ("agent.start", "lead", None),
        ("tool.before ask_sysadmin", "lead", None),
        ("agent.start", "sysadmin", "lead"),
        ("tool.before exec", "sysadmin", "lead"),
        ("agent.end", "sysadmin", "lead"),
        ("agent.end", "lead", None),
    ]


async def test_tool_list_hides_and_describes_tools_per_turn() -> None:
    bus = agentbus.Bus(log_level=None)
    turns: list[int | None] = []

    @bus.intercept("tool.list", id="read-first")
    def read_first(listing: agentbus.ToolList) -> None:
        turns.append(listing.turn)
        if listing.turn == 1:
            listing.hide("bash")
        listing.tools["read"] = "Read a file under /data."

    script = Script(("read", {"path": "/data/a"}))
    agent = Agent(script.model, name="reader", capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain
    def bash(command: str) -> str:
        """Run a command."""
        return command

    @agent.tool_plain
    def read(path: str) -> str:
        """Read a file."""
        return path

    await agent.run("go")

    offered = [{t.name: t.description for t in info.function_tools} for info in script.infos]
    assert offered == [
        {"read": "Read a file under /data."},
        {"bash": "Run a command.", "read": "Read a file under /data."},
    ]
    assert turns == [1, 2]


async def test_params_before_reads_and_replaces_the_system_prompt() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[str | None] = []

    @bus.intercept("params.before", id="policy")
    def policy(params: agentbus.Params) -> None:
        seen.append(params.system_prompt)
        params.system_prompt = f"{params.system_prompt} Never run rm."

    script = Script(("noop", {}))
    agent = Agent(
        script.model, name="a", instructions="You are careful.", capabilities=[AgentbusCapability(bus)]
    )

    @agent.tool_plain
    def noop() -> str:
        return "ok"

    await agent.run("go")

    assert seen == ["You are careful."]
    assert [info.instructions for info in script.infos] == ["You are careful. Never run rm."] * 2


async def test_a_layer_ends_the_run_with_a_reason_and_agent_end_says_so() -> None:
    bus = agentbus.Bus(log_level=None)
    ends: list[agentbus.Lifecycle] = []
    bus.intercept("agent.end", ends.append, id="ends")

    @bus.intercept("tool.before", id="budget")
    def budget(call: agentbus.ToolCall) -> None:
        call.end_run("the budget is spent")

    ran: list[str] = []
    agent = Agent(Script(("bash", {"command": "ls"})).model, name="a", capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain
    def bash(command: str) -> str:
        ran.append(command)
        return command

    with pytest.raises(agentbus.RunEnded, match="the budget is spent"):
        await agent.run("go")

    assert ran == []
    assert [(e.data["status"], e.reason) for e in ends] == [("ended", "the budget is spent")]

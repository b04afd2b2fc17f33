"""LangChain v1: an agent used as a tool of another, tool.list, the system prompt and end_run.

Real ``create_agent`` graphs with LangChain's own fake chat model (scripted
answers), as in test_langchain.py.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langchain.agents", reason="the langchain extra is not installed")

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

import agentbus
from agentbus.adapters.langchain import AgentbusMiddleware

from .langchain_script import ScriptModel, calls

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """LangGraph runs on asyncio only."""
    return "asyncio"


def make_bash(ran: list[str]) -> Any:
    @tool("bash")
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    return bash


async def test_an_agent_used_as_a_tool_is_intercepted_with_its_parent() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str, str | None, str | None]] = []

    @bus.intercept("tool.before", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        seen.append((f"tool.before {call.tool}", call.agent_id, call.parent_agent_id))
        if "rm -rf" in call.args.get("command", ""):
            call.block("rm -rf is not allowed")

    for point in ("agent.start", "agent.end"):

        @bus.intercept(point, id=f"watch-{point}")
        def watch(event: agentbus.Lifecycle) -> None:
            seen.append((event.point, event.agent_id, event.parent_agent_id))

    ran: list[str] = []
    inner_model = ScriptModel(
        responses=[calls(("bash", {"command": "rm -rf /"}, "i1")), AIMessage("could not")]
    )
    inner = create_agent(inner_model, [make_bash(ran)], name="sysadmin", middleware=[AgentbusMiddleware(bus)])

    @tool("ask_sysadmin")
    async def ask_sysadmin(task: str) -> str:
        """Ask the sysadmin agent."""
        result = await inner.ainvoke({"messages": [HumanMessage(task)]})
        return str(result["messages"][-1].content)

    outer_model = ScriptModel(
        responses=[calls(("ask_sysadmin", {"task": "clean up"}, "o1")), AIMessage("done")]
    )
    outer = create_agent(outer_model, [ask_sysadmin], name="lead", middleware=[AgentbusMiddleware(bus)])

    await outer.ainvoke({"messages": [HumanMessage("tidy the disk")]})

    assert ran == []
    assert seen == [
        ("agent.start", "lead", None),
        ("tool.before ask_sysadmin", "lead", None),
        ("agent.start", "sysadmin", "lead"),
        ("tool.before exec", "sysadmin", "lead"),
        ("agent.end", "sysadmin", "lead"),
        ("agent.end", "lead", None),
    ]


async def test_tool_list_hides_and_describes_tools_per_model_call() -> None:
    bus = agentbus.Bus(log_level=None)
    calls_seen: list[str] = []

    @bus.intercept("tool.list", id="read-first")
    def read_first(listing: agentbus.ToolList) -> None:
        calls_seen.append(listing.agent_id or "")
        if len(calls_seen) == 1:
            listing.hide("bash")
        listing.tools["read"] = "Read a file under /data."

    @tool("read")
    def read(path: str) -> str:
        """Read a file."""
        return path

    model = ScriptModel(responses=[calls(("read", {"path": "/data/a"}, "r1")), AIMessage("done")])
    agent = create_agent(model, [make_bash([]), read], name="reader", middleware=[AgentbusMiddleware(bus)])

    await agent.ainvoke({"messages": [HumanMessage("go")]})

    assert model.offered == [
        {"read": "Read a file under /data."},
        {"bash": "Run a shell command.", "read": "Read a file under /data."},
    ]
    assert calls_seen == ["reader", "reader"]


async def test_params_before_reads_and_replaces_the_system_prompt() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[str | None] = []

    @bus.intercept("params.before", id="policy")
    def policy(params: agentbus.Params) -> None:
        seen.append(params.system_prompt)
        params.system_prompt = f"{params.system_prompt} Never run rm."

    model = ScriptModel(responses=[AIMessage("ok")])
    agent = create_agent(model, [], system_prompt="You are careful.", middleware=[AgentbusMiddleware(bus)])

    await agent.ainvoke({"messages": [HumanMessage("go")]})

    assert seen == ["You are careful."]
    assert model.sent[0][0].content == "You are careful. Never run rm."


@pytest.mark.parametrize("point", ["tool.before", "params.before", "turn.start", "message.before"])
async def test_a_layer_ends_the_run_cleanly_with_its_reason(point: str) -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept(point, id="budget")
    def budget(event: Any) -> None:
        event.end_run("the budget is spent")

    ran: list[str] = []
    model = ScriptModel(responses=[calls(("bash", {"command": "ls"}, "b1")), AIMessage("never")])
    agent = create_agent(model, [make_bash(ran)], middleware=[AgentbusMiddleware(bus)])

    result = await agent.ainvoke({"messages": [HumanMessage("go")]})

    assert ran == []
    last = result["messages"][-1]
    if point == "params.before":  # the model is not called: the run's last answer says why
        assert last.content == "The run was ended: the budget is spent"
    else:
        assert result["agentbus_ended"] == "the budget is spent"
    if point == "tool.before":
        # The tool's answer says why; the model call after it is skipped, its answer says why too.
        refusal = result["messages"][-2]
        assert isinstance(refusal, ToolMessage)
        assert refusal.content == "The run was ended: the budget is spent"
        assert isinstance(last, AIMessage)
        assert last.content == "The run was ended: the budget is spent"
        assert len(model.sent) == 1  # the model was not called again


async def test_a_tool_layer_registered_after_the_agent_ends_the_run_by_raising_run_ended() -> None:
    """No tool layer when the agent was made: no model hook to end the loop on, so the
    reason reaches the caller as RunEnded (the tool does not run, the model is not called again)."""
    bus = agentbus.Bus(log_level=None)
    ran: list[str] = []
    model = ScriptModel(responses=[calls(("bash", {"command": "ls"}, "b1")), AIMessage("never")])
    agent = create_agent(model, [make_bash(ran)], middleware=[AgentbusMiddleware(bus)])

    @bus.intercept("tool.before", id="budget")
    def budget(call: agentbus.ToolCall) -> None:
        call.end_run("the budget is spent")

    with pytest.raises(agentbus.RunEnded, match="the budget is spent"):
        await agent.ainvoke({"messages": [HumanMessage("go")]})
    assert ran == []
    assert len(model.sent) == 1


def test_a_layer_ends_a_sync_run_too() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="budget")
    def budget(call: agentbus.ToolCall) -> None:
        call.end_run("the budget is spent")

    ran: list[str] = []
    model = ScriptModel(responses=[calls(("bash", {"command": "ls"}, "b1")), AIMessage("never")])
    agent = create_agent(model, [make_bash(ran)], middleware=[AgentbusMiddleware(bus)])

    result = agent.invoke({"messages": [HumanMessage("go")]})

    assert ran == []
    assert result["agentbus_ended"] == "the budget is spent"

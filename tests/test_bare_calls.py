"""A tool no layer can match: call_tool runs it before any plan look-up (issue 15).

While no layer at a tool point can match a name (or its kind) for any agent, and nobody
wants dispatch records, call_tool knows the name from a set and runs the tool at once. It
must give exactly what the plan's path gives, and what ``run_tool`` gives, whatever the name,
the args, the agent, the tool and the layers registered for other tools; and it must stop the
moment a layer or an observer could see the call.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Awaitable
from types import MappingProxyType
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentbus.bus
from agentbus import Bus, ToolCall

pytestmark = pytest.mark.anyio

NAMES: tuple[Any, ...] = ("search", "exec", "Bash", "  Search ", "x" * 300, "", 42, ("a",), ["no hash"])
TOOLS = ("async", "sync", "sync-returns-awaitable", "async-raises", "sync-raises", "returns-none")
SETUPS = (
    "nothing",
    "a layer for another tool",
    "a layer for exec",
    "a layer for another agent",
    "dispatches",
)


class Tool:
    """Records what it received (the object itself and a copy of it as it was); ``execute`` is
    an ``async def`` for the async kinds, a plain function for the others."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.received: list[Any] = []
        self.copies: list[Any] = []
        self.execute: Any = self.run_async if kind.startswith("async") else self.run_sync

    def run_sync(self, args: Any) -> Any:
        self.received.append(args)
        self.copies.append(copy.deepcopy(args))
        if self.kind == "sync-raises":
            raise ValueError("the sync tool failed")
        if self.kind == "returns-none":
            return None
        if self.kind == "sync-returns-awaitable":
            return self.later()
        return {"ran": len(self.received)}

    async def run_async(self, args: Any) -> Any:
        self.received.append(args)
        self.copies.append(copy.deepcopy(args))
        return await self.later()

    async def later(self) -> Any:
        await anyio.lowlevel.checkpoint()
        if self.kind == "async-raises":
            raise ValueError("the async tool failed")
        return {"ran": len(self.received)}


def make_bus(setup: str, seen: list[Any]) -> Bus:
    bus = Bus(log_level=None)
    if setup == "a layer for another tool":
        bus.intercept("tool.before", seen.append, id="read-only", tool="read")
    elif setup == "a layer for exec":
        bus.intercept("tool.before", seen.append, id="exec-only", tool="exec")
    elif setup == "a layer for another agent":
        bus.intercept("tool.before", seen.append, id="other-agent", agent="other")
    elif setup == "dispatches":
        bus.on_event(seen.append, dispatches=True)
    return bus


def summary(result: Any, tool: Tool, given: Any) -> tuple[Any, ...]:
    # The tool's own dict is passed on when the args are one (an error's text names its type).
    if isinstance(result, dict) and result.get("status") == "error":
        result = {**result, "error": result["error"].split(":")[0]}
    return result, tool.copies, [received is given for received in tool.received]


def fresh(args: Any) -> Any:
    """A new object of the same type and content (a mapping proxy of a new dict)."""
    return MappingProxyType(dict(args)) if isinstance(args, MappingProxyType) else copy.copy(args)


async def outcome(
    path: str, name: Any, args: Any, agent: str | None, kind: str, setup: str
) -> tuple[Any, ...]:
    seen: list[Any] = []
    bus = make_bus(setup, seen)
    tool = Tool(kind)
    given = fresh(args)
    try:
        if path == "run_tool":
            result: Any = (await bus.run_tool(name, given, tool.execute, agent_id=agent)).result
        else:
            # The first call, with no agent, plans the name (and puts it in the set when nothing
            # can match it for any agent): the second, the one compared, may come from an agent.
            with contextlib.suppress(TypeError):
                await bus.call_tool(name, fresh(args), Tool(kind).execute)
            if path == "plan":
                bus._bare.clear()  # the same bus, through its plans
            result = await bus.call_tool(name, given, tool.execute, agent_id=agent)
    except TypeError as exc:  # args that are not a mapping, with a dispatch record to make
        result = ("raised", str(exc))
    return (*summary(result, tool, given), len(seen) > 0)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(NAMES),
    args=st.one_of(
        st.dictionaries(st.text(max_size=4), st.none() | st.integers() | st.text(max_size=4), max_size=3),
        st.dictionaries(st.text(max_size=3), st.lists(st.integers(), max_size=2), max_size=2).map(
            MappingProxyType
        ),
        st.lists(st.integers(), max_size=2),
    ),
    agent=st.sampled_from([None, "coder", "other"]),
    kind=st.sampled_from(TOOLS),
    setup=st.sampled_from(SETUPS),
)
def test_a_bare_call_gives_what_the_plans_path_and_run_tool_give(
    anyio_backend: str, name: Any, args: Any, agent: str | None, kind: str, setup: str
) -> None:
    async def scenario() -> None:
        fast = await outcome("fast", name, args, agent, kind, setup)
        assert fast == await outcome("plan", name, args, agent, kind, setup)
        if not isinstance(args, list):  # (run_tool raises for args that are not a mapping)
            run = await outcome("run_tool", name, args, agent, kind, setup)
            assert fast[:2] == run[:2]  # (run_tool's tool gets a copy: it needs the args after)

    anyio.run(scenario, backend=anyio_backend)


async def test_only_names_no_layer_can_match_for_any_agent_are_bare() -> None:
    async def tool(args: dict[str, Any]) -> str:
        return "ok"

    async def bare(setup: str, name: str, agent: str | None = None) -> bool:
        bus = make_bus(setup, [])
        await bus.call_tool(name, {}, tool, agent_id=agent)
        return name in bus._bare

    assert await bare("nothing", "Bash")
    assert await bare("nothing", "search", "coder")
    assert await bare("a layer for another tool", "exec")
    assert not await bare("a layer for exec", "exec")
    assert not await bare("a layer for exec", "Bash")
    assert await bare("a layer for exec", "search")
    assert not await bare("a layer for another agent", "search")  # matches for some agent: not bare
    assert not await bare("dispatches", "search")  # every call ends with its dispatch record
    bus = Bus(log_level="info")  # observed, but no dispatch records asked for: still bare
    await bus.call_tool("search", {}, tool)
    assert "search" in bus._bare


async def test_a_layer_on_the_tools_kind_makes_its_name_not_bare() -> None:
    bus = Bus(log_level=None)
    bus.registry.declare_tools({"run_shell": "exec"})
    seen: list[ToolCall] = []
    bus.intercept("tool.before", seen.append, id="exec-kind", tool="exec")

    async def tool(args: dict[str, Any]) -> str:
        return "ran"

    for _ in range(2):
        assert await bus.call_tool("run_shell", {"command": "ls"}, tool) == "ran"
    assert "run_shell" not in bus._bare
    assert [call.tool for call in seen] == ["run_shell", "run_shell"]


async def test_a_layer_or_an_observer_added_later_sees_the_next_call() -> None:
    bus = Bus(log_level=None)

    async def tool(args: dict[str, Any]) -> str:
        return "ran"

    for _ in range(2):
        assert await bus.call_tool("search", {"q": "x"}, tool) == "ran"
    assert "search" in bus._bare
    bus.intercept("tool.before", lambda call: call.block("not now"), id="blocks", tool="search")
    assert (await bus.call_tool("search", {"q": "x"}, tool))["status"] == "blocked"
    bus.remove("blocks")
    assert await bus.call_tool("search", {"q": "x"}, tool) == "ran"
    assert await bus.call_tool("search", {"q": "x"}, tool) == "ran"
    assert "search" in bus._bare
    records: list[Any] = []
    bus.on_event(records.append, dispatches=True)
    assert await bus.call_tool("search", {"q": "x"}, tool) == "ran"
    assert [record.point for record in records] == ["tool.call"]  # its dispatch record


async def test_the_bare_names_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agentbus.bus, "_CACHE_LIMIT", 4)
    bus = Bus(log_level=None)

    def tool(args: dict[str, Any]) -> Awaitable[str] | str:
        return "ok"

    for index in range(50):
        assert await bus.call_tool("hot", {}, tool) == "ok"
        assert await bus.call_tool(f"cold_{index}", {}, tool) == "ok"
        assert len(bus._bare) <= 4

"""The Strands Agents adapter, against a real ``Agent`` with a scripted model.

The model is a small ``strands.models.Model``: each call streams one scripted
turn (tool uses, or a final text) as Strands' own stream events, and keeps the
messages it was sent, so the tests see exactly what the model saw. Strands
runs its event loop on asyncio (``invoke_async``); the tests run there.
"""

from __future__ import annotations

import gc
import json
from collections.abc import AsyncGenerator
from typing import Any

import pytest

pytest.importorskip("strands", reason="Strands is tested in its own environment: bash .ci/isolated")

from strands import Agent, tool
from strands.hooks import (
    AfterInvocationEvent,
    AfterModelCallEvent,
    AfterToolCallEvent,
    BeforeInvocationEvent,
    BeforeModelCallEvent,
    BeforeToolCallEvent,
    HookProvider,
    HookRegistry,
)
from strands.middleware import ExecuteToolStage
from strands.models import Model

import agentbus
from agentbus.adapters.strands import AgentbusHooks
from agentbus.middleware import builtin
from agentbus.records import DISPATCH

from .recording import make_bus
from .tool_call_layers import cache_by, deadline, retry_once_on
from .tool_call_layers import slow as slow_down

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """Strands runs its agent loop on asyncio."""
    return "asyncio"


def use(name: str, args: dict[str, Any], call_id: str = "c1") -> dict[str, Any]:
    return {"toolUse": {"name": name, "input": args, "toolUseId": call_id}}


class ScriptModel(Model):
    """Streams one scripted turn per call: a list of tool uses, or a final text."""

    def __init__(self, *turns: Any) -> None:
        self.turns = list(turns)
        self.seen: list[list[Any]] = []

    def update_config(self, **model_config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {"model_id": "script"}

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        self.seen.append(json.loads(json.dumps(messages, default=str)))
        turn = self.turns.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        if isinstance(turn, str):
            yield {"contentBlockStart": {"start": {}}}
            yield {"contentBlockDelta": {"delta": {"text": turn}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        for item in turn:
            tool_use = item["toolUse"]
            start = {"toolUse": {"name": tool_use["name"], "toolUseId": tool_use["toolUseId"]}}
            yield {"contentBlockStart": {"start": start}}
            yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(tool_use["input"])}}}}
            yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def results_seen(model: ScriptModel) -> dict[str, dict[str, Any]]:
    """The tool results of the model's last input, by tool use id."""
    found = {}
    for message in model.seen[-1]:
        for block in message["content"]:
            if "toolResult" in block:
                found[block["toolResult"]["toolUseId"]] = block["toolResult"]
    return found


def make_tools(ran: list[tuple[str, str]]) -> list[Any]:
    @tool
    async def bash(command: str) -> str:
        """Run a shell command.

        Args:
            command: the command
        """
        ran.append(("bash", command))
        return f"ran {command}"

    @tool
    def read(path: str) -> str:
        """Read a file.

        Args:
            path: the file
        """
        ran.append(("read", path))
        if path == "/missing":
            raise FileNotFoundError(path)
        return f"contents of {path}"

    return [bash, read]


def agent(model: ScriptModel, tools: list[Any], hooks: list[Any], name: str = "ops") -> Agent:
    return Agent(name=name, model=model, tools=tools, hooks=hooks, callback_handler=None)


async def test_a_blocked_call_is_cancelled_and_the_model_sees_the_reason() -> None:
    bus, records = make_bus()
    bus.intercept("tool.before", lambda c: c.block("no rm -rf"), tool="exec", id="no-rm")
    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("bash", {"command": "rm -rf /"})], "done")

    await agent(model, make_tools(ran), [AgentbusHooks(bus, session_key="s-1")]).invoke_async("go")

    assert ran == []
    seen = results_seen(model)["c1"]
    assert seen["status"] == "error"
    assert json.loads(seen["content"][0]["text"]) == {
        "status": "blocked",
        "tool": "exec",
        "reason": "no rm -rf",
    }
    block = next(r for r in records if r.id == "no-rm")
    assert (block.decision, block.agent_id, block.session_key) == ("block", "ops", "s-1")


async def test_rewritten_args_reach_the_tool_and_a_redacted_result_reaches_the_model() -> None:
    bus, records = make_bus()
    bus.intercept(
        "tool.before", lambda c: c.args.update(path="/sandbox" + c.args["path"]), tool="read", id="jail"
    )
    bus.intercept(
        "tool.after", lambda r: setattr(r, "result", r.result.replace("contents", "[redacted]")), tool="read",
        id="redact",
    )  # fmt: skip
    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("read", {"path": "/etc/passwd"})], "ok")

    await agent(model, make_tools(ran), [AgentbusHooks(bus)]).invoke_async("read")

    assert ran == [("read", "/sandbox/etc/passwd")]
    assert results_seen(model)["c1"]["content"] == [{"text": "[redacted] of /sandbox/etc/passwd"}]
    changes = {r.id: r.changes for r in records if r.changes}
    assert changes["jail"] == {"args.path": ("/etc/passwd", "/sandbox/etc/passwd")}


@pytest.mark.parametrize("approve", [True, False])
async def test_ask_goes_to_the_approver(approve: bool) -> None:
    asked: list[str] = []

    def approver(call: agentbus.ToolCall) -> bool:
        asked.append(call.args["command"])
        return approve

    bus, _ = make_bus(approver=approver)
    bus.intercept("tool.before", lambda c: c.ask("deploys need a person"), tool="exec", id="ask")
    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("bash", {"command": "deploy"})], "ok")

    await agent(model, make_tools(ran), [AgentbusHooks(bus)]).invoke_async("deploy")

    assert asked == ["deploy"]
    assert ran == ([("bash", "deploy")] if approve else [])
    assert results_seen(model)["c1"]["status"] == ("success" if approve else "error")


async def test_a_raising_tool_before_layer_fails_closed() -> None:
    bus, records = make_bus()

    @bus.intercept("tool.before", id="broken")
    def broken(call: agentbus.ToolCall) -> None:
        raise RuntimeError("policy store down")

    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("bash", {"command": "ls"})], "ok")

    await agent(model, make_tools(ran), [AgentbusHooks(bus)]).invoke_async("go")

    assert ran == []
    text = results_seen(model)["c1"]["content"][0]["text"]
    assert json.loads(text)["status"] == "blocked"
    assert "policy store down" in text
    assert any(r.id == "broken" and r.error == "RuntimeError: policy store down" for r in records)


async def test_a_raising_tool_is_reported_as_without_agentbus_after_tool_after_saw_it() -> None:
    native_model = ScriptModel([use("read", {"path": "/missing"})], "sorry")
    await agent(native_model, make_tools([]), []).invoke_async("read")
    bus, _ = make_bus()
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="audit")
    model = ScriptModel([use("read", {"path": "/missing"})], "sorry")

    await agent(model, make_tools([]), [AgentbusHooks(bus)]).invoke_async("read")

    assert results_seen(model)["c1"] == results_seen(native_model)["c1"]
    assert results_seen(model)["c1"]["status"] == "error"
    assert isinstance(after[0].error, FileNotFoundError)


async def test_a_tool_call_layer_retries_the_real_tool_and_the_model_sees_the_retry() -> None:
    bus, _ = make_bus()
    attempts: list[str] = []

    @tool
    async def forecast(city: str) -> str:
        """Ask a weather service over a network that drops the first try.

        Args:
            city: the city
        """
        attempts.append(city)
        if len(attempts) == 1:
            raise ConnectionError("dropped")
        return f"sunny in {city}"

    bus.middleware("tool.call", retry_once_on(ConnectionError), tool="forecast", id="retry")

    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="audit")
    model = ScriptModel([use("forecast", {"city": "Oslo"})], "ok")

    await agent(model, [forecast], [AgentbusHooks(bus)]).invoke_async("weather?")

    assert attempts == ["Oslo", "Oslo"]
    assert results_seen(model)["c1"]["status"] == "success"
    assert results_seen(model)["c1"]["content"] == [{"text": "sunny in Oslo"}]
    assert after[0].error is None


async def test_a_tool_call_layer_times_the_real_tool_out_and_strands_reports_an_error_result() -> None:
    bus, _ = make_bus()
    finished: list[str] = []

    @tool
    async def slow(query: str) -> str:
        """Waits far longer than the layer allows (bounded, so that a broken layer fails the test).

        Args:
            query: the query
        """
        await slow_down()
        finished.append(query)
        return "never"

    bus.middleware("tool.call", deadline(0.01), tool="slow", id="deadline")

    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="audit")
    model = ScriptModel([use("slow", {"query": "wait"})], "ok")

    await agent(model, [slow], [AgentbusHooks(bus)]).invoke_async("go")

    assert finished == []
    assert results_seen(model)["c1"]["status"] == "error"
    assert isinstance(after[0].error, TimeoutError)


async def test_a_tool_call_layer_caches_the_real_tool_with_the_approved_args() -> None:
    bus, _ = make_bus()
    bus.intercept(
        "tool.before", lambda c: c.args.update(path="/sandbox" + c.args["path"]), tool="read", id="jail"
    )
    seen_args: list[dict[str, Any]] = []
    bus.middleware("tool.call", cache_by("path", {}, seen_args), tool="read", id="cache")

    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("read", {"path": "/a"}, "c1")], [use("read", {"path": "/a"}, "c2")], "ok")

    await agent(model, make_tools(ran), [AgentbusHooks(bus)]).invoke_async("read")

    assert ran == [("read", "/sandbox/a")]  # once: the second call came from the cache
    assert seen_args == [{"path": "/sandbox/a"}, {"path": "/sandbox/a"}]
    seen = results_seen(model)
    assert seen["c1"]["content"] == seen["c2"]["content"] == [{"text": "contents of /sandbox/a"}]


async def test_a_tool_call_layer_can_answer_without_the_tool() -> None:
    bus, _ = make_bus()

    @bus.middleware("tool.call", tool="read", id="mock")
    async def mock(call: agentbus.ToolCall, call_next: Any) -> Any:
        return {"hits": 3}

    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("read", {"path": "/a"})], "ok")

    await agent(model, make_tools(ran), [AgentbusHooks(bus)]).invoke_async("read")

    assert ran == []
    assert results_seen(model)["c1"]["content"] == [{"json": {"hits": 3}}]


async def test_with_no_layer_a_call_runs_untouched_and_a_guard_registered_later_applies() -> None:
    bus, records = make_bus()
    hooks = AgentbusHooks(bus)
    ran: list[tuple[str, str]] = []
    tools = make_tools(ran)
    await agent(ScriptModel([use("bash", {"command": "ls"})], "ok"), tools, [hooks]).invoke_async("go")
    assert ran == [("bash", "ls")]
    assert records == []  # nothing ran: no layer, no record

    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    model = ScriptModel([use("bash", {"command": "ls"}, "c2")], "ok")
    await agent(model, tools, [hooks]).invoke_async("go")

    assert ran == [("bash", "ls")]
    assert "frozen" in results_seen(model)["c2"]["content"][0]["text"]


def bound(strands_agent: Agent, hooks: AgentbusHooks) -> set[str]:
    """The Strands events on which the agent calls one of the hooks' callbacks."""
    tool_use: Any = {"name": "bash", "toolUseId": "x", "input": {}}
    result: Any = {"toolUseId": "x", "status": "success", "content": []}
    events = [
        BeforeInvocationEvent(agent=strands_agent),
        AfterInvocationEvent(agent=strands_agent),
        BeforeModelCallEvent(agent=strands_agent),
        AfterModelCallEvent(agent=strands_agent),
        BeforeToolCallEvent(agent=strands_agent, selected_tool=None, tool_use=tool_use, invocation_state={}),
        AfterToolCallEvent(
            agent=strands_agent, selected_tool=None, tool_use=tool_use, invocation_state={}, result=result
        ),
    ]
    return {
        type(event).__name__
        for event in events
        for callback in strands_agent.hooks.get_callbacks_for(event)
        if getattr(callback, "__self__", None) is hooks
    }


TOOL_EVENTS = {"BeforeToolCallEvent", "AfterToolCallEvent"}


async def test_a_point_without_layers_has_no_strands_callback_and_binding_follows_the_registry() -> None:
    bus, _ = make_bus()
    hooks = AgentbusHooks(bus)
    ran: list[tuple[str, str]] = []
    ops = agent(ScriptModel([use("bash", {"command": "ls"})], "ok"), make_tools(ran), [hooks])
    assert bound(ops, hooks) == set()  # nothing registered: Strands calls nothing of agentbus
    await ops.invoke_async("go")
    assert ran == [("bash", "ls")]

    # Registered after the agent was built: bound at once, and it decides the next call.
    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    assert bound(ops, hooks) == {"BeforeToolCallEvent"}  # a call it judges needs nothing after it
    turns: list[str | None] = []
    bus.intercept("turn.start", lambda e: turns.append(e.agent_id), id="turns")
    assert bound(ops, hooks) == {"BeforeToolCallEvent", "BeforeModelCallEvent"}
    ops.model = model = ScriptModel([use("bash", {"command": "ls"}, "c2")], "ok")
    await ops.invoke_async("again")
    assert ran == [("bash", "ls")]
    assert "frozen" in results_seen(model)["c2"]["content"][0]["text"]
    assert turns == ["ops", "ops"]

    bus.remove("freeze")
    bus.intercept("tool.after", lambda r: setattr(r, "result", "[redacted]"), id="redact")
    assert bound(ops, hooks) == TOOL_EVENTS | {"BeforeModelCallEvent"}
    ops.model = model = ScriptModel([use("bash", {"command": "pwd"}, "c3")], "ok")
    await ops.invoke_async("and again")
    assert ran == [("bash", "ls"), ("bash", "pwd")]
    assert results_seen(model)["c3"]["content"] == [{"text": "[redacted]"}]
    assert turns == ["ops"] * 4

    # Removed: unbound, and the next call runs as it would without agentbus.
    bus.remove("redact")
    assert bound(ops, hooks) == {"BeforeModelCallEvent"}
    bus.remove("turns")
    assert bound(ops, hooks) == set()
    ops.model = model = ScriptModel([use("bash", {"command": "id"}, "c4")], "ok")
    await ops.invoke_async("once more")
    assert ran == [("bash", "ls"), ("bash", "pwd"), ("bash", "id")]
    assert results_seen(model)["c4"]["content"] == [{"text": "ran id"}]
    assert turns == ["ops"] * 4
    assert hooks._pending == {}  # every call kept for tool.after was ended


async def test_an_observer_of_every_dispatch_binds_the_callbacks_that_record_them() -> None:
    bus, _ = make_bus()
    hooks = AgentbusHooks(bus)
    ops = agent(ScriptModel([use("bash", {"command": "ls"})], "ok"), make_tools([]), [hooks])
    dispatches: list[tuple[str, str | None]] = []

    def observe(record: agentbus.Record) -> None:
        if record.id == DISPATCH:
            dispatches.append((record.point, record.tool))

    stop = bus.on_event(observe, dispatches=True)
    assert bound(ops, hooks) == TOOL_EVENTS | {"BeforeInvocationEvent"}
    await ops.invoke_async("go")
    assert ("tool.before", "exec") in dispatches
    assert ("tool.after", "exec") in dispatches

    stop()
    assert bound(ops, hooks) == set()


async def test_the_hooks_live_as_long_as_the_agent_that_was_given_them() -> None:
    bus, _ = make_bus()
    ran: list[tuple[str, str]] = []
    ops = agent(ScriptModel([use("bash", {"command": "ls"})], "ok"), make_tools(ran), [AgentbusHooks(bus)])
    gc.collect()  # nobody else holds the provider, and no callback of a run is bound

    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    await ops.invoke_async("go")

    assert ran == []


class Deny(HookProvider):
    """A native Strands gate, registered after agentbus's."""

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        registry.add_callback(BeforeToolCallEvent, self.deny)

    def deny(self, event: BeforeToolCallEvent) -> None:
        event.cancel_tool = "denied natively"


class Seen(HookProvider):
    """A native Strands hook that records the tool input it sees."""

    def __init__(self) -> None:
        self.inputs: list[Any] = []

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        registry.add_callback(BeforeToolCallEvent, lambda event: self.inputs.append(event.tool_use["input"]))


async def test_a_callback_bound_later_keeps_its_place_among_the_other_hook_providers() -> None:
    bus, _ = make_bus()
    before, after = Seen(), Seen()
    ran: list[tuple[str, str]] = []
    hooks = AgentbusHooks(bus)
    ops = agent(ScriptModel([use("bash", {"command": "ls"})], "ok"), make_tools(ran), [before, hooks, after])

    bus.intercept("tool.before", lambda c: c.args.update(command="ls -l"), id="long")
    await ops.invoke_async("go")

    assert before.inputs == [{"command": "ls"}]
    assert after.inputs == [{"command": "ls -l"}]  # agentbus ran between them, as they were listed
    assert ran == [("bash", "ls -l")]


async def test_unbinding_during_a_dispatch_skips_no_other_gate() -> None:
    bus, _ = make_bus()

    @bus.intercept("tool.before", id="once")
    def once(call: agentbus.ToolCall) -> None:
        bus.remove("once")  # agentbus's callback is unbound while Strands dispatches to it

    ran: list[tuple[str, str]] = []
    model = ScriptModel([use("bash", {"command": "ls"})], "ok")
    hooks = AgentbusHooks(bus)
    ops = agent(model, make_tools(ran), [hooks, Deny()])

    await ops.invoke_async("go")

    assert bound(ops, hooks) == set()
    assert ran == []  # the native gate after it still ran
    assert results_seen(model)["c1"]["content"][0]["text"] == "denied natively"


def ours(strands_agent: Agent, hooks: AgentbusHooks) -> int:
    """How many of the agent's ExecuteToolStage handlers are the hooks' (no public listing)."""
    handlers = strands_agent._middleware_registry._handlers.get(ExecuteToolStage, [])
    return sum(getattr(tagged.handler, "__self__", None) is hooks for tagged in handlers)


async def test_the_middleware_is_added_once_per_agent_and_only_when_a_tool_call_layer_matches() -> None:
    bus, _ = make_bus()
    hooks = AgentbusHooks(bus)
    ran: list[tuple[str, str]] = []
    first = agent(ScriptModel([use("read", {"path": "/a"})], "ok"), make_tools(ran), [hooks])
    await first.invoke_async("read")
    assert ours(first, hooks) == 0  # no tool.call layer: nothing around the tool

    calls: list[str] = []

    @bus.middleware("tool.call", tool="read", id="count")
    async def count(call: agentbus.ToolCall, call_next: Any) -> Any:
        calls.append(call.call_id)
        return await call_next(call)

    first.model = ScriptModel(
        [use("read", {"path": "/b"}, "c2")], [use("bash", {"command": "ls"}, "c3")], "ok"
    )
    await first.invoke_async("read again")

    assert calls == ["c2"]  # bound as soon as the layer was registered; bash has no tool.call layer
    assert ours(first, hooks) == 1
    assert ran == [("read", "/a"), ("read", "/b"), ("bash", "ls")]


async def test_an_agent_used_as_a_tool_is_intercepted_and_its_calls_attributed() -> None:
    bus, _ = make_bus()
    calls: list[tuple[str, str | None]] = []
    bus.intercept("tool.before", lambda c: calls.append((c.tool, c.agent_id)), id="audit")
    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    hooks = AgentbusHooks(bus)
    ran: list[tuple[str, str]] = []
    helper_model = ScriptModel([use("bash", {"command": "reboot"}, "h1")], "could not")
    helper_agent = agent(helper_model, make_tools(ran), [hooks], name="helper")

    @tool
    async def helper(input: str) -> str:
        """Strands' agents-as-tools pattern: a tool that runs another agent.

        Args:
            input: the request
        """
        return str(await helper_agent.invoke_async(input))

    root_model = ScriptModel([use("helper", {"input": "reboot"}, "a1")], "done")

    await agent(root_model, [helper], [hooks], name="root").invoke_async("go")

    assert calls == [("helper", "root"), ("exec", "helper")]
    assert ran == []
    assert "frozen" in results_seen(helper_model)["h1"]["content"][0]["text"]


async def test_a_renamed_shell_tool_and_a_declared_file_tool_meet_the_built_in_guards() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    ran: list[str] = []

    @tool
    def run_shell(command: str) -> str:
        """Run a shell command.

        Args:
            command: the command
        """
        ran.append(command)
        return "ok"

    @tool
    def stat_file(path: str) -> str:
        """Nothing in its name or arguments tells its kind: it is declared.

        Args:
            path: the file
        """
        ran.append(path)
        return "ok"

    model = ScriptModel(
        [use("run_shell", {"command": "rm -rf /"}, "c1"), use("stat_file", {"path": "~/.ssh/id_rsa"}, "c2")],
        "done",
    )
    hooks = AgentbusHooks(bus, tool_kinds={"stat_file": "read"})

    await agent(model, [run_shell, stat_file], [hooks]).invoke_async("clean up")

    assert ran == []
    seen = results_seen(model)
    assert json.loads(seen["c1"]["content"][0]["text"])["status"] == "blocked"
    assert json.loads(seen["c2"]["content"][0]["text"])["status"] == "blocked"


async def test_the_message_and_the_lifecycle_reach_the_model_and_the_bus() -> None:
    bus, _ = make_bus()
    events: list[tuple[str, str | None]] = []
    for point in ("agent.start", "turn.start", "turn.end", "agent.end"):
        bus.intercept(point, lambda e: events.append((e.point, e.agent_id)), id=point)
    bus.intercept("message.before", lambda m: setattr(m, "message", m.message.upper()), id="shout")
    model = ScriptModel("hi")

    await agent(model, [], [AgentbusHooks(bus)], name="planner").invoke_async("plan the release")

    assert model.seen[0][-1]["content"] == [{"text": "PLAN THE RELEASE"}]
    assert events == [
        ("agent.start", "planner"),
        ("turn.start", "planner"),
        ("turn.end", "planner"),
        ("agent.end", "planner"),
    ]


def test_the_hooks_refuse_what_is_not_a_bus() -> None:
    with pytest.raises(TypeError, match=r"needs an agentbus\.Bus, got dict"):
        AgentbusHooks({})  # type: ignore[arg-type]


def test_a_missing_strands_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "strands.hooks", None)
    monkeypatch.delitem(sys.modules, "agentbus.adapters.strands")
    with pytest.raises(ImportError, match=r"pip install 'agentbus\[strands\]'"):
        importlib.import_module("agentbus.adapters.strands")

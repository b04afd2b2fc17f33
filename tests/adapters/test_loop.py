"""The reference agent loop: hook order, tool calls, messages injected from outside."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio
import pytest

import agentbus
from agentbus.adapters.loop import Agent, Entry, Reply, ScriptedModel, ToolRequest
from agentbus.middleware import builtin
from agentbus.typing import CallNext

pytestmark = pytest.mark.anyio

EVERY_POINT = (
    "session", "agent.start", "message.before", "params.before", "turn.start",
    "tool.before", "tool.after", "turn.end", "agent.end",
)  # fmt: skip


def shell(command: str) -> str:
    return f"ran {command}"


def tag_every_message(bus: agentbus.Bus) -> None:
    @bus.intercept("message.before", id="tagger")
    def tag(message: agentbus.Message) -> None:
        message.metadata["seen"] = True
        message.metadata["complexity"] = "high" if "debug" in message.message else "low"


async def test_hook_points_fire_in_lifecycle_order() -> None:
    bus = agentbus.Bus(log_level=None)
    for point in EVERY_POINT:
        bus.intercept(point, lambda event: None, id=f"noop:{point}")

    @bus.middleware("tool.call", id="noop:tool.call")
    async def passthrough(call: agentbus.ToolCall, call_next: CallNext) -> Any:
        return await call_next(call)

    model = ScriptedModel([Reply("", [ToolRequest("bash", {"command": "ls"})]), Reply("done")])
    agent = Agent(bus, model, [shell])
    async with bus.subscribe() as records:
        agent.send("hello")
        agent.close()
        await agent.run()
        seen = []
        while True:
            try:
                record = records.receive_nowait()
            except anyio.WouldBlock:
                break
            seen.append(record.point if record.point != "session" else f"session:{record.id}")
    assert seen == [
        "session:noop:session", "agent.start", "message.before", "params.before",
        "turn.start", "tool.before", "tool.call", "tool.after", "turn.end",
        "turn.start", "turn.end", "agent.end", "session:noop:session",
    ]  # fmt: skip


async def test_session_events_announce_start_and_shutdown() -> None:
    bus = agentbus.Bus(log_level=None)
    reasons: list[str | None] = []
    bus.intercept("session", lambda event: reasons.append(event.reason))
    agent = Agent(bus, ScriptedModel([]))
    agent.close()
    await agent.run()
    assert reasons == ["start", "shutdown"]


async def test_a_blocked_call_never_executes_and_the_model_sees_the_blocked_result() -> None:
    bus = agentbus.Bus(log_level=None)
    ran: list[str] = []

    @bus.intercept("tool.before", tool="^exec$")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    def bash(command: str) -> str:
        ran.append(command)
        return "ok"

    model = ScriptedModel([Reply("", [ToolRequest("bash", {"command": "rm -rf /"})]), Reply("ok then")])
    run = await Agent(bus, model, [bash]).prompt("clean up")
    assert ran == []
    assert run.tool_calls[0].event.blocked
    assert model.calls[1]["last"] == Entry(
        "tool",
        {"status": "blocked", "tool": "exec", "reason": "rm -rf is not allowed"},
        call_id="main-call-1",
    )
    assert run.text == "ok then"


async def test_the_model_receives_the_effective_think_level() -> None:
    bus = agentbus.Bus(log_level=None)
    tag_every_message(bus)

    @bus.intercept("params.before")
    def think(params: agentbus.Params) -> None:
        if params.metadata["complexity"] == "high":
            params.think_level = "high"

    model = ScriptedModel([Reply("a"), Reply("b")])
    agent = Agent(bus, model, think_level="low")
    await agent.prompt("please debug this")
    await agent.prompt("hello")
    assert [call["think_level"] for call in model.calls] == ["high", "low"]


async def test_a_message_sent_while_a_turn_runs_is_queued_then_goes_through_message_before() -> None:
    bus = agentbus.Bus(log_level=None)
    tag_every_message(bus)
    turn_running, sent = anyio.Event(), anyio.Event()
    busy_when_sent: list[bool] = []

    async def model(conversation: Sequence[Entry], params: agentbus.Params) -> Reply:
        if conversation[-1].content == "first":
            turn_running.set()
            await sent.wait()  # the turn is still running while the other task sends
        return Reply(f"re: {conversation[-1].content}")

    agent = Agent(bus, model)

    async def webhook() -> None:
        await turn_running.wait()
        busy_when_sent.append(agent.busy)
        agent.send("from the webhook")
        sent.set()
        agent.close()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(agent.run)
        tasks.start_soon(webhook)
        agent.send("first")
    assert busy_when_sent == [True]
    assert [run.message for run in agent.runs] == ["first", "from the webhook"]
    assert agent.runs[1].metadata == {"seen": True, "complexity": "low"}
    assert agent.runs[0].text == "re: first"  # the injected message did not enter the running prompt


async def test_a_message_sent_while_idle_starts_a_prompt_at_once() -> None:
    bus = agentbus.Bus(log_level=None)
    tag_every_message(bus)
    ended = anyio.Event()
    bus.intercept("agent.end", lambda event: ended.set())
    agent = Agent(bus, ScriptedModel([Reply("hi there")]))
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(agent.run)
        await anyio.wait_all_tasks_blocked()
        assert not agent.busy
        agent.send("hello")
        await ended.wait()  # no close(): the prompt ran because the agent was idle
        assert agent.runs[0].metadata["seen"] is True
        tasks.cancel_scope.cancel()


async def test_an_unknown_tool_becomes_an_error_result_through_the_pipeline() -> None:
    bus = agentbus.Bus(log_level=None)
    after: list[str] = []
    bus.intercept("tool.after", lambda result: after.append(result.tool))
    model = ScriptedModel([Reply("", [ToolRequest("teleport", {})]), Reply("sorry")])
    run = await Agent(bus, model, [shell]).prompt("go")
    assert run.tool_calls[0].event.result["status"] == "error"
    assert "no tool named 'teleport'" in run.tool_calls[0].event.result["error"]
    assert after == ["teleport"]


async def test_max_turns_bounds_a_model_that_keeps_calling_tools() -> None:
    bus = agentbus.Bus(log_level=None)
    forever = Reply("", [ToolRequest("shell", {"command": "ls"})])
    run = await Agent(bus, ScriptedModel([forever] * 5), [shell], max_turns=3).prompt("loop")
    assert run.turns == 3
    assert len(run.tool_calls) == 3
    assert run.text == ""


async def test_send_after_close_and_prompt_while_busy_are_refused() -> None:
    bus = agentbus.Bus(log_level=None)
    release = anyio.Event()

    async def slow(conversation: Sequence[Entry], params: agentbus.Params) -> Reply:
        await release.wait()
        return Reply("done")

    agent = Agent(bus, slow)
    agent.close()
    with pytest.raises(RuntimeError, match="closed"):
        agent.send("late")
    await agent.run()  # returns at once: closed, nothing queued
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(agent.prompt, "one")
        await anyio.wait_all_tasks_blocked()
        with pytest.raises(RuntimeError, match="use send"):
            await agent.prompt("two")
        release.set()


async def test_scripted_model_says_when_its_script_is_used_up() -> None:
    model = ScriptedModel([Reply("only")])
    params = agentbus.Params(message="m")
    assert (await model((), params)).text == "only"
    with pytest.raises(RuntimeError, match="add more steps"):
        await model((), params)


async def test_wrapped_tools_are_used_as_they_are() -> None:
    from agentbus.adapters.tools import wrap_tool

    bus = agentbus.Bus(log_level=None)
    names: list[str] = []
    bus.intercept("tool.before", lambda call: names.append(call.tool))
    wrapped = wrap_tool(shell, bus, "bash")
    model = ScriptedModel([Reply("", [ToolRequest("exec", {"command": "ls"})]), Reply("ok")])
    run = await Agent(bus, model, [wrapped]).prompt("go")
    assert run.tool_calls[0].event.result == "ran ls"
    assert names == ["exec"]


async def test_clear_asks_before_clear_and_a_layer_can_cancel_it() -> None:
    bus = agentbus.Bus(log_level=None)
    reasons: list[str | None] = []
    keep = [True]

    @bus.intercept("session")
    def guard(event: agentbus.Lifecycle) -> None:
        reasons.append(event.reason)
        if event.reason == "before_clear" and keep[0]:
            event.cancel()

    agent = Agent(bus, ScriptedModel([Reply("hi")]))
    await agent.prompt("hello")
    assert not await agent.clear()
    assert len(agent.conversation) == 2
    keep[0] = False
    assert await agent.clear()
    assert agent.conversation == []
    assert reasons == ["before_clear", "before_clear", "clear"]


async def test_tool_kinds_give_the_agents_tools_their_kind() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    ran: list[str] = []

    def stat_file(path: str) -> str:
        ran.append(path)
        return "ok"

    model = ScriptedModel(
        [Reply(tool_calls=(ToolRequest("stat_file", {"path": "~/.ssh/id_rsa"}),)), Reply(text="done")]
    )
    agent = Agent(bus, model, [stat_file], tool_kinds={"stat_file": "read"})
    run = await agent.prompt("look")

    assert ran == []
    assert run.tool_calls[0].event.result["status"] == "blocked"


def test_tool_kinds_naming_a_tool_the_agent_lacks_is_refused() -> None:
    def stat_file(path: str) -> str:
        return "ok"

    with pytest.raises(ValueError, match="'stat_fil', which this agent does not have; its tools: stat_file"):
        Agent(agentbus.Bus(log_level=None), ScriptedModel([]), [stat_file], tool_kinds={"stat_fil": "read"})

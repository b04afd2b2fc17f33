"""The Bus: the four verbs, the tool-call pipeline, veto contract, ask, shadow, snapshots."""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel
import pytest

import agentbus
from agentbus import Bus, Lifecycle, Message, Params, ToolCall, ToolResult

pytestmark = pytest.mark.anyio


def make_tool(ran: list[dict[str, Any]] | None = None, result: Any = "ok") -> Any:
    async def tool(args: dict[str, Any]) -> Any:
        if ran is not None:
            ran.append(dict(args))
        return result

    return tool


async def test_call_tool_with_no_layers_returns_the_tool_result() -> None:
    bus = Bus(log_level=None)
    assert await bus.call_tool("bash", {"command": "ls"}, make_tool(result="files")) == "files"


async def test_sync_tools_work_too() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: None, id="noop")
    assert await bus.call_tool("read", {"path": "x"}, lambda args: f"read {args['path']}") == "read x"


async def test_tool_name_is_normalised_for_matchers_and_events() -> None:
    bus = Bus(log_level=None)
    seen: list[str] = []
    bus.intercept("tool.before", lambda call: seen.append(call.tool), tool=r"^exec$", id="a")
    bus.intercept("tool.after", lambda event: seen.append(event.tool), tool=["apply_patch"], id="b")
    await bus.call_tool("Bash", {}, make_tool())
    await bus.call_tool("apply-patch", {}, make_tool())
    assert seen == ["exec", "apply_patch"]


async def test_blocked_call_skips_the_tool_and_tool_after_sees_it() -> None:
    bus = Bus(log_level=None)
    ran: list[dict[str, Any]] = []
    seen: list[ToolResult] = []

    @bus.intercept("tool.before", id="rewrite", priority=10)
    def rewrite(call: ToolCall) -> None:
        call.args["command"] = call.args["command"].upper()

    @bus.intercept("tool.before", id="guard")
    def guard(call: ToolCall) -> None:
        call.block("not allowed")

    bus.intercept("tool.after", seen.append, id="audit")
    result = await bus.call_tool("exec", {"command": "rm"}, make_tool(ran))
    assert result == {"status": "blocked", "tool": "exec", "reason": "not allowed"}
    assert ran == []
    (event,) = seen
    assert event.blocked
    assert event.is_error
    assert event.block_reason == "not allowed"
    assert event.error is None
    assert event.duration == 0.0
    assert event.args == {"command": "RM"}


async def test_tool_error_becomes_an_error_result_and_tool_after_sees_it() -> None:
    bus = Bus(log_level=None)
    seen: list[ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")
    bus.intercept("tool.before", lambda call: call.args.update(path="/etc/x"), id="rewrite")

    async def failing(args: dict[str, Any]) -> Any:
        await anyio.lowlevel.checkpoint()
        raise FileNotFoundError(args["path"])

    result = await bus.call_tool("read", {"path": "x"}, failing)
    assert result == {"status": "error", "tool": "read", "error": "FileNotFoundError: /etc/x"}
    (event,) = seen
    assert event.is_error
    assert not event.blocked
    assert isinstance(event.error, FileNotFoundError)
    assert event.block_reason is None
    assert event.duration > 0
    assert event.args == {"path": "/etc/x"}


async def test_tool_error_without_layers_is_still_an_error_result() -> None:
    def failing(args: dict[str, Any]) -> Any:
        raise ValueError("bad")

    result = await Bus(log_level=None).call_tool("exec", {}, failing)
    assert result == {"status": "error", "tool": "exec", "error": "ValueError: bad"}


async def test_tool_after_can_replace_or_mutate_the_result() -> None:
    bus = Bus(log_level=None)

    @bus.intercept("tool.after", tool="read", id="redact")
    def redact(event: ToolResult) -> None:
        event.result["text"] = event.result["text"].replace("secret", "***")

    @bus.intercept("tool.after", tool="exec", id="replace")
    async def replace(event: ToolResult) -> None:
        event.result = f"[{event.result}]"

    assert await bus.call_tool("read", {}, make_tool(result={"text": "a secret"})) == {"text": "a ***"}
    assert await bus.call_tool("exec", {}, make_tool(result="out")) == "[out]"


async def test_run_tool_returns_the_final_tool_after_event() -> None:
    bus = Bus(log_level=None)
    event = await bus.run_tool(
        "bash", {"command": "ls"}, make_tool(result="files"), call_id="c7", agent_id="a"
    )
    assert (event.tool, event.result, event.call_id, event.agent_id) == ("exec", "files", "c7", "a")
    assert not event.is_error


async def test_decide_tool_runs_only_tool_before_and_never_executes() -> None:
    bus = Bus(log_level=None)
    points: list[str] = []
    bus.intercept("tool.before", lambda call: call.block("no"), id="guard")
    bus.intercept("tool.after", lambda event: points.append("after"), id="after")
    call = await bus.decide_tool("bash", {"command": "rm"})
    assert (call.decision, call.block_reason, call.blocked_by) == ("block", "no", "guard")
    assert points == []


async def test_finish_tool_runs_only_tool_after_on_a_given_result() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: call.block("no"), id="guard")
    bus.intercept("tool.after", lambda event: setattr(event, "result", event.result + "!"), id="bang")
    event = await bus.finish_tool("exec", {"command": "ls"}, "out", duration=0.5)
    assert (event.result, event.duration, event.blocked) == ("out!", 0.5, False)


async def test_execute_tool_runs_tool_call_around_the_approved_args_and_raises_the_tools_error() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: call.args.update(path="/sandbox/a"), id="jail")
    attempts: list[dict[str, Any]] = []

    @bus.middleware("tool.call", id="retry-once")
    async def retry_once(call: ToolCall, call_next: Any) -> Any:
        attempts.append(dict(call.args))
        try:
            return await call_next(call)
        except OSError:
            attempts.append(dict(call.args))
            return await call_next(call)

    call = await bus.decide_tool("read", {"path": "/a"})
    ran: list[dict[str, Any]] = []

    def flaky(args: dict[str, Any]) -> str:
        ran.append(dict(args))
        if len(ran) == 1:
            raise OSError("dropped")
        return "contents"

    assert await bus.execute_tool(call, flaky) == "contents"
    assert ran == attempts == [{"path": "/sandbox/a"}, {"path": "/sandbox/a"}]
    assert call.args == {"path": "/sandbox/a"}  # a dict again, as tool.after will see it

    failing = await bus.decide_tool("read", {"path": "/b"})

    def broken(args: dict[str, Any]) -> str:
        raise FileNotFoundError(args["path"])

    with pytest.raises(FileNotFoundError, match="/sandbox/a"):
        await bus.execute_tool(failing, broken)


async def test_execute_tool_never_runs_a_blocked_call() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: call.block("no rm"), id="guard")
    call = await bus.decide_tool("bash", {"command": "rm -rf /"})
    ran: list[dict[str, Any]] = []
    with pytest.raises(agentbus.ToolBlockedError, match="no rm"):
        await bus.execute_tool(call, make_tool(ran))
    assert ran == []


async def test_intercepts_says_which_points_have_layers_for_a_tool_and_follows_the_registry() -> None:
    bus = Bus(log_level=None)
    assert not bus.intercepts("tool.call", tool="read")
    assert not bus.intercepts("turn.start")
    bus.middleware("tool.call", _pass_through, tool="read", id="around-read")
    bus.intercept("turn.start", lambda event: None, agent="^main$", id="turns")
    assert bus.intercepts("tool.call", tool="read")
    assert bus.intercepts("tool.call")
    assert not bus.intercepts("tool.call", tool="bash")
    assert not bus.intercepts("tool.before", tool="read")
    assert bus.intercepts("turn.start", agent_id="main")
    assert not bus.intercepts("turn.start", agent_id="helper")
    assert bus.intercepts("turn.start")  # for some agent
    bus.remove("around-read")
    assert not bus.intercepts("tool.call", tool="read")
    with pytest.raises(ValueError, match="not a hook point"):
        bus.intercepts("tool.during")


async def test_a_watcher_is_told_of_every_change_of_the_registry_and_the_observers() -> None:
    bus = Bus(log_level=None)
    seen: list[tuple[str, ...]] = []

    class Watcher:
        def invalidate(self) -> None:  # what it reads is already up to date
            seen.append(bus.registry.points())

    watcher = Watcher()
    bus.watch(watcher)
    bus.intercept("turn.start", lambda event: None, id="turns")
    bus.remove("turns")
    stop = bus.on_event(lambda record: None, dispatches=True)
    stop()
    assert seen == [("turn.start",), (), (), ()]

    del watcher  # held weakly: a watcher nobody keeps is not told
    bus.intercept("turn.start", lambda event: None, id="turns")
    assert len(seen) == 4


async def _pass_through(call: ToolCall, call_next: Any) -> Any:
    return await call_next(call)


async def test_veto_contract_any_block_blocks_first_reason_wins_args_accumulate() -> None:
    """Seed 004: several handlers act on one call."""
    bus = Bus(log_level=None)
    seen: list[ToolResult] = []

    @bus.intercept("tool.before", priority=30, id="a")
    def add_flag(call: ToolCall) -> None:
        call.args["a"] = 1

    @bus.intercept("tool.before", priority=20, id="first-veto")
    def first(call: ToolCall) -> None:
        call.block("first reason")

    @bus.intercept("tool.before", priority=10, id="second")
    def second(call: ToolCall) -> None:
        call.args["b"] = 2
        call.block("second reason")

    @bus.middleware("tool.before", priority=5, id="would-unblock")
    async def cannot_unblock(call: ToolCall, call_next: Any) -> Any:
        call.ask("let me ask instead")  # cannot weaken a block
        return await call_next(call)

    bus.intercept("tool.after", seen.append, id="audit")
    ran: list[dict[str, Any]] = []
    result = await bus.call_tool("exec", {"command": "x"}, make_tool(ran))
    assert result == {"status": "blocked", "tool": "exec", "reason": "first reason"}
    assert ran == []
    assert seen[0].args == {"command": "x", "a": 1, "b": 2}
    call = await bus.decide_tool("exec", {"command": "x"})
    assert call.blocked_by == "first-veto"


async def test_ask_without_an_approver_is_denied() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: call.ask("confirm deletion"), id="asker")
    ran: list[dict[str, Any]] = []
    result = await bus.call_tool("exec", {}, make_tool(ran))
    assert result["status"] == "blocked"
    assert "no approver is configured: confirm deletion" in result["reason"]
    assert ran == []


@pytest.mark.parametrize(("answer", "runs"), [(True, True), (False, False)])
async def test_ask_with_an_approver_follows_its_answer(answer: bool, runs: bool) -> None:
    asked: list[tuple[str | None, str | None]] = []

    async def approver(call: ToolCall) -> bool:
        asked.append((call.decision, call.block_reason))
        return answer

    bus = Bus(log_level=None, approver=approver)
    bus.intercept("tool.before", lambda call: call.ask("confirm"), id="asker")
    ran: list[dict[str, Any]] = []
    result = await bus.call_tool("exec", {"command": "x"}, make_tool(ran, result="done"))
    assert asked == [("ask", "confirm")]
    if runs:
        assert result == "done"
        assert ran == [{"command": "x"}]
    else:
        assert result == {"status": "blocked", "tool": "exec", "reason": "denied by the approver: confirm"}
        assert ran == []


async def test_an_approver_that_fails_denies() -> None:
    async def approver(call: ToolCall) -> bool:
        raise RuntimeError("ui gone")

    bus = Bus(log_level=None, approver=approver)
    bus.intercept("tool.before", lambda call: call.ask("confirm"), id="asker")
    result = await bus.call_tool("exec", {}, make_tool())
    assert result["status"] == "blocked"
    assert "the approver failed (RuntimeError: ui gone)" in result["reason"]


async def test_an_approver_answer_that_is_not_true_denies() -> None:
    async def approver(call: ToolCall) -> Any:
        return "yes"

    bus = Bus(log_level=None, approver=approver)
    bus.intercept("tool.before", lambda call: call.ask("confirm"), id="asker")
    assert (await bus.call_tool("exec", {}, make_tool()))["status"] == "blocked"


async def test_block_after_ask_is_not_sent_to_the_approver() -> None:
    asked: list[ToolCall] = []

    async def approver(call: ToolCall) -> bool:
        asked.append(call)
        return True

    bus = Bus(log_level=None, approver=approver)
    bus.intercept("tool.before", lambda call: call.ask("confirm"), id="asker", priority=1)
    bus.intercept("tool.before", lambda call: call.block("never"), id="guard")
    result = await bus.call_tool("exec", {}, make_tool())
    assert result == {"status": "blocked", "tool": "exec", "reason": "never"}
    assert asked == []


async def test_shadow_layers_are_recorded_but_not_applied() -> None:
    bus = Bus(log_level=None)
    records: list[agentbus.Record] = []
    bus.on_event(records.append)

    @bus.intercept("tool.before", shadow=True, id="new-policy")
    def new_policy(call: ToolCall) -> None:
        call.args["command"] = "changed"
        call.block("would block")

    @bus.middleware("message.before", shadow=True, id="shadow-mw")
    async def shadow_mw(message: Message, call_next: Any) -> Any:
        message.message = "rewritten"
        return await call_next(message)

    ran: list[dict[str, Any]] = []
    assert await bus.call_tool("exec", {"command": "ls"}, make_tool(ran, result="out")) == "out"
    assert ran == [{"command": "ls"}]
    assert (await bus.process_message("hello")).message == "hello"
    (gate,) = [r for r in records if r.id == "new-policy"]
    assert gate.shadow
    assert gate.decision == "block"
    assert gate.reason == "would block"
    assert gate.changes["args.command"] == ("ls", "changed")
    assert agentbus.format_record(gate) == '👻 shadow new-policy · blocked exec — "would block"'
    (message_record,) = [r for r in records if r.id == "shadow-mw"]
    assert message_record.shadow
    assert message_record.changes == {"message": ("hello", "rewritten")}


async def test_metadata_flows_from_message_before_to_params_before() -> None:
    bus = Bus(log_level=None)
    seen: list[tuple[str, dict[str, Any]]] = []

    @bus.intercept("message.before", id="tagger")
    def tag(message: Message) -> None:
        message.message = message.message.strip()
        message.metadata["complexity"] = "high"

    @bus.intercept("params.before", id="thinker")
    async def think(input: Params, output: Params) -> None:
        seen.append((input.message, dict(input.metadata)))
        if input.metadata.get("complexity") == "high":
            output.think_level = "high"
            output.temperature = 0.2

    message, params = await bus.prepare("  debug this  ", metadata={"source": "cli"}, provider="p", model="m")
    assert message.message == "debug this"
    assert seen == [("debug this", {"source": "cli", "complexity": "high"})]
    assert (params.think_level, params.temperature, params.provider, params.model) == ("high", 0.2, "p", "m")


async def test_params_defaults_are_validated_by_the_setters() -> None:
    bus = Bus(log_level=None)
    message = await bus.process_message("x")
    with pytest.raises(ValueError, match="think_level"):
        await bus.resolve_params(message, think_level="extreme")


async def test_params_before_cannot_change_provider_or_model() -> None:
    bus = Bus(log_level=None)
    failures: list[agentbus.Record] = []
    bus.on_event(failures.append, level="error")

    @bus.intercept("params.before", id="sneaky")
    def sneaky(params: Params) -> None:
        params.model = "other"  # type: ignore[misc]

    _, params = await bus.prepare("x", model="m")
    assert params.model == "m"
    assert failures[0].id == "sneaky"
    assert failures[0].error is not None
    assert failures[0].error.startswith("AttributeError")


async def test_agent_matcher_selects_layers_per_agent() -> None:
    bus = Bus(log_level=None)
    bus.intercept("message.before", lambda m: setattr(m, "message", "ops!"), agent="^ops$", id="ops")
    assert (await bus.process_message("x", agent_id="ops")).message == "ops!"
    assert (await bus.process_message("x", agent_id="main")).message == "x"


async def test_lifecycle_notifications_reach_observers_and_can_cancel() -> None:
    bus = Bus(log_level=None)
    seen: list[tuple[str, Any, Any]] = []

    @bus.intercept("turn.start", id="turns")
    def turns(event: Lifecycle) -> None:
        seen.append((event.point, event.agent_id, event.data["index"]))

    @bus.intercept("session", id="keep")
    async def keep(event: Lifecycle) -> None:
        if event.reason == "before_clear":
            event.cancel()

    await bus.notify("turn.start", agent_id="main", index=3)
    assert seen == [("turn.start", "main", 3)]
    assert (await bus.notify("session", reason="before_clear")).cancelled
    assert not (await bus.notify("session", reason="start")).cancelled
    assert not (await bus.notify("agent.end")).cancelled


async def test_notify_refuses_non_lifecycle_points() -> None:
    with pytest.raises(ValueError, match="not a lifecycle point"):
        await Bus(log_level=None).notify("tool.before")


async def test_registry_changed_during_a_dispatch_keeps_the_snapshot_for_that_dispatch() -> None:
    bus = Bus(log_level=None)
    order: list[str] = []

    @bus.intercept("tool.before", id="first", priority=10)
    async def first(call: ToolCall) -> None:
        order.append("first")
        bus.remove("second")
        bus.intercept("tool.before", lambda call: order.append("late"), id="late", priority=-10)

    bus.intercept("tool.before", lambda call: order.append("second"), id="second")
    await bus.call_tool("exec", {}, make_tool())
    assert order == ["first", "second"]
    order.clear()
    bus.remove("first")
    await bus.call_tool("exec", {}, make_tool())
    assert order == ["late"]


async def test_registrations_added_after_a_call_apply_to_the_next_call() -> None:
    bus = Bus(log_level=None)
    assert await bus.call_tool("exec", {}, make_tool(result="a")) == "a"
    bus.intercept("tool.before", lambda call: call.block("now blocked"), id="guard")
    assert (await bus.call_tool("exec", {}, make_tool()))["reason"] == "now blocked"
    bus.remove("guard")
    assert await bus.call_tool("exec", {}, make_tool(result="b")) == "b"


async def test_a_shared_registry_serves_several_buses() -> None:
    registry = agentbus.Registry()
    registry.add("tool.before", lambda call: call.block("shared"), id="guard")
    for bus in (Bus(registry, log_level=None), Bus(registry, log_level=None)):
        assert (await bus.call_tool("exec", {}, make_tool()))["reason"] == "shared"


async def test_outside_cancellation_propagates_through_a_call() -> None:
    bus = Bus(log_level=None)
    reached: list[str] = []

    @bus.intercept("tool.after", id="after")
    def after(event: ToolResult) -> None:
        reached.append("after")

    async def slow(args: dict[str, Any]) -> Any:
        await anyio.sleep_forever()

    with anyio.move_on_after(0.05) as scope:
        await bus.call_tool("exec", {}, slow)
        reached.append("returned")
    assert scope.cancelled_caught
    assert reached == []


async def test_concurrent_calls_each_get_their_own_result() -> None:
    bus = Bus(log_level=None)

    @bus.intercept("tool.before", id="tag")
    async def tag(call: ToolCall) -> None:
        await anyio.lowlevel.checkpoint()
        call.args["seen"] = call.call_id

    results: dict[int, Any] = {}

    async def one(index: int) -> None:
        async def echo(args: dict[str, Any]) -> Any:
            await anyio.lowlevel.checkpoint()
            return (args["i"], args["seen"])

        results[index] = await bus.call_tool("exec", {"i": index}, echo, call_id=f"c{index}")

    async with anyio.create_task_group() as tg:
        for index in range(50):
            tg.start_soon(one, index)
    assert results == {i: (i, f"c{i}") for i in range(50)}


async def test_a_tool_name_no_matcher_can_judge_gets_an_error_result_and_never_runs() -> None:
    """An over-long name is refused before any layer; the agent still gets a result."""
    bus = agentbus.Bus(log_level=None)
    ran: list[object] = []

    async def tool(args: dict[str, Any]) -> str:
        ran.append(args)
        return "ran"

    result = await bus.call_tool("x" * 300, {}, tool)
    assert result["status"] == "error"
    assert "at most 256 characters" in result["error"]
    assert len(result["tool"]) <= 64
    event = await bus.run_tool("x" * 300, {"a": 1}, tool)
    assert event.is_error
    assert event.result["status"] == "error"
    assert ran == []


async def test_tool_call_layers_cannot_change_the_args_tool_before_approved() -> None:
    """A tool.call middleware sees the approved args read-only; the tool runs with them."""
    bus = agentbus.Bus(log_level=None)
    ran: list[dict[str, Any]] = []
    records: list[agentbus.Record] = []
    bus.on_event(records.append, level="error")

    @bus.middleware("tool.call", id="sneaky")
    async def sneaky(call: agentbus.ToolCall, call_next: Any) -> Any:
        call.args["command"] = "rm -rf /"
        return await call_next(call)

    async def tool(args: dict[str, Any]) -> str:
        ran.append(dict(args))
        return "ok"

    event = await bus.run_tool("exec", {"command": "ls"}, tool)
    assert ran == [{"command": "ls"}]
    assert event.result == "ok"
    assert event.args == {"command": "ls"}
    assert [r.id for r in records] == ["sneaky"]


async def test_a_tool_call_middleware_that_forgets_await_gives_an_error_result() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.middleware("tool.call", id="forgetful")
    async def forgetful(call: agentbus.ToolCall, call_next: Any) -> Any:
        return call_next(call)

    async def tool(args: dict[str, Any]) -> str:
        return "ok"

    result = await bus.call_tool("exec", {"command": "ls"}, tool)
    assert result["status"] == "error"
    assert "return await call_next(call)" in result["error"]


def test_a_decorator_without_its_hook_point_is_refused_with_the_fix() -> None:
    bus = agentbus.Bus(log_level=None)
    with pytest.raises(agentbus.RegistrationError, match=r'@bus.intercept\("tool.before"'):

        @bus.intercept  # type: ignore[arg-type]
        def guard(call: agentbus.ToolCall) -> None: ...

    with pytest.raises(agentbus.RegistrationError, match=r"@bus.middleware\("):
        bus.middleware(lambda event, call_next: None)  # type: ignore[arg-type]
    assert len(bus.registry) == 0


@pytest.mark.parametrize("args", ["ls", None, ["ls"], 3])
async def test_tool_args_that_are_not_a_mapping_are_refused_clearly(args: Any) -> None:
    bus = agentbus.Bus(log_level=None)
    bus.intercept("tool.before", lambda call: None, id="any")

    async def tool(a: dict[str, Any]) -> str:
        return "ran"

    with pytest.raises(TypeError, match="tool args must be a mapping"):
        await bus.call_tool("exec", args, tool)
    with pytest.raises(TypeError, match="tool args must be a mapping"):
        await bus.decide_tool("exec", args)


async def test_a_sync_approver_is_honoured() -> None:
    bus = agentbus.Bus(log_level=None, approver=lambda call: call.args.get("ok") is True)
    bus.intercept("tool.before", lambda call: call.ask("sure?"), id="asker")

    async def tool(a: dict[str, Any]) -> str:
        return "ran"

    assert await bus.call_tool("exec", {"ok": True}, tool) == "ran"
    assert (await bus.call_tool("exec", {"ok": False}, tool))["status"] == "blocked"


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"registry": "x"}, TypeError),
        ({"dispatch_timeout": -1}, ValueError),
        ({"approver": 42}, TypeError),
    ],
)
def test_bus_options_are_checked_when_the_bus_is_made(options: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        agentbus.Bus(**options)


async def test_process_message_and_resolve_params_check_their_input() -> None:
    bus = agentbus.Bus(log_level=None)
    with pytest.raises(TypeError, match="message must be a str"):
        await bus.process_message(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"bus\.prepare"):
        await bus.resolve_params("hi")  # type: ignore[arg-type]


async def test_tool_after_gets_the_args_as_a_dict_when_the_tool_failed_inside_tool_call_layers() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.middleware("tool.call", id="around")
    async def around(call: agentbus.ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    async def tool(args: dict[str, Any]) -> str:
        raise ConnectionError("refused")

    event = await bus.run_tool("web_fetch", {"url": "u"}, tool)
    assert event.result["status"] == "error"
    assert type(event.args) is dict
    assert event.args == {"url": "u"}


# -- the plan cache (issue 15, item 3) -------------------------------------------------------


async def test_names_that_match_the_same_registrations_share_their_compiled_stacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """10,000 plugin tool names under one catch-all layer compile its stacks once, not per name."""
    compiled: list[str] = []
    real = agentbus.bus.compile_stack

    def counting(point: str, *args: Any, **kwargs: Any) -> Any:
        compiled.append(point)
        return real(point, *args, **kwargs)

    monkeypatch.setattr(agentbus.bus, "compile_stack", counting)
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: None, id="all")
    bus.intercept("tool.after", lambda event: None, id="exec-only", tool="exec")

    async def tool(args: dict[str, Any]) -> str:
        return "ok"

    for index in range(10_000):
        assert await bus.call_tool(f"plugin_{index}", {}, tool) == "ok"
    assert compiled == ["tool.before"]
    await bus.call_tool("exec", {}, tool)  # another set of registrations: its own stacks
    assert compiled == ["tool.before", "tool.before", "tool.after"]


async def test_the_plan_cache_keeps_names_in_use_and_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """No cliff: a full cache drops the names not used lately, never everything at once."""
    monkeypatch.setattr(agentbus.bus, "_CACHE_LIMIT", 4)
    built: list[str] = []
    real = agentbus.bus._ToolPlan

    def counting(name: str, *stacks: Any) -> Any:
        built.append(name)
        return real(name, *stacks)

    monkeypatch.setattr(agentbus.bus, "_ToolPlan", counting)
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: None, id="all")

    async def tool(args: dict[str, Any]) -> str:
        return "ok"

    for index in range(200):
        await bus.call_tool("hot", {}, tool)  # used all the time: built once
        await bus.call_tool(f"cold_{index}", {}, tool)
        assert len(bus._plans) + len(bus._old_plans) <= 2 * 4
    assert built.count("hot") == 1
    assert len(built) == 201

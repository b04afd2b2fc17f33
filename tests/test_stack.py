"""Compiled stacks: both layer forms in one order, short-circuits, failure policy, timeouts."""

from __future__ import annotations

import re
from typing import Any

import anyio
import anyio.lowlevel
import pytest

import agentbus
from agentbus import Bus, InterceptionError, Record, ToolCall, ToolResult

pytestmark = pytest.mark.anyio


async def ok_tool(args: dict[str, Any]) -> str:
    return "ok"


async def test_both_forms_sync_and_async_mix_in_priority_order() -> None:
    bus = Bus(log_level=None)
    trace: list[str] = []

    def sync_event(call: ToolCall) -> None:
        trace.append("sync_event")

    async def async_event(call: ToolCall) -> None:
        await anyio.lowlevel.checkpoint()
        trace.append("async_event")

    def sync_pair(input: ToolCall, output: ToolCall) -> None:
        assert input is output
        trace.append("sync_pair")

    async def async_pair(input: ToolCall, output: ToolCall) -> None:
        trace.append("async_pair")

    async def outer(call: ToolCall, call_next: Any) -> Any:
        trace.append("outer:in")
        result = await call_next(call)
        trace.append("outer:out")
        return result

    async def inner(call: ToolCall, call_next: Any) -> Any:
        trace.append("inner:in")
        result = await call_next(call)
        trace.append("inner:out")
        return result

    bus.intercept("tool.before", sync_event, id="a", priority=60)
    bus.middleware("tool.before", outer, id="outer", priority=50)
    bus.intercept("tool.before", async_event, id="b", priority=40)
    bus.intercept("tool.before", sync_pair, id="c", priority=40)
    bus.middleware("tool.before", inner, id="inner", priority=30)
    bus.intercept("tool.before", async_pair, id="d", priority=-1)
    await bus.call_tool("exec", {}, ok_tool)
    assert trace == [
        "sync_event",
        "outer:in",
        "async_event",
        "sync_pair",
        "inner:in",
        "async_pair",
        "inner:out",
        "outer:out",
    ]


async def test_a_low_priority_auditor_sees_the_final_args() -> None:
    bus = Bus(log_level=None)
    seen: list[dict[str, Any]] = []
    bus.intercept("tool.before", lambda call: seen.append(dict(call.args)), id="audit", priority=-10)
    bus.intercept("tool.before", lambda call: call.args.update(x=1), id="early", priority=10)

    @bus.middleware("tool.before", id="mw")
    async def mw(call: ToolCall, call_next: Any) -> Any:
        call.args["y"] = 2
        return await call_next(call)

    await bus.call_tool("exec", {}, ok_tool)
    assert seen == [{"x": 1, "y": 2}]


async def test_tool_call_middleware_wraps_the_tool_and_can_short_circuit() -> None:
    bus = Bus(log_level=None)
    cache: dict[str, Any] = {}
    runs: list[str] = []

    @bus.middleware("tool.call", tool="read", id="cache")
    async def cached(call: ToolCall, call_next: Any) -> Any:
        key = call.args["path"]
        if key not in cache:
            cache[key] = await call_next(call)
        return cache[key]

    async def read(args: dict[str, Any]) -> str:
        runs.append(args["path"])
        return f"content of {args['path']}"

    assert await bus.call_tool("read", {"path": "a"}, read) == "content of a"
    assert await bus.call_tool("read", {"path": "a"}, read) == "content of a"
    assert runs == ["a"]


async def test_message_middleware_short_circuit_skips_inner_layers() -> None:
    bus = Bus(log_level=None)
    trace: list[str] = []

    @bus.middleware("message.before", id="stop", priority=10)
    async def stop(message: Any, call_next: Any) -> Any:
        message.message = "stopped"
        return message

    bus.intercept("message.before", lambda m: trace.append("inner"), id="inner")
    assert (await bus.process_message("x")).message == "stopped"
    assert trace == []


async def test_tool_before_middleware_short_circuit_with_block() -> None:
    bus = Bus(log_level=None)
    trace: list[str] = []

    @bus.middleware("tool.before", id="gate", priority=10)
    async def gate(call: ToolCall, call_next: Any) -> Any:
        call.block("gate says no")
        return call

    bus.intercept("tool.before", lambda call: trace.append("inner"), id="inner")
    result = await bus.call_tool("exec", {}, ok_tool)
    assert result == {"status": "blocked", "tool": "exec", "reason": "gate says no"}
    assert trace == []
    assert (await bus.decide_tool("exec", {})).blocked_by == "gate"


async def test_tool_call_middleware_sees_the_tool_error_untouched() -> None:
    bus = Bus(log_level=None)
    seen: list[BaseException] = []

    @bus.middleware("tool.call", id="observe")
    async def observe(call: ToolCall, call_next: Any) -> Any:
        try:
            return await call_next(call)
        except OSError as exc:
            seen.append(exc)
            raise

    async def failing(args: dict[str, Any]) -> Any:
        raise OSError("disk")

    event = await bus.run_tool("exec", {}, failing)
    assert isinstance(event.error, OSError)
    assert seen == [event.error]
    assert event.result == {"status": "error", "tool": "exec", "error": "OSError: disk"}


async def test_tool_call_middleware_can_turn_an_error_into_a_result() -> None:
    bus = Bus(log_level=None)

    @bus.middleware("tool.call", id="retry")
    async def retry(call: ToolCall, call_next: Any) -> Any:
        try:
            return await call_next(call)
        except OSError:
            return "fallback"

    async def failing(args: dict[str, Any]) -> Any:
        raise OSError("disk")

    assert await bus.call_tool("exec", {}, failing) == "fallback"


# -- failure policy: one raising handler per hook point and policy -------------------------

POINT_POLICIES = [
    (point, policy)
    for point in ("message.before", "params.before", "tool.before", "tool.after", "session")
    for policy in ("block", "continue", "raise")
]


async def dispatch(bus: Bus, point: str) -> Any:
    """Run one dispatch through ``point``; return (what came back, whether the tool ran)."""
    ran: list[bool] = []

    async def tool(args: dict[str, Any]) -> str:
        ran.append(True)
        return "ok"

    if point == "message.before":
        return (await bus.process_message("m")).message, ran
    if point == "params.before":
        return (await bus.prepare("m", think_level="low"))[1].think_level, ran
    if point == "session":
        return (await bus.notify("session", reason="start")).reason, ran
    return await bus.call_tool("exec", {}, tool), ran


@pytest.mark.parametrize(("point", "policy"), POINT_POLICIES)
@pytest.mark.parametrize("form", ["handler", "middleware"])
async def test_a_raising_layer_follows_its_on_error_policy(point: str, policy: str, form: str) -> None:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append, level="error")
    after: list[str] = []

    def boom(event: Any) -> None:
        raise ValueError("boom")

    async def boom_mw(event: Any, call_next: Any) -> Any:
        raise ValueError("boom")

    def register() -> None:
        if form == "handler":
            bus.intercept(point, boom, id="boom", on_error=policy, priority=10)
        else:
            bus.middleware(point, boom_mw, id="boom", on_error=policy, priority=10)

    if policy == "block" and point != "tool.before":
        with pytest.raises(agentbus.RegistrationError, match=re.escape("only applies to tool.before")):
            register()
        return
    register()
    bus.intercept(point, lambda event: after.append("next"), id="next")

    if policy == "raise":
        with pytest.raises(InterceptionError) as info:
            await dispatch(bus, point)
        assert (info.value.registration_id, info.value.point) == ("boom", point)
        assert isinstance(info.value.__cause__, ValueError)
    else:
        value, ran = await dispatch(bus, point)
        if policy == "block":  # fail closed: the tool never runs, the agent gets a result
            assert ran == []
            assert value["status"] == "blocked"
            assert "boom failed (ValueError: boom)" in value["reason"]
        else:  # fail open: recorded, the chain goes on
            assert after == ["next"]
            if point.startswith("tool"):
                assert value == "ok"
                assert ran == [True]
    (record,) = records
    assert (record.id, record.point, record.error) == ("boom", point, "ValueError: boom")


async def test_tool_before_fails_closed_by_default() -> None:
    bus = Bus(log_level=None)

    @bus.intercept("tool.before", id="broken")
    def broken(call: ToolCall) -> None:
        raise KeyError("command")

    ran: list[dict[str, Any]] = []

    async def tool(args: dict[str, Any]) -> str:
        ran.append(args)
        return "ok"

    result = await bus.call_tool("exec", {}, tool)
    assert result["status"] == "blocked"
    assert ran == []
    assert (await bus.decide_tool("exec", {})).blocked_by == "broken"


async def test_tool_after_fails_open_by_default_and_keeps_the_result() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.after", lambda event: 1 / 0, id="broken")
    assert await bus.call_tool("exec", {}, ok_tool) == "ok"


async def test_middleware_failing_after_call_next_keeps_the_inner_result() -> None:
    bus = Bus(log_level=None)
    ran: list[bool] = []

    @bus.middleware("tool.call", id="late-failure")
    async def late(call: ToolCall, call_next: Any) -> Any:
        result = await call_next(call)
        raise RuntimeError("after")
        return result

    async def tool(args: dict[str, Any]) -> str:
        ran.append(True)
        return "real"

    assert await bus.call_tool("exec", {}, tool) == "real"
    assert ran == [True]


async def test_raise_policy_on_tool_call_fails_the_call_with_the_interception_error() -> None:
    """On tool.call, "raise" goes through the outer tool.call layers and fails the call itself."""
    bus = Bus(log_level=None)
    seen: list[ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")
    ran: list[bool] = []

    @bus.middleware("tool.call", id="strict", on_error="raise")
    async def strict(call: ToolCall, call_next: Any) -> Any:
        raise ValueError("broken")

    async def tool(args: dict[str, Any]) -> str:
        ran.append(True)
        return "ok"

    result = await bus.call_tool("exec", {}, tool)
    assert result == {
        "status": "error",
        "tool": "exec",
        "error": "InterceptionError: strict failed on tool.call: ValueError: broken",
    }
    assert ran == []
    (event,) = seen
    assert isinstance(event.error, InterceptionError)
    assert event.error.registration_id == "strict"


async def test_a_tool_that_raises_interception_error_is_still_a_tool_error() -> None:
    async def nested(args: dict[str, Any]) -> Any:
        raise InterceptionError("inner bus", registration_id="x", point="tool.before")

    bus = Bus(log_level=None)

    @bus.middleware("tool.call", id="pass", on_error="raise")
    async def passthrough(call: ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    result = await bus.call_tool("exec", {}, nested)
    assert result == {"status": "error", "tool": "exec", "error": "InterceptionError: inner bus"}


async def test_middleware_failing_before_call_next_runs_the_inner_layers_anyway() -> None:
    bus = Bus(log_level=None)

    @bus.middleware("tool.call", id="early-failure")
    async def early(call: ToolCall, call_next: Any) -> Any:
        raise RuntimeError("before")

    assert await bus.call_tool("exec", {}, ok_tool) == "ok"


# -- timeouts ------------------------------------------------------------------------------


async def test_explicit_handler_timeout_is_recorded_and_the_chain_goes_on() -> None:
    bus = Bus(log_level=None, dispatch_timeout=None)
    records: list[Record] = []
    bus.on_event(records.append, level="error")
    trace: list[str] = []

    @bus.intercept("tool.after", id="slow", timeout=0.01, priority=10)
    async def slow(event: ToolResult) -> None:
        await anyio.sleep_forever()

    bus.intercept("tool.after", lambda event: trace.append("next"), id="next")
    assert await bus.call_tool("exec", {}, ok_tool) == "ok"
    assert trace == ["next"]
    (record,) = records
    assert record.id == "slow"
    assert record.error is not None
    assert record.error.startswith("TimeoutError")


async def test_explicit_timeout_on_a_tool_before_gate_fails_closed() -> None:
    bus = Bus(log_level=None)

    @bus.intercept("tool.before", id="slow-gate", timeout=0.01)
    async def slow_gate(call: ToolCall) -> None:
        await anyio.sleep_forever()

    result = await bus.call_tool("exec", {}, ok_tool)
    assert result["status"] == "blocked"
    assert "slow-gate failed (TimeoutError" in result["reason"]


async def test_explicit_middleware_timeout_follows_on_error() -> None:
    bus = Bus(log_level=None)

    @bus.middleware("tool.call", id="slow-mw", timeout=0.01, on_error="raise")
    async def slow_mw(call: ToolCall, call_next: Any) -> Any:
        await anyio.sleep_forever()

    result = await bus.call_tool("exec", {}, ok_tool)
    assert result["error"] == (
        "InterceptionError: slow-mw failed on tool.call: TimeoutError: slow-mw did not finish within 0.01 s"
    )

    @bus.middleware("message.before", id="slow-message", timeout=0.01, on_error="raise")
    async def slow_message(message: Any, call_next: Any) -> Any:
        await anyio.sleep_forever()

    with pytest.raises(
        InterceptionError, match=re.escape("slow-message failed on message.before: TimeoutError")
    ):
        await bus.process_message("x")


@pytest.mark.parametrize("point", ["message.before", "params.before", "tool.after", "session"])
async def test_dispatch_timeout_bounds_async_layers_without_their_own(point: str) -> None:
    bus = Bus(log_level=None, dispatch_timeout=0.02)
    records: list[Record] = []
    bus.on_event(records.append, level="error")
    trace: list[str] = []

    async def hang(event: Any) -> None:
        trace.append("hang")
        await anyio.sleep_forever()

    bus.intercept(point, hang, id="hang", priority=10)
    bus.intercept(point, lambda event: trace.append("skipped"), id="skipped")
    await dispatch(bus, point)
    assert trace == ["hang", "skipped"]  # the timeout bounds the slow layer, not the rest of the stack
    (record,) = records
    assert record.id == "hang"
    assert record.error is not None
    assert "hang did not finish within 0.02 s" in record.error


async def test_dispatch_timeout_result_is_kept_on_tool_after() -> None:
    bus = Bus(log_level=None, dispatch_timeout=0.02)

    @bus.intercept("tool.after", id="hang")
    async def hang(event: ToolResult) -> None:
        event.result = "partial"
        await anyio.sleep_forever()

    assert await bus.call_tool("exec", {}, ok_tool) == "partial"


async def test_tool_before_has_no_dispatch_timeout() -> None:
    """A gate may wait for a person: Bus(dispatch_timeout=...) does not apply to tool.before."""
    bus = Bus(log_level=None, dispatch_timeout=0.01)

    @bus.intercept("tool.before", id="waits")
    async def waits(call: ToolCall) -> None:
        await anyio.sleep(0.05)
        call.args["approved"] = True

    seen: list[dict[str, Any]] = []

    async def tool(args: dict[str, Any]) -> str:
        seen.append(args)
        return "ok"

    assert await bus.call_tool("exec", {}, tool) == "ok"
    assert seen == [{"approved": True}]


async def test_dispatch_timeout_with_raise_policy_raises() -> None:
    bus = Bus(log_level=None, dispatch_timeout=0.01)

    @bus.intercept("message.before", id="hang", on_error="raise")
    async def hang(event: Any) -> None:
        await anyio.sleep_forever()

    with pytest.raises(InterceptionError, match="did not finish within"):
        await bus.process_message("x")


async def test_sync_only_stacks_are_not_bounded() -> None:
    """Sync handlers cannot be interrupted, so a dispatch of only sync layers is not wrapped."""
    bus = Bus(log_level=None, dispatch_timeout=0.0001)
    trace: list[str] = []
    for index in range(3):
        bus.intercept("message.before", lambda m, i=index: trace.append(str(i)), id=f"h{index}")
    await bus.process_message("x")
    assert trace == ["0", "1", "2"]


@pytest.mark.parametrize("point", ["message.before", "tool.before", "tool.call", "tool.after"])
async def test_outside_cancellation_propagates_from_a_hanging_layer(point: str) -> None:
    bus = Bus(log_level=None, dispatch_timeout=None)
    records: list[Record] = []
    bus.on_event(records.append)

    async def hang(event: Any) -> Any:
        await anyio.sleep_forever()

    async def hang_mw(event: Any, call_next: Any) -> Any:
        await anyio.sleep_forever()

    if point == "tool.call":
        bus.middleware(point, hang_mw, id="hang", on_error="continue")
    else:
        bus.intercept(point, hang, id="hang", on_error="continue")
    with anyio.move_on_after(0.02) as scope:
        if point == "message.before":
            await bus.process_message("x")
        else:
            await bus.call_tool("exec", {}, ok_tool)
        pytest.fail("the dispatch swallowed the cancellation")
    assert scope.cancelled_caught
    # No layer is recorded as failed; once the tool has started, the pipeline says it was interrupted.
    failed = [(r.id, r.point) for r in records if r.error]
    assert failed == ([("agentbus:pipeline", point)] if point in ("tool.call", "tool.after") else [])


@pytest.mark.parametrize("observed", [False, True])
async def test_tool_call_middleware_timeout_gives_the_agent_an_error_result(observed: bool) -> None:
    """A tool.call layer that fails while the tool runs leaves no result: the call is a tool error."""
    bus = Bus(log_level=None)
    records: list[Record] = []
    if observed:
        bus.on_event(records.append, level="error")
    seen: list[ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")

    @bus.middleware("tool.call", id="outer", priority=10)
    async def outer(call: ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    @bus.middleware("tool.call", id="limit", timeout=0.01)
    async def limit(call: ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    async def hang(args: dict[str, Any]) -> Any:
        await anyio.sleep_forever()

    result = await bus.call_tool("exec", {}, hang)
    assert result == {
        "status": "error",
        "tool": "exec",
        "error": "TimeoutError: limit did not finish within 0.01 s",
    }
    (event,) = seen
    assert event.is_error
    assert isinstance(event.error, TimeoutError)
    if observed:  # recorded once, against the layer that failed, not against "outer"
        assert [(r.id, r.error is not None) for r in records] == [("limit", True)]


async def test_tool_call_middleware_raising_while_handling_a_tool_error_is_an_error_result() -> None:
    bus = Bus(log_level=None)

    @bus.middleware("tool.call", id="translate")
    async def translate(call: ToolCall, call_next: Any) -> Any:
        try:
            return await call_next(call)
        except OSError as exc:
            raise RuntimeError("tool unavailable") from exc

    async def failing(args: dict[str, Any]) -> Any:
        raise OSError("disk")

    result = await bus.call_tool("exec", {}, failing)
    assert result == {"status": "error", "tool": "exec", "error": "RuntimeError: tool unavailable"}

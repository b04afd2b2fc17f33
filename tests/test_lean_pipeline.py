"""The pipeline builds only what somebody reads (issue 15.2), and keeps every decision.

A ToolResult exists for tool.after layers and for dispatch observers; a call
that has neither returns the tool's result without one. ToolCall's hand-written
``__init__`` must set every field attrs declares, to the declared default.
"""

from __future__ import annotations

import copy
import functools
import time
from typing import Any

import anyio
import anyio.lowlevel
import attrs
import pytest

import agentbus.bus
from agentbus import Bus, Record, ToolCall, ToolResult

pytestmark = pytest.mark.anyio


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[ToolResult]:
    """Every ToolResult the bus builds."""
    made: list[ToolResult] = []

    def counting(*args: Any, **kwargs: Any) -> ToolResult:
        made.append(ToolResult(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(agentbus.bus, "ToolResult", counting)
    return made


async def tool(args: dict[str, Any]) -> Any:
    return {"ran": args["command"]}


def check(call: ToolCall) -> None:
    if "rm" in call.args["command"]:
        call.block("no rm")


async def test_no_tool_result_when_nothing_reads_one(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    blocked = await bus.call_tool("exec", {"command": "rm -rf /"}, tool)
    assert blocked["status"] == "blocked"
    assert "no rm" in blocked["reason"]
    assert built == []


async def test_a_tool_after_layer_gets_its_tool_result(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    seen: list[Any] = []
    bus.registry.add("tool.after", lambda event: seen.append(event.result))
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    assert len(built) == 1
    assert seen == [{"ran": "ls"}]


async def test_a_dispatch_observer_gets_its_tool_result(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    ends: list[Record] = []
    bus.on_event(ends.append, dispatches=True)
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    assert len(built) == 1
    assert any(record.point == "tool.call" for record in ends)


async def test_run_tool_always_returns_the_tool_result(built: list[ToolResult]) -> None:
    bus = Bus(log_level=None)
    bus.registry.add("tool.before", check)
    event = await bus.run_tool("exec", {"command": "ls"}, tool)
    assert built == [event]
    assert event.result == {"ran": "ls"}


def test_tool_call_init_sets_every_declared_field() -> None:
    call = ToolCall("exec", {"command": "ls"})
    for field in attrs.fields(ToolCall):
        value = getattr(call, field.name)  # an unset slot raises AttributeError
        if field.alias in ("tool", "args"):
            continue
        default: Any = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory(call) if default.takes_self else default.factory()
        assert value == default, field.name
    assert call.notes is not ToolCall("exec", {}).notes  # a list of its own


def test_the_bus_builds_the_same_tool_call_as_its_constructor() -> None:
    """The hot path's builder (no __init__ frame) sets every field as ToolCall(...) does."""
    from agentbus.events import _new_tool_call

    args = {"command": "ls"}
    built = _new_tool_call("exec", args, 7, "main", "s1", "exec")
    made = ToolCall("exec", args, 7, "main", "s1", "exec")
    assert type(built) is ToolCall
    for field in attrs.fields(ToolCall):
        assert getattr(built, field.name) == getattr(made, field.name), field.name
    assert built.call_id == "call-7"
    assert built.args is args


def test_an_events_repr_shows_its_fields_but_not_the_buss_machinery() -> None:
    call = ToolCall("exec", {"command": "ls"}, "c1", "main")
    call.block("no")
    shown = repr(call)
    assert shown.startswith("ToolCall(_tool='exec', _args={'command': 'ls'}, _call_id='c1', _agent_id='main'")
    assert "_block_reason='no'" in shown
    assert "_decision='block'" in shown
    assert "_attribution" not in shown
    assert "execute" not in shown
    assert "_decided_in" not in shown
    assert repr(ToolResult("exec", {}, result=1)).startswith("ToolResult(_tool='exec', _args={}, result=1,")
    record = Record("tool.before", "guard", 30, decision="block")
    assert repr(record).startswith("Record(point='tool.before', id='guard', level=30, tool=None,")


# -- the flat handler loop ------------------------------------------------------------------


async def test_a_stack_of_sync_handlers_runs_without_a_coroutine() -> None:
    """No await, no coroutine: the run is a plain function that returns the call."""
    bus = Bus(log_level=None)
    bus.intercept("tool.before", check, id="check")
    bus.intercept("tool.before", lambda call: None, id="noop")
    plan = bus._plan("exec", None)
    call = ToolCall("exec", {"command": "rm x"})
    assert plan.before is not None
    assert plan.before(call) is call
    assert call.blocked_by == "check"


def later(call: ToolCall) -> Any:
    """A sync handler that returns an awaitable: the run awaits it, then goes on."""

    async def finish() -> None:
        await anyio.lowlevel.checkpoint()
        call.args["trace"].append("later")

    return finish()


@pytest.mark.parametrize("position", [0, 1, 2])
async def test_a_sync_handler_that_returns_an_awaitable_is_awaited_in_order(position: int) -> None:
    bus = Bus(log_level=None)
    handlers: list[Any] = [
        lambda call: call.args["trace"].append("a"),
        lambda call: call.args["trace"].append("b"),
    ]
    handlers.insert(position, later)
    for index, handler in enumerate(handlers):
        bus.intercept("tool.before", handler, id=f"h{index}", priority=-index)

    @bus.intercept("tool.before", id="blocks", priority=-10)
    def blocks(call: ToolCall) -> None:
        call.block(f"saw {call.args['trace']}")

    expected = ["a", "b"]
    expected.insert(position, "later")
    decided = await bus.decide_tool("exec", {"trace": []})
    assert decided.block_reason == f"saw {expected}"
    assert decided.blocked_by == "blocks"


async def test_a_lone_sync_handler_that_returns_an_awaitable_is_awaited_and_credited() -> None:
    """One handler runs unrolled (no loop): what it returns is still awaited before the tool."""
    bus = Bus(log_level=None)

    @bus.intercept("tool.before", id="later")
    def later_block(call: ToolCall) -> Any:
        async def finish() -> None:
            await anyio.lowlevel.checkpoint()
            call.block("decided later")

        return finish()

    ran: list[Any] = []
    result = await bus.call_tool("exec", {"command": "ls"}, lambda args: ran.append(args))
    assert result == {"status": "blocked", "tool": "exec", "reason": "decided later"}
    assert ran == []
    decided = await bus.decide_tool("exec", {"command": "ls"})
    assert decided.blocked_by == "later"


@pytest.mark.parametrize(("on_error", "runs"), [("block", False), ("continue", True)])
async def test_a_lone_handler_that_raises_gets_its_failure_policy(on_error: str, runs: bool) -> None:
    bus = Bus(log_level=None)

    def broken(call: ToolCall) -> None:
        raise RuntimeError("broken")

    bus.intercept("tool.before", broken, id="broken", on_error=on_error)  # type: ignore[arg-type]
    ran: list[Any] = []
    result = await bus.call_tool("exec", {"command": "ls"}, lambda args: ran.append(args) or "ok")
    assert (result == "ok") is runs
    assert bool(ran) is runs
    if not runs:
        assert result["status"] == "blocked"
        assert "broken failed" in result["reason"]


async def test_a_handler_without_a_code_object_is_credited_with_its_block() -> None:
    """functools.partial has no code object to recognise it by: it runs alone, and its run credits it."""
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: None, id="before", priority=10)
    bus.intercept("tool.before", functools.partial(ToolCall.block, reason="partial says no"), id="partial")
    bus.intercept("tool.before", lambda call: None, id="after", priority=-10)
    decided = await bus.decide_tool("exec", {})
    assert decided.block_reason == "partial says no"
    assert decided.blocked_by == "partial"


# -- call ids and durations on demand --------------------------------------------------------


async def test_call_ids_are_numbered_per_bus_and_the_same_on_every_copy() -> None:
    bus = Bus(log_level=None)
    seen: list[str] = []

    @bus.middleware("tool.before", id="copies")
    async def copies(call: ToolCall, call_next: Any) -> Any:
        seen.extend([copy.copy(call).call_id, attrs.evolve(call).call_id, call.shadow_copy().call_id])  # type: ignore[attr-defined]
        return await call_next(call)

    bus.intercept("tool.after", lambda event: seen.append(event.call_id), id="after")
    await bus.call_tool("exec", {}, tool_ok)
    await bus.call_tool("exec", {}, tool_ok)
    assert seen == ["call-1"] * 4 + ["call-2"] * 4
    assert (await bus.decide_tool("exec", {}, call_id="mine")).call_id == "mine"


async def tool_ok(args: dict[str, Any]) -> str:
    return "ok"


async def test_a_call_nobody_observes_is_numbered_when_it_is_made() -> None:
    # One sync handler and no observer: the bus's gate. Its calls are numbered in the order
    # they are made, whenever (and whether) their ids are read.
    bus = Bus(log_level=None)
    kept: list[ToolCall] = []
    bus.intercept("tool.before", kept.append, id="keeps")
    for _ in range(3):
        assert await bus.call_tool("exec", {"command": "ls"}, tool_ok) == "ok"
    assert kept[1].call_id == "call-2"
    assert kept[1].call_id == "call-2"  # spelled once, the same every time
    assert kept[0].call_id == "call-1"
    mine = await bus.decide_tool("exec", {}, call_id="mine")
    assert mine.call_id == "mine"
    assert (await bus.decide_tool("exec", {})).call_id == "call-4"  # the bus's one numbering
    assert kept[2].call_id == "call-3"


async def test_every_copy_of_a_call_whose_id_was_not_read_carries_the_calls_number() -> None:
    bus = Bus(log_level=None)
    copies: list[ToolCall] = []
    kept: list[ToolCall] = []

    def copying(call: ToolCall) -> None:
        kept.append(call)
        copies.extend([copy.copy(call), copy.deepcopy(call), call.shadow_copy(), attrs.evolve(call)])  # type: ignore[list-item]

    bus.intercept("tool.before", copying, id="copies")
    await bus.call_tool("exec", {"command": "ls"}, tool_ok)
    await bus.call_tool("exec", {"command": "ls"}, tool_ok)
    # Copies were made before anybody read an id: each carries its call's number.
    assert [c.call_id for c in copies] == ["call-1"] * 4 + ["call-2"] * 4
    assert [c.call_id for c in kept] == ["call-1", "call-2"]
    await bus.call_tool("exec", {"command": "ls"}, tool_ok)
    assert "_call_id='call-3'," in repr(kept[2])  # a repr shows the id as call_id spells it
    assert kept[2].call_id == "call-3"


async def test_a_gate_handler_that_reads_the_id_gets_the_number_its_call_keeps() -> None:
    bus = Bus(log_level=None)
    seen: list[str] = []

    @bus.intercept("tool.before", id="reads")
    def reads(call: ToolCall) -> None:
        seen.append(call.call_id)
        if call.args.get("command") == "rm":
            call.block(f"no ({call.call_id})")

    assert await bus.call_tool("exec", {"command": "ls"}, tool_ok) == "ok"
    blocked = await bus.call_tool("exec", {"command": "rm"}, tool_ok)
    assert blocked == {"status": "blocked", "tool": "exec", "reason": "no (call-2)"}
    assert seen == ["call-1", "call-2"]


async def test_a_call_is_timed_only_when_its_duration_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[float] = []

    def perf() -> float:
        reads.append(time.perf_counter())
        return reads[-1]

    monkeypatch.setattr(agentbus.bus, "_perf", perf)
    bus = Bus(log_level=None)
    bus.intercept("tool.before", check, id="check")
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == {"ran": "ls"}
    assert reads == []
    durations: list[float] = []
    bus.intercept("tool.after", lambda event: durations.append(event.duration), id="reads-it")
    await bus.call_tool("exec", {"command": "ls"}, tool)
    assert len(reads) >= 2
    assert durations[0] > 0


async def test_a_tool_name_that_cannot_be_a_key_gets_an_error_result_as_in_run_tool() -> None:
    bus = Bus(log_level=None)
    ran: list[Any] = []

    async def recording(args: dict[str, Any]) -> str:
        ran.append(args)
        return "ran"

    result = await bus.call_tool(["exec"], {}, recording)  # type: ignore[arg-type]
    assert result == (await bus.run_tool(["exec"], {}, recording)).result  # type: ignore[arg-type]
    assert result["status"] == "error"
    assert ran == []


# -- one coroutine when only tool.before runs -------------------------------------------------


def no_pipeline(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("call_tool awaited Bus._pipeline, a second coroutine")


def asks(call: ToolCall) -> None:
    if "sudo" in call.args["command"]:
        call.ask("sudo needs a person")


def broken(call: ToolCall) -> None:
    if "boom" in call.args["command"]:
        raise RuntimeError("the gate failed")


async def failing_tool(args: dict[str, Any]) -> Any:
    if args["command"] == "fail":
        raise ValueError("the tool failed")
    return {"ran": args["command"]}


@pytest.mark.parametrize("command", ["ls", "rm -rf /", "sudo ls", "boom", "fail"])
@pytest.mark.parametrize("approves", [True, False])
async def test_call_tool_with_only_tool_before_runs_in_one_coroutine_and_agrees_with_run_tool(
    monkeypatch: pytest.MonkeyPatch, command: str, approves: bool
) -> None:
    """The direct path (no tool.call or tool.after layer, no dispatch observer) gives what the
    full pipeline gives: the tool's result, a block, an ask decided by the approver, a gate
    that fails closed, a tool's error."""
    bus = Bus(log_level=None, approver=lambda call: approves)
    bus.intercept("tool.before", check, id="check")
    bus.intercept("tool.before", asks, id="asks")
    bus.intercept("tool.before", broken, id="broken", on_error="block")
    expected = (await bus.run_tool("exec", {"command": command}, failing_tool)).result
    monkeypatch.setattr(Bus, "_pipeline", no_pipeline)
    assert await bus.call_tool("exec", {"command": command}, failing_tool) == expected
    if command in ("rm -rf /", "boom") or (command == "sudo ls" and not approves):
        assert expected["status"] == "blocked"
    elif command == "fail":
        assert expected["status"] == "error"
    else:
        assert expected == {"ran": command}


async def test_a_handler_that_keeps_the_args_cannot_change_what_the_tool_receives() -> None:
    """The tool gets a deep copy of the approved args: a handler that kept a reference to them
    (and changes them later, say from another task while the tool runs) changes nothing it sees."""
    bus = Bus(log_level=None)
    kept: list[dict[str, Any]] = []
    bus.intercept("tool.before", lambda call: kept.append(call.args), id="keeps")

    async def tool(args: dict[str, Any]) -> Any:
        kept[0]["argv"][0] = "rm"  # after every layer approved: what the tool reads must not change
        kept[0]["cwd"] = "/"
        await anyio.lowlevel.checkpoint()
        return args

    assert await bus.call_tool("exec", {"argv": ["ls"], "cwd": "."}, tool) == {"argv": ["ls"], "cwd": "."}


@pytest.mark.parametrize("nested", [False, True])
async def test_plain_args_that_a_handler_keeps_cannot_change_what_the_tool_receives(nested: bool) -> None:
    """Args of plain values take the short path (one dict copy); a handler that puts a list
    into them takes the deep copy. Either way, changes after approval reach nothing."""
    bus = Bus(log_level=None)
    kept: list[dict[str, Any]] = []

    def keeps(call: ToolCall) -> None:
        if nested:
            call.args["argv"] = ["ls"]
        kept.append(call.args)

    bus.intercept("tool.before", keeps, id="keeps")

    async def tool(args: dict[str, Any]) -> Any:
        kept[0]["cwd"] = "/"
        if nested:
            kept[0]["argv"][0] = "rm"
        await anyio.lowlevel.checkpoint()
        return dict(args)

    given = {"command": "ls", "cwd": ".", "n": 1, "x": 1.5, "flag": True, "none": None}
    expected = {**given, "argv": ["ls"]} if nested else given
    assert await bus.call_tool("exec", dict(given), tool) == expected


async def test_a_stack_of_handlers_runs_without_the_deciding_mark_and_one_with_middleware_with_it() -> None:
    """The mark that lets a copy's block count is set only where a copy can travel, through
    a middleware's call_next (each handler gets the call itself)."""
    from agentbus.events import _DECIDING

    seen: list[Any] = []
    bus = Bus(log_level=None)
    bus.intercept("tool.before", lambda call: seen.append(_DECIDING.get()), id="handler")
    await bus.call_tool("exec", {"command": "ls"}, tool)
    assert seen == [None]

    @bus.middleware("tool.before", id="copies", priority=10)
    async def copies(call: ToolCall, call_next: Any) -> Any:
        seen.append(call)
        return await call_next(copy.copy(call))

    await bus.call_tool("exec", {"command": "ls"}, tool)
    assert seen[2] is seen[1]  # the handler, given a copy, sees the call being decided


@pytest.mark.parametrize("observed", [False, True], ids=["unobserved", "observed at info"])
async def test_a_run_of_sync_and_async_handlers_runs_each_once_in_order(observed: bool) -> None:
    """The async run awaits what an async handler returns without testing it, and still tests
    what a sync one returns (None, or an awaitable), observed (diffed) or not."""
    bus = Bus(log_level="info" if observed else None)
    ran: list[str] = []

    @bus.intercept("tool.before", priority=3)
    async def first(call: ToolCall) -> None:
        await anyio.lowlevel.checkpoint()
        ran.append("first")
        call.args["first"] = True

    @bus.intercept("tool.before", priority=2)
    def second(call: ToolCall) -> Any:
        ran.append("second")
        call.args["second"] = True
        return anyio.lowlevel.checkpoint()  # a sync handler returning an awaitable: awaited

    @bus.intercept("tool.before", priority=1)
    def third(call: ToolCall) -> None:
        ran.append("third")

    @bus.intercept("tool.before", priority=0)
    async def blocks(call: ToolCall) -> None:
        ran.append("blocks")
        call.block("stop")

    seen: list[dict[str, Any]] = []
    result = await bus.run_tool("exec", {"command": "ls"}, lambda args: seen.append(args))
    assert ran == ["first", "second", "third", "blocks"]
    assert result.blocked
    assert result.block_reason == "stop"
    assert seen == []

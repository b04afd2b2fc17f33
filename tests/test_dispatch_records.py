"""The opt-in dispatch records: one per finished call, only for observers that ask."""

from __future__ import annotations

from typing import Any

import pytest

import agentbus
from agentbus.records import DEBUG, DISPATCH, ERROR, WARNING, Record

pytestmark = pytest.mark.anyio


def ok(args: dict[str, Any]) -> str:
    return "ok"


def boom(args: dict[str, Any]) -> str:
    raise ValueError("disk full")


async def test_every_tool_call_ends_with_one_dispatch_record_even_with_no_layers() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[Record] = []
    bus.on_event(seen.append, level="warning", dispatches=True)
    assert await bus.call_tool("exec", {"command": "ls"}, ok, call_id="c1") == "ok"
    assert [(r.id, r.point, r.call_id, r.level) for r in seen] == [(DISPATCH, "tool.call", "c1", DEBUG)]


async def test_dispatch_records_carry_the_outcome() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm" in call.args["command"]:
            call.block("no rm")

    seen: list[Record] = []
    bus.on_event(seen.append, level="error", dispatches=True)
    await bus.call_tool("exec", {"command": "rm x"}, ok, agent_id="a", session_key="s")
    await bus.call_tool("exec", {"command": "ls"}, boom)
    blocked, failed = seen
    assert (blocked.level, blocked.decision, blocked.reason) == (WARNING, "block", "no rm")
    assert (blocked.agent_id, blocked.session_key) == ("a", "s")
    assert (failed.level, failed.error) == (ERROR, "ValueError: disk full")


async def test_message_params_decide_and_finish_each_end_with_their_point() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[Record] = []
    bus.on_event(seen.append, level="error", dispatches=True)
    await bus.prepare("hi")
    await bus.decide_tool("exec", {"command": "ls"})
    await bus.finish_tool("exec", {"command": "ls"}, "out", blocked=True, block_reason="r")
    assert [r.point for r in seen] == ["message.before", "params.before", "tool.before", "tool.after"]
    assert all(r.id == DISPATCH for r in seen)
    assert (seen[3].decision, seen[3].reason) == ("block", "r")


async def test_observers_that_do_not_ask_never_see_dispatch_records() -> None:
    bus = agentbus.Bus(log_level=None)
    plain: list[Record] = []
    bus.on_event(plain.append)
    undo = bus.on_event(lambda r: None, dispatches=True)
    await bus.call_tool("exec", {"command": "ls"}, ok)
    assert plain == []
    undo()
    assert not bus.observers.wants_dispatches


async def test_a_call_cancelled_from_outside_still_ends_with_a_dispatch_record() -> None:
    """So that span exporters and the full console see it end; the cancellation propagates."""
    import anyio

    bus = agentbus.Bus(log_level=None)
    seen: list[Record] = []
    bus.on_event(seen.append, level="debug", dispatches=True)

    async def hangs(args: dict[str, Any]) -> str:
        await anyio.sleep_forever()
        return "never"

    with anyio.move_on_after(0.05) as scope:
        await bus.call_tool("exec", {"command": "sleep"}, hangs, call_id="c-9")
    assert scope.cancelled_caught
    (record,) = [r for r in seen if r.id == DISPATCH]
    assert record.call_id == "c-9"
    assert record.tool == "exec"
    assert record.level == ERROR
    assert record.error is not None

"""The fault matrix (issue 7): every hook point x every fault x every on_error policy.

Each case runs one agent turn (message.before, params.before, then one tool call
through tool.before -> tool.call -> tool.after) with one faulty layer on one hook
point, and asserts the documented outcome:

- a fail-closed gate never lets the tool run;
- the agent always gets a result (a tool result, a blocked result or an error
  result), except under on_error="raise", which propagates InterceptionError
  (on tool.call it fails the call: an error result carrying the InterceptionError);
- a layer failure is recorded once, at ERROR, with the registration id;
- cancellation from outside propagates and nothing is recorded as a failure;
- no task is left behind.

Combinations the registry refuses (on_error="block" off tool.before, a sync
layer on tool.call) are asserted as refusals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agentbus import Bus, InterceptionError, Record, RegistrationError, ToolCall, ToolResult

pytestmark = pytest.mark.anyio

POINTS = ["message.before", "params.before", "tool.before", "tool.call", "tool.after"]
POLICIES = ["default", "block", "continue", "raise"]
LAYER_FAULTS = ["sync_raises", "async_raises", "hangs_past_timeout", "wrong_type", "read_only"]
FAULTS = [*LAYER_FAULTS, "cancelled_from_outside", "tool_raises", "tool_hangs", "registry_changed"]
TIMEOUT = 0.01


def wrong_type(event: Any) -> None:
    """Assign a value of the wrong type to a field the layer may change."""
    if event.point == "message.before":
        event.message = 3
    elif event.point == "params.before":
        event.temperature = "hot"
    elif event.point == "tool.after":
        event.result = 42  # tool.after's result is untyped on purpose: anything may replace it
    else:
        event.args = "rm -rf /"


def read_only(event: Any) -> None:
    """Assign to context the layer may only read."""
    if event.point == "message.before":
        event.agent_id = "root"
    elif event.point == "params.before":
        event.model = "another-model"
    elif event.point == "tool.after":
        event.args = {}
    else:
        event.tool = "read"


class Turn:
    """One bus with one faulty layer, and what happened while it ran."""

    def __init__(self, point: str, fault: str, policy: str) -> None:
        self.point = point
        self.fault = fault
        self.on_error = None if policy == "default" else policy
        self.effective = (
            policy if policy != "default" else ("block" if point == "tool.before" else "continue")
        )
        self.bus = Bus(log_level=None)  # the default dispatch timeout (30 s) stays on
        self.records: list[Record] = []
        self.bus.on_event(self.records.append)
        self.trace: list[str] = []
        self.tool_runs = 0
        self.after: list[ToolResult] = []
        self.bus.intercept("tool.after", self.after.append, id="audit", priority=-100)
        self.changed = False
        self.hanging = anyio.Event()

    @property
    def errors(self) -> list[tuple[str, str]]:
        return [(r.id, r.point) for r in self.records if r.error is not None]

    def add(self, id: str, body: Callable[[Any], Any], *, is_async: bool, **options: Any) -> None:
        """Add a layer of the right form for the point; ``body(event)`` does the work."""
        trace = self.trace
        if self.point == "tool.call":
            if not is_async:

                def sync_middleware(call: ToolCall, call_next: Any) -> Any:
                    body(call)
                    return call_next(call)

                self.bus.middleware(self.point, sync_middleware, id=id, **options)
                return

            async def middleware(call: ToolCall, call_next: Any) -> Any:
                trace.append(id)
                awaited = body(call)
                if awaited is not None:
                    await awaited
                return await call_next(call)

            self.bus.middleware(self.point, middleware, id=id, **options)
        elif is_async:

            async def async_handler(event: Any) -> None:
                trace.append(id)
                awaited = body(event)
                if awaited is not None:
                    await awaited

            self.bus.intercept(self.point, async_handler, id=id, **options)
        else:

            def sync_handler(event: Any) -> None:
                trace.append(id)
                body(event)

            self.bus.intercept(self.point, sync_handler, id=id, **options)

    def add_faulty(self) -> None:
        fault = self.fault
        options: dict[str, Any] = {"on_error": self.on_error, "priority": 10}

        def raises(event: Any) -> None:
            raise ValueError("boom")

        async def hang(event: Any) -> None:
            self.hanging.set()
            await anyio.sleep_forever()

        async def passes(event: Any) -> None:
            await anyio.lowlevel.checkpoint()

        async def changes_registry(event: Any) -> None:
            await anyio.lowlevel.checkpoint()
            if not self.changed:
                self.changed = True
                self.bus.remove("next")
                self.add("late", lambda event: None, is_async=self.point == "tool.call")

        if fault == "sync_raises":
            self.add("faulty", raises, is_async=False, **options)
        elif fault == "async_raises":

            async def async_raises(event: Any) -> None:
                await anyio.lowlevel.checkpoint()
                raise ValueError("boom")

            self.add("faulty", async_raises, is_async=True, **options)
        elif fault == "hangs_past_timeout":
            self.add("faulty", hang, is_async=True, timeout=TIMEOUT, **options)
        elif fault == "cancelled_from_outside":
            self.add("faulty", hang, is_async=True, **options)
        elif fault == "wrong_type":
            self.add("faulty", wrong_type, is_async=self.point == "tool.call", **options)
        elif fault == "read_only":
            self.add("faulty", read_only, is_async=self.point == "tool.call", **options)
        elif fault == "registry_changed":
            self.add("faulty", changes_registry, is_async=True, **options)
        else:  # the tool misbehaves; the layer on the point only passes the call through
            self.add("faulty", passes, is_async=True, **options)
        # The next layer on the same point: shows whether the chain went on.
        self.add("next", lambda event: None, is_async=self.point == "tool.call")
        if fault == "tool_hangs":  # the documented way to bound a tool: a tool.call timeout
            self.bus.middleware("tool.call", pass_through, id="deadline", priority=-50, timeout=TIMEOUT * 2)

    async def tool(self, args: dict[str, Any]) -> str:
        self.tool_runs += 1
        if self.fault == "tool_raises":
            raise OSError("disk on fire")
        if self.fault == "tool_hangs":
            await anyio.sleep_forever()
        return "ok"

    async def run(self) -> Any:
        await self.bus.prepare("hello", think_level="low")
        return await self.bus.call_tool("exec", {"command": "ls"}, self.tool)


async def pass_through(call: ToolCall, call_next: Any) -> Any:
    return await call_next(call)


def task_ids() -> set[int]:
    return {task.id for task in anyio.get_running_tasks()}


def refusal(point: str, fault: str, policy: str) -> str | None:
    """The registration error a combination must get, or None if it is accepted."""
    if policy == "block" and point != "tool.before":
        return "on_error='block' only applies to tool.before"
    if point == "tool.call" and fault == "sync_raises":
        return "is not async"
    return None


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("point", POINTS)
async def test_fault_matrix(point: str, fault: str, policy: str) -> None:
    turn = Turn(point, fault, policy)
    refused = refusal(point, fault, policy)
    if refused is not None:
        with pytest.raises(RegistrationError, match=refused):
            turn.add_faulty()
        assert "faulty" not in turn.bus.registry
        return
    turn.add_faulty()
    tasks = task_ids()
    try:
        if fault == "cancelled_from_outside":
            await check_cancellation_propagates(turn)
        elif fault in LAYER_FAULTS and not (fault == "wrong_type" and point == "tool.after"):
            await check_layer_failure(turn)
        elif fault == "wrong_type":
            assert await turn.run() == 42
            assert turn.errors == []
        elif fault == "tool_raises":
            assert await turn.run() == {"status": "error", "tool": "exec", "error": "OSError: disk on fire"}
            (after,) = turn.after
            assert after.is_error
            assert isinstance(after.error, OSError)
            assert turn.errors == []
            assert "next" in turn.trace
        elif fault == "tool_hangs":
            result = await turn.run()
            assert result == {
                "status": "error",
                "tool": "exec",
                "error": f"TimeoutError: deadline did not finish within {TIMEOUT * 2:g} s",
            }
            (after,) = turn.after
            assert after.is_error
            assert isinstance(after.error, TimeoutError)
            assert turn.errors == [("deadline", "tool.call")]
        else:
            await check_registry_change(turn)
    finally:
        await anyio.lowlevel.checkpoint()
        assert task_ids() <= tasks, "a task was left behind"


async def check_layer_failure(turn: Turn) -> None:
    if turn.effective == "raise" and turn.point == "tool.call":
        # On tool.call, "raise" fails the call: the agent gets an error result naming the layer.
        result = await turn.run()
        assert result["status"] == "error"
        assert result["error"].startswith("InterceptionError: faulty failed on tool.call")
        assert turn.tool_runs == 0
        (after,) = turn.after
        assert isinstance(after.error, InterceptionError)
        assert after.error.registration_id == "faulty"
    elif turn.effective == "raise":
        with pytest.raises(InterceptionError) as info:
            await turn.run()
        assert (info.value.registration_id, info.value.point) == ("faulty", turn.point)
        assert turn.tool_runs == (1 if turn.point == "tool.after" else 0)
    elif turn.effective == "block":  # fail closed: the gate failed, the call is blocked
        result = await turn.run()
        assert result["status"] == "blocked"
        assert result["reason"].startswith("faulty failed (")
        assert turn.tool_runs == 0
        (after,) = turn.after
        assert after.blocked
    else:  # fail open: recorded, the chain goes on, the agent gets the tool's result
        assert await turn.run() == "ok"
        assert turn.tool_runs == 1
        assert "next" in turn.trace
        assert len(turn.after) == 1
    assert turn.errors == [("faulty", turn.point)]
    (error,) = [r for r in turn.records if r.error is not None]
    expected = {
        "sync_raises": "ValueError: boom",
        "async_raises": "ValueError: boom",
        "wrong_type": "TypeError",
        "read_only": "AttributeError",
        "hangs_past_timeout": "TimeoutError",
    }[turn.fault]
    if turn.fault == "wrong_type" and turn.point == "tool.call":
        expected = "AttributeError"  # tool.call layers see the approved args read-only
    assert error.error is not None
    assert error.error.startswith(expected)


async def check_cancellation_propagates(turn: Turn) -> None:
    """Cancel the turn from outside once the faulty layer is hanging in it."""
    returned = False

    async def cancel_when_hanging(scope: anyio.CancelScope) -> None:
        await turn.hanging.wait()
        scope.cancel()

    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(cancel_when_hanging, scope)
            await turn.run()
            returned = True
    assert not returned, "the cancellation was swallowed"
    assert scope.cancelled_caught
    # No layer is recorded as failed; a call cancelled once its tool had started says so.
    errors = [r for r in turn.records if r.error is not None]
    if turn.point in ("tool.call", "tool.after"):
        (record,) = errors
        assert (record.id, record.point) == ("agentbus:pipeline", turn.point)
        assert "the call was interrupted" in (record.error or "")
    else:
        assert errors == []
    assert turn.tool_runs == (1 if turn.point == "tool.after" else 0)
    assert "next" not in turn.trace


async def check_registry_change(turn: Turn) -> None:
    assert await turn.run() == "ok"
    assert "next" in turn.trace  # the dispatch under way kept its snapshot
    assert "late" not in turn.trace
    turn.trace.clear()
    assert await turn.run() == "ok"
    assert "late" in turn.trace  # the next dispatch uses the new registry
    assert "next" not in turn.trace
    assert turn.errors == []

"""The gate: a tool.before stack of one sync handler, which call_tool calls itself (issue 15).

The fast path must give exactly what the general path gives, whatever the handler
does: nothing, block, ask, raise, change the args (plain or nested values, or
assign new ones), return an awaitable that decides later, or keep the args and
change them after approval. Each case is run three ways: through the gate, through
the same plan with its gate switched off (the compiled stack), and through
``run_tool`` (the whole pipeline).
"""

from __future__ import annotations

import copy
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentbus import Bus, ToolCall
from agentbus.lineage import running

pytestmark = pytest.mark.anyio

ACTIONS = (
    "nothing",
    "block",
    "ask",
    "raise",
    "add-plain",
    "add-nested",
    "assign-args",
    "assign-bad-args",
    "awaits",
    "awaits-then-blocks",
    "returns-a-value",
    "keeps-the-args",
)


def gate_handler(action: str, seen: list[ToolCall], kept: list[dict[str, Any]]) -> Any:
    def gate(call: ToolCall) -> Any:
        seen.append(call)
        if action == "block":
            call.block("no")
        elif action == "ask":
            call.ask("a person decides")
        elif action == "raise":
            raise RuntimeError("the gate failed")
        elif action == "add-plain":
            call.args["added"] = 1
        elif action == "add-nested":
            call.args["added"] = ["ls", {"deep": 1}]
        elif action == "assign-args":
            call.args = {"assigned": True}
        elif action == "assign-bad-args":
            call.args = "not a dict"  # type: ignore[assignment]
        elif action == "awaits":
            return anyio.lowlevel.checkpoint()
        elif action == "awaits-then-blocks":

            async def later() -> None:
                await anyio.lowlevel.checkpoint()
                call.block("decided later")

            return later()
        elif action == "returns-a-value":
            return 42  # not awaitable: ignored, as any handler's return value
        elif action == "keeps-the-args":
            kept.append(call.args)
        return None

    return gate


class Tool:
    """Records what it received (as it was when it started) and changes what a layer kept."""

    def __init__(self, kept: list[dict[str, Any]], fails: bool) -> None:
        self.kept = kept
        self.fails = fails
        self.received: list[Any] = []

    async def __call__(self, args: dict[str, Any]) -> Any:
        self.received.append(copy.deepcopy(args))
        for kept in self.kept:  # after approval: must change nothing the tool sees
            kept["changed"] = "after approval"
            for value in kept.values():
                if isinstance(value, list):
                    value.append("after approval")
        await anyio.lowlevel.checkpoint()
        if self.fails:
            raise ValueError("the tool failed")
        return {"ran": copy.deepcopy(args)}


async def outcome(
    path: str, action: str, args: dict[str, Any], on_error: str, approves: bool | None, fails: bool
) -> tuple[Any, ...]:
    bus = Bus(log_level=None, approver=None if approves is None else (lambda call: approves))
    seen: list[ToolCall] = []
    kept: list[dict[str, Any]] = []
    bus.intercept("tool.before", gate_handler(action, seen, kept), id="gate", on_error=on_error)  # type: ignore[arg-type]
    plan = bus._plan("exec", None)
    assert plan.gate is not None  # one sync handler, nobody observing: a gate
    given = copy.deepcopy(args)
    tool = Tool(kept, fails)
    if path == "gate":
        result = await bus.call_tool("exec", given, tool)
    elif path == "stack":
        plan.gate = None  # the same plan, through its compiled stack
        result = await bus.call_tool("exec", given, tool)
    else:
        result = (await bus.run_tool("exec", given, tool)).result
    call = seen[0]
    return (
        result,
        tool.received,
        given == args,  # the caller's dict is never changed
        call.decision,
        call.block_reason,
        call.blocked_by,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    action=st.sampled_from(ACTIONS),
    args=st.dictionaries(
        st.text(max_size=5),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
            lambda inner: (
                st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
            ),
            max_leaves=6,
        ),
        max_size=4,
    ),
    on_error=st.sampled_from(["block", "continue"]),
    approves=st.sampled_from([None, True, False]),
    fails=st.booleans(),
)
def test_the_gate_gives_what_the_stack_and_the_pipeline_give(
    anyio_backend: str, action: str, args: dict[str, Any], on_error: str, approves: bool | None, fails: bool
) -> None:
    async def scenario() -> None:
        through_gate = await outcome("gate", action, args, on_error, approves, fails)
        assert through_gate == await outcome("stack", action, args, on_error, approves, fails)
        assert through_gate == await outcome("pipeline", action, args, on_error, approves, fails)
        result, received = through_gate[0], through_gate[1]
        if action in ("block", "awaits-then-blocks") or (action == "raise" and on_error == "block"):
            assert result["status"] == "blocked"
            assert received == []
        if received:  # what the tool got is what was approved, never the later changes
            assert "changed" not in received[0]

    anyio.run(scenario, backend=anyio_backend)


async def test_only_one_sync_handler_with_nobody_observing_is_a_gate() -> None:
    def check(call: ToolCall) -> None:
        pass

    async def check_async(call: ToolCall) -> None:
        pass

    async def middleware(call: ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    def gate_of(**setup: Any) -> Any:
        bus = Bus(log_level=setup.pop("log_level", None))
        for index, (point, handler, kind) in enumerate(setup.pop("layers")):
            bus.registry.add(point, handler, kind=kind, id=f"layer-{index}")
        if setup.pop("observed", False):
            bus.on_event(lambda record: None, level="warning")
        return bus._plan("exec", None).gate

    assert gate_of(layers=[("tool.before", check, "handler")]) is check
    assert gate_of(layers=[("tool.before", check, "handler"), ("tool.before", check, "handler")]) is None
    assert gate_of(layers=[("tool.before", check_async, "handler")]) is None
    assert gate_of(layers=[("tool.before", middleware, "middleware")]) is None
    assert gate_of(layers=[("tool.before", check, "handler"), ("tool.after", check, "handler")]) is None
    assert gate_of(layers=[("tool.before", check, "handler")], observed=True) is None
    assert gate_of(layers=[("tool.before", check, "handler")], log_level="info") is None


async def test_the_fast_path_builds_the_call_its_constructor_builds() -> None:
    """call_tool builds the call inline: the same fields as ToolCall(...), with and without a
    parent agent around it."""
    seen: list[ToolCall] = []
    bus = Bus(log_level=None)
    bus.intercept("tool.before", seen.append, id="sees")
    names = (
        "tool", "args", "call_id", "agent_id", "session_key", "kind", "decision", "block_reason",
        "blocked_by", "notes", "tool_error", "execute", "parent_agent_id", "blocked",
    )  # fmt: skip
    for parent in (None, "planner"):
        with running(parent):
            await bus.call_tool("exec", {"command": "ls"}, lambda args: "ok", call_id="c1", agent_id="coder")
            made = ToolCall("exec", {"command": "ls"}, "c1", "coder", None, "exec")
        built = seen[-1]
        assert type(built) is ToolCall
        assert {name: getattr(built, name) for name in names} == {name: getattr(made, name) for name in names}
        assert built.parent_agent_id == parent


async def test_a_copy_of_a_call_decides_on_its_own() -> None:
    """What a call rarely needs lives in a state made on first write: a copy gets its own, so
    a block on the copy stays the copy's (a shallow copy still shares the notes list, as before)."""
    call = ToolCall("exec", {"command": "ls"})
    twin = copy.copy(call)
    twin.block("the copy says no")
    assert (call.decision, call.block_reason, call.blocked) == (None, None, False)
    call.ask("a person decides")
    call.notes.append("on the call")
    again = copy.copy(call)
    assert (again.decision, again.block_reason) == ("ask", "a person decides")
    again.block("the second copy says no")
    assert (call.decision, call.block_reason) == ("ask", "a person decides")
    assert again.notes is call.notes
    shadow = call.shadow_copy()
    assert isinstance(shadow, ToolCall)
    shadow.notes.append("on the shadow")  # a deep copy: nothing reaches the call
    shadow.block("the shadow says no")
    assert call.notes == ["on the call"]
    assert call.decision == "ask"

"""Events: read-only context, type-checked fields, the veto contract, diffs."""

from __future__ import annotations

from typing import Any

import pytest

from agentbus import Lifecycle, Message, Params, ToolCall, ToolResult


def make_message() -> Message:
    return Message(message="hi", agent_id="main", session_key="s", provider="anthropic", model="m")


def make_params() -> Params:
    return Params(message="hi", metadata={"a": 1}, agent_id="main", provider="anthropic", model="m")


def make_call() -> ToolCall:
    return ToolCall(tool="exec", args={"command": "ls"}, call_id="c1", agent_id="main", session_key="s")


def make_result() -> ToolResult:
    return ToolResult(tool="exec", args={"command": "ls"}, result="out", call_id="c1")


READ_ONLY = [
    (make_message, ["agent_id", "session_key", "provider", "model"]),
    (make_params, ["agent_id", "session_key", "provider", "model", "message", "metadata"]),
    (make_call, ["tool", "call_id", "agent_id", "session_key", "block_reason", "decision"]),
    (
        make_result,
        [
            "tool",
            "args",
            "call_id",
            "agent_id",
            "session_key",
            "error",
            "blocked",
            "block_reason",
            "duration",
        ],
    ),
    (
        lambda: Lifecycle(point="session", reason="start"),
        ["point", "agent_id", "reason", "data", "cancelled"],
    ),
]


@pytest.mark.parametrize(
    ("factory", "field"),
    [(factory, field) for factory, fields in READ_ONLY for field in fields],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_read_only_context_raises_attribute_error(factory: Any, field: str) -> None:
    event = factory()
    before = getattr(event, field)
    with pytest.raises(AttributeError):
        setattr(event, field, "changed")
    assert getattr(event, field) == before


def test_events_refuse_new_attributes() -> None:
    with pytest.raises(AttributeError):
        make_call().colour = "red"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("factory", "field", "value", "error"),
    [
        (make_message, "message", 3, TypeError),
        (make_message, "message", None, TypeError),
        (make_message, "metadata", [("a", 1)], TypeError),
        (make_call, "args", "ls", TypeError),
        (make_params, "think_level", "extreme", ValueError),
        (make_params, "reasoning_level", "maybe", ValueError),
        (make_params, "temperature", "hot", TypeError),
        (make_params, "temperature", True, TypeError),
        (make_params, "temperature", -0.1, ValueError),
        (make_params, "temperature", float("nan"), ValueError),
        (make_params, "temperature", float("inf"), ValueError),
    ],
)
def test_assignments_are_type_checked(factory: Any, field: str, value: Any, error: type[Exception]) -> None:
    event = factory()
    before = getattr(event, field)
    with pytest.raises(error, match=field):
        setattr(event, field, value)
    assert getattr(event, field) == before


def test_valid_assignments_are_kept() -> None:
    params = make_params()
    params.think_level = "high"
    params.reasoning_level = "on"
    params.temperature = 1
    assert (params.think_level, params.reasoning_level, params.temperature) == ("high", "on", 1.0)
    assert isinstance(params.temperature, float)
    params.think_level = None
    assert params.think_level is None
    message = make_message()
    message.message = "changed"
    message.metadata = {"k": "v"}
    assert (message.message, message.metadata) == ("changed", {"k": "v"})


def test_first_block_reason_wins_and_a_block_cannot_be_lifted() -> None:
    call = make_call()
    call.block("first")
    call.block("second")
    call.ask("third")
    assert call.blocked
    assert call.decision == "block"
    assert call.block_reason == "first"


def test_block_overrides_an_earlier_ask() -> None:
    call = make_call()
    call.ask("please confirm")
    call.ask("again")
    assert (call.decision, call.block_reason) == ("ask", "please confirm")
    call.block("no")
    assert (call.decision, call.block_reason) == ("block", "no")


def test_empty_reasons_get_a_default_and_non_strings_are_refused() -> None:
    call = make_call()
    with pytest.raises(TypeError):
        call.block(None)  # type: ignore[arg-type]
    assert not call.blocked
    call.block("")
    assert call.block_reason == "blocked"


def test_tool_result_is_error_for_errors_and_blocks() -> None:
    assert not make_result().is_error
    assert ToolResult(tool="exec", args={}, error=OSError("x")).is_error
    assert ToolResult(tool="exec", args={}, blocked=True, block_reason="no").is_error


def test_only_before_session_events_can_be_cancelled() -> None:
    event = Lifecycle(point="session", reason="before_clear")
    event.cancel()
    assert event.cancelled
    for point, reason in [("session", "clear"), ("agent.start", "before_x"), ("session", None)]:
        with pytest.raises(ValueError, match="before_"):
            Lifecycle(point=point, reason=reason).cancel()


def test_diffs_name_fields_with_old_and_new_values() -> None:
    call = make_call()
    before = call.snapshot()
    call.args["command"] = "ls -la"
    call.args["cwd"] = "/tmp"
    call.block("no")
    assert call.diff(before, call.snapshot()) == {
        "args.command": ("ls", "ls -la"),
        "args.cwd": (None, "/tmp"),
        "decision": (None, "block"),
    }
    message = make_message()
    before = message.snapshot()
    message.metadata["complexity"] = "high"
    assert message.diff(before, message.snapshot()) == {"metadata.complexity": (None, "high")}
    params = make_params()
    before = params.snapshot()
    params.think_level = "high"
    assert params.diff(before, params.snapshot()) == {"think_level": (None, "high")}


def test_tool_result_diff_sees_in_place_mutation_and_replacement() -> None:
    event = ToolResult(tool="read", args={}, result={"text": "a"})
    before = event.snapshot()
    assert event.diff(before, event.snapshot()) == {}
    event.result["text"] = "b"
    assert event.diff(before, event.snapshot()) == {"result": ({"text": "a"}, {"text": "b"})}
    event = ToolResult(tool="read", args={}, result="a")
    before = event.snapshot()
    event.result = "b"
    assert event.diff(before, event.snapshot()) == {"result": ("a", "b")}


def test_shadow_copy_is_independent() -> None:
    call = make_call()
    copy = call.shadow_copy()
    assert isinstance(copy, ToolCall)
    copy.args["command"] = "rm"
    copy.block("no")
    assert call.args == {"command": "ls"}
    assert not call.blocked

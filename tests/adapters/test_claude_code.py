"""The Claude Code hook protocol in process: mapping, replies, and random input."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentbus
from agentbus.adapters import claude_code as protocol
from agentbus.hook import build_registry

pytestmark = pytest.mark.anyio


def deny_everything(call: agentbus.ToolCall) -> None:
    call.block("nothing runs")


def deny_all_bus() -> agentbus.Bus:
    registry = agentbus.Registry()
    registry.declare_tools(*protocol.CLAUDE_CODE_TOOLS.values())
    registry.add("tool.before", deny_everything, id="test:deny-all")
    return agentbus.Bus(registry, log_level=None)


@pytest.mark.parametrize(
    ("claude", "canonical"),
    [
        ("Bash", "exec"),
        ("Read", "read"),
        ("Write", "write"),
        ("Edit", "edit"),
        ("MultiEdit", "edit"),
        ("NotebookEdit", "edit"),
        ("Glob", "glob"),
        ("Grep", "grep"),
        ("WebFetch", "web_fetch"),
        ("WebSearch", "web_search"),
        ("Task", "task"),
        ("mcp__github__create_issue", "mcp__github__create_issue"),
    ],
)
def test_tool_names_map_to_canonical_names(claude: str, canonical: str) -> None:
    assert protocol.canonical_tool(claude) == canonical


def test_args_round_trip_between_claude_and_canonical_names() -> None:
    tool_input = {"file_path": "/a", "old_string": "x", "new_string": "y"}
    args = protocol.canonical_args("Edit", tool_input)
    assert args == {"path": "/a", "old_string": "x", "new_string": "y"}
    assert protocol.claude_args("Edit", args) == tool_input
    assert protocol.canonical_args("Bash", {"command": "ls"}) == {"command": "ls"}


def test_built_in_guards_come_from_the_default_installer(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no configuration the registry holds what agentbus.middleware.builtin installs."""
    from agentbus.middleware import builtin

    def install(registry: agentbus.Registry, **options: Any) -> None:
        registry.add("tool.before", deny_everything, id="builtin:marker")

    monkeypatch.setattr(builtin, "install", install)
    monkeypatch.delenv("AGENTBUS_CONFIG", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.chdir("/")
    registry, audit_log = build_registry(None, [])
    assert "builtin:marker" in registry
    assert audit_log is None


async def test_glob_and_grep_matchers_are_accepted_on_the_hook_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Claude Code's tool names are declared, so policies may match them."""
    monkeypatch.delenv("AGENTBUS_CONFIG", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.chdir("/")
    registry, _ = build_registry(None, [])
    registry.add("tool.before", deny_everything, id="test:glob", tool="^glob$")
    bus = agentbus.Bus(registry, log_level=None)
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Glob", "tool_input": {"pattern": "*"}}
    reply = await protocol.handle(bus, payload)
    assert reply.output is not None
    assert reply.output["hookSpecificOutput"]["permissionDecision"] == "deny"


async def test_ask_with_rewritten_args_sends_both() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool="exec")
    def rewrite_and_ask(call: agentbus.ToolCall) -> None:
        call.args["command"] += " --dry-run"
        call.ask("check the dry run")

    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "deploy"}}
    reply = await protocol.handle(bus, payload)
    assert reply.output == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "check the dry run",
            "updatedInput": {"command": "deploy --dry-run"},
        }
    }


def test_reply_stdout_is_one_json_object_or_nothing() -> None:
    assert protocol.HookReply().stdout() == ""
    assert json.loads(protocol.deny("no").stdout())["hookSpecificOutput"]["permissionDecision"] == "deny"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)
events = st.sampled_from(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "", "x"])
payloads = st.dictionaries(
    st.sampled_from(["hook_event_name", "tool_name", "tool_input", "tool_response", "prompt", "session_id"])
    | st.text(max_size=5),
    json_values,
) | st.fixed_dictionaries(
    {"hook_event_name": events},
    optional={
        "tool_name": st.sampled_from(["Bash", "Read", "Edit", "mcp__a__b"]) | json_values,
        "tool_input": st.dictionaries(st.sampled_from(["command", "file_path", "path"]), json_values)
        | json_values,
        "tool_response": json_values,
        "prompt": st.text() | json_values,
        "session_id": json_values,
        "tool_use_id": json_values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=payloads)
def test_random_events_never_raise_and_never_allow_what_a_guard_denies(payload: dict[str, Any]) -> None:
    """Any JSON object: a reply with exit code 0 or 1; a well-formed PreToolUse is denied."""
    bus = deny_all_bus()
    try:
        data = json.dumps(payload).encode()
        parsed = protocol.parse_payload(data)
    except protocol.HookInputError:
        return
    reply = anyio.run(protocol.handle, bus, parsed)
    assert reply.exit_code in (0, 1)
    if reply.exit_code == 1:
        assert (reply.stderr or "").startswith("agentbus: ")
        assert reply.output is None
    else:
        json.loads(reply.stdout() or "{}")
    well_formed = isinstance(parsed.get("tool_name"), str) and isinstance(parsed.get("tool_input"), dict)
    if parsed["hook_event_name"] == "PreToolUse" and well_formed:
        assert reply.output is not None
        assert reply.output["hookSpecificOutput"]["permissionDecision"] == "deny"


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=200))
def test_random_bytes_are_parsed_or_refused_with_a_message(data: bytes) -> None:
    try:
        payload = protocol.parse_payload(data)
    except protocol.HookInputError as exc:
        message = str(exc)
        assert message
    else:
        assert isinstance(payload["hook_event_name"], str)


def test_deeply_nested_input_is_refused_not_crashed() -> None:
    with pytest.raises(protocol.HookInputError):
        protocol.parse_payload(b"[" * 100_000 + b"]" * 100_000)

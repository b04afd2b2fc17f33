"""The Claude Agent SDK adapter's binding, with the SDK's own types and without its CLI.

What the CLI then does with these answers is checked in tests/e2e/test_claude_agent_sdk.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from claude_agent_sdk import (
    ClaudeAgentOptions,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    ToolPermissionContext,
)

from agentbus import Bus, Registry, ToolCall
from agentbus.adapters import claude_code
from agentbus.adapters.claude_agent_sdk import EVENTS, HookFailedError, bind
from agentbus.middleware import builtin, redact

pytestmark = pytest.mark.anyio


def guarded(**approver: Any) -> Bus:
    registry = Registry()
    builtin.install(registry)
    redact.install(registry)
    registry.add("tool.before", ask_when_told, id="test:ask", tool="exec")
    return Bus(registry, log_level=None, **approver)


def ask_when_told(call: ToolCall) -> None:
    if "please-ask" in str(call.args.get("command")):
        call.ask("a person decides")


def callback(options: ClaudeAgentOptions, event: str = "PreToolUse") -> Any:
    assert options.hooks is not None
    return options.hooks[event][0].hooks[0]  # type: ignore[index]


def bash(command: str, tool_use_id: str = "toolu_1") -> dict[str, Any]:
    return {
        "hook_event_name": "PreToolUse",
        "session_id": "s1",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": tool_use_id,
    }


def test_every_event_gets_a_fail_closed_matcher_first_and_the_users_hooks_stay() -> None:
    async def mine(input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        return {}

    own = HookMatcher(matcher="Bash", hooks=[mine])
    options = bind(guarded(), ClaudeAgentOptions(hooks={"PreToolUse": [own]}), timeout=12)
    assert options.hooks is not None
    assert set(options.hooks) == set(EVENTS)
    for event in EVENTS:
        first = options.hooks[event][0]  # type: ignore[index]
        assert (first.on_failure, first.timeout, first.matcher) == ("block", 12.0, None), event
    assert options.hooks["PreToolUse"][1] is own
    assert options.can_use_tool is not None


def test_bad_options_are_refused_with_what_to_do() -> None:
    with pytest.raises(ValueError, match="permission_prompt_tool_name"):
        bind(Bus(log_level=None), ClaudeAgentOptions(permission_prompt_tool_name="mcp__x__prompt"))
    with pytest.raises(TypeError, match="ClaudeAgentOptions"):
        bind(Bus(log_level=None), {"cwd": "."})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rewrite_decision"):
        bind(Bus(log_level=None), rewrite_decision="approve")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout"):
        bind(Bus(log_level=None), timeout=0)


@pytest.mark.parametrize(
    "event",
    [
        bash("rm -rf /"),
        bash("ls"),
        {
            "hook_event_name": "PostToolUse",
            "session_id": "s1",
            "tool_name": "Bash",
            "tool_input": {"command": "cat .env"},
            "tool_response": {"stdout": "key AKIAIOSFODNN7EXAMPLE", "stderr": "", "interrupted": False},
            "tool_use_id": "toolu_2",
        },
        {"hook_event_name": "SubagentStart", "session_id": "s1", "agent_id": "a1", "agent_type": "explore"},
    ],
)
async def test_the_answer_is_the_command_hooks(event: dict[str, Any]) -> None:
    """One function per event: the SDK callback returns what claude_code.handle answers."""
    expected = await claude_code.handle(guarded(), event)
    answer = await callback(bind(guarded()), event["hook_event_name"])(event, None, {"signal": None})
    assert answer == (expected.output or {})


async def test_an_event_it_cannot_read_is_a_failure_the_cli_blocks_on() -> None:
    options = bind(guarded())
    with pytest.raises(HookFailedError, match="prompt"):
        await callback(options, "UserPromptSubmit")({"hook_event_name": "UserPromptSubmit"}, None, {})


async def test_an_asked_call_goes_to_the_approver_and_a_reused_id_does_not() -> None:
    approved: list[ToolCall] = []

    def approver(call: ToolCall) -> bool:
        approved.append(call)
        return True

    options = bind(guarded(approver=approver))
    hook, can_use_tool = callback(options), options.can_use_tool
    assert can_use_tool is not None
    asked = await hook(bash("touch a # please-ask", "toolu_9"), "toolu_9", {})
    assert asked["hookSpecificOutput"]["permissionDecision"] == "ask"
    # The same id again, for another call that nobody asked about: the old ask is gone.
    await hook(bash("touch b", "toolu_9"), "toolu_9", {})
    context = ToolPermissionContext(tool_use_id="toolu_9")
    other = await can_use_tool("Bash", {"command": "touch a # please-ask"}, context)
    assert isinstance(other, PermissionResultDeny)
    assert approved == []
    await hook(bash("touch c # please-ask", "toolu_10"), "toolu_10", {})
    # An input other than the one asked about is not the asked call.
    changed = await can_use_tool(
        "Bash", {"command": "rm -rf /"}, ToolPermissionContext(tool_use_id="toolu_10")
    )
    assert isinstance(changed, PermissionResultDeny)
    assert approved == []
    await hook(bash("touch c # please-ask", "toolu_11"), "toolu_11", {})
    allowed = await can_use_tool(
        "Bash", {"command": "touch c # please-ask"}, ToolPermissionContext(tool_use_id="toolu_11")
    )
    assert allowed == PermissionResultAllow(updated_input={"command": "touch c # please-ask"})
    assert [call.args["command"] for call in approved] == ["touch c # please-ask"]

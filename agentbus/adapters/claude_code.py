"""Claude Code's hooks protocol: one JSON event in, a decision out.

Claude Code runs a hook for each event and hands it one JSON object (on stdin
for a command hook, as the POST body for an HTTP hook). This module turns
that object into a bus call and the bus's answer into the reply Claude Code
documents (code.claude.com/docs/en/hooks), for three events:

- **PreToolUse** runs tool.before (:meth:`Bus.decide_tool`). A block becomes
  ``permissionDecision: "deny"`` with the reason (shown to Claude), an ask
  becomes ``"ask"`` (the reason is shown to the user), changed arguments
  become ``updatedInput`` in Claude Code's own field names (``file_path``, not
  ``path``) with ``"allow"``, since Claude Code applies ``updatedInput`` only
  together with a decision; ``call.notes`` become ``additionalContext``.
- **PostToolUse** runs tool.after (:meth:`Bus.finish_tool`) on
  ``tool_response``. The tool has already run, so nothing can be undone. A
  layer that replaces the result sets ``updatedToolOutput`` (Claude Code
  2.1.121 and later, every tool) and, for MCP tools, ``updatedMCPToolOutput``
  (older versions honour only that one); a result replaced by a blocked
  result (``{"status": "blocked", "reason": ...}``) becomes ``decision:
  "block"``, which feeds the reason back to Claude.
- **UserPromptSubmit** runs message.before (:meth:`Bus.process_message`).
  Claude Code cannot replace the prompt: a rewritten prompt and new metadata
  tags reach Claude as ``additionalContext``; a layer that sets
  ``metadata[BLOCK_PROMPT]`` to a reason blocks the prompt (Claude Code erases
  it and shows the reason to the user).

Every other event passes through: no output, exit code 0. Nothing to say is
also no output and exit code 0 (seed 002's pass-through). Input that is not a
hook event gets a message on stderr and exit code 1, which Claude Code
documents as a non-blocking error. PreToolUse fails closed: whatever goes
wrong while it is being decided denies the call with the reason.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from ..bus import Bus
from ..errors import AgentbusError
from ..events import ToolCall
from ..tools import normalize_tool_name

__all__ = [
    "BLOCK_PROMPT",
    "CLAUDE_CODE_TOOLS",
    "HANDLED_EVENTS",
    "MAX_PAYLOAD_BYTES",
    "HookInputError",
    "HookReply",
    "RewriteDecision",
    "canonical_args",
    "canonical_tool",
    "claude_args",
    "decide",
    "deny",
    "handle",
    "parse_payload",
    "payload_too_large",
    "post_tool_use",
    "pre_tool_use_reply",
    "user_prompt_submit",
]

MAX_PAYLOAD_BYTES: Final = 16 * 1024 * 1024
"""The default limit on one hook event: Claude Code truncates tool output long before this."""

BLOCK_PROMPT: Final = "agentbus.block_prompt"
"""A message.before layer sets ``metadata[BLOCK_PROMPT] = "reason"`` to block a prompt."""

HANDLED_EVENTS: Final = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit"})

RewriteDecision = Literal["allow", "ask"]

CLAUDE_CODE_TOOLS: Mapping[str, str] = {
    "Bash": "exec",
    "BashOutput": "process",
    "KillShell": "process",
    "KillBash": "process",
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "edit",
    "NotebookEdit": "edit",
    "NotebookRead": "read",
    "Glob": "glob",
    "Grep": "grep",
    "LS": "ls",
    "WebFetch": "web_fetch",
    "WebSearch": "web_search",
    "Task": "task",
    "Agent": "task",
    "TodoWrite": "todo_write",
}
"""Claude Code's built-in tool names -> canonical names. Anything else (MCP tools
``mcp__server__tool``, new tools) is normalised as it is: lower case."""

_PATH_FIELDS: Mapping[str, str] = {
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "NotebookRead": "notebook_path",
}
"""Tools whose file argument has Claude Code's own name; canonically it is ``path``."""

_PRE_TOOL_USE_PREFIX = re.compile(rb'"hook_event_name"\s*:\s*"PreToolUse"')


class HookInputError(AgentbusError, ValueError):
    """The input is not a Claude Code hook event; the message says what is wrong."""


@attrs.frozen
class HookReply:
    """What a hook answers: an exit code, a JSON object for stdout, a message for stderr."""

    exit_code: int = 0
    output: dict[str, Any] | None = None
    stderr: str | None = None

    def stdout(self) -> str:
        """The stdout text: the JSON object, or nothing."""
        return "" if self.output is None else json.dumps(self.output, ensure_ascii=False)


PASS: Final = HookReply()


# -- names and arguments ----------------------------------------------------------------


def canonical_tool(name: str) -> str:
    """Claude Code's tool name -> the canonical one: ``"Bash"`` -> ``"exec"``."""
    return CLAUDE_CODE_TOOLS.get(name) or normalize_tool_name(name)


def canonical_args(tool_name: str, tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """Claude Code's ``tool_input`` -> canonical args (``file_path`` -> ``path``)."""
    args = dict(tool_input)
    field = _PATH_FIELDS.get(tool_name)
    if field is not None and field in args:
        args["path"] = args.pop(field)
    return args


def claude_args(tool_name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical args -> Claude Code's ``tool_input`` (``path`` -> ``file_path``)."""
    tool_input = dict(args)
    field = _PATH_FIELDS.get(tool_name)
    if field is not None and "path" in tool_input:
        tool_input[field] = tool_input.pop("path")
    return tool_input


# -- input ------------------------------------------------------------------------------


def parse_payload(data: bytes | str) -> dict[str, Any]:
    """Decode one hook event; raise :class:`HookInputError` saying what is wrong."""
    if not data.strip():
        raise HookInputError("no input: a Claude Code hook reads one JSON object on stdin")
    try:
        payload = json.loads(data)
    except UnicodeDecodeError as exc:
        raise HookInputError(f"the input is not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise HookInputError(f"the input is not valid JSON ({exc})") from None
    if not isinstance(payload, dict):
        raise HookInputError(f"expected a JSON object, got {type(payload).__name__}")
    event = payload.get("hook_event_name")
    if not isinstance(event, str) or not event:
        raise HookInputError("the event has no 'hook_event_name' string: is this a Claude Code hook event?")
    return payload


def payload_too_large(head: bytes, size: int, limit: int) -> HookReply:
    """The reply to an event larger than ``limit`` bytes, judged by its first bytes.

    A PreToolUse event is denied, since nothing could check it (a huge Write
    must not slip past the guards); any other event is a non-blocking error.
    """
    message = f"the hook event is larger than the limit of {limit} bytes ({size} bytes read)"
    if _PRE_TOOL_USE_PREFIX.search(head[:65536]):
        return deny(f"agentbus could not check this call: {message}")
    return HookReply(exit_code=1, stderr=f"agentbus: {message}; raise it with --max-bytes")


def unreadable(data: bytes, error: HookInputError) -> HookReply:
    """The reply to input that cannot be read as a hook event.

    If it looks like a PreToolUse event, the call is denied (nothing could
    check it); anything else is a non-blocking error on stderr.
    """
    if _PRE_TOOL_USE_PREFIX.search(data[:65536]):
        return deny(f"agentbus could not check this call: {error}")
    return HookReply(exit_code=1, stderr=f"agentbus: {error}")


def deny(reason: str) -> HookReply:
    """A PreToolUse reply that denies the call; Claude sees the reason."""
    return HookReply(
        output={
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    )


def _require(payload: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    value = payload.get(key)
    if not isinstance(value, kind):
        event = payload.get("hook_event_name")
        raise HookInputError(f"{event} event without {what} in {key!r}")
    return value


def _optional_str(payload: Mapping[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) else None


# -- the events -------------------------------------------------------------------------


async def handle(
    bus: Bus,
    payload: Mapping[str, Any],
    *,
    rewrite_decision: RewriteDecision = "allow",
) -> HookReply:
    """Answer one parsed hook event. Never raises (except cancellation).

    ``rewrite_decision`` is the permission decision sent with ``updatedInput``:
    "allow" (seed 002; Claude Code's deny and ask rules still apply) or "ask"
    (a person confirms every rewritten call).
    """
    event = payload.get("hook_event_name")
    try:
        if event == "PreToolUse":
            call = await decide(bus, payload)
            return pre_tool_use_reply(
                call, payload["tool_name"], payload["tool_input"], rewrite_decision=rewrite_decision
            )
        if event == "PostToolUse":
            return await post_tool_use(bus, payload)
        if event == "UserPromptSubmit":
            return await user_prompt_submit(bus, payload)
        return PASS
    except HookInputError as exc:
        if event == "PreToolUse":  # a call nothing could check is not let through
            return deny(f"agentbus could not check this call: {exc}")
        return HookReply(exit_code=1, stderr=f"agentbus: {exc}")
    except Exception as exc:
        failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if event == "PreToolUse":
            return deny(f"agentbus failed while checking this call ({failure}); denied to be safe")
        return HookReply(exit_code=1, stderr=f"agentbus: {event} failed: {failure}")


async def decide(bus: Bus, payload: Mapping[str, Any]) -> ToolCall:
    """Run tool.before for a PreToolUse event; return the decided call."""
    tool_name = _require(payload, "tool_name", str, "a tool name")
    tool_input = _require(payload, "tool_input", dict, "the tool's arguments")
    return await bus.decide_tool(
        canonical_tool(tool_name),
        canonical_args(tool_name, tool_input),
        call_id=_optional_str(payload, "tool_use_id"),
        agent_id=_optional_str(payload, "agent_id"),
        session_key=_optional_str(payload, "session_id"),
    )


def pre_tool_use_reply(
    call: ToolCall,
    tool_name: str,
    tool_input: Mapping[str, Any],
    *,
    rewrite_decision: RewriteDecision = "allow",
    approved: bool = False,
) -> HookReply:
    """The PreToolUse reply for a decided call.

    ``approved``: a person already approved this call, so an "ask" lets it run.
    """
    decision = None if approved and call.decision == "ask" else call.decision
    output: dict[str, Any] = {"hookEventName": "PreToolUse"}
    if decision == "block":
        reason = call.block_reason or "blocked"
        if call.blocked_by:
            reason = f"{reason} (agentbus: {call.blocked_by})"
        output["permissionDecision"] = "deny"
        output["permissionDecisionReason"] = reason
    else:
        updated = claude_args(tool_name, call.args)
        if decision == "ask":
            output["permissionDecision"] = "ask"
            output["permissionDecisionReason"] = call.block_reason or "agentbus asks for approval"
        elif updated != tool_input:
            output["permissionDecision"] = rewrite_decision
            output["permissionDecisionReason"] = "agentbus rewrote the tool's arguments"
        if updated != tool_input:
            output["updatedInput"] = updated
    if call.notes:
        output["additionalContext"] = "\n".join(call.notes)
    if len(output) == 1:
        return PASS
    return HookReply(output={"hookSpecificOutput": output})


async def post_tool_use(bus: Bus, payload: Mapping[str, Any]) -> HookReply:
    """Run tool.after on ``tool_response``; report what Claude Code lets a hook report."""
    tool_name = _require(payload, "tool_name", str, "a tool name")
    tool_input = payload.get("tool_input")
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    if "tool_response" not in payload:
        raise HookInputError("PostToolUse event without 'tool_response'")
    response = payload["tool_response"]
    original = copy.deepcopy(response)
    finished = await bus.finish_tool(
        canonical_tool(tool_name),
        canonical_args(tool_name, tool_input),
        response,
        call_id=_optional_str(payload, "tool_use_id"),
        agent_id=_optional_str(payload, "agent_id"),
        session_key=_optional_str(payload, "session_id"),
    )
    result = finished.result
    if result == original:
        return PASS
    if isinstance(result, dict) and result.get("status") == "blocked":
        reason = result.get("reason")
        return HookReply(output={"decision": "block", "reason": str(reason or "blocked by agentbus")})
    specific: dict[str, Any] = {
        "hookEventName": "PostToolUse",
        "updatedToolOutput": result if isinstance(result, str) else json.dumps(result, default=repr),
    }
    if tool_name.startswith("mcp__"):
        specific["updatedMCPToolOutput"] = result
    return HookReply(output={"hookSpecificOutput": specific})


async def user_prompt_submit(bus: Bus, payload: Mapping[str, Any]) -> HookReply:
    """Run message.before on the prompt: a block, or additional context for Claude."""
    prompt = _require(payload, "prompt", str, "the prompt text")
    message = await bus.process_message(
        prompt,
        agent_id=_optional_str(payload, "agent_id") or "main",
        session_key=_optional_str(payload, "session_id"),
        provider="anthropic",
    )
    metadata = dict(message.metadata)
    block = metadata.pop(BLOCK_PROMPT, None)
    if block:
        return HookReply(output={"decision": "block", "reason": str(block)})
    context = []
    if message.message != prompt:
        context.append("agentbus rewrote the user's prompt; act on this version of it:\n" + message.message)
    if metadata:
        tags = json.dumps(metadata, ensure_ascii=False, default=repr, sort_keys=True)
        context.append(f"agentbus tagged the prompt: {tags}")
    if not context:
        return PASS
    return HookReply(
        output={
            "hookSpecificOutput": {
                "hookEventName": "UserPromptSubmit",
                "additionalContext": "\n\n".join(context),
            }
        }
    )

"""The Claude Agent SDK: agentbus's Claude Code answers as in-process hooks.

The SDK (``pip install "agentbus[claude-agent-sdk]"``) runs the Claude Code
CLI and answers its hooks with Python callbacks over the CLI's control
channel, so no process starts per tool call. :func:`bind` gives a
``ClaudeAgentOptions`` one hook matcher per event agentbus answers, each
callback handing the event to :func:`agentbus.adapters.claude_code.handle`,
the function the command hook and `agentbus serve` call: the same decisions,
output shapes, rewrite modes, blocked output withheld, lifecycle points and
sub-agent attribution (``agent_id = "<agent_type>:<id>"``).

- Every matcher has ``on_failure="block"`` and a ``timeout``: a callback that
  fails or runs past its time blocks the tool call (or the prompt), as the
  command hook's ``"onFailure": "block"`` does. Whatever fails while a
  PreToolUse is being decided denies the call with the reason.
- A layer's "ask" becomes ``permissionDecision: "ask"``, which the CLI hands
  to ``can_use_tool`` in every permission mode (bypassPermissions too); the
  ``can_use_tool`` that :func:`bind` installs answers it with the bus's
  approver (``Bus(approver=...)``; none denies). Claude Code's own permission
  requests go to your ``can_use_tool`` if the options had one, else they are
  denied, as they are in the SDK without one.
- Tools of your own (an in-process MCP server's ``mcp__tools__run_shell``) get
  their kind from ``tool_kinds``, so the guards judge them like ``Bash``.

The SDK offers no SessionStart or SessionEnd hooks to Python callbacks, so the
``session`` point runs only for compaction (PreCompact).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from ..errors import AgentbusError
from ..events import ToolCall
from . import claude_code as protocol

if TYPE_CHECKING:
    from claude_agent_sdk import (
        ClaudeAgentOptions,
        HookContext,
        HookJSONOutput,
        PermissionResult,
        ToolPermissionContext,
    )
    from claude_agent_sdk.types import CanUseTool

    from ..bus import Bus

__all__ = ["EVENTS", "AgentbusHooks", "HookFailedError", "bind"]

EVENTS: Final = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
)
"""The SDK's hook events agentbus answers (its Python callbacks get no SessionStart/End)."""

DEFAULT_TIMEOUT: Final = 30.0
_MEMORY_LIMIT: Final = 10_000


class HookFailedError(AgentbusError, RuntimeError):
    """agentbus could not answer an event; the CLI's ``on_failure="block"`` blocks what it was about."""


class AgentbusHooks:
    """The hook callbacks and ``can_use_tool`` of one bus; :func:`bind` is the usual way in.

    It remembers the calls it answered "ask" (by tool_use_id, with the input
    Claude Code will run), so that ``can_use_tool`` puts exactly that call to
    the approver.
    """

    def __init__(
        self,
        bus: Bus,
        *,
        rewrite_decision: protocol.RewriteDecision = "passthrough",
        timeout: float = DEFAULT_TIMEOUT,
        can_use_tool: CanUseTool | None = None,
    ) -> None:
        if rewrite_decision not in ("passthrough", "allow", "ask"):
            raise ValueError(
                f"rewrite_decision must be 'passthrough', 'allow' or 'ask', got {rewrite_decision!r}"
            )
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r}")
        self.bus = bus
        self.rewrite_decision: protocol.RewriteDecision = rewrite_decision
        self.timeout = float(timeout)
        self.user_can_use_tool = can_use_tool
        self._asked: OrderedDict[str, tuple[ToolCall, str, dict[str, Any]]] = OrderedDict()

    async def hook(self, input: Any, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        """The callback of every event: the command hook's answer, as the SDK takes it."""
        if isinstance(input, Mapping) and input.get("hook_event_name") == "PreToolUse":
            self._asked.pop(str(input.get("tool_use_id")), None)  # a reused id never matches an old ask
        reply = await protocol.handle(
            self.bus,
            input if isinstance(input, Mapping) else {},
            rewrite_decision=self.rewrite_decision,
            on_ask=self._note_ask,
        )
        if reply.exit_code != 0:  # the command hook's exit 1: a failure, which on_failure="block" blocks
            raise HookFailedError(reply.stderr or "agentbus could not answer this event")
        return reply.output or {}  # type: ignore[return-value]  # {}: no opinion (None is a failure)

    async def _note_ask(self, call: ToolCall, payload: Mapping[str, Any]) -> bool:
        """Keep the asked call for can_use_tool; the ask itself goes to Claude Code."""
        tool_use_id = payload.get("tool_use_id")
        if isinstance(tool_use_id, str):
            tool_name = payload["tool_name"]
            self._asked[tool_use_id] = (call, tool_name, protocol.claude_args(tool_name, call.args))
            if len(self._asked) > _MEMORY_LIMIT:
                self._asked.popitem(last=False)
        return False

    async def can_use_tool(
        self, tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResult:
        """Answer a permission request: the bus's approver for agentbus's asks, else yours."""
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

        asked = self._asked.pop(context.tool_use_id or "", None)
        if asked is not None and asked[1] == tool_name and asked[2] == tool_input:
            call = asked[0]
            if await self.bus.approve(call):
                return PermissionResultAllow(updated_input=protocol.claude_args(tool_name, call.args))
            return PermissionResultDeny(message=call.block_reason or "denied by the approver")
        if self.user_can_use_tool is not None:
            return await self.user_can_use_tool(tool_name, tool_input, context)
        return PermissionResultDeny(
            message=f"Claude Code asks permission to use {tool_name} and nothing answers it "
            "(give bind() options with a can_use_tool of your own to answer Claude Code's own prompts)"
        )

    def options(self, options: ClaudeAgentOptions) -> ClaudeAgentOptions:
        """``options`` with agentbus's matcher first on each event and its ``can_use_tool``."""
        from claude_agent_sdk import HookMatcher

        hooks: dict[Any, list[Any]] = {
            event: list(matchers) for event, matchers in (options.hooks or {}).items()
        }
        for event in EVENTS:
            matcher = HookMatcher(matcher=None, hooks=[self.hook], timeout=self.timeout, on_failure="block")
            hooks[event] = [matcher, *hooks.get(event, [])]
        return dataclasses.replace(options, hooks=hooks, can_use_tool=self.can_use_tool)


def bind(
    bus: Bus,
    options: ClaudeAgentOptions | None = None,
    *,
    rewrite_decision: protocol.RewriteDecision = "passthrough",
    timeout: float = DEFAULT_TIMEOUT,
    tool_kinds: Mapping[str, str] | None = None,
) -> ClaudeAgentOptions:
    """A copy of ``options`` whose hooks and ``can_use_tool`` run ``bus``.

    ``rewrite_decision`` is what goes with rewritten arguments, as for the
    command hook ("passthrough": Claude Code's own checks judge the rewritten
    call). ``timeout`` (seconds) bounds each callback; past it the call is
    blocked. ``tool_kinds`` gives tools their kind by the name Claude Code
    gives them (``{"mcp__tools__run_shell": "exec"}``). The options' own hooks
    run as well, and their ``can_use_tool`` answers Claude Code's own
    permission requests.
    """
    from claude_agent_sdk import ClaudeAgentOptions

    if options is None:
        options = ClaudeAgentOptions()
    elif not isinstance(options, ClaudeAgentOptions):
        raise TypeError(
            f"options must be a claude_agent_sdk.ClaudeAgentOptions, got {type(options).__name__}"
        )
    if options.permission_prompt_tool_name:
        raise ValueError(
            "agentbus answers permission requests through can_use_tool, which the SDK cannot combine with "
            f"permission_prompt_tool_name={options.permission_prompt_tool_name!r}: drop that option"
        )
    bus.registry.declare_tools(*protocol.CLAUDE_CODE_TOOLS.values())
    if tool_kinds:
        bus.registry.declare_tools(dict(tool_kinds))
    hooks = AgentbusHooks(
        bus, rewrite_decision=rewrite_decision, timeout=timeout, can_use_tool=options.can_use_tool
    )
    return hooks.options(options)

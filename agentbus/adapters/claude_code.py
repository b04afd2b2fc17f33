"""Claude Code's hooks protocol: one JSON event in, a decision out.

Claude Code runs a hook for each event and hands it one JSON object (on stdin
for a command hook, as the POST body for an HTTP hook). This module turns
that object into a bus call and the bus's answer into the reply Claude Code
documents (code.claude.com/docs/en/hooks); each answer form below was checked
against the real CLI (2.1.332, tests/e2e):

- **PreToolUse** runs tool.before (:meth:`Bus.decide_tool`). A block becomes
  ``permissionDecision: "deny"`` with the reason (shown to Claude), an ask
  becomes ``"ask"`` (the reason is shown to the user), changed arguments
  become ``updatedInput`` in Claude Code's own field names (``file_path``, not
  ``path``). By default (``rewrite_decision="passthrough"``) ``updatedInput``
  goes without a decision: Claude Code runs the rewritten call through its own
  permission checks, as if the model had written it. ``"allow"`` approves the
  rewritten call (skipping those checks), ``"ask"`` has a person confirm it.
  ``call.notes`` become ``additionalContext``.
- **PreSkillShellCommand** (Claude Code runs it before each shell command a
  skill or slash command holds, ``!`cmd```, with the skill's arguments filled
  in) runs tool.before as a Bash call of that command: a block becomes
  ``permissionDecision: "deny"`` and an ask ``"ask"`` (a skill cannot wait for a
  person: either keeps the command from running); a layer that rewrites the
  command is a deny too, since Claude Code never runs a rewritten skill command.
- **PostToolUse** runs tool.after (:meth:`Bus.finish_tool`) on
  ``tool_response``. The tool has already run, so nothing can be undone. A
  layer that replaces the result sets ``updatedToolOutput`` in the shape of
  the tool's own output (an object for Bash, Read, Glob, Grep ...: see
  :mod:`.claude_code_outputs`) and, for MCP tools, ``updatedMCPToolOutput``; a
  result replaced by a blocked result (``{"status": "blocked", "reason":
  ...}``) becomes ``decision: "block"`` with the reason *and* an output that
  holds only the reason, so the model never reads the original.
- **PostToolUseFailure** runs tool.after on the error (``event.error`` is a
  :class:`ClaudeCodeToolError`, the result agentbus's error result), so that
  it is audited; a blocked result becomes ``additionalContext``.
- A call the project's own hooks could replace (:mod:`agentbus.project_hooks`): asked
  about (``"ask"``: Claude Code's prompt shows the replacement, the call that runs)
  where a PreToolUse hook of the project's settings matches it, denied where its
  agents or plugins bring hooks, or its skills do (the Skill call).
- **UserPromptExpansion** (a slash command the user typed) runs nothing; the
  expansion is blocked where the project's skills define hooks of their own
  (``project_hooks``), since loading one starts them without a Skill call.
- **UserPromptSubmit** runs message.before (:meth:`Bus.process_message`).
  Claude Code cannot replace the prompt: a rewritten prompt and new metadata
  tags reach Claude as ``additionalContext``; a layer that sets
  ``metadata[BLOCK_PROMPT]`` to a reason blocks the prompt (Claude Code erases
  it and shows the reason to the user).
- **Lifecycle**: SessionStart and SessionEnd are ``session`` (reason "start",
  "end"), Stop is ``agent.end`` of "main", SubagentStart and SubagentStop are
  ``agent.start`` and ``agent.end`` of the sub-agent (``parent="main"``), and
  PreCompact is ``session`` with reason "before_compact": a layer that cancels
  it blocks the compaction.

Every caller answers with :func:`handle`, one function per event: the
command hook (`agentbus hook claude-code`), the HTTP hook (`agentbus serve`)
and the Claude Agent SDK's in-process hooks
(:mod:`agentbus.adapters.claude_agent_sdk`). What differs between them is
only who may already hold a person's approval for an "ask" (``on_ask``).

Tool calls a sub-agent makes (Claude Code's Agent/Task tool) carry the
sub-agent's id as ``agent_id`` (``"<agent_type>:<id>"``, so an agent matcher
can select a type of sub-agent); the main loop's calls are ``"main"``.

Every other event passes through: no output, exit code 0. Nothing to say is
also no output and exit code 0 (seed 002's pass-through). Input that is not a
hook event gets a message on stderr and exit code 1, which Claude Code
documents as a non-blocking error. PreToolUse fails closed: whatever goes
wrong while it is being decided denies the call with the reason.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final, Literal

from ..bus import Bus
from ..errors import AgentbusError, RunEnded
from ..events import ToolCall
from ..frozen import Frozen
from ..lazy_regex import lazy_compile
from ..registry import Registry
from ..tools import error_result, normalize_tool_name
from . import claude_code_outputs as outputs

__all__ = [
    "BLOCK_PROMPT",
    "CLAUDE_CODE_TOOLS",
    "GUARDING_EVENTS",
    "HANDLED_EVENTS",
    "LIFECYCLE_EVENTS",
    "MAIN_AGENT",
    "MAX_PAYLOAD_BYTES",
    "AskHandler",
    "ClaudeCodeToolError",
    "HookInputError",
    "HookReply",
    "RewriteDecision",
    "agent_of",
    "call_kind",
    "canonical_args",
    "canonical_tool",
    "claude_args",
    "decide",
    "deny",
    "handle",
    "lifecycle",
    "parse_payload",
    "payload_too_large",
    "post_tool_use",
    "post_tool_use_failure",
    "pre_skill_shell_command",
    "pre_tool_use",
    "pre_tool_use_reply",
    "user_prompt_expansion",
    "user_prompt_submit",
]

MAX_PAYLOAD_BYTES: Final = 16 * 1024 * 1024
"""The default limit on one hook event: Claude Code truncates tool output long before this."""

BLOCK_PROMPT: Final = "agentbus.block_prompt"
"""A message.before layer sets ``metadata[BLOCK_PROMPT] = "reason"`` to block a prompt."""

LIFECYCLE_EVENTS: Final[Mapping[str, tuple[str, str | None]]] = {
    "SessionStart": ("session", "start"),
    "SessionEnd": ("session", "end"),
    "Stop": ("agent.end", None),
    "SubagentStart": ("agent.start", None),
    "SubagentStop": ("agent.end", None),
    "PreCompact": ("session", "before_compact"),
}
"""Claude Code's lifecycle events -> (agentbus lifecycle point, session reason)."""

GUARDING_EVENTS: Final = ("PreToolUse", "PreSkillShellCommand")
"""The events whose answer decides whether something runs: whatever goes wrong while one is
decided denies it (in that event's own answer: Claude Code ignores an answer naming another)."""

HANDLED_EVENTS: Final = frozenset(
    {
        *GUARDING_EVENTS,
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "UserPromptExpansion",
        *LIFECYCLE_EVENTS,
    }
)

MAIN_AGENT: Final = "main"
"""The agent id of Claude Code's main loop; a sub-agent's calls carry its own id."""

RewriteDecision = Literal["passthrough", "allow", "ask"]

AskHandler = Callable[[ToolCall, Mapping[str, Any]], Awaitable[bool]]
"""Called with a call tool.before marked "ask" and its PreToolUse event: True when a person
already approved it (the call goes on as if nobody had asked), False to hand the ask to
Claude Code (which asks the user). It may also ``call.block(reason)`` to deny it."""

CLAUDE_CODE_TOOLS: Mapping[str, str] = {
    "Bash": "exec",
    "PowerShell": "exec",
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
    "Workflow": "task",
}
"""Claude Code's built-in tool names -> canonical names. Anything else (MCP tools
``mcp__server__tool``, new tools) is normalised as it is: lower case. Workflow runs a
JavaScript script that starts sub-agents (in a VM that compiles no code from strings,
checked with the real CLI 2.1.332): a ``task`` tool like Agent, whose sub-agents' calls
each come to the hook."""

_PATH_FIELDS: Mapping[str, str] = {
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "NotebookRead": "notebook_path",
}
"""Tools whose file argument has Claude Code's own name; canonically it is ``path``."""

_TEXT_FIELDS: Mapping[str, str] = {
    "Bash": "command",
    "PowerShell": "command",
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "NotebookRead": "notebook_path",
    "WebFetch": "url",
}
"""The argument each built-in tool requires as a string, and the guards judge: anything
else (a number, a list, nothing) is a call they cannot read, so it is denied."""

_PRE_TOOL_USE_PREFIX = lazy_compile(rb'"hook_event_name"\s*:\s*"PreToolUse"')


class HookInputError(AgentbusError, ValueError):
    """The input is not a Claude Code hook event; the message says what is wrong."""


class ClaudeCodeToolError(Exception):
    """A tool call that failed in Claude Code (PostToolUseFailure): ``event.error`` in tool.after."""


class HookReply(Frozen):
    """What a hook answers: an exit code, a JSON object for stdout, a message for stderr.

    Immutable, compared by value, with a ``repr`` and ``replace(**changes)`` (a plain
    class, not attrs: a hook process builds no class at import that it can do without).
    """

    __slots__ = ("exit_code", "output", "stderr")

    exit_code: int
    output: dict[str, Any] | None
    stderr: str | None

    def __init__(
        self, exit_code: int = 0, output: dict[str, Any] | None = None, stderr: str | None = None
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "exit_code", exit_code)
        set_field(self, "output", output)
        set_field(self, "stderr", stderr)

    def stdout(self) -> str:
        """The stdout text: the JSON object, or nothing."""
        return "" if self.output is None else json.dumps(self.output, ensure_ascii=False)


PASS: Final = HookReply()


# -- names and arguments ----------------------------------------------------------------


def canonical_tool(name: str) -> str:
    """Claude Code's tool name -> the canonical one: ``"Bash"`` -> ``"exec"``."""
    return CLAUDE_CODE_TOOLS.get(name) or normalize_tool_name(name)


def call_kind(registry: Registry, tool_name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The kind of one call to a tool Claude Code does not build in, told by its arguments.

    An MCP server's shell (``mcp__desktop-commander__execute_command``), a renamed or
    a new shell tool reaches the hook with no schema and no declared kind, so no
    guard would judge it: a free-text ``command`` argument makes the call ``exec``,
    a file path with ``content`` a ``write`` ... as :func:`agentbus.kinds.infer_kind`
    reads a schema. A kind the registry holds (the config's ``[tools]`` table, a
    bound schema) wins. Each call is told by its own arguments, and the registry
    learns nothing from it: in `agentbus serve` one registry serves every session,
    and a tool's first call (with no ``command``, or a hostile one) must not decide
    how its later calls are judged.
    """
    if registry.kind_of(tool_name) is not None:
        return None  # the registry's kind: decide_tool looks it up
    from ..kinds import infer_kind

    schema = {
        "properties": {
            key: {"type": "string"} if isinstance(value, str) else {"type": "object"}
            for key, value in tool_input.items()
        }
    }
    return infer_kind(tool_name, schema).kind


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


def deny(reason: str, event: str = "PreToolUse") -> HookReply:
    """A reply to ``event`` (PreToolUse, PreSkillShellCommand) that denies the call; Claude sees why."""
    return HookReply(
        output={
            "hookSpecificOutput": {
                "hookEventName": event,
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


def agent_of(payload: Mapping[str, Any]) -> str:
    """Who made the call: ``"main"``, or a sub-agent as ``"<agent_type>:<agent_id>"``."""
    agent_id = _optional_str(payload, "agent_id")
    if not agent_id:
        return MAIN_AGENT
    agent_type = _optional_str(payload, "agent_type")
    return f"{agent_type}:{agent_id}" if agent_type else agent_id


# -- the events -------------------------------------------------------------------------


async def handle(
    bus: Bus,
    payload: Mapping[str, Any],
    *,
    rewrite_decision: RewriteDecision = "passthrough",
    on_ask: AskHandler | None = None,
    project_hooks: bool = False,
) -> HookReply:
    """Answer one parsed hook event. Never raises (except cancellation).

    ``rewrite_decision`` is what goes with ``updatedInput``: "passthrough" (no
    decision: Claude Code's own permission checks judge the rewritten call),
    "allow" (approve it, skipping Claude Code's checks but not its deny rules)
    or "ask" (a person confirms every rewritten call). ``on_ask`` sees each
    call a layer wants a person to approve (see :data:`AskHandler`).
    ``project_hooks``: deny what the project's own hooks could change or answer
    (:mod:`agentbus.project_hooks`; the Claude Code CLI loads them, the Agent SDK
    only when asked to).
    """
    event = payload.get("hook_event_name")
    try:
        if event == "PreToolUse":
            return await pre_tool_use(
                bus, payload, rewrite_decision=rewrite_decision, on_ask=on_ask, project_hooks=project_hooks
            )
        if event == "PreSkillShellCommand":
            return await pre_skill_shell_command(bus, payload)
        if event == "UserPromptExpansion":
            return user_prompt_expansion(payload, project_hooks=project_hooks)
        if event == "PostToolUse":
            return await post_tool_use(bus, payload)
        if event == "PostToolUseFailure":
            return await post_tool_use_failure(bus, payload)
        if event == "UserPromptSubmit":
            return await user_prompt_submit(bus, payload)
        if event in LIFECYCLE_EVENTS:
            return await lifecycle(bus, payload)
        return PASS
    except RunEnded as ended:  # a layer ended the run: Claude Code stops, and a pending call is denied
        output: dict[str, Any] = {"continue": False, "stopReason": ended.reason}
        if event in GUARDING_EVENTS:
            output["hookSpecificOutput"] = deny(ended.reason, event).output["hookSpecificOutput"]  # type: ignore[index]
        return HookReply(output=output)
    except HookInputError as exc:
        if event in GUARDING_EVENTS:  # a call nothing could check is not let through
            return deny(f"agentbus could not check this call: {exc}", str(event))
        return HookReply(exit_code=1, stderr=f"agentbus: {exc}")
    except (Exception, SystemExit) as exc:  # a layer calling sys.exit() must not end the hook silently
        failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if event in GUARDING_EVENTS:
            reason = f"agentbus failed while checking this call ({failure}); denied to be safe"
            return deny(reason, str(event))
        return HookReply(exit_code=1, stderr=f"agentbus: {event} failed: {failure}")


async def pre_tool_use(
    bus: Bus,
    payload: Mapping[str, Any],
    *,
    rewrite_decision: RewriteDecision = "passthrough",
    on_ask: AskHandler | None = None,
    project_hooks: bool = False,
) -> HookReply:
    """Run tool.before for a PreToolUse event and answer it (:func:`pre_tool_use_reply`).

    A Skill call is judged first by the shell commands its skill runs as it
    loads (:mod:`agentbus.adapters.claude_code_skills`), as one Bash call.
    ``project_hooks``: a call the project's own hooks could replace, or whose
    ask they could answer, is denied (:mod:`agentbus.project_hooks`).
    """
    if project_hooks:
        held = _held_for_project_hooks(payload)
        if held is not None:
            return held
    if payload.get("tool_name") == "Skill":
        held = await _judge_skill(bus, payload)
        if held is not None:
            return held
    call = await decide(bus, payload)
    replacing = _project_hooks(payload, "PreToolUse") if project_hooks else []
    if replacing and call.decision != "block":
        return _ask_what_will_run(call, payload, replacing)
    approved = False
    if call.decision == "ask" and project_hooks:
        answered = _project_hooks(payload, "PermissionRequest")
        if answered:
            return deny(
                f"{call.block_reason or 'agentbus asks for approval'}; denied, not asked: the project's own "
                f"PermissionRequest hook would answer the prompt ({'; '.join(answered)})"
            )
    if call.decision == "ask" and on_ask is not None:
        approved = await on_ask(call, payload)
    return pre_tool_use_reply(
        call,
        payload["tool_name"],
        payload["tool_input"],
        rewrite_decision=rewrite_decision,
        approved=approved,
    )


_MANAGED_ONLY_ADVICE = (
    "Remove it (a hook of your own belongs in ~/.claude/settings.json), or run only managed hooks: "
    "sudo agentbus install claude-code --managed (allowManagedHooksOnly)"
)


UNJUDGED: Final = "agentbus has not judged it"
"""In the reason of an ask no layer made (:func:`_ask_what_will_run`): the hook records it itself."""


def _ask_what_will_run(call: ToolCall, payload: Mapping[str, Any], replacing: list[str]) -> HookReply:
    """A call agentbus does not block, which a project's own PreToolUse hook may replace: Claude Code's
    prompt, which shows the call that will run, the replacement included (2.1.332: the permission
    prompt was asked about exactly the command that ran, whichever hook's ``updatedInput`` won), so a
    person approves what agentbus never saw; nobody answers it in ``claude -p``, and it does not run.

    Denied instead where the project's PermissionRequest hook would answer that prompt, or where
    agentbus's own layers rewrote the call (a replacement would drop their rewrite unseen). No
    approver of agentbus's (``on_ask``) is asked: it would see the call as the model wrote it.
    """
    where = "; ".join(replacing)
    answered = _project_hooks(payload, "PermissionRequest")
    rewritten = claude_args(payload["tool_name"], call.args) != payload["tool_input"]
    if answered or rewritten:
        why = (
            f"its PermissionRequest hook would answer the prompt ({'; '.join(answered)})"
            if answered
            else "agentbus rewrote the call, and the replacement would drop that unseen"
        )
        return deny(
            "agentbus could not check this call: the project defines its own PreToolUse hook, whose "
            f"updatedInput would replace the call agentbus judged ({where}), and {why}. "
            + _MANAGED_ONLY_ADVICE
        )
    judged = f"{call.block_reason}; " if call.decision == "ask" and call.block_reason else ""
    reason = (
        f"{judged}agentbus judged this call as the model wrote it, but the project defines its own "
        f"PreToolUse hook, whose updatedInput may replace it ({where}): what is shown here is what will "
        f"run, and {UNJUDGED}. " + _MANAGED_ONLY_ADVICE
    )
    output = {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": reason}
    return HookReply(output={"hookSpecificOutput": output})


_AGENT_ADVICE = (
    "An agent with hooks of your own belongs in ~/.claude/agents; or run only managed hooks: "
    "sudo agentbus install claude-code --managed (allowManagedHooksOnly)"
)


def _held_for_project_hooks(payload: Mapping[str, Any]) -> HookReply | None:
    """The deny of a call that hooks the project brings could replace (its settings' PreToolUse hooks,
    its plugins', its agents' or its skills'); else None."""
    tool_name = payload.get("tool_name")
    if not isinstance(tool_name, str):
        return None
    from ..project_hooks import (
        agent_hooks,
        managed_hooks_only,
        plugin_hooks,
        project_directories,
        skill_hooks,
    )

    projects = project_directories(payload)
    found = plugin_hooks(projects)
    if found and not managed_hooks_only():
        return deny(
            "agentbus could not check this call: the project brings plugins of its own, whose hooks "
            f"may replace the call agentbus judged ({'; '.join(found)}). A plugin you trust belongs in "
            "your own settings (~/.claude/settings.json, its marketplace too); or run only managed "
            "hooks: sudo agentbus install claude-code --managed (allowManagedHooksOnly)"
        )
    running = _optional_str(payload, "agent_type")
    found = agent_hooks(projects, running) if running else []
    if found and not managed_hooks_only():
        return deny(
            f"agentbus could not check this call: it comes from the agent {running!r}, whose definition in "
            f"the project defines hooks of its own, which may replace calls agentbus judged "
            f"({'; '.join(found)}). " + _AGENT_ADVICE
        )
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    started = (
        (tool_input.get("subagent_type") or "general-purpose") if tool_name in ("Agent", "Task") else None
    )
    found = agent_hooks(projects, started) if isinstance(started, str) else []
    if found and not managed_hooks_only():
        return deny(
            f"agentbus could not check this call: the project's agent {started!r} defines hooks of its own "
            f"in its frontmatter, which run for the sub-agent's calls and may replace calls agentbus "
            f"judged ({'; '.join(found)}). " + _AGENT_ADVICE
        )
    skill = tool_input.get("skill") if tool_name == "Skill" else None
    if not isinstance(skill, str):
        return None
    found = skill_hooks(projects, skill.lstrip("/"))
    if found and not managed_hooks_only():
        return deny(
            "agentbus could not check this call: the project's skills define hooks of their own, which "
            f"run while a skill is loaded and may replace calls agentbus judged ({'; '.join(found)}). "
            + _MANAGED_ONLY_ADVICE
        )
    return None


def user_prompt_expansion(payload: Mapping[str, Any], *, project_hooks: bool = False) -> HookReply:
    """A slash command the user typed loads a skill with no Skill call: blocked, with ``project_hooks``,
    where a project's skill defines hooks of its own (see :func:`_held_for_project_hooks`)."""
    name = _optional_str(payload, "command_name")
    if not project_hooks or name is None:
        return PASS
    from ..project_hooks import managed_hooks_only, project_directories, skill_hooks

    found = skill_hooks(project_directories(payload), name.lstrip("/"))
    if not found or managed_hooks_only():
        return PASS
    reason = (
        f"agentbus: /{name} not loaded: the project's skills define hooks of their own, which run while a "
        f"skill is loaded and may replace calls agentbus judged ({'; '.join(found)}). " + _MANAGED_ONLY_ADVICE
    )
    return HookReply(output={"decision": "block", "reason": reason})


def _project_hooks(payload: Mapping[str, Any], event: str) -> list[str]:
    """The project's own hooks on ``event`` that match the call's tool, unless only managed hooks run."""
    from ..project_hooks import foreign_hooks, managed_hooks_only, project_directories

    found = foreign_hooks(project_directories(payload), event, str(payload.get("tool_name")))
    return found if found and not managed_hooks_only() else []


async def _judge_skill(bus: Bus, payload: Mapping[str, Any]) -> HookReply | None:
    """The deny (or ask) of a Skill call whose skill runs a command agentbus holds back; else None."""
    found = _skill_script(payload)
    if found is None:
        return None
    name, path, script = found
    if script is None:
        return deny(
            f"agentbus could not check this call: the skill {name}'s file {path} is over 1 MiB, too "
            "large to read the shell commands it runs as it loads"
        )
    call = await decide(bus, {**payload, "tool_name": "Bash", "tool_input": {"command": script}})
    if call.decision not in ("block", "ask"):
        return None
    reply = pre_tool_use_reply(call, "Bash", {"command": script})
    specific = reply.output["hookSpecificOutput"]  # type: ignore[index]
    specific.pop("updatedInput", None)  # the Skill call's input is the skill's name
    reason = specific.get("permissionDecisionReason")
    specific["permissionDecisionReason"] = (
        f"the skill {name} runs shell commands as it loads ({path}): {reason}"
    )
    return reply


def _skill_script(payload: Mapping[str, Any]) -> tuple[str, str, str | None] | None:
    """(skill, its file, its commands as one script) for a Skill call whose skill holds commands
    (None for the script of a file too large to read)."""
    import os

    from .claude_code_skills import skill_commands

    tool_input = payload.get("tool_input")
    name = tool_input.get("skill") if isinstance(tool_input, dict) else None
    if not isinstance(name, str):
        return None
    cwd = payload.get("cwd")
    project = os.environ.get("CLAUDE_PROJECT_DIR") or (cwd if isinstance(cwd, str) and cwd else os.getcwd())
    found = skill_commands(name.lstrip("/"), project, os.path.expanduser("~"))
    if found is None or found[1] == []:
        return None
    return name, found[0], None if found[1] is None else "\n".join(found[1])


async def pre_skill_shell_command(bus: Bus, payload: Mapping[str, Any]) -> HookReply:
    """Judge one shell command a skill runs as it loads, as Claude Code will run it.

    The event carries the command with the skill's arguments filled in
    (``$ARGUMENTS``, ``$0`` ...), whoever wrote the skill (the project, the user,
    a plugin) and whatever its file is called, so it is judged as a Bash call
    (``tool_name`` says which shell: Bash, or PowerShell, judged alike). Allowed,
    it gets no answer; blocked, asked or rewritten, a deny or an ask, either of
    which keeps the command from running.
    """
    tool_input = _require(payload, "tool_input", dict, "the command's arguments")
    command = tool_input.get("command")
    if not isinstance(command, str):
        got = type(command).__name__ if "command" in tool_input else "nothing"
        raise HookInputError(f"PreSkillShellCommand event whose 'command' is not a string ({got})")
    skill = _optional_str(payload, "command_name") or "a skill"
    call = await decide(bus, {**payload, "tool_name": "Bash", "tool_input": {"command": command}})
    event = "PreSkillShellCommand"
    if call.decision == "block":
        reason = call.block_reason or "blocked"
        if call.blocked_by:
            reason = f"{reason} (agentbus: {call.blocked_by})"
        return deny(f"the skill {skill} runs a shell command as it loads: {reason}", event)
    if call.decision == "ask":
        specific = {
            "hookEventName": event,
            "permissionDecision": "ask",
            "permissionDecisionReason": f"the skill {skill} runs a shell command as it loads: "
            + (call.block_reason or "agentbus asks for approval"),
        }
        return HookReply(output={"hookSpecificOutput": specific})
    if call.args != {"command": command}:
        return deny(
            f"the skill {skill} runs a shell command that agentbus's layers rewrite, and Claude Code "
            "runs no rewritten skill command: denied",
            event,
        )
    return PASS


async def decide(bus: Bus, payload: Mapping[str, Any]) -> ToolCall:
    """Run tool.before for a PreToolUse event; return the decided call."""
    tool_name = _require(payload, "tool_name", str, "a tool name")
    tool_input = _require(payload, "tool_input", dict, "the tool's arguments")
    field = _TEXT_FIELDS.get(tool_name)
    if field is not None and not isinstance(tool_input.get(field), str):
        got = type(tool_input[field]).__name__ if field in tool_input else "nothing"
        raise HookInputError(f"{tool_name} call whose {field!r} is not a string ({got})")
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd:
        # Relative script paths (bash setup.sh) resolve where Claude Code runs the command.
        from ..guards.workdir import working_directory

        with working_directory(cwd):
            return await _decide(bus, tool_name, tool_input, payload)
    return await _decide(bus, tool_name, tool_input, payload)


async def _decide(
    bus: Bus, tool_name: str, tool_input: dict[str, Any], payload: Mapping[str, Any]
) -> ToolCall:
    kind = None if tool_name in CLAUDE_CODE_TOOLS else call_kind(bus.registry, tool_name, tool_input)
    from ..guards.powershell import shell_dialect, shell_of_hook_call

    with shell_dialect(shell_of_hook_call(tool_name, payload)):
        return await _decide_in_shell(bus, tool_name, tool_input, payload, kind)


async def _decide_in_shell(
    bus: Bus, tool_name: str, tool_input: dict[str, Any], payload: Mapping[str, Any], kind: str | None
) -> ToolCall:
    if tool_name in SHELL_PER_CALL:
        from ..guards.definitions import shell_per_call

        # Each call is a new `bash -c 'source SNAPSHOT && eval CMD && pwd -P >| FILE'` (2.1.332):
        # a function it defines and does not call is gone when it ends, unless it is named pwd.
        with shell_per_call(BASH_CALLS_AFTER):
            return await _decide_tool(bus, tool_name, tool_input, payload, kind)
    return await _decide_tool(bus, tool_name, tool_input, payload, kind)


SHELL_PER_CALL = frozenset({"Bash", "Monitor"})
"""Claude Code's tools that run each command in a new shell (the real CLI, 2.1.332: tests/e2e)."""
BASH_CALLS_AFTER = frozenset({"pwd"})
"""What those tools run, by a name a function can take, after the command of a call."""


async def _decide_tool(
    bus: Bus, tool_name: str, tool_input: dict[str, Any], payload: Mapping[str, Any], kind: str | None
) -> ToolCall:
    return await bus.decide_tool(
        canonical_tool(tool_name),
        canonical_args(tool_name, tool_input),
        call_id=_optional_str(payload, "tool_use_id"),
        agent_id=agent_of(payload),
        session_key=_optional_str(payload, "session_id"),
        kind=kind,
    )


def pre_tool_use_reply(
    call: ToolCall,
    tool_name: str,
    tool_input: Mapping[str, Any],
    *,
    rewrite_decision: RewriteDecision = "passthrough",
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
        elif updated != tool_input and rewrite_decision != "passthrough":
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
    """Run tool.after on ``tool_response``; replace what the model reads if a layer changed it."""
    tool_name = _require(payload, "tool_name", str, "a tool name")
    if "tool_response" not in payload:
        raise HookInputError("PostToolUse event without 'tool_response'")
    response = payload["tool_response"]
    original = copy.deepcopy(response)
    finished = await _finish(bus, payload, tool_name, response)
    result = finished.result
    if result == original:
        return PASS
    specific: dict[str, Any] = {"hookEventName": "PostToolUse"}
    output: dict[str, Any] = {"hookSpecificOutput": specific}
    blocked = _blocked_reason(result)
    if blocked is not None:
        output["decision"] = "block"
        output["reason"] = blocked
        shown = f"[agentbus withheld this output: {blocked}]"
        specific["updatedToolOutput"] = outputs.withheld(original, shown)
        mcp_output: Any = shown
    else:
        specific["updatedToolOutput"] = outputs.replacement(original, result)
        mcp_output = result
    if tool_name.startswith("mcp__"):  # an MCP tool's output may be any JSON
        specific["updatedToolOutput"] = specific["updatedMCPToolOutput"] = mcp_output
    return HookReply(output=output)


async def post_tool_use_failure(bus: Bus, payload: Mapping[str, Any]) -> HookReply:
    """Run tool.after on a failed call, so that it is audited; a block becomes context."""
    tool_name = _require(payload, "tool_name", str, "a tool name")
    message = payload.get("error")
    message = message if isinstance(message, str) else "the tool failed"
    error = ClaudeCodeToolError(message)
    finished = await _finish(bus, payload, tool_name, error_result(canonical_tool(tool_name), message), error)
    blocked = _blocked_reason(finished.result)
    if blocked is None:
        return PASS
    specific = {"hookEventName": "PostToolUseFailure", "additionalContext": f"agentbus: {blocked}"}
    return HookReply(output={"hookSpecificOutput": specific})


async def _finish(
    bus: Bus, payload: Mapping[str, Any], tool_name: str, result: Any, error: BaseException | None = None
) -> Any:
    tool_input = payload.get("tool_input")
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    return await bus.finish_tool(
        canonical_tool(tool_name),
        canonical_args(tool_name, tool_input),
        result,
        error=error,
        call_id=_optional_str(payload, "tool_use_id"),
        agent_id=agent_of(payload),
        session_key=_optional_str(payload, "session_id"),
        kind=None if tool_name in CLAUDE_CODE_TOOLS else call_kind(bus.registry, tool_name, tool_input),
    )


def _blocked_reason(result: Any) -> str | None:
    if isinstance(result, dict) and result.get("status") == "blocked":
        return str(result.get("reason") or "blocked by agentbus")
    return None


async def lifecycle(bus: Bus, payload: Mapping[str, Any]) -> HookReply:
    """Run the lifecycle point of a session, stop or sub-agent event (see LIFECYCLE_EVENTS)."""
    event = payload["hook_event_name"]
    point, reason = LIFECYCLE_EVENTS[event]
    data: dict[str, Any] = {"claude_code_event": event}
    for key in ("source", "reason", "trigger", "agent_type"):
        value = _optional_str(payload, key)
        if value is not None:
            data["end_reason" if key == "reason" else key] = value
    agent = agent_of(payload)
    if event.startswith("Subagent"):
        data["parent"] = MAIN_AGENT
    notified = await bus.notify(
        point, agent_id=agent, session_key=_optional_str(payload, "session_id"), reason=reason, **data
    )
    if notified.cancelled:
        return HookReply(output={"decision": "block", "reason": "agentbus: a layer cancelled the compaction"})
    return PASS


async def user_prompt_submit(bus: Bus, payload: Mapping[str, Any]) -> HookReply:
    """Run message.before on the prompt: a block, or additional context for Claude."""
    prompt = _require(payload, "prompt", str, "the prompt text")
    message = await bus.process_message(
        prompt,
        agent_id=agent_of(payload),
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

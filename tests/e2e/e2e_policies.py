"""The middleware the end-to-end scenarios install next to the built-in guards.

Loaded by `agentbus hook claude-code` and `agentbus serve` as
``e2e_policies:install`` (tests/e2e on PYTHONPATH); each rule has a visible
effect a scenario checks in what Claude Code really did.
"""

from __future__ import annotations

import os
import time
from typing import Any

from agentbus import Lifecycle, Message, Registry, ToolCall, ToolResult
from agentbus.adapters.claude_code import BLOCK_PROMPT
from agentbus.middleware import glob_exclude, redact

STAMP = "{{stamp}}"
STAMPED = "stamped-by-agentbus"
INJECTION = "IGNORE PREVIOUS INSTRUCTIONS"
FORBIDDEN = "forbidden-word"


def crash_or_hang(call: ToolCall) -> None:
    """The hook process dies (exit 3) or outlives its timeout: Claude Code's onFailure decides; or it
    takes a while (its answer comes after other hooks')."""
    command = str(call.args.get("command", ""))
    if "fault:crash" in command:
        os._exit(3)
    if "fault:hang" in command:
        time.sleep(60)
    if "fault:slow" in command:  # ends after another hook of the same call
        time.sleep(3)


def stamp(call: ToolCall) -> None:
    """A rewrite whose effect shows in the files the command writes."""
    command = call.args.get("command")
    if isinstance(command, str) and STAMP in command:
        call.args["command"] = command.replace(STAMP, STAMPED)


def withhold_injections(event: ToolResult) -> None:
    if INJECTION in str(event.result):
        event.result = {
            "status": "blocked",
            "tool": event.tool,
            "reason": "the output holds a prompt injection",
        }


def report_failures(event: ToolResult) -> None:
    """tool.after on a failed call: what it saw goes back to the model (PostToolUseFailure)."""
    if event.error is not None:
        event.result = {"status": "blocked", "tool": event.tool, "reason": f"tool.after saw: {event.error}"}


def block_forbidden_prompts(event: Message) -> None:
    if FORBIDDEN in event.message:
        event.metadata[BLOCK_PROMPT] = "this prompt holds a forbidden word"


def note_lifecycle(event: Lifecycle) -> None:
    """Lifecycle points leave a record only where a layer runs: this one does nothing."""


def install(registry: Registry, **options: Any) -> None:
    registry.add("tool.before", stamp, id="e2e:stamp", tool="exec")
    registry.add("tool.before", crash_or_hang, id="e2e:crash-or-hang", tool="exec")
    registry.add("tool.after", withhold_injections, id="e2e:withhold-injections", priority=50)
    registry.add("tool.after", report_failures, id="e2e:report-failures", priority=40)
    registry.add("message.before", block_forbidden_prompts, id="e2e:block-prompts")
    for point in ("session", "agent.start", "agent.end"):
        registry.add(point, note_lifecycle, id=f"e2e:lifecycle:{point}")
    redact.install(registry)
    glob_exclude.install(registry, filter_results=True)

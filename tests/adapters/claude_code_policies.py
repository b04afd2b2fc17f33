"""Test middleware for the Claude Code hook tests: one rule per behaviour under test.

Loaded by the hook subprocess as ``claude_code_policies:install`` (tests/adapters on PYTHONPATH).
"""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel

from agentbus import Message, Registry, ToolCall, ToolResult
from agentbus.adapters.claude_code import BLOCK_PROMPT


def no_rm_rf(call: ToolCall) -> None:
    if "rm -rf" in call.args.get("command", ""):
        call.block("rm -rf is not allowed")


def ask_before_push(call: ToolCall) -> None:
    if call.args.get("command", "").startswith("git push"):
        call.ask("pushing needs a person's approval")


def no_color(call: ToolCall) -> None:
    command = call.args.get("command", "")
    print("a chatty layer writes to stdout")  # must not reach Claude Code
    if command.startswith("ls") and "--color=never" not in command:
        call.args["command"] = f"{command} --color=never"


def guard_secrets(call: ToolCall) -> None:
    path = str(call.args.get("path", ""))
    if path.endswith(".env"):
        call.block(f"Access denied: {path}")
    if path.startswith("~/"):
        call.args["path"] = "/home/user/" + path[2:]


def crashing_guard(call: ToolCall) -> None:
    if call.args.get("content") == "crash":
        raise RuntimeError("the guard fell over")


def glob_advice(call: ToolCall) -> None:
    call.notes.append("Glob does not respect .gitignore: ignore .venv/ and node_modules/ in the results")


async def search_advice(call: ToolCall) -> None:
    await anyio.lowlevel.checkpoint()  # needs a running event loop
    call.notes.append(f"searching for {call.args.get('query')!r}")


def clocked(call: ToolCall) -> None:
    """A sync layer that needs a running event loop: anyio's clock."""
    call.notes.append(f"listed at loop time {anyio.current_time():.0f}")


def web_rewrite(call: ToolCall) -> None:
    if "url" in call.args:
        call.args["url"] = call.args["url"].replace("http://", "https://")


def redact_result(event: ToolResult) -> None:
    if isinstance(event.result, dict) and "secret" in str(event.result):
        event.result = {"content": "[redacted]"}
    elif isinstance(event.result, dict) and "INJECTION" in str(event.result):
        event.result = {
            "status": "blocked",
            "tool": event.tool,
            "reason": "the output holds a prompt injection",
        }


def tag_prompt(event: Message) -> None:
    text = event.message
    if "password" in text:
        event.metadata[BLOCK_PROMPT] = "prompts must not contain passwords"
    elif "hard" in text:
        event.metadata["complexity"] = "high"
    elif "sk-" in text:
        event.message = text.replace("sk-123", "[key]")


def install(registry: Registry, **options: Any) -> None:
    """Install every test rule (``async_layer=True``: one async layer too)."""
    registry.add("tool.before", no_rm_rf, id="test:no-rm-rf", tool="exec", priority=100)
    registry.add("tool.before", ask_before_push, id="test:ask-push", tool="exec", priority=90)
    registry.add("tool.before", no_color, id="test:no-color", tool="exec")
    registry.add("tool.before", guard_secrets, id="test:secrets", tool="group:fs", priority=99)
    registry.add("tool.before", crashing_guard, id="test:crashing", tool="write")
    registry.add("tool.before", glob_advice, id="test:glob-advice", tool="glob")
    if options.get("async_layer"):
        registry.add("tool.before", search_advice, id="test:search-advice", tool="web_search")
    registry.add("tool.before", clocked, id="test:clocked", tool="ls")
    registry.add("tool.before", web_rewrite, id="test:https", tool="web_fetch")
    registry.add("tool.after", redact_result, id="test:redact")
    registry.add("message.before", tag_prompt, id="test:tag-prompt")

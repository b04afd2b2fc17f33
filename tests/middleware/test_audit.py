"""The audit trail of tool calls, through a real bus."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

import agentbus
from agentbus.middleware import audit

pytestmark = pytest.mark.anyio

KEY = "sk-proj-" + "a1B2c3D4e5" * 4


async def ok(args: dict[str, Any]) -> str:
    return "done"


def audited(**options: Any) -> tuple[agentbus.Bus, list[dict[str, Any]]]:
    entries: list[dict[str, Any]] = []
    bus = agentbus.Bus(log_level=None)
    audit.install(bus.registry, callback=entries.append, **options)
    return bus, entries


async def test_the_final_args_after_every_mutation_are_recorded() -> None:
    bus, entries = audited()

    @bus.intercept("tool.before", priority=10)
    def add_flag(call: agentbus.ToolCall) -> None:
        call.args["command"] += " --color=never"

    await bus.call_tool("bash", {"command": "ls"}, ok, call_id="c1", agent_id="coder")
    before, after = entries
    assert before["event"] == "tool.before"
    assert (before["tool"], before["call_id"], before["agent_id"]) == ("exec", "c1", "coder")
    assert before["args"] == {"command": "ls --color=never"}
    assert after["event"] == "tool.after"
    assert after["outcome"] == "ok"
    assert after["duration"] >= 0


async def test_blocked_and_failed_calls_are_recorded_with_their_outcome() -> None:
    bus, entries = audited()

    @bus.intercept("tool.before", priority=-20)
    def late_rewrite(call: agentbus.ToolCall) -> None:
        call.args["seen_by_late_layer"] = True

    @bus.intercept("tool.before", id="guard", priority=100)
    def guard(call: agentbus.ToolCall) -> None:
        if call.args.get("command") == "rm -rf /":
            call.block("no")

    async def boom(args: dict[str, Any]) -> str:
        raise OSError(f"disk on fire, key {KEY}")

    await bus.call_tool("exec", {"command": "rm -rf /"}, ok)
    await bus.call_tool("exec", {"command": "ls"}, boom)
    blocked_before, blocked_after, _, failed_after = entries
    assert (blocked_before["decision"], blocked_before["reason"], blocked_before["by"]) == (
        "block",
        "no",
        "guard",
    )
    assert (blocked_after["outcome"], blocked_after["reason"]) == ("blocked", "no")
    assert (failed_after["outcome"], failed_after["error"]) == (
        "error",
        "OSError: disk on fire, key [REDACTED:openai_api_key]",
    )


async def test_secrets_in_args_are_redacted_and_long_strings_cut() -> None:
    bus, entries = audited(max_chars=50)
    await bus.call_tool("web_fetch", {"headers": {"Authorization": f"Bearer {KEY}"}, "body": "x" * 80}, ok)
    args = entries[0]["args"]
    assert KEY not in json.dumps(entries)
    assert args["headers"]["Authorization"] == "Bearer [REDACTED:openai_api_key]"
    assert args["body"] == "x" * 50 + "… [30 more characters]"


async def test_a_json_lines_file_in_a_new_directory_gets_one_line_per_hook_point(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "audit.jsonl"
    bus = agentbus.Bus(log_level=None)
    audit.install(bus.registry, path=log)
    await bus.call_tool("read", {"path": "README.md"}, ok)
    await bus.call_tool("read", {"path": "setup.py"}, ok)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["event"], e["args"]["path"] if "args" in e else None) for e in lines] == [
        ("tool.before", "README.md"),
        ("tool.after", None),
        ("tool.before", "setup.py"),
        ("tool.after", None),
    ]
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.parent.stat().st_mode) == 0o700


async def test_an_existing_audit_file_readable_by_others_is_narrowed(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    log.write_text("")
    log.chmod(0o644)
    bus = agentbus.Bus(log_level=None)
    audit.install(bus.registry, path=log)
    await bus.call_tool("read", {"path": "a\ud800"}, ok)  # a lone surrogate is written too
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert json.loads(log.read_bytes().splitlines()[0].decode("utf-8"))["args"] == {"path": "a\ud800"}


async def test_a_failing_sink_does_not_block_calls_unless_fail_closed() -> None:
    def broken(entry: dict[str, Any]) -> None:
        raise OSError("disk full")

    bus = agentbus.Bus(log_level=None)
    audit.install(bus.registry, callback=broken)
    assert await bus.call_tool("exec", {"command": "ls"}, ok) == "done"
    strict = agentbus.Bus(log_level=None)
    audit.install(strict.registry, callback=broken, fail_closed=True)
    result = await strict.call_tool("exec", {"command": "ls"}, ok)
    assert result["status"] == "blocked"
    assert "disk full" in result["reason"]


def test_install_needs_exactly_one_destination() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        audit.install(agentbus.Registry())

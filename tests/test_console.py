"""The verbose stream: the seed's lines, levels, colour rules, JSON mode."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

import agentbus
from agentbus.console import (
    ConsoleStream,
    color_enabled,
    compact_pair,
    format_duration,
    record_from_dict,
    render,
)
from agentbus.records import DEBUG, DISPATCH, INFO, WARNING, Record

pytestmark = pytest.mark.anyio


def seed_bus() -> agentbus.Bus:
    """A bus with the layers behind the seed's four example lines, plus quiet ones."""
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool=r"^exec$", priority=100, id="builtin:command-safety-guard")
    def command_safety(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args.get("command", ""):
            call.block("rm -rf is not allowed")

    @bus.intercept("tool.before", tool=r"^read$", priority=90, id="builtin:security-audit")
    def security_audit(call: agentbus.ToolCall) -> None:
        if ".ssh" in call.args.get("path", ""):
            call.block(f"Access denied: {call.args['path']}")

    @bus.intercept("message.before", id="classify")
    def classify(message: agentbus.Message) -> None:
        if "debug" in message.message:
            message.message = f"[complex] {message.message}"
            message.metadata["complexity"] = "high"

    @bus.intercept("params.before", id="think")
    def think(params: agentbus.Params) -> None:
        if params.metadata.get("complexity") == "high":
            params.think_level = "high"

    @bus.intercept("tool.after", id="redact")
    def redact(result: agentbus.ToolResult) -> None:
        if isinstance(result.result, str):
            result.result = result.result.replace("sk-secret", "[REDACTED]")

    return bus


def ok(args: dict[str, Any]) -> str:
    return "token sk-secret"


async def run_seed_examples(bus: agentbus.Bus) -> None:
    await bus.call_tool("bash", {"command": "rm -rf /"}, ok)
    await bus.call_tool("read", {"path": "~/.ssh/id_rsa"}, ok)
    await bus.prepare("please debug this")
    await bus.call_tool("exec", {"command": "cat .env"}, ok)


async def test_on_level_prints_exactly_the_seeds_four_lines() -> None:
    bus = seed_bus()
    out = io.StringIO()
    bus.stream_to_console("on", file=out)
    await run_seed_examples(bus)
    assert out.getvalue().splitlines() == [
        '🛡️ builtin:command-safety-guard · blocked exec — "rm -rf is not allowed"',
        '🛡️ builtin:security-audit · blocked read — "Access denied: ~/.ssh/id_rsa"',
        "📨 message.before · message mutated, metadata: complexity",
        "⚙️ params.before · thinkLevel → high",
    ]


async def test_on_level_asks_the_bus_for_info_records_only() -> None:
    """Unchanged layers are never even built for an "on" stream."""
    bus = agentbus.Bus(log_level=None)
    bus.stream_to_console("on", file=io.StringIO())
    assert bus.observers.level == INFO
    assert not bus.observers.wants_dispatches


async def test_full_level_shows_every_layer_diffs_and_call_ends() -> None:
    bus = seed_bus()
    out = io.StringIO()
    bus.stream_to_console("full", file=out)
    await bus.call_tool("exec", {"command": "cat .env"}, ok)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("· builtin:command-safety-guard · tool.before exec unchanged (")
    assert lines[1].startswith(
        '📤 redact · tool.after exec — result: "token sk-secret" → "token [REDACTED]" ('
    )
    assert lines[2].startswith("✅ exec · done in ")


async def test_off_level_adds_no_observer() -> None:
    bus = agentbus.Bus(log_level=None)
    undo = bus.stream_to_console("off", file=io.StringIO())
    assert not bus.observers
    undo()


async def test_undo_stops_the_stream() -> None:
    bus = seed_bus()
    out = io.StringIO()
    undo = bus.stream_to_console("on", file=out)
    undo()
    await run_seed_examples(bus)
    assert out.getvalue() == ""
    assert not bus.observers


def test_unknown_level_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="off, on, full"):
        agentbus.Bus(log_level=None).stream_to_console("verbose")


def rec(**fields: Any) -> Record:
    base: dict[str, Any] = {"point": "tool.before", "id": "guard", "level": DEBUG, "tool": "exec"}
    return Record(**{**base, **fields})


@pytest.mark.parametrize(
    ("record", "line"),
    [
        (rec(duration=0.0000042), "· guard · tool.before exec unchanged (4 µs)"),
        (
            rec(level=INFO, changes={"args.command": ("ls", "ls --color=never")}, duration=0.0012),
            '🔧 guard · tool.before exec — args.command: "ls" → "ls --color=never" (1.2 ms)',
        ),
        (
            rec(level=WARNING, decision="block", reason="no", duration=0.002),
            '🛡️ guard · blocked exec — "no" (2.0 ms)',
        ),
        (
            rec(point="tool.after", level=INFO, changes={"result": ({"a": 1, "b": 2}, {"a": 1, "b": 3})}),
            "📤 guard · tool.after exec — result.b: 2 → 3",
        ),
        (
            rec(point="params.before", tool=None, level=INFO, changes={"think_level": (None, "high")}),
            "⚙️ params.before · thinkLevel → high · guard",
        ),
        (
            rec(level=INFO, shadow=True, changes={"args.a": (1, 2)}),
            "👻 shadow 🔧 guard · tool.before exec — args.a: 1 → 2",
        ),
        (
            rec(point="message.before", tool=None, level=INFO, shadow=True, changes={"message": ("a", "b")}),
            '👻 shadow 📨 message.before · message mutated · guard — message: "a" → "b"',
        ),
        (rec(point="tool.call", id=DISPATCH, duration=1.5), "✅ exec · done in 1.50 s"),
        (
            rec(point="tool.call", id=DISPATCH, level=WARNING, decision="block", reason="no"),
            '⛔ exec · blocked — "no"',  # no duration measured
        ),
        (
            rec(point="tool.call", id=DISPATCH, error="ValueError: boom", duration=0.01),
            "❌ exec · failed in 10.0 ms — ValueError: boom",
        ),
    ],
)
def test_full_lines_in_plain_mode(record: Record, line: str) -> None:
    assert render(record, "full") == line


def test_on_level_hides_dispatch_records_tool_after_and_unchanged_layers() -> None:
    assert render(rec(point="tool.call", id=DISPATCH), "on") is None
    assert render(rec(point="tool.after", level=INFO, changes={"result": ("a", "b")}), "on") is None
    assert render(rec(), "on") is None


def test_long_strings_are_cut_around_the_first_difference() -> None:
    old = "x" * 100 + "OPENAI_KEY=sk-abc123 and then more text " * 3
    new = old.replace("sk-abc123", "[REDACTED]")
    was, now = compact_pair(old, new)
    assert "sk-abc123" in was
    assert "[REDACTED]" in now
    assert was.startswith('"…')
    assert len(was) < 60


def test_durations_read_naturally() -> None:
    assert [format_duration(s) for s in (0.000004, 0.0123, 2.5)] == ["4 µs", "12.3 ms", "2.50 s"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "tty", "expected"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": ""}, True, True),  # an empty NO_COLOR does not count (no-color.org)
        ({"FORCE_COLOR": "1"}, False, True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, True, False),
        ({"TERM": "dumb"}, True, False),
    ],
)
def test_colour_rules(env: dict[str, str], tty: bool, expected: bool) -> None:
    stream = Terminal() if tty else io.StringIO()
    assert color_enabled(stream, env) is expected


def test_a_terminal_gets_colour_and_a_pipe_gets_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    blocked = rec(level=WARNING, decision="block", reason="no")
    terminal, pipe = Terminal(), io.StringIO()
    ConsoleStream("on", file=terminal)(blocked)
    ConsoleStream("on", file=pipe)(blocked)
    assert terminal.getvalue() == '\x1b[31m🛡️ guard · blocked exec — "no"\x1b[0m\n'
    assert pipe.getvalue() == '🛡️ guard · blocked exec — "no"\n'


def test_no_color_wins_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    terminal = Terminal()
    ConsoleStream("full", file=terminal)(rec(level=INFO, changes={"args.a": (1, 2)}))
    assert "\x1b[" not in terminal.getvalue()


async def test_json_mode_writes_one_record_dict_per_line() -> None:
    bus = seed_bus()
    out = io.StringIO()
    seen: list[Record] = []
    bus.on_event(seen.append, level="info")
    bus.stream_to_console("on", file=out, json=True)
    await run_seed_examples(bus)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    shown = [r for r in seen if agentbus.format_record(r) is not None]
    assert lines == [json.loads(json.dumps(r.to_dict())) for r in shown]
    assert len(lines) == 4


async def test_json_full_mode_includes_unchanged_layers_and_dispatches() -> None:
    bus = seed_bus()
    out = io.StringIO()
    bus.stream_to_console("full", file=out, json=True, color=True)
    await bus.call_tool("exec", {"command": "ls"}, ok)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(d["point"], d["id"]) for d in lines] == [
        ("tool.before", "builtin:command-safety-guard"),
        ("tool.after", "redact"),
        ("tool.call", DISPATCH),
    ]
    assert "\x1b[" not in out.getvalue()


def test_record_from_dict_round_trips_to_dict() -> None:
    record = rec(level=WARNING, decision="block", reason="no", changes={"args.a": (1, [2])}, time=5.0)
    assert record_from_dict(record.to_dict()).to_dict() == record.to_dict()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"id": "x"}, "no 'point' field"),
        ({"point": "tool.before", "id": "x", "changes": {"a": 1}}, "must map fields"),
        ({"point": "tool.before", "id": "x", "level": "loud"}, "unknown level"),
    ],
)
def test_record_from_dict_names_what_is_wrong(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        record_from_dict(data)


async def test_a_shadow_layers_change_is_marked_as_not_applied() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("message.before", id="rewrite", shadow=True)
    def rewrite(message: agentbus.Message) -> None:
        message.message = "rewritten"

    out = io.StringIO()
    bus.stream_to_console("on", file=out)
    processed = await bus.process_message("original")
    assert processed.message == "original"
    assert out.getvalue() == "👻 shadow 📨 message.before · message mutated\n"


def test_importing_agentbus_does_not_import_the_console_audit_log_or_otel() -> None:
    """A Claude Code hook pays for imports on every tool call: these load only when used."""
    import subprocess
    import sys

    code = "import sys, agentbus; print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    for module in (
        "agentbus.console",
        "agentbus.audit_log",
        "agentbus.otel",
        "agentbus.tail",
        "opentelemetry",
    ):
        assert f"'{module}" not in loaded

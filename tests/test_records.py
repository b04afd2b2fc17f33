"""Interception records: one per layer run, levels, diffs on demand, every sink, the verbose lines."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
import structlog

from agentbus import Bus, Message, Params, Record, ToolCall, ToolResult, format_record
from agentbus.records import DEBUG, ERROR, INFO, WARNING, level_number

pytestmark = pytest.mark.anyio


async def ok_tool(args: dict[str, Any]) -> str:
    return "ok"


def full_bus(**options: Any) -> Bus:
    """A bus with a layer of each kind on each hook point of the tool pipeline and the message path."""
    bus = Bus(**options)
    bus.intercept("message.before", lambda m: m.metadata.update(complexity="high"), id="tagger")
    bus.intercept("params.before", lambda p: setattr(p, "think_level", "high"), id="thinker")
    bus.intercept("tool.before", lambda call: None, id="noop", priority=10)
    bus.intercept("tool.before", lambda call: call.args.update(flag=True), id="rewrite")

    @bus.middleware("tool.call", id="timing")
    async def timing(call: ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    bus.intercept("tool.after", lambda event: None, id="audit")
    return bus


async def test_every_interception_leaves_one_record_with_its_context() -> None:
    bus = full_bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append)
    await bus.prepare("hi", agent_id="main", session_key="s1")
    await bus.call_tool("bash", {"command": "ls"}, ok_tool, call_id="c1", agent_id="main", session_key="s1")
    assert [(r.point, r.id) for r in records] == [
        ("message.before", "tagger"),
        ("params.before", "thinker"),
        ("tool.before", "noop"),
        ("tool.before", "rewrite"),
        ("tool.call", "timing"),
        ("tool.after", "audit"),
    ]
    tool_records = records[2:]
    assert {(r.tool, r.agent_id, r.session_key, r.call_id) for r in tool_records} == {
        ("exec", "main", "s1", "c1")
    }
    assert records[0].agent_id == "main"
    assert records[0].tool is None


async def test_levels_follow_what_the_layer_did() -> None:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append)
    bus.intercept("tool.before", lambda call: None, id="debug", priority=4)
    bus.intercept("tool.before", lambda call: call.args.update(x=1), id="info", priority=3)
    bus.intercept("tool.before", lambda call: call.block("no"), id="warning", priority=2)
    bus.intercept("tool.before", lambda call: 1 / 0, id="error", priority=1)
    await bus.call_tool("exec", {}, ok_tool)
    assert [(r.id, r.level) for r in records] == [
        ("debug", DEBUG),
        ("info", INFO),
        ("warning", WARNING),
        ("error", ERROR),
    ]
    warning = records[2]
    assert (warning.decision, warning.reason, warning.changes) == (
        "block",
        "no",
        {"decision": (None, "block")},
    )
    assert records[3].error == "ZeroDivisionError: division by zero"
    assert records[1].changes == {"args.x": (None, 1)}


async def test_ask_is_recorded_at_warning() -> None:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append)
    bus.intercept("tool.before", lambda call: call.ask("sure?"), id="asker")
    await bus.call_tool("exec", {}, ok_tool)
    (record,) = records
    assert (record.level, record.decision, record.reason) == (WARNING, "ask", "sure?")
    assert format_record(record) == '🛡️ asker · asks approval for exec — "sure?"'


async def test_observers_only_get_records_at_their_level() -> None:
    bus = full_bus(log_level=None)
    infos: list[Record] = []
    errors: list[Record] = []
    bus.on_event(infos.append, level="info")
    bus.on_event(errors.append, level=ERROR)
    bus.intercept("tool.after", lambda event: 1 / 0, id="broken")
    await bus.call_tool("exec", {}, ok_tool)
    assert [r.id for r in infos] == ["rewrite", "broken"]
    assert [r.id for r in errors] == ["broken"]


async def test_diffs_are_computed_only_when_observed_at_info_or_below(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    snapshots: list[str] = []
    for cls in (Message, Params, ToolCall, ToolResult):
        original = cls.snapshot

        def counting(self: Any, original: Any = original) -> Any:
            snapshots.append(type(self).__name__)
            return original(self)

        monkeypatch.setattr(cls, "snapshot", counting)

    async def run(bus: Bus) -> None:
        await bus.prepare("hi")
        await bus.call_tool("exec", {}, ok_tool)

    await run(full_bus(log_level=None))
    assert snapshots == []  # nobody observes: no records, no diffs
    bus = full_bus(log_level=None)
    warnings: list[Record] = []
    bus.on_event(warnings.append, level="warning")
    await run(bus)
    assert snapshots == []  # observed, but not at INFO: no diffs
    bus.on_event(lambda record: None, level="info")
    await run(bus)
    assert set(snapshots) == {"Message", "Params", "ToolCall", "ToolResult"}


async def test_no_record_is_built_when_nobody_observes(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Any] = []
    original = Record.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(kwargs.get("id"))
        original(self, *args, **kwargs)

    monkeypatch.setattr(Record, "__init__", counting)
    bus = full_bus(log_level=None)
    await bus.prepare("hi")
    await bus.call_tool("exec", {}, ok_tool)
    assert built == []
    undo = bus.on_event(lambda record: None)
    await bus.call_tool("exec", {}, ok_tool)
    assert len(built) == 4
    undo()
    await bus.call_tool("exec", {}, ok_tool)
    assert len(built) == 4


async def test_structlog_receives_records_at_the_bus_log_level() -> None:
    bus = full_bus(log_level="info")
    with structlog.testing.capture_logs() as logs:
        await bus.prepare("hi", agent_id="main")
        await bus.call_tool("exec", {"command": "ls"}, ok_tool, call_id="c9")
    assert [(entry["point"], entry["id"], entry["log_level"]) for entry in logs] == [
        ("message.before", "tagger", "info"),
        ("params.before", "thinker", "info"),
        ("tool.before", "rewrite", "info"),
    ]
    rewrite = logs[2]
    assert rewrite["event"] == "interception"
    assert rewrite["tool"] == "exec"
    assert rewrite["call_id"] == "c9"
    assert rewrite["changes"] == {"args.flag": [None, True]}
    assert "decision" not in rewrite  # empty fields are left out of the line
    assert "error" not in rewrite
    json.dumps(rewrite)  # the fields are JSON-ready for a JSON-lines renderer


async def test_structlog_debug_level_logs_every_layer_and_none_logs_nothing() -> None:
    with structlog.testing.capture_logs() as logs:
        await full_bus(log_level="debug").call_tool("exec", {}, ok_tool)
        await full_bus(log_level=None).call_tool("exec", {}, ok_tool)
    assert [entry["id"] for entry in logs] == ["noop", "rewrite", "timing", "audit"]


async def test_a_failing_observer_never_breaks_interception() -> None:
    bus = full_bus(log_level=None)

    def broken(record: Record) -> None:
        raise RuntimeError("observer bug")

    bus.on_event(broken)
    assert await bus.call_tool("exec", {}, ok_tool) == "ok"
    assert bus.observers.failures == 4


async def test_subscription_delivers_every_record_to_a_keeping_up_subscriber() -> None:
    bus = full_bus(log_level=None)
    received: list[Record] = []
    async with bus.subscribe(max_buffer=100) as records:
        for _ in range(5):
            await bus.call_tool("exec", {}, ok_tool)
            received.extend(records.receive_nowait() for _ in range(4))
        with pytest.raises(anyio.WouldBlock):
            records.receive_nowait()
        assert records.dropped == 0
    assert len(received) == 20


async def test_a_slow_subscriber_gets_a_drop_count_and_never_blocks() -> None:
    bus = full_bus(log_level=None)
    async with bus.subscribe(max_buffer=3) as records:
        for _ in range(10):  # nobody reads: a bus that waited for the reader would never get past this
            await bus.call_tool("exec", {}, ok_tool)
        assert records.dropped == 10 * 4 - 3
        assert [records.receive_nowait().id for _ in range(3)] == ["noop", "rewrite", "timing"]


async def test_subscription_iteration_ends_after_close() -> None:
    bus = full_bus(log_level=None)
    async with bus.subscribe(level="info") as records:
        await bus.call_tool("exec", {}, ok_tool)
        records.close()
        await bus.call_tool("exec", {}, ok_tool)  # not delivered any more
        assert [record.id async for record in records] == ["rewrite"]
    assert not bus.observers


async def test_subscriber_in_another_task_receives_records() -> None:
    bus = full_bus(log_level=None)
    got: list[str] = []
    async with bus.subscribe() as records, anyio.create_task_group() as tg:

        async def consume() -> None:
            async for record in records:
                got.append(record.id)
                if len(got) == 8:
                    return

        tg.start_soon(consume)
        await bus.call_tool("exec", {}, ok_tool)
        await bus.call_tool("exec", {}, ok_tool)
    assert got == ["noop", "rewrite", "timing", "audit"] * 2


def test_level_names() -> None:
    assert [level_number(x) for x in ("debug", "INFO", "warning", "error", 15)] == [
        DEBUG,
        INFO,
        WARNING,
        ERROR,
        15,
    ]
    with pytest.raises(ValueError, match="unknown level 'loud'"):
        level_number("loud")
    with pytest.raises(ValueError, match="unknown level True"):
        level_number(True)


def test_record_to_dict_is_json_serialisable() -> None:
    record = Record(
        point="tool.after",
        id="x",
        level=INFO,
        changes={"result": ({"a": (1, 2)}, float("nan")), "args.p": (object(), None)},
    )
    data = json.loads(json.dumps(record.to_dict()))
    assert data["level"] == "info"
    assert data["changes"]["result"] == [{"a": [1, 2]}, "nan"]
    assert data["changes"]["args.p"][0].startswith("<object")


# -- the verbose lines of seed 000 ("Verbose Observability") ---------------------------------


async def seed_records() -> list[Record]:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append)

    @bus.intercept("tool.before", tool=["exec"], id="builtin:command-safety-guard", priority=100)
    def guard(call: ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    @bus.intercept("tool.before", tool="read", id="builtin:security-audit", priority=100)
    def audit(call: ToolCall) -> None:
        if ".ssh" in call.args["path"]:
            call.block(f"Access denied: {call.args['path']}")

    @bus.intercept("message.before", id="classifier")
    def classify(message: Message) -> None:
        message.message = message.message.strip()
        message.metadata["complexity"] = "high"

    @bus.intercept("params.before", id="thinker")
    def think(params: Params) -> None:
        params.think_level = "high"

    bus.intercept("tool.after", lambda event: setattr(event, "result", "changed"), id="after")
    await bus.call_tool("bash", {"command": "rm -rf /"}, ok_tool)
    await bus.call_tool("read", {"path": "~/.ssh/id_rsa"}, ok_tool)
    await bus.call_tool("exec", {"command": "ls"}, ok_tool)
    await bus.prepare(" debug ")
    return records


async def test_format_record_prints_exactly_the_seed_lines() -> None:
    lines = [line for record in await seed_records() if (line := format_record(record)) is not None]
    assert lines == [
        '🛡️ builtin:command-safety-guard · blocked exec — "rm -rf is not allowed"',
        '🛡️ builtin:security-audit · blocked read — "Access denied: ~/.ssh/id_rsa"',
        "📨 message.before · message mutated, metadata: complexity",
        "⚙️ params.before · thinkLevel → high",
    ]


async def test_tool_after_and_unchanged_layers_print_nothing() -> None:
    records = await seed_records()
    quiet = [r for r in records if r.point == "tool.after" or (not r.changes and r.error is None)]
    assert any(r.point == "tool.after" and r.changes for r in quiet)
    assert [format_record(r) for r in quiet] == [None] * len(quiet)


def test_format_record_for_metadata_only_params_fields_and_failures() -> None:
    metadata_only = Record(
        point="message.before", id="m", level=INFO, changes={"metadata.lang": (None, "de")}
    )
    assert format_record(metadata_only) == "📨 message.before · metadata: lang"
    params = Record(
        point="params.before",
        id="p",
        level=INFO,
        changes={"reasoning_level": (None, "on"), "temperature": (None, 0.2)},
    )
    assert format_record(params) == "⚙️ params.before · reasoningLevel → on, temperature → 0.2"
    failure = Record(point="tool.after", id="x", level=ERROR, error="ValueError: bad")
    assert format_record(failure) == "⚠️ x · tool.after failed — ValueError: bad"

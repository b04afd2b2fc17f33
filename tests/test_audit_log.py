"""The JSON-lines audit log writer."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import agentbus
from agentbus import audit_log
from agentbus.audit_log import RecordLog
from agentbus.records import DISPATCH, WARNING, Record

pytestmark = pytest.mark.anyio


def guarded_bus() -> agentbus.Bus:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm" in call.args["command"]:
            call.block("no rm")

    return bus


def ok(args: dict[str, Any]) -> str:
    return "ok"


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_log_to_appends_records_and_one_line_per_call(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "audit.jsonl"  # the directory does not exist yet
    bus = guarded_bus()
    undo = bus.log_to(path)
    await bus.call_tool("exec", {"command": "rm x"}, ok, call_id="c1")
    await bus.call_tool("exec", {"command": "ls"}, ok, call_id="c2")
    undo()
    await bus.call_tool("exec", {"command": "rm y"}, ok)  # after undo: not logged
    lines = read(path)
    assert [(d["id"], d["call_id"], d["decision"]) for d in lines] == [
        ("no-rm", "c1", "block"),
        (DISPATCH, "c1", "block"),
        (DISPATCH, "c2", None),  # the unchanged layer is DEBUG, below the default "info"
    ]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_log_to_at_debug_keeps_every_layer(tmp_path: Path) -> None:
    path = tmp_path / "audit.jsonl"
    bus = guarded_bus()
    bus.log_to(path, level="debug")
    await bus.call_tool("exec", {"command": "ls"}, ok)
    assert [d["id"] for d in read(path)] == ["no-rm", DISPATCH]


def test_lines_are_record_dicts(tmp_path: Path) -> None:
    log = RecordLog(tmp_path / "a.jsonl")
    record = Record(point="tool.before", id="g", level=WARNING, tool="exec", decision="block", reason="é")
    log(record)
    log.close()
    assert read(tmp_path / "a.jsonl") == [record.to_dict()]
    assert log.written == 1


async def test_write_errors_are_counted_and_reported_once_never_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "is-a-directory"
    path.mkdir()
    bus = guarded_bus()
    bus.log_to(path)
    log = next(cb for cb in bus.observers._callbacks if isinstance(cb, RecordLog))
    for _ in range(3):
        assert await bus.call_tool("exec", {"command": "rm x"}, ok) == {
            "status": "blocked", "tool": "exec", "reason": "no rm",
        }  # fmt: skip
    assert log.errors == 6
    assert bus.observers.failures == 0
    assert capsys.readouterr().err.count("cannot write the audit log") == 1


def test_a_rotated_log_is_reopened_at_its_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_log, "_REOPEN_CHECK", 0.0)
    path = tmp_path / "audit.jsonl"
    log = RecordLog(path)
    record = Record(point="tool.before", id="g", level=WARNING)
    log(record)
    path.rename(tmp_path / "audit.jsonl.1")
    log(record)
    log.close()
    assert len(read(tmp_path / "audit.jsonl.1")) == 1
    assert len(read(path)) == 1


WRITER = textwrap.dedent(
    """
    import sys
    from agentbus.audit_log import RecordLog
    from agentbus.records import Record, WARNING
    log = RecordLog(sys.argv[1])
    for i in range(300):
        log(Record(point="tool.before", id=f"{sys.argv[2]}-{i}", level=WARNING, reason="x" * 200))
    """
)


def test_processes_appending_at_once_never_interleave_lines(tmp_path: Path) -> None:
    """The Claude Code hook runs one process per tool call, all appending to one log."""
    path = tmp_path / "audit.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(agentbus.__file__).parent.parent)}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"w{n}"], env=env) for n in range(4)
    ]
    assert [w.wait(timeout=60) for w in writers] == [0, 0, 0, 0]
    ids = [d["id"] for d in read(path)]  # every line parses
    assert sorted(ids) == sorted(f"w{n}-{i}" for n in range(4) for i in range(300))

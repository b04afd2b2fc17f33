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
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.parent.parent.stat().st_mode) == 0o700  # every directory it created


async def test_an_existing_log_readable_by_others_is_narrowed_to_0600(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 11.6: a log created 0644 by an older version (or by hand) becomes private, and we say so."""
    path = tmp_path / "audit.jsonl"
    path.write_text("")
    path.chmod(0o644)
    bus = guarded_bus()
    undo = bus.log_to(path)
    await bus.call_tool("exec", {"command": "rm x"}, ok)
    undo()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "narrowed the permissions" in capsys.readouterr().err
    assert read(path)


def test_the_data_directory_is_narrowed_to_0700(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """agentbus's own data directory is ours to fix; any other existing directory is left alone."""
    home = tmp_path / "data"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    other = tmp_path / "other"
    other.mkdir()
    other.chmod(0o755)
    monkeypatch.setenv("AGENTBUS_HOME", str(home))
    RecordLog(home / "audit.jsonl").write_line("{}")
    RecordLog(other / "audit.jsonl").write_line("{}")
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE(other.stat().st_mode) == 0o755
    assert stat.S_IMODE((other / "audit.jsonl").stat().st_mode) == 0o600


def test_a_lone_surrogate_is_written_as_an_escape_not_an_error(tmp_path: Path) -> None:
    log = RecordLog(tmp_path / "audit.jsonl")
    log(Record(point="tool.before", id="g", level=WARNING, tool="exec", reason="rm \ud800 \udcff"))
    assert log.write_line('{"raw": "\ud800"}')
    assert log.errors == 0
    first, second = (tmp_path / "audit.jsonl").read_bytes().splitlines()
    assert json.loads(first.decode("utf-8"))["reason"] == "rm \ud800 \udcff"
    assert second.decode("utf-8") == '{"raw": "\\ud800"}'


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

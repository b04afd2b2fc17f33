"""agentbus.coverage() and ``agentbus tools``: which layers judge each of an agent's tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agentbus
from agentbus.cli import main
from agentbus.middleware import builtin
from agentbus.tool_coverage import format_coverage, tool_schemas


@pytest.fixture(autouse=True)
def _no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI discovers configuration in the working directory: give it an empty one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AGENTBUS_CONFIG", raising=False)


def guarded() -> agentbus.Registry:
    registry = agentbus.Registry()
    builtin.install(registry)
    return registry


def test_coverage_names_each_tools_kind_and_the_guards_that_judge_it() -> None:
    registry = guarded()
    registry.add("tool.after", lambda result: None, id="audit", tool="group:runtime")
    registry.declare_tools({"stat_file": "read"})
    shell = {"properties": {"command": {"type": "string"}}}

    rows = {
        row.name: row
        for row in agentbus.coverage({"run_shell": shell, "stat_file": None, "notes": None}, registry)
    }

    assert (rows["run_shell"].kind, rows["run_shell"].source) == ("exec", "inferred")
    assert rows["run_shell"].guards == ("builtin:command-safety-guard", "builtin:shell-file-guard")
    assert rows["run_shell"].layers["tool.after"] == ("audit",)
    assert (rows["stat_file"].kind, rows["stat_file"].source) == ("read", "declared")
    assert rows["stat_file"].guards == ("builtin:security-audit",)
    assert (rows["notes"].kind, rows["notes"].guards, rows["notes"].suspect) == (None, (), None)
    assert registry.kind_of("run_shell") is None  # coverage only looks: nothing was declared


def test_a_suspect_tool_is_flagged_in_the_table() -> None:
    rows = agentbus.coverage({"touch_file": {"properties": {"path": {}}}, "exec": None}, guarded())
    table = format_coverage(rows)
    assert "touch_file" in table
    assert "! looks like a file tool" in table
    assert "exec (name)" in table
    assert "builtin:command-safety-guard" in table


def test_the_cli_lists_named_tools_and_exits_1_when_one_is_a_suspect(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tools", "run_shell", "stat_file=read", "notes"]) == 0
    out = capsys.readouterr().out
    assert "run_shell" in out
    assert "builtin:command-safety-guard" in out
    assert "read (declared)" in out

    assert main(["tools", "stat_file"]) == 1
    assert "! looks like a file tool" in capsys.readouterr().out


def test_the_cli_reads_tool_definitions_and_prints_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    definitions = [
        {
            "type": "function",
            "function": {"name": "execute_bash", "parameters": {"properties": {"command": {}}}},
        },
        {"name": "write_to_file", "inputSchema": {"properties": {"path": {}, "content": {}}}},
        {"name": "lookup", "input_schema": {"properties": {"query": {}}}},
    ]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": definitions}))

    assert main(["tools", "--from", str(path), "--json"]) == 0

    rows = {row["name"]: row for row in map(json.loads, capsys.readouterr().out.splitlines())}
    assert rows["execute_bash"]["kind"] == "exec"
    assert rows["write_to_file"]["guards"] == ["builtin:security-audit"]
    assert rows["lookup"]["kind"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tools"], "name some tools"),
        (["tools", "run=shell"], "unknown kind 'shell'"),
        (["tools", "--from", "missing.json"], "missing.json"),
    ],
)
def test_bad_input_is_a_one_line_error_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_definition_without_a_name_is_refused_with_its_index() -> None:
    with pytest.raises(ValueError, match="tool definition 1 has no name"):
        tool_schemas([{"name": "ok"}, {"parameters": {}}])

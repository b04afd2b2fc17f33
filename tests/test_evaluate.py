"""`agentbus eval`: tool calls through a stack, nothing executed."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agentbus
from agentbus import Bus, cli
from agentbus.evaluate import build_bus, evaluate_stream, read_lines

POLICY = "tests_eval_policy"


@pytest.fixture(autouse=True)
def policy_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A user's policy module, importable as tests_eval_policy:install."""
    (tmp_path / f"{POLICY}.py").write_text(
        "def install(registry):\n"
        "    def no_rm(call):\n"
        "        if 'rm -rf' in call.args.get('command', ''):\n"
        "            call.block('rm -rf is not allowed')\n"
        "    def no_color(call):\n"
        "        call.args['command'] = call.args.get('command', '') + ' --color=never'\n"
        "    def ask_push(call):\n"
        "        if 'git push' in call.args.get('command', ''):\n"
        "            call.ask('pushing needs a person')\n"
        "    registry.add('tool.before', no_rm, id='policy:no-rm', priority=100, tool='exec')\n"
        "    registry.add('tool.before', ask_push, id='policy:ask-push', priority=50, tool='exec')\n"
        "    registry.add('tool.before', no_color, id='policy:no-color', priority=10, tool='exec')\n"
        "    def crash(call):\n"
        "        if call.args.get('crash'):\n"
        "            raise RuntimeError('policy bug')\n"
        "    registry.add('tool.before', crash, id='policy:crash', on_error='raise')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)  # no agentbus.toml here: the default stack
    monkeypatch.delenv("AGENTBUS_CONFIG", raising=False)
    agentbus.reset_registry()
    yield tmp_path
    sys.modules.pop(POLICY, None)
    agentbus.reset_registry()


def evaluate(lines: bytes, bus: Bus | None = None) -> list[dict[str, Any]]:
    import anyio

    bus = bus or build_bus(None, [f"{POLICY}:install"])
    out: list[str] = []
    anyio.run(evaluate_stream, bus, io.BytesIO(lines), out.append)
    return [json.loads(line) for line in out]


def test_each_call_gets_its_decision_and_final_args_in_order() -> None:
    lines = (
        b'{"tool": "Bash", "args": {"command": "rm -rf build"}}\n'
        b'{"tool": "bash", "args": {"command": "ls"}, "agent": "coder", "session": "s1"}\n'
        b'{"tool": "exec", "args": {"command": "git push"}}\n'
        b'{"tool_name": "Read", "tool_input": {"file_path": "README.md"}}\n'
    )
    blocked, allowed, asked, read = evaluate(lines)
    assert blocked == {
        "line": 1, "tool": "exec", "blocked": True, "reason": "rm -rf is not allowed", "by": "policy:no-rm",
        "decision": "block", "args": {"command": "rm -rf build --color=never"}, "notes": [],
    }  # fmt: skip
    assert (allowed["blocked"], allowed["reason"], allowed["by"]) == (False, None, None)
    assert allowed["args"] == {"command": "ls --color=never"}
    assert (asked["blocked"], asked["decision"], asked["by"]) == (False, "ask", "policy:ask-push")
    assert (read["line"], read["tool"], read["args"]) == (4, "read", {"file_path": "README.md"})


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b"not json", "not valid JSON"),
        (b"[1, 2]", "expected a JSON object"),
        (b'{"args": {}}', '"tool" must be a non-empty string, got null'),
        (b'{"tool": "exec", "args": "ls"}', '"args" must be a JSON object, got a string'),
        (b'{"tool": "exec", "agent": 7}', '"agent" must be a string, got a number'),
        (b'{"tool": "exec", "args": {}} \xff\xfe', "not valid UTF-8 (byte 0xff at offset 29)"),
        (b"[" * 100_000, "not valid JSON"),
        (b'{"tool": "exec", "args": {"n": ' + b"1" * 5000 + b"}}", "not valid JSON"),
        (b'{"tool": "exec", "args": {"crash": true}}', "the stack failed: InterceptionError: policy:crash"),
    ],
)
def test_a_bad_line_gives_an_error_line_and_the_run_goes_on(line: bytes, error: str) -> None:
    first, bad, last = evaluate(b'{"tool": "read"}\n' + line + b'\n\n{"tool": "write"}\n')
    assert first["tool"] == "read"
    assert bad["line"] == 2
    assert bad["error"].startswith(error)
    assert (last["line"], last["tool"]) == (4, "write"), "blank lines are skipped, numbering goes on"


def test_a_line_over_the_limit_is_reported_without_being_read_whole() -> None:
    stream = io.BytesIO(b"x" * 100 + b"\nshort\n" + b"y" * 10 + b"\n")
    assert [(n, raw) for n, raw in read_lines(stream, max_bytes=10)] == [
        (1, None),
        (2, b"short\n"),
        (3, b"y" * 10 + b"\n"),
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


def test_random_bytes_never_crash_and_each_nonblank_line_gets_one_answer() -> None:
    bus = build_bus(None, [f"{POLICY}:install"])

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.binary(max_size=200), max_size=8))
    def check(chunks: list[bytes]) -> None:
        data = b"\n".join(chunks)
        results = evaluate(data, bus=bus)
        nonblank = [
            line for line in data.split(b"\n") if line.decode("utf-8", "replace").strip().lstrip("\ufeff")
        ]
        assert len(results) == len(nonblank)
        for result in results:
            assert "error" in result or isinstance(result["blocked"], bool)

    check()


def test_random_json_objects_get_a_decision_or_a_clear_error() -> None:
    bus = build_bus(None, [f"{POLICY}:install"])

    @settings(max_examples=150, deadline=None)
    @given(
        st.dictionaries(st.sampled_from(["tool", "args", "agent", "session", "x"]), json_values, max_size=5)
    )
    def check(call: dict[str, Any]) -> None:
        (result,) = evaluate(json.dumps(call).encode() + b"\n", bus=bus)
        if "error" in result:
            assert result["error"].startswith(('"tool"', '"args"', '"agent"', '"session"'))
        else:
            assert result["tool"] == agentbus.normalize_tool_name(call["tool"])

    check()


def test_in_process_through_the_cli_with_a_file(
    capsys: pytest.CaptureFixture[str], policy_module: Path
) -> None:
    calls = policy_module / "calls.jsonl"
    calls.write_text('{"tool": "exec", "args": {"command": "rm -rf build"}}\n{"tool": 1}\n')
    assert cli.main(["eval", str(calls), "--middleware", f"{POLICY}:install"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["by"] == "policy:no-rm"
    assert second == {"line": 2, "error": '"tool" must be a non-empty string, got a number'}


def test_config_file_and_middleware_add_to_the_stack(
    capsys: pytest.CaptureFixture[str], policy_module: Path
) -> None:
    config = policy_module / "agentbus.toml"
    config.write_text('[[middleware]]\nuse = "agentbus.middleware.defaults:install"\nno_color = true\n')
    calls = policy_module / "calls.jsonl"
    calls.write_text('{"tool": "exec", "args": {"command": "grep -r x ."}}\n')
    assert cli.main(["eval", str(calls), "--config", str(config)]) == 0
    (result,) = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert result["args"] == {"command": "grep --color=never -r x ."}


def test_unreadable_input_and_a_broken_stack_fail_with_a_message(
    capsys: pytest.CaptureFixture[str], policy_module: Path
) -> None:
    assert cli.main(["eval", str(policy_module / "missing.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert cli.main(["eval", "--middleware", "no_such_module:install"]) == 2
    assert "cannot import 'no_such_module'" in capsys.readouterr().err
    assert cli.main(["eval", "--config", str(policy_module / "missing.toml")]) == 2
    assert "no such configuration file" in capsys.readouterr().err


def test_as_a_subprocess_reading_stdin(policy_module: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "agentbus.cli", "eval", "--middleware", f"{POLICY}:install"],
        input=(
            b'{"tool": "bash", "args": {"command": "rm -rf build"}}\n'
            b"\xff\n"
            b'{"tool": "read", "args": {"s": "\\ud800"}}\n'
        ),
        capture_output=True,
        cwd=policy_module,
        env={"PYTHONPATH": f"{policy_module}:{Path(agentbus.__file__).parent.parent}", "PATH": ""},
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == b""
    blocked, bad, surrogate = (json.loads(line) for line in completed.stdout.splitlines())
    assert (blocked["blocked"], blocked["by"]) == (True, "policy:no-rm")
    assert bad == {"line": 2, "error": "not valid UTF-8 (byte 0xff at offset 0)"}
    assert surrogate["args"] == {"s": "\ud800"}


def test_verbose_prints_the_interception_lines_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    import anyio

    bus = build_bus(None, [f"{POLICY}:install"], verbose=True)
    out: list[str] = []
    anyio.run(
        evaluate_stream, bus, io.BytesIO(b'{"tool": "exec", "args": {"command": "rm -rf build"}}'), out.append
    )
    assert '🛡️ policy:no-rm · blocked exec — "rm -rf is not allowed"' in capsys.readouterr().err
    assert json.loads(out[0])["blocked"] is True

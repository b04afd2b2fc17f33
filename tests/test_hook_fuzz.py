"""The Claude Code command hook under hostile stdin: it denies what it cannot judge, says why,
answers in the shape Claude Code reads, and leaves a record of every deny and failure.

Each input class of the hook's threat model is here once, run as Claude Code runs the
hook (a process, the event on stdin); a hypothesis test then drives the same entry
point, :func:`agentbus.hook.run`, in-process with events built to break it.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentbus import hook
from agentbus.adapters import claude_code

AGENTBUS = (sys.executable, "-c", "import sys; from agentbus.cli import main; sys.exit(main())")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """agentbus's data directory (where the audit log goes by default) under tmp_path."""
    monkeypatch.setenv("AGENTBUS_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("AGENTBUS_CONFIG", "AGENTBUS_AUDIT_LOG", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "data"


def pre(tool: Any, tool_input: Any, **extra: Any) -> bytes:
    event = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, **extra}
    return json.dumps(event).encode()


def run_hook(data: bytes, *options: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    completed = subprocess.run(
        [*AGENTBUS, "hook", "claude-code", *options],
        input=data,
        capture_output=True,
        env=dict(os.environ),
        cwd=cwd,
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in completed.stderr, completed.stderr.decode(errors="replace")
    return completed


def check_shape(stdout: bytes) -> dict[str, Any] | None:
    """stdout is nothing or one JSON object of the documented shape; return it."""
    if not stdout:
        return None
    output: dict[str, Any] = json.loads(stdout.decode("utf-8"))
    assert isinstance(output, dict)
    specific = output.get("hookSpecificOutput")
    if specific is not None:
        assert specific["hookEventName"] == "PreToolUse"
        assert specific.get("permissionDecision") in (None, "allow", "deny", "ask")
        if specific.get("permissionDecision") in ("deny", "ask"):
            assert isinstance(specific["permissionDecisionReason"], str)
            assert specific["permissionDecisionReason"]
    return output


def records(home: Path) -> list[dict[str, Any]]:
    log = home / "audit.jsonl"
    if not log.exists():
        return []
    return [json.loads(line.decode("utf-8")) for line in log.read_bytes().splitlines()]


def deny_reason(completed: subprocess.CompletedProcess[bytes]) -> str:
    assert completed.returncode == 0, completed.stderr
    output = check_shape(completed.stdout)
    assert output is not None
    assert output["hookSpecificOutput"]["permissionDecision"] == "deny"
    return str(output["hookSpecificOutput"]["permissionDecisionReason"])


NESTED = b"[" * 900 + b"]" * 900
"""Parses (under the JSON reader's recursion limit), but too deep to copy or walk."""

UNJUDGEABLE = {
    "invalid-json": (b'{"hook_event_name": "PreToolUse", nope', "not valid JSON"),
    "non-utf8": (pre("Bash", {"command": "ls"}).replace(b"ls", b"ls \xff"), "not valid UTF-8"),
    "array-on-top": (b"[" + pre("Bash", {"command": "ls"}) + b"]", "expected a JSON object"),
    "tool-name-null": (pre(None, {"command": "ls"}), "without a tool name"),
    "tool-name-number": (pre(5, {"command": "ls"}), "without a tool name"),
    "tool-input-list": (pre("Bash", ["rm -rf ~"]), "arguments"),
    "tool-input-string": (pre("Bash", "rm -rf ~"), "arguments"),
    "command-number": (pre("Bash", {"command": 123}), "'command' is not a string (int)"),
    "command-null": (pre("Bash", {"command": None}), "'command' is not a string"),
    "command-missing": (pre("Bash", {"cmd": "rm -rf ~"}), "'command' is not a string (nothing)"),
    "file-path-list": (pre("Read", {"file_path": ["~/.ssh/id_rsa"]}), "'file_path' is not a string (list)"),
    "url-number": (pre("WebFetch", {"url": 7, "prompt": "x"}), "'url' is not a string"),
    "nested-900": (pre("Bash", {"command": "ls", "x": "@"}).replace(b'"@"', NESTED), "cannot be copied"),
    "nested-5000": (pre("Bash", {"command": "ls", "x": "@"}).replace(b'"@"', b"[" * 5000), "not valid JSON"),
    "20-MB-command": (pre("Bash", {"command": "echo " + "a " * 10_000_000}), "larger than the limit"),
}


@pytest.mark.parametrize(("data", "reason"), list(UNJUDGEABLE.values()), ids=list(UNJUDGEABLE))
def test_a_pre_tool_use_nothing_can_judge_is_denied_with_a_reason_and_a_record(
    data: bytes, reason: str, home: Path
) -> None:
    said = deny_reason(run_hook(data))
    assert reason in said
    blocks = [record for record in records(home) if record["decision"] == "block"]
    assert [record["reason"] for record in blocks] == [said]


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"", "no input"), (json.dumps(pre("Bash", {"command": "ls"}).decode()).encode(), "got str")],
    ids=["empty", "string-on-top"],
)
def test_input_that_is_no_event_is_a_failure_on_stderr_with_a_record(
    data: bytes, message: str, home: Path
) -> None:
    """Exit 1, which the installed hook's ``onFailure: block`` turns into a block."""
    completed = run_hook(data)
    assert (completed.returncode, completed.stdout) == (1, b"")
    assert message in completed.stderr.decode()
    [record] = records(home)
    assert (record["id"], record["level"], record["decision"]) == ("agentbus:hook", "error", None)
    assert message in record["error"]


def test_a_judged_deny_leaves_only_the_guards_record(home: Path) -> None:
    said = deny_reason(run_hook(pre("Bash", {"command": "rm -rf ~"})))
    blocks = [record for record in records(home) if record["decision"] == "block"]
    assert [(record["id"], record["reason"]) for record in blocks] == [
        ("builtin:command-safety-guard", said.rsplit(" (agentbus: ", 1)[0])
    ]


def test_an_unloadable_project_configuration_denies_and_leaves_a_record(tmp_path: Path, home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "agentbus.toml").write_text("enabled = [\n")
    completed = subprocess.run(
        [*AGENTBUS, "hook", "claude-code"],
        input=pre("Bash", {"command": "ls"}, session_id="s1"),
        capture_output=True,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(project)},
        timeout=60,
        check=False,
    )
    assert "could not load its middleware" in deny_reason(completed)
    [record] = records(home)
    assert (record["id"], record["decision"], record["tool"], record["session_key"]) == (
        "agentbus:hook",
        "block",
        "Bash",
        "s1",
    )


# -- which of two equal keys counts -------------------------------------------------------

DUPLICATED = (
    b'{"hook_event_name": "PreToolUse", "tool_name": "Bash",'
    b' "tool_input": {"command": "ls", "command": "rm -rf ~"}}'
)


def test_a_duplicated_key_is_read_as_its_last_value_which_is_the_one_claude_code_runs(home: Path) -> None:
    """Python's json and JavaScript's JSON.parse both keep the last of two equal keys: the
    hook judges the command Claude Code would run."""
    assert json.loads(DUPLICATED)["tool_input"]["command"] == "rm -rf ~"
    assert "rm -rf ~" in deny_reason(run_hook(DUPLICATED))


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node, for JavaScript's JSON.parse")
def test_javascript_reads_a_duplicated_key_as_python_does() -> None:
    script = (
        "let s='';process.stdin.on('data',d=>s+=d)"
        ".on('end',()=>console.log(JSON.parse(s).tool_input.command))"
    )
    node = subprocess.run(
        ["node", "-e", script], input=DUPLICATED, capture_output=True, timeout=60, check=True
    )
    assert node.stdout.decode().strip() == json.loads(DUPLICATED)["tool_input"]["command"]


# -- the size limit reads in linear work -----------------------------------------------------


def test_an_oversized_event_is_scanned_in_work_linear_in_its_size(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting the bytes the name scan reads: twice the input, twice the work (plus a constant)."""
    scanned: list[int] = []
    real = hook.might_be_pre_tool_use

    def counting(data: bytes) -> bool:
        scanned[-1] += len(data)
        return real(data)

    monkeypatch.setattr(hook, "might_be_pre_tool_use", counting)
    for megabytes in (4, 8):
        scanned.append(0)
        data = b'{"hook_event_name": "PreToolUse", "x": "' + b"a" * (megabytes << 20) + b'"}'
        reply = _decide(data, "--max-bytes", "1000")
        assert reply.output is not None
        assert reply.output["hookSpecificOutput"]["permissionDecision"] == "deny"
    small, large = scanned
    assert large <= 2 * small + 4096


# -- hypothesis: events built to break the hook ---------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TOOL_NAMES = st.sampled_from([*claude_code.CLAUDE_CODE_TOOLS, "mcp__shell__run", "bash", "Shell"]) | JSON
EVENT_NAMES = st.sampled_from(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "Nope"]) | JSON


@st.composite
def hostile_inputs(draw: st.DrawFn) -> bytes:
    """A hook event with any field of any type, then maybe spoiled on the wire."""
    event: dict[str, Any] = draw(st.dictionaries(st.text(max_size=8), JSON, max_size=3))
    event["hook_event_name"] = draw(EVENT_NAMES)
    event["tool_name"] = draw(TOOL_NAMES)
    event["tool_input"] = draw(JSON | st.fixed_dictionaries({"command": JSON, "file_path": JSON}))
    data = json.dumps(event, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    spoil = draw(st.sampled_from(["none", "bom", "truncate", "byte", "wrap"]))
    if spoil == "bom":
        data = b"\xef\xbb\xbf" + data
    elif spoil == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif spoil == "byte":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\x00", b"\xc3", b'"'])) + data[at:]
    elif spoil == "wrap":
        data = b"[" + data + b"]"
    return data


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        yield
    finally:
        sys.stdin = saved


def _args(*options: str) -> Any:
    parsed = hook.parse_args_quickly(["claude-code", *options])
    assert parsed is not None
    return parsed


def _decide(data: bytes, *options: str) -> claude_code.HookReply:
    with _stdin(data):
        return hook._decide(_args(*options), {"pre_tool_use": True})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_inputs())
def test_any_input_is_answered_in_shape_a_pre_tool_use_is_never_a_silent_failure_and_each_deny_is_recorded(
    data: bytes, home: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    (home / "audit.jsonl").unlink(missing_ok=True)
    capfdbinary.readouterr()
    with _stdin(data):
        try:
            status = hook.run(_args())
        finally:
            gc.unfreeze()  # run() freezes what a one-event process holds; a test process goes on
    stdout = capfdbinary.readouterr().out
    assert status in (0, 1)
    output = check_shape(stdout)
    written = records(home)
    if status == 1:  # a failure: Claude Code shows it; the installed hook blocks on it
        assert stdout == b""
        assert not hook.might_be_pre_tool_use(data)
        assert any(record["id"] == "agentbus:hook" and record["error"] for record in written)
    specific = (output or {}).get("hookSpecificOutput") or {}
    if specific.get("permissionDecision") == "deny":
        assert any(record["decision"] == "block" and not record["shadow"] for record in written), written
    try:
        event = json.loads(data)
    except ValueError:
        return
    if isinstance(event, dict) and event.get("hook_event_name") == "PreToolUse":
        tool_input = event.get("tool_input")
        if event.get("tool_name") == "Bash" and not (
            isinstance(tool_input, dict) and isinstance(tool_input.get("command"), str)
        ):
            assert specific.get("permissionDecision") == "deny"


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + pre("Bash", {"command": "rm -rf ~"}),
        pre("Bash", {"command": "rm -rf ~"}).decode().encode("utf-16"),
        pre("Bash", {"command": "rm -rf ~\u0000ls"}),
        pre("Bash", {"command": "rm -rf ~ \ud800"}),
    ],
    ids=["utf8-bom", "utf16", "nul", "lone-surrogate"],
)
def test_an_event_in_another_encoding_or_with_odd_characters_is_judged_on_its_content(
    data: bytes, home: Path
) -> None:
    """Python's JSON reader takes a BOM and UTF-16 as what they spell: the guards judge the command."""
    assert "rm -rf ~" in deny_reason(run_hook(data))
    assert [record["id"] for record in records(home) if record["decision"] == "block"] == [
        "builtin:command-safety-guard"
    ]

"""Hostile input at the process boundary: the command hook and `agentbus serve` fail closed.

Each test plays the attacker of issue 11: strings JSON can carry but UTF-8
cannot (lone surrogates), layers that raise SystemExit, events spelled to dodge
a naive check, bodies that exhaust memory or file descriptors. Whatever
happens, a PreToolUse is answered with one valid JSON decision, a deny when
agentbus could not judge it, and the server keeps serving.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.abc import SocketAttribute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentbus
from agentbus import hook
from agentbus.audit_log import json_bytes
from agentbus.serve import HookServer

AGENTBUS = (sys.executable, "-c", "import sys; from agentbus.cli import main; sys.exit(main())")

ANY_CHARACTER = st.characters(exclude_categories=())
"""Every code point, lone surrogates (category Cs) included: JSON can carry them all."""
ANY_TEXT = st.text(ANY_CHARACTER, max_size=40)


def pre(command: Any, **extra: Any) -> dict[str, Any]:
    return {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, **extra}


def run_hook(
    data: bytes, *options: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The hook as Claude Code runs it; never a traceback."""
    environment = {**os.environ, **(env or {})}
    environment.pop("AGENTBUS_CONFIG", None)
    environment.pop("CLAUDE_PROJECT_DIR", None)
    completed = subprocess.run(
        [*AGENTBUS, "hook", "claude-code", *options],
        input=data,
        capture_output=True,
        env=environment,
        cwd=cwd,
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in completed.stderr, completed.stderr.decode(errors="replace")
    return completed


def denied(completed: subprocess.CompletedProcess[bytes]) -> str:
    """The deny reason of a hook's answer: exit 0, exactly one JSON object on stdout."""
    assert completed.returncode == 0, completed.stderr
    output = json.loads(completed.stdout)
    specific = output["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny", specific
    return str(specific["permissionDecisionReason"])


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """agentbus's data directory and the user's config directory, both under tmp_path."""
    monkeypatch.setenv("AGENTBUS_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("AGENTBUS_CONFIG", raising=False)
    monkeypatch.delenv("AGENTBUS_AUDIT_LOG", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    return tmp_path / "data"


# -- encoding: any string JSON can carry -----------------------------------------------


@pytest.mark.parametrize("field", ["command", "session_id", "tool_use_id", "file_path"])
def test_a_lone_surrogate_anywhere_is_judged_recorded_and_answered(field: str, home: Path) -> None:
    """Issue 11.2: before, writing the audit line raised and the hook exited 1 (the call ran)."""
    event = pre("rm -rf / \ud800", session_id="s", tool_use_id="t")
    if field == "file_path":
        event = {
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": "~/.ssh/id_rsa\udc00x"},
        }
    elif field != "command":
        event[field] = "\udc00\ud800"
    data = json.dumps(event).encode()  # ensure_ascii: the surrogates travel as \ud800 escapes
    completed = run_hook(data)
    if field == "file_path":
        assert "SSH" in denied(completed) or "private key" in denied(completed)
    else:
        assert "rm -rf" in denied(completed)
    lines = (home / "audit.jsonl").read_bytes().splitlines()
    records = [json.loads(line.decode("utf-8")) for line in lines]  # every line is valid UTF-8 JSON
    assert any(record["decision"] == "block" for record in records)
    if field in ("session_id", "tool_use_id"):
        key = "session_key" if field == "session_id" else "call_id"
        assert records[0][key] == "\udc00\ud800"


def test_json_bytes_writes_any_value_as_utf8_that_reads_back_the_same() -> None:
    @given(
        st.recursive(
            ANY_TEXT | st.integers() | st.none(),
            lambda inner: st.lists(inner) | st.dictionaries(ANY_TEXT, inner),
        )
    )
    def check(value: Any) -> None:
        data = json_bytes(value)
        assert json.loads(data.decode("utf-8")) == value

    check()


def _hook_args(config: Path, audit: Path) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    hook.add_arguments(parser)
    return parser.parse_args(["claude-code", "--config", str(config), "--audit-log", str(audit)])


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        yield
    finally:
        sys.stdin = saved


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=ANY_TEXT, path=ANY_TEXT, session=ANY_TEXT, call_id=ANY_TEXT)
def test_random_unicode_flows_through_guards_records_and_answer(
    tmp_path: Path, command: str, path: str, session: str, call_id: str
) -> None:
    """Hypothesis: any text in the command, a path, the session or the call id is decided,
    and the answer and the audit log are valid UTF-8 JSON."""
    config = tmp_path / "defaults.toml"
    config.write_text("")  # the built-in guards, nothing else
    audit = tmp_path / "audit.jsonl"
    audit.unlink(missing_ok=True)
    for event in (
        pre(f"rm -rf ~ {command}", session_id=session, tool_use_id=call_id),
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": path, "content": command},
        },
    ):
        with _stdin(json.dumps(event).encode()):
            reply = hook._decide(_hook_args(config, audit), {})
        answer = json.loads(json_bytes(reply.output).decode("utf-8")) if reply.output else None
        if event["tool_name"] == "Bash":
            assert answer is not None
            assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    for line in audit.read_bytes().splitlines():
        json.loads(line.decode("utf-8"))


# -- BaseException from a layer ----------------------------------------------------------

RAISING_LAYERS = """
import os

def install(registry, raises, write_to_stdout=False):
    def layer(call):
        if write_to_stdout:
            os.write(1, b"garbage from a layer\\n")
            print("and more")
        raise {"SystemExit": SystemExit(0), "KeyboardInterrupt": KeyboardInterrupt(),
               "GeneratorExit": GeneratorExit(), "RuntimeError": RuntimeError("bug")}[raises]
    registry.add("tool.before", layer, id="test:raises")
"""


@pytest.mark.parametrize("raises", ["SystemExit", "KeyboardInterrupt", "GeneratorExit"])
def test_a_layer_raising_base_exception_makes_the_hook_deny(raises: str, tmp_path: Path) -> None:
    """Issue 11.3: before, SystemExit(0) from a layer ended the hook with exit 0, no answer: the call ran."""
    (tmp_path / "raising_layers.py").write_text(RAISING_LAYERS)
    config = tmp_path / "agentbus.toml"
    config.write_text(
        f'builtins = false\n[[middleware]]\nuse = "raising_layers:install"\nraises = "{raises}"\n'
    )
    completed = run_hook(
        json.dumps(pre("ls")).encode(),
        "--config",
        str(config),
        "--no-audit-log",
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert raises in denied(completed)


def test_what_a_layer_writes_to_stdout_cannot_corrupt_the_answer(tmp_path: Path) -> None:
    (tmp_path / "raising_layers.py").write_text(RAISING_LAYERS)
    config = tmp_path / "agentbus.toml"
    config.write_text(
        'builtins = false\n[[middleware]]\nuse = "raising_layers:install"\n'
        'raises = "SystemExit"\nwrite_to_stdout = true\n'
    )
    completed = run_hook(
        json.dumps(pre("ls")).encode(),
        "--config",
        str(config),
        "--no-audit-log",
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert "SystemExit" in denied(completed)  # stdout holds the JSON answer and nothing else
    assert b"garbage from a layer" in completed.stderr


# -- the event name in forms a naive reader misses ----------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b'{"hook_event_name": "PreTool\\u0055se", "tool_name": "Bash", "tool_input": {"command": "rm -rf ~"',
        b'{"hook_\\u0065vent_name": "\\u0050reToolUse", "tool_input": "x" ',
        b'{"padding": "' + b"x" * 100_000 + b'", "hook_event_name": "PreToolUse", "tool_input": [}',
        b'{"tool_input": {"command": "rm -rf ~"}, "hook_event_name": "PreToolUse", "x": "\xff"}',
    ],
    ids=["escaped", "escaped-key", "after-64-KiB", "invalid-utf8"],
)
def test_an_unreadable_event_that_may_be_a_pre_tool_use_is_denied(data: bytes) -> None:
    assert "could not check this call" in denied(run_hook(data, "--no-audit-log"))


def test_an_oversized_event_naming_pre_tool_use_past_the_limit_is_denied() -> None:
    """The part past --max-bytes is read and dropped, but scanned for the event name."""
    data = b'{"padding": "' + b"x" * 50_000 + b'", "hook_event_name": "PreTool\\u0055se"}'
    assert "larger than the limit" in denied(run_hook(data, "--no-audit-log", "--max-bytes", "1000"))


@given(ANY_TEXT, st.lists(st.booleans(), min_size=10, max_size=10), st.booleans())
def test_every_escaped_spelling_of_pre_tool_use_is_recognised(
    prefix: str, mask: list[bool], upper: bool
) -> None:
    """Hypothesis: escaping any subset of the characters, in either case of hex, still names PreToolUse."""
    escaped = "".join(
        (f"\\u{ord(c):04X}" if upper else f"\\u{ord(c):04x}") if escape else c
        for c, escape in zip("PreToolUse", mask, strict=True)
    )
    data = f'{{"x": {json.dumps(prefix)}, "hook_event_name": "{escaped}"'.encode()
    assert hook.might_be_pre_tool_use(data)
    assert json.loads(data + b"}")["hook_event_name"] == "PreToolUse"


# -- the working directory is not on the import path -------------------------------------

HOSTILE_MODULE = "import pathlib; pathlib.Path({marker!r}).write_text('imported'); raise SystemExit(0)\n"


@pytest.mark.parametrize("how", ["python -m agentbus", "console script"])
def test_modules_in_the_working_directory_are_not_imported(how: str, tmp_path: Path) -> None:
    """A project that plants structlog.py (or agentbus.py for the console script) gets nothing imported."""
    project = tmp_path / "project"
    project.mkdir()
    marker = tmp_path / "imported"
    planted = ["structlog", "anyio", "attrs", "h11"] + (["agentbus"] if how == "console script" else [])
    for name in planted:
        (project / f"{name}.py").write_text(HOSTILE_MODULE.format(marker=str(marker)))
    if how == "console script":
        command = [str(Path(sys.executable).parent / "agentbus")]
    else:
        command = [sys.executable, "-m", "agentbus"]
    environment = {**os.environ, "AGENTBUS_HOME": str(tmp_path / "data")}
    environment.pop("PYTHONPATH", None)
    environment.pop("AGENTBUS_CONFIG", None)
    completed = subprocess.run(
        [*command, "hook", "claude-code", "--no-audit-log"],
        input=json.dumps(pre("rm -rf ~")).encode(),
        capture_output=True,
        cwd=project,
        env=environment,
        timeout=60,
        check=False,
    )
    assert not marker.exists()
    assert "rm -rf" in denied(completed)


# -- agentbus serve ------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def serving(server: HookServer) -> AsyncIterator[int]:
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, listener)
        yield port
        tg.cancel_scope.cancel()


async def http(port: int, body: bytes, *, chunked: bool = False) -> tuple[int, bytes]:
    """One POST to the hook path over a real socket; returns (status, body)."""
    head = b"POST /claude-code HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    if chunked:
        request = head + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    else:
        request = head + b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    with anyio.fail_after(30):
        async with await anyio.connect_tcp("127.0.0.1", port) as stream:
            await stream.send(request)
            received = b""
            while True:
                try:
                    received += await stream.receive()
                except (anyio.EndOfStream, anyio.BrokenResourceError):
                    break
    head_bytes, _, payload = received.partition(b"\r\n\r\n")
    return int(head_bytes.split(b" ", 2)[1]), payload


def deny_reason(status: int, body: bytes) -> str:
    assert status == 200, body
    specific = json.loads(body.decode("utf-8"))["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    return str(specific["permissionDecisionReason"])


def guarded_bus() -> agentbus.Bus:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool="exec", id="test:no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm" in str(call.args.get("command")):
            call.block("no rm")

    return bus


UNREADABLE = {
    "tool_input not an object": json.dumps(
        {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "rm -rf ~"}
    ).encode(),
    "no tool_name": json.dumps(
        {"hook_event_name": "PreToolUse", "tool_input": {"command": "rm -rf ~"}}
    ).encode(),
    "invalid JSON": b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm',
    "invalid UTF-8": b'{"hook_event_name": "PreToolUse", "tool_name": "Bash\xff", "tool_input": {}}',
    "deep nesting": b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": '
    + b"[" * 100_000
    + b"]" * 100_000
    + b"}",
    "escaped name": b'{"hook_event_name": "PreTool\\u0055se", "tool_name": 1',
}


@pytest.mark.anyio
@pytest.mark.parametrize("in_thread", [True, False], ids=["worker-thread", "event-loop"])
@pytest.mark.parametrize("what", sorted(UNREADABLE))
async def test_serve_denies_a_pre_tool_use_it_cannot_read(what: str, in_thread: bool) -> None:
    """Issue 11.4: before, these got a 400, which Claude Code treats as go-ahead."""
    server = HookServer(guarded_bus(), max_bytes=1_000_000, decide_in_thread=in_thread)
    async with serving(server) as port:
        assert "could not check" in deny_reason(*await http(port, UNREADABLE[what]))
        assert "no rm" in deny_reason(*await http(port, json.dumps(pre("rm -rf ~")).encode()))


@pytest.mark.anyio
@pytest.mark.parametrize("in_thread", [True, False], ids=["worker-thread", "event-loop"])
@pytest.mark.parametrize("raises", [SystemExit, KeyboardInterrupt, GeneratorExit])
async def test_serve_denies_when_a_layer_raises_base_exception_and_keeps_serving(
    raises: type[BaseException], in_thread: bool
) -> None:
    bus = guarded_bus()

    @bus.intercept("tool.before", tool="exec", id="test:raises")
    def layer(call: agentbus.ToolCall) -> None:
        if call.args.get("command") == "boom":
            raise raises()

    server = HookServer(bus, decide_in_thread=in_thread)
    async with serving(server) as port:
        assert raises.__name__ in deny_reason(*await http(port, json.dumps(pre("boom")).encode()))
        assert await http(port, json.dumps(pre("ls")).encode()) == (200, b"")


@pytest.mark.anyio
async def test_serve_answers_any_string_as_valid_utf8_json() -> None:
    server = HookServer(guarded_bus())
    async with serving(server) as port:
        event = pre("rm -rf ~ \ud800", session_id="\udc00", tool_use_id="\ud800")
        assert "no rm" in deny_reason(*await http(port, json.dumps(event).encode()))


@pytest.mark.anyio
async def test_serve_with_random_json_shapes_never_lets_an_unjudged_pre_tool_use_pass() -> None:
    """Hypothesis: whatever JSON arrives, a PreToolUse is decided (200) and other input is a 400 or 200."""
    server = HookServer(guarded_bus(), decide_in_thread=False)
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | ANY_TEXT,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
        max_leaves=10,
    )
    events = st.fixed_dictionaries(
        {"hook_event_name": st.sampled_from(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Other"])},
        optional={
            "tool_name": json_values | st.sampled_from(["Bash", "Read"]),
            "tool_input": json_values,
            "tool_response": json_values,
            "prompt": json_values,
            "session_id": json_values,
        },
    )
    seen: list[tuple[dict[str, Any], int, bytes]] = []

    @settings(max_examples=150, deadline=None)
    @given(events)
    def collect(event: dict[str, Any]) -> None:
        seen.append((event, 0, b""))

    collect()
    for index, (event, _, _) in enumerate(seen):
        status, _, body = await server.respond("POST", "/claude-code", {}, json.dumps(event).encode())
        seen[index] = (event, status, body)
    for event, status, body in seen:
        if event["hook_event_name"] == "PreToolUse":
            assert status == 200, (event, body)
            if body:
                json.loads(body.decode("utf-8"))
        else:
            assert status in (200, 400)


@pytest.mark.anyio
async def test_a_slow_decision_does_not_stall_the_other_clients() -> None:
    """Issue 11.4: the guards run in worker threads; a fast request is answered while a slow one is judged."""
    bus = guarded_bus()
    release = threading.Event()

    @bus.intercept("tool.before", tool="exec", id="test:slow")
    def slow(call: agentbus.ToolCall) -> None:
        if call.args.get("command") == "slow":
            assert release.wait(30)  # a sync guard that takes its time, off the event loop

    server = HookServer(bus)
    results: dict[str, tuple[int, bytes]] = {}
    async with serving(server) as port:

        async def ask(command: str) -> None:
            results[command] = await http(port, json.dumps(pre(command)).encode())

        async with anyio.create_task_group() as tg:
            tg.start_soon(ask, "slow")
            with anyio.fail_after(20):
                await ask("rm -rf ~")  # answered while "slow" is still being judged
            assert "slow" not in results
            release.set()
    assert results["slow"] == (200, b"")
    assert "no rm" in deny_reason(*results["rm -rf ~"])


@pytest.mark.anyio
async def test_oversized_and_concurrent_bodies_are_denied_within_a_memory_budget() -> None:
    """Issue 11.4: the bodies being read share one budget; past it a request is denied, not buffered."""
    server = HookServer(guarded_bus(), max_bytes=10_000, max_total_bytes=25_000)
    async with serving(server) as port:
        streams = []
        for _ in range(5):  # five clients, each 9,000 bytes into a chunked body, none finished
            stream = await anyio.connect_tcp("127.0.0.1", port)
            chunk = b"x" * 9000
            await stream.send(
                b"POST /claude-code HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n"
                % (len(chunk), chunk)
            )
            streams.append(stream)
        with anyio.fail_after(20):
            while server.buffered < 18_000:  # noqa: ASYNC110 - polling the server's own counter
                await anyio.sleep(0.01)  # two bodies held; the other three were denied
        assert server.peak_buffered <= 25_000
        for stream in streams:
            await stream.aclose()
        assert "larger than 10000" in deny_reason(
            *await http(port, b'{"x": "' + b"y" * 20_000 + b'"}', chunked=True)
        )
        assert "no rm" in deny_reason(*await http(port, json.dumps(pre("rm -rf ~")).encode()))


@pytest.mark.anyio
async def test_idle_connections_past_the_cap_are_closed_to_make_room() -> None:
    server = HookServer(guarded_bus(), max_connections=8)
    async with serving(server) as port:
        idle = [await anyio.connect_tcp("127.0.0.1", port) for _ in range(30)]
        try:
            with anyio.fail_after(20):
                assert "no rm" in deny_reason(*await http(port, json.dumps(pre("rm -rf ~")).encode()))
            assert server.shed >= 22
            assert server.connections <= 8 + 1
        finally:
            for stream in idle:
                await stream.aclose()


SERVE_WITH_FEW_FILES = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
from agentbus.cli import main
sys.exit(main())
"""


def test_serve_survives_running_out_of_file_descriptors(tmp_path: Path) -> None:
    """Issue 11.4: before, accept() failing with EMFILE ended the server. Limit: 64 descriptors."""
    import socket

    environment = {**os.environ, "AGENTBUS_HOME": str(tmp_path / "data")}
    environment.pop("AGENTBUS_CONFIG", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            SERVE_WITH_FEW_FILES,
            "serve",
            "--port",
            "0",
            "--no-audit-log",
            "--verbose",
            "off",
            "--max-connections",
            "1000",
        ],
        env=environment,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    idle: list[socket.socket] = []
    try:
        assert process.stderr is not None
        banner = process.stderr.readline().decode()
        port = int(banner.rsplit(":", 1)[1].split("/", 1)[0])
        for _ in range(150):  # more than the server has descriptors for
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        body = json.dumps(pre("rm -rf ~")).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(
                b"POST /claude-code HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                % (len(body), body)
            )
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert b'"deny"' in answer
        assert process.poll() is None  # still serving
    finally:
        for sock in idle:
            sock.close()
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert b"closing idle connections" in err


def test_another_module_run_with_dash_m_keeps_its_working_directory_on_the_path(tmp_path: Path) -> None:
    """Only ``python -m agentbus`` drops the working directory: an application started with
    ``python -m app`` that imports agentbus still imports its own modules from there."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("import agentbus\n")
    (tmp_path / "app" / "__main__.py").write_text("import helper\nprint(helper.VALUE)\n")
    (tmp_path / "helper.py").write_text("VALUE = 'found'\n")
    environment = {**os.environ}
    environment.pop("PYTHONPATH", None)
    completed = subprocess.run(
        [sys.executable, "-m", "app"], capture_output=True, text=True, cwd=tmp_path, env=environment,
        timeout=60, check=False,
    )  # fmt: skip
    assert completed.stdout.strip() == "found", completed.stderr

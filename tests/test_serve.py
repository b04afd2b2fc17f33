"""`agentbus serve`: real HTTP requests to a server listening on a loopback port."""

from __future__ import annotations

import http.client
import json
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.abc import SocketAttribute

import agentbus
from agentbus.hook import AuditLog
from agentbus.serve import HOOK_PATH, TOKEN_ENV, HookServer, add_tool_call_limit, console_printer

pytestmark = pytest.mark.anyio


def policies(bus: agentbus.Bus) -> None:
    @bus.intercept("tool.before", tool="exec", id="test:no-rm-rf")
    def no_rm_rf(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args.get("command", ""):
            call.block("rm -rf is not allowed")

    @bus.intercept("tool.before", tool="exec", id="test:ask-push")
    def ask_push(call: agentbus.ToolCall) -> None:
        if call.args.get("command", "").startswith("git push"):
            call.ask("pushing needs approval")


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[HookServer, int]]:
    """A server on 127.0.0.1, any free port, with the test policies and an audit log."""
    bus = agentbus.Bus(log_level=None)
    policies(bus)
    audit = AuditLog(tmp_path / "audit.jsonl")
    bus.on_event(audit)
    lines: list[str] = []
    server = HookServer(bus, token="s3cret", max_bytes=10_000, audit=audit, console=lines.append)
    server.lines = lines  # type: ignore[attr-defined]
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, listener)
        yield server, port
        tg.cancel_scope.cancel()


def post(
    port: int, body: bytes | dict[str, Any], *, token: str | None = "s3cret", path: str = HOOK_PATH
) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    try:
        connection.request("POST", path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


async def apost(port: int, body: bytes | dict[str, Any], **options: Any) -> tuple[int, bytes]:
    return await anyio.to_thread.run_sync(lambda: post(port, body, **options))


async def raw(port: int, data: bytes) -> bytes:
    """Send bytes as they are; return everything the server answers until it closes."""
    async with await anyio.connect_tcp("127.0.0.1", port) as stream:
        await stream.send(data)
        received = b""
        with anyio.fail_after(30):
            while True:
                try:
                    received += await stream.receive()
                except (anyio.EndOfStream, anyio.BrokenResourceError):
                    return received


def pre(command: str, session: str = "s1", tool_use_id: str = "toolu_1") -> dict[str, Any]:
    return {
        "hook_event_name": "PreToolUse",
        "session_id": session,
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": tool_use_id,
    }


async def test_block_is_answered_as_deny(served: tuple[HookServer, int], tmp_path: Path) -> None:
    server, port = served
    status, body = await apost(port, pre("rm -rf /"))
    assert status == 200
    specific = json.loads(body)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "rm -rf is not allowed" in specific["permissionDecisionReason"]
    log = (tmp_path / "audit.jsonl").read_text()
    assert '"decision": "block"' in log
    assert server.requests == 1


async def test_nothing_to_say_is_an_empty_200(served: tuple[HookServer, int]) -> None:
    _, port = served
    assert await apost(port, pre("ls")) == (200, b"")


async def test_other_events_pass_through(served: tuple[HookServer, int]) -> None:
    _, port = served
    assert await apost(port, {"hook_event_name": "Stop", "session_id": "s1"}) == (200, b"")


async def test_approval_is_remembered_for_the_session(served: tuple[HookServer, int]) -> None:
    """An asked call that then ran (PostToolUse) was approved: not asked again in that session."""
    server, port = served
    _, body = await apost(port, pre("git push", tool_use_id="toolu_a"))
    assert json.loads(body)["hookSpecificOutput"]["permissionDecision"] == "ask"
    after = {**pre("git push", tool_use_id="toolu_a"), "hook_event_name": "PostToolUse", "tool_response": {}}
    assert await apost(port, after) == (200, b"")
    assert await apost(port, pre("git push", tool_use_id="toolu_b")) == (200, b"")
    _, body = await apost(port, pre("git push", session="s2", tool_use_id="toolu_c"))
    assert json.loads(body)["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert any("approved by the user" in line for line in server.lines)  # type: ignore[attr-defined]


async def test_session_tool_call_limit_keeps_state_across_requests(served: tuple[HookServer, int]) -> None:
    server, port = served
    add_tool_call_limit(server.bus.registry, 2)
    assert await apost(port, pre("ls", session="a")) == (200, b"")
    assert await apost(port, pre("ls", session="a")) == (200, b"")
    assert await apost(port, pre("ls", session="b")) == (200, b"")
    _, body = await apost(port, pre("ls", session="a"))
    assert (
        "tool-call limit reached: 2 calls"
        in json.loads(body)["hookSpecificOutput"]["permissionDecisionReason"]
    )


@pytest.mark.parametrize("token", [None, "wrong"])
async def test_a_missing_or_wrong_token_is_refused(served: tuple[HookServer, int], token: str | None) -> None:
    _, port = served
    status, body = await apost(port, pre("rm -rf /"), token=token)
    assert status == 401
    assert b"bearer token" in body


async def test_a_body_over_the_limit_is_denied_not_refused(served: tuple[HookServer, int]) -> None:
    """It might be a PreToolUse, and Claude Code runs the tool after a 413: 200 with a deny."""
    _, port = served
    status, body = await apost(port, pre("x" * 20_000))
    assert status == 200
    specific = json.loads(body)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "larger than 10000 bytes" in specific["permissionDecisionReason"]


async def test_a_chunked_body_over_the_limit_is_denied_not_refused(served: tuple[HookServer, int]) -> None:
    _, port = served
    chunk = b"x" * 8000
    request = (
        b"POST /claude-code HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + (b"%x\r\n%s\r\n" % (len(chunk), chunk)) * 3 + b"0\r\n\r\n"
    )
    answer = await raw(port, request)
    assert answer.startswith(b"HTTP/1.1 200")
    assert b'"deny"' in answer


@pytest.mark.parametrize(
    ("body", "message"),
    [(b"{nope", b"not valid JSON"), (b"[]", b"expected a JSON object"), (b'{"a": 1}', b"hook_event_name")],
)
async def test_a_body_that_is_not_a_hook_event_is_400(
    served: tuple[HookServer, int], body: bytes, message: bytes
) -> None:
    _, port = served
    status, answer = await apost(port, body)
    assert status == 400
    assert message in answer


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"this is not http\r\n\r\n",
        b"POST /claude-code HTTP/1.1\r\nContent-Length: nope\r\n\r\n",
        b"POST /claude-code HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 100_000 + b"\r\n\r\n",
    ],
)
async def test_malformed_http_gets_a_4xx_and_the_server_goes_on(
    served: tuple[HookServer, int], request_bytes: bytes
) -> None:
    _, port = served
    answer = await raw(port, request_bytes)
    assert answer.startswith(b"HTTP/1.1 4"), answer[:100]
    assert await apost(port, pre("ls")) == (200, b"")


async def test_a_client_that_hangs_up_mid_request_does_not_crash_the_server(
    served: tuple[HookServer, int],
) -> None:
    _, port = served
    async with await anyio.connect_tcp("127.0.0.1", port) as stream:
        await stream.send(b"POST /claude-code HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
    assert await apost(port, pre("ls")) == (200, b"")


async def test_a_failing_answer_denies_and_the_server_goes_on(
    served: tuple[HookServer, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = served

    async def broken(payload: dict[str, Any]) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server, "answer", broken)
    status, body = await apost(port, pre("ls"))
    assert status == 200
    assert b"RuntimeError: a bug" in body
    assert b'"deny"' in body
    monkeypatch.undo()
    assert await apost(port, pre("ls")) == (200, b"")


async def test_an_idle_client_is_disconnected() -> None:
    server = HookServer(agentbus.Bus(log_level=None), idle_timeout=1.0)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, listener)
        assert await raw(port, b"POST /claude-code HTTP/1.1\r\n") == b""
        assert await apost(port, pre("ls"), token=None) == (200, b"")
        tg.cancel_scope.cancel()


async def test_wrong_path_and_method(served: tuple[HookServer, int]) -> None:
    _, port = served
    assert (await apost(port, pre("ls"), path="/nope"))[0] == 404
    answer = await raw(port, b"GET /claude-code HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 405")
    health = await raw(port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert health.startswith(b"HTTP/1.1 200")


async def test_keep_alive_serves_several_requests_on_one_connection(served: tuple[HookServer, int]) -> None:
    _, port = served
    body = json.dumps(pre("rm -rf /")).encode()
    one = (
        b"POST /claude-code HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    last = one.replace(b"Host: x\r\n", b"Host: x\r\nConnection: close\r\n")
    answer = await raw(port, one + one + last)
    assert answer.count(b"HTTP/1.1 200") == 3
    assert answer.count(b'"deny"') == 3


async def test_concurrent_requests_are_served_concurrently() -> None:
    """Two requests whose guard waits for the other: a server that serialised them would hang.

    The layers share an anyio.Event, an object of one event loop: they run on the server's.
    """
    bus = agentbus.Bus(log_level=None)
    arrived = 0
    both = anyio.Event()

    @bus.intercept("tool.before", tool="exec")
    async def rendezvous(call: agentbus.ToolCall) -> None:
        nonlocal arrived
        arrived += 1
        if arrived == 2:
            both.set()
        await both.wait()
        call.notes.append("met")

    server = HookServer(bus, decide_in_thread=False)
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    results: list[tuple[int, bytes]] = []

    async def client(session: str) -> None:
        results.append(await apost(port, pre("ls", session=session), token=None))

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.serve, listener)
            async with anyio.create_task_group() as clients:
                clients.start_soon(client, "a")
                clients.start_soon(client, "b")
            tg.cancel_scope.cancel()
    assert [status for status, _ in results] == [200, 200]
    assert all(b"met" in body for _, body in results)


def test_console_printer_shows_blocks_and_in_full_mode_every_layer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from agentbus.records import DEBUG, WARNING, Record

    blocked = Record(point="tool.before", id="g", level=WARNING, tool="exec", decision="block", reason="no")
    quiet = Record(point="tool.before", id="q", level=DEBUG, tool="exec")
    console_printer("on")(blocked)
    console_printer("on")(quiet)
    console_printer("full")(quiet)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ['🛡️ g · blocked exec — "no"', "· q · tool.before exec · unchanged"]


def test_the_serve_command_streams_interceptions_to_its_console(tmp_path: Path) -> None:
    """`agentbus serve` as a process: config, console lines and audit log wired up."""
    import os
    import subprocess
    import sys

    audit = tmp_path / "audit.jsonl"
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parent / "adapters")}
    environment.pop(TOKEN_ENV, None)
    command = [sys.executable, "-c", "import sys; from agentbus.cli import main; sys.exit(main())", "serve"]
    options = ["--port", "0", "--config", str(Path(__file__).parent / "adapters" / "no_builtins.toml")]
    options += ["--middleware", "claude_code_policies:install", "--audit-log", str(audit)]
    process = subprocess.Popen(
        [*command, *options],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    try:
        assert process.stderr is not None
        banner = process.stderr.readline()
        assert banner.startswith("agentbus serve: http://127.0.0.1:"), banner
        port = int(banner.rsplit(":", 1)[1].split("/", 1)[0])
        status, body = post(port, pre("rm -rf /"), token=None)
        assert status == 200
        assert json.loads(body)["hookSpecificOutput"]["permissionDecision"] == "deny"
    finally:
        process.terminate()
        out, err = process.communicate(timeout=30)
    assert '🛡️ test:no-rm-rf · blocked exec — "rm -rf is not allowed"' in out
    assert "Traceback" not in err
    assert '"decision":"block"' in audit.read_text()
    assert stat.S_IMODE(audit.stat().st_mode) == 0o600


SAME_EVENTS = [
    pre("rm -rf /"),
    pre("git push"),
    pre("ls"),
    pre("git status"),
    {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "~/a"}},
    {"hook_event_name": "PreToolUse", "tool_name": "Glob", "tool_input": {"pattern": "**"}},
    {"hook_event_name": "PostToolUse", "tool_name": "mcp__a__b", "tool_input": {}, "tool_response": "secret"},
    {"hook_event_name": "PostToolUse", "tool_name": "WebFetch", "tool_input": {}, "tool_response": {"x": 1}},
    {"hook_event_name": "UserPromptSubmit", "prompt": "a hard one"},
    {"hook_event_name": "UserPromptSubmit", "prompt": "my password"},
    {"hook_event_name": "SessionStart", "source": "startup"},
]


async def test_serve_answers_with_the_same_decisions_as_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event: the HTTP body is exactly the command hook's stdout."""
    from agentbus.adapters import claude_code as protocol

    monkeypatch.syspath_prepend(str(Path(__file__).parent / "adapters"))
    from claude_code_policies import install

    def bus() -> agentbus.Bus:
        registry = agentbus.Registry()
        registry.declare_tools(*protocol.CLAUDE_CODE_TOOLS.values())
        install(registry)
        return agentbus.Bus(registry, log_level=None)

    server = HookServer(bus())
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    hook_bus = bus()
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, listener)
        for event in SAME_EVENTS:
            status, body = await apost(port, event, token=None)
            reply = await protocol.handle(hook_bus, event)
            assert (status, body.decode()) == (200, reply.stdout()), event
        tg.cancel_scope.cancel()


def audit_records(tmp_path: Path) -> list[dict[str, Any]]:
    log = tmp_path / "audit.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


CHUNKED = (
    b"POST /claude-code HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n"
)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", ', "not valid JSON"),
        (
            b'{"hook_event_name": "PreTool\\u0055se", "tool_name": "Bash", "tool_input": "rm -rf ~"}',
            "arguments",
        ),
        (
            b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "\xff"}}',
            "UTF-8",
        ),
        (json.dumps(pre("x" * 20_000)).encode(), "larger than 10000 bytes"),
        (CHUNKED + b"%x\r\n%s\r\n0\r\n\r\n" % (20_000, b"x" * 20_000), "larger than 10000 bytes"),
    ],
    ids=["cut-short", "escaped-and-wrong", "not-utf8", "too-large", "too-large-chunked"],
)
async def test_a_body_that_cannot_be_judged_is_denied_with_exactly_one_record(
    served: tuple[HookServer, int], tmp_path: Path, body: bytes, why: str
) -> None:
    server, port = served
    if body.startswith(b"POST "):
        answer = await raw(port, body)
        assert answer.startswith(b"HTTP/1.1 200")
        reply = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    else:
        status, answered = await apost(port, body)
        assert status == 200
        reply = json.loads(answered)
    specific = reply["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert why in specific["permissionDecisionReason"]
    records = audit_records(tmp_path)
    assert len(records) == 1, records
    assert records[0]["id"] == "agentbus:serve"
    assert records[0]["decision"] == "block"
    assert records[0]["reason"] == specific["permissionDecisionReason"]
    assert any(why in line for line in server.lines)  # type: ignore[attr-defined]


async def test_a_body_that_is_no_hook_event_is_refused_with_exactly_one_record(
    served: tuple[HookServer, int], tmp_path: Path
) -> None:
    """Nothing in it names PreToolUse: a 400 (Claude Code's onFailure decides), and its record."""
    _, port = served
    status, answer = await apost(port, b"{nope")
    assert status == 400
    records = audit_records(tmp_path)
    assert len(records) == 1, records
    assert records[0]["id"] == "agentbus:serve"
    assert records[0]["decision"] is None
    assert "not valid JSON" in records[0]["error"]
    assert records[0]["error"] == answer.decode()


async def test_a_judged_call_leaves_no_extra_record(served: tuple[HookServer, int], tmp_path: Path) -> None:
    _, port = served
    await apost(port, pre("rm -rf /"))
    assert "agentbus:serve" not in [record["id"] for record in audit_records(tmp_path)]


async def test_a_tools_kind_is_told_by_each_call_not_learnt_from_its_first(tmp_path: Path) -> None:
    """One registry serves every session: an MCP tool's first call, with no command (a file
    write), does not make its later calls, with one, escape the command guards."""
    from agentbus.hook import build_registry

    registry, _ = build_registry(None, [])
    server = HookServer(agentbus.Bus(registry, log_level=None))
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    tool = "mcp__devbox__run"

    def call(session: str, tool_input: dict[str, Any]) -> dict[str, Any]:
        return {
            "hook_event_name": "PreToolUse",
            "session_id": session,
            "tool_name": tool,
            "tool_input": tool_input,
        }

    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, listener)
        first = await apost(port, call("a", {"path": "notes.txt", "content": "hello"}), token=None)
        assert first == (200, b"")
        for session in ("a", "b"):
            status, body = await apost(port, call(session, {"command": "rm -rf ~"}), token=None)
            assert status == 200
            assert json.loads(body)["hookSpecificOutput"]["permissionDecision"] == "deny", session
        assert await apost(port, call("b", {"command": "ls -la"}), token=None) == (200, b"")
        tg.cancel_scope.cancel()
    assert registry.kind_of(tool) is None, "the registry learnt nothing from the calls"


@pytest.mark.parametrize("event", ["PreToolUse", "SessionStart"])
async def test_an_internal_error_denies_and_leaves_a_record(
    served: tuple[HookServer, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: str
) -> None:
    """The server's own code raises while answering (here: no thread to decide in): a PreToolUse is
    denied with a 200 (Claude Code runs the tool after a 500 unless onFailure blocks it), any
    other event gets a 500, and each leaves its record."""
    server, port = served

    async def no_thread(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(server, "respond", no_thread)
    body = {**pre("ls"), "hook_event_name": event, "session_id": "s1"}
    status, answer = await apost(port, body)
    records = audit_records(tmp_path)
    assert len(records) == 1, records
    assert records[0]["id"] == "agentbus:serve"
    assert records[0]["session_key"] == "s1"
    if event == "PreToolUse":
        assert status == 200
        specific = json.loads(answer)["hookSpecificOutput"]
        assert specific["permissionDecision"] == "deny"
        assert "RuntimeError: can't start new thread" in specific["permissionDecisionReason"]
        assert records[0]["decision"] == "block"
        assert records[0]["tool"] == "Bash"
    else:
        assert status == 500
        assert records[0]["decision"] is None
        assert "can't start new thread" in records[0]["error"]
    monkeypatch.undo()
    assert await apost(port, pre("ls")) == (200, b""), "the server goes on"


async def test_a_deciding_that_fails_past_the_bus_leaves_a_record(
    served: tuple[HookServer, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, port = served

    async def broken(payload: dict[str, Any]) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server, "answer", broken)
    for event in ("PreToolUse", "Stop"):
        await apost(port, {**pre("ls"), "hook_event_name": event})
    records = audit_records(tmp_path)
    assert [
        (record["decision"], "a bug" in str(record["reason"] or record["error"])) for record in records
    ] == [
        ("block", True),
        (None, True),
    ]


def test_the_sessions_claude_config_dir_is_read_off_its_transcript_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentbus.serve import _other_config_dir

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)

    def session(directory: Path) -> dict[str, str]:
        return {"transcript_path": str(directory / "projects/-p/id.jsonl")}

    assert _other_config_dir(session(tmp_path / "home/.claude")) == ""
    assert _other_config_dir(session(tmp_path / "cfg")) == str(tmp_path / "cfg")
    assert _other_config_dir(session(tmp_path / "other-home/.claude")) == str(tmp_path / "other-home/.claude")
    (tmp_path / "home").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "home")
    assert _other_config_dir(session(tmp_path / "link/.claude")) == "", "the same home through a link"
    assert _other_config_dir({"transcript_path": "/dev/null"}) == ""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert _other_config_dir(session(tmp_path / "cfg")) == ""
    assert _other_config_dir(session(tmp_path / "home/.claude")) == str(tmp_path / "home/.claude")


async def test_a_session_under_another_home_is_denied_and_told_which_home(
    served: tuple[HookServer, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session whose ~/.claude is under another HOME than the server's (no $CLAUDE_CONFIG_DIR on
    either side): the server would judge it by its own home's settings, plugins and snapshots, so a
    call it would allow is denied, naming the session's home; the server's own home is served."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)

    def under(home: Path) -> dict[str, Any]:
        return {**pre("ls"), "transcript_path": str(home / ".claude/projects/-p/s1.jsonl")}

    status, body = await apost(port := served[1], under(tmp_path / "other"))
    specific = json.loads(body)["hookSpecificOutput"]
    assert (status, specific["permissionDecision"]) == (200, "deny")
    assert f"Start agentbus serve with HOME={tmp_path / 'other'}" in specific["permissionDecisionReason"]
    assert await apost(port, under(tmp_path / "home")) == (200, b"")

"""Serve Claude Code's HTTP hooks: the same decisions as `agentbus hook`, in one long-lived process.

Point Claude Code's "type": "http" hooks at http://127.0.0.1:PORT/claude-code
(`agentbus install claude-code --http` writes them). Each
event is answered in about a millisecond instead of a Python start-up, state
is kept across calls (a per-session tool-call limit; calls a person approved
are not asked about again in that session), and every interception is shown
live on this console and appended to the audit log.

A hook server that is down, slow or failing: with the ``"onFailure": "block"``
that `agentbus install` writes, Claude Code 2.1.295 and later block the tool
call; older versions let it through (`agentbus doctor` says which you have).

HTTP is spoken by h11 (pip install "agentbus[serve]") over anyio streams.
"""

from __future__ import annotations

import argparse
import errno
import hmac
import json
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .audit_log import RecordLog, json_bytes
from .cli import interrupted
from .hook import AuditLog
from .userdirs import claude_config_dir_name

if TYPE_CHECKING:
    import anyio.abc
    import h11

    from .adapters.claude_code import HookReply, RewriteDecision
    from .bus import Bus
    from .events import ToolCall
    from .records import Record
    from .registry import Registry

__all__ = ["EXAMPLES", "HOOK_PATH", "TOKEN_ENV", "HookServer", "add_arguments", "run"]

HOOK_PATH = "/claude-code"
HEALTH_PATH = "/health"
TOKEN_ENV = "AGENTBUS_SERVE_TOKEN"
DEFAULT_PORT = 8787
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_WORKER_THREADS = 8
_MEMORY_LIMIT = 10_000
UNCHECKED = "agentbus could not check this call"
"""How the deny of a call that nothing could judge begins (the adapter's and the hook's words)."""
FAILED = "agentbus failed while checking this call"
"""How the deny of a call whose deciding raised past the bus begins (the adapter's words)."""
_OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

EXAMPLES = f"""\
examples:
  agentbus serve                                # http://127.0.0.1:{DEFAULT_PORT}{HOOK_PATH}
  agentbus serve --verbose full --max-tool-calls 200
  {TOKEN_ENV}=s3cret agentbus serve --port 9000  # clients send: Authorization: Bearer s3cret
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from .hook import add_bus_arguments

    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument(
        "--token",
        default=None,
        help=f"require 'Authorization: Bearer TOKEN' (default: ${TOKEN_ENV}; unset: no token)",
    )
    parser.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, metavar="N", help="largest request body"
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=DEFAULT_MAX_CONNECTIONS,
        metavar="N",
        help=f"open connections at most (default {DEFAULT_MAX_CONNECTIONS}); past it, idle ones are closed",
    )
    parser.add_argument(
        "--max-tool-calls",
        type=int,
        default=None,
        metavar="N",
        help="deny tool calls beyond N per Claude Code session",
    )
    parser.add_argument(
        "--always-ask",
        action="store_true",
        help="ask again for a call a person already approved in the same session",
    )
    parser.add_argument(
        "--verbose",
        choices=("off", "on", "full"),
        default="on",
        help="console: on shows blocks, asks, rewrites and failures; full shows every layer that ran",
    )
    add_bus_arguments(parser)


def add_tool_call_limit(registry: Registry, max_calls: int) -> None:
    """Deny tool calls past ``max_calls`` per Claude Code session: state across hook calls.

    :class:`agentbus.middleware.limits.ToolCallLimit` at priority 90, after the
    guards, so calls they blocked do not count.
    """
    from .middleware.limits import ToolCallLimit

    registry.add("tool.before", ToolCallLimit(max_calls), id="serve:max-tool-calls", priority=90)


class HookServer:
    """Answers Claude Code hook events POSTed to :data:`HOOK_PATH`.

    One HTTP/1.1 connection per task, requests on a connection in turn; a
    request that is not well-formed HTTP, unauthorised or not a hook event gets
    a 4xx with a message, and the server goes on. What could be a PreToolUse
    is never answered with an error, since Claude Code runs the tool after
    one: a body too large to read (alone, or for the memory that all bodies
    being read share, ``max_total_bytes``), unreadable, or whose deciding
    raised anything (SystemExit included) is answered 200 with a deny.

    The server holds under load: at most ``max_connections`` connections;
    past that, or when the process runs out of file descriptors, the
    connections that are waiting for a request are closed, oldest first, to
    make room. Each decision runs in a worker thread with its own event loop
    (``decide_in_thread``, default), so a command that takes long to judge
    does not stall the other clients; layers must then not share event-loop
    objects (an ``anyio.Event`` made elsewhere) across calls.
    """

    def __init__(
        self,
        bus: Bus,
        *,
        token: str | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_total_bytes: int | None = None,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        rewrite_decision: RewriteDecision = "passthrough",
        remember_approvals: bool = True,
        audit: AuditLog | RecordLog | None = None,
        idle_timeout: float = 60.0,
        console: Callable[[str], None] | None = None,
        decide_in_thread: bool = True,
        worker_threads: int = DEFAULT_WORKER_THREADS,
    ) -> None:
        self.bus = bus
        self.token = token
        self.max_bytes = max_bytes
        self.max_total_bytes = max_total_bytes if max_total_bytes is not None else 4 * max_bytes
        self.max_connections = max_connections
        self.rewrite_decision = rewrite_decision
        self.remember_approvals = remember_approvals
        self.audit = audit
        self.idle_timeout = idle_timeout
        self.console = console
        self.decide_in_thread = decide_in_thread
        self.worker_threads = worker_threads
        self.requests = 0
        self.buffered = 0
        """Bytes of request bodies held right now, across all connections."""
        self.peak_buffered = 0
        self.connections = 0
        self.shed = 0
        """Idle connections closed to make room."""
        self._idle: dict[int, anyio.CancelScope] = {}
        self._lock = threading.Lock()  # guards the approval memory: decisions run in threads
        self._asked: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        self._approved: OrderedDict[tuple[str, ...], None] = OrderedDict()

    # -- connections ------------------------------------------------------------------

    async def serve(self, listener: anyio.abc.Listener[anyio.abc.ByteStream]) -> None:
        """Serve connections from ``listener`` until cancelled; then close it."""
        import anyio

        self._backend = _current_backend()
        self._limiter = anyio.CapacityLimiter(self.worker_threads)
        listeners = list(getattr(listener, "listeners", [listener]))
        async with listener, anyio.create_task_group() as tg:
            for one in listeners:
                if hasattr(one, "accept"):
                    tg.start_soon(self._accept_loop, one, tg)
                else:  # not a socket listener: it has only serve()
                    tg.start_soon(one.serve, self._tracked)

    async def _accept_loop(self, listener: Any, tg: anyio.abc.TaskGroup) -> None:
        """Accept connections for ever; out of file descriptors, close idle ones and go on."""
        import anyio

        warned = False
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:
                if exc.errno not in _OUT_OF_RESOURCES:
                    raise
                if not warned:
                    warned = True
                    print(
                        f"agentbus serve: cannot accept a connection ({exc}); "
                        f"closing idle connections to make room",
                        file=sys.stderr,
                    )
                # A closed connection frees its descriptor once its task has run: give it time.
                await anyio.sleep(0.01 if self._shed_idle() else 0.05)
                continue
            if self.connections >= self.max_connections and not self._shed_idle():
                tg.start_soon(self._refuse, stream)
                continue
            self.connections += 1
            tg.start_soon(self._tracked, stream)

    def _shed_idle(self) -> bool:
        """Close the oldest connection that is waiting for a request; False if none is."""
        for key, scope in self._idle.items():
            del self._idle[key]
            scope.cancel()
            self.shed += 1
            return True
        return False

    async def _refuse(self, stream: anyio.abc.ByteStream) -> None:
        """Every connection is busy deciding: say so and close."""
        body = b"agentbus serve: too many connections, try again"
        response = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
        try:
            async with stream:
                await stream.send(response % (len(body), body))
        except Exception:
            pass

    async def _tracked(self, stream: anyio.abc.ByteStream) -> None:
        import anyio

        try:
            with anyio.CancelScope() as scope:
                await self.handle_connection(stream, scope)
        finally:
            self.connections -= 1 if self.connections > 0 else 0
            self._idle.pop(id(scope), None)

    async def handle_connection(
        self, stream: anyio.abc.ByteStream, scope: anyio.CancelScope | None = None
    ) -> None:
        """Serve one connection; never lets an exception out (the server goes on)."""
        import anyio
        import h11

        connection = h11.Connection(h11.SERVER, max_incomplete_event_size=64 * 1024)
        try:
            async with stream:
                while await self._one_request(connection, stream, scope):
                    if connection.our_state is not h11.DONE:
                        return
                    connection.start_next_cycle()
        except TimeoutError:
            return  # a client that sends nothing for idle_timeout seconds loses its connection
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            return  # the client went away
        except Exception as exc:  # a bug here must cost one connection, not the server
            print(f"agentbus serve: connection failed: {type(exc).__name__}: {exc}", file=sys.stderr)

    # -- one request ------------------------------------------------------------------

    async def _one_request(
        self, connection: h11.Connection, stream: anyio.abc.ByteStream, scope: anyio.CancelScope | None = None
    ) -> bool:
        """Read and answer one request; return False when the connection must close."""
        import h11

        if scope is not None:
            self._idle[id(scope)] = scope  # waiting for a request: may be closed to make room
        held = 0
        try:
            request = await self._next(connection, stream)
            if request is None:
                return False
            if not isinstance(request, h11.Request):
                raise h11.RemoteProtocolError("expected a request", error_status_hint=400)
            headers = {name.decode("latin-1").lower(): value for name, value in request.headers}
            method, target = request.method.decode("latin-1"), request.target.decode("latin-1")
            refused = self.check(method, target, headers)
            if refused is not None:
                await self._send(connection, stream, *refused, close=True)
                return False
            length = headers.get("content-length")
            if length is not None and int(length) > self.max_bytes:
                await self._send_too_large(connection, stream, f"body larger than {self.max_bytes} bytes")
                return False
            body = bytearray()
            while True:
                event = await self._next(connection, stream)
                if event is None:
                    return False
                if isinstance(event, h11.Data):
                    size = len(event.data)
                    if held + size > self.max_bytes:
                        await self._send_too_large(
                            connection, stream, f"body larger than {self.max_bytes} bytes"
                        )
                        return False
                    if self.buffered + size > self.max_total_bytes:
                        await self._send_too_large(
                            connection, stream, "the server holds too many request bodies at once"
                        )
                        return False
                    body += event.data
                    held += size
                    self.buffered += size
                    self.peak_buffered = max(self.peak_buffered, self.buffered)
                elif isinstance(event, h11.EndOfMessage):
                    break
            if scope is not None:
                self._idle.pop(id(scope), None)  # deciding: not to be closed
            try:
                status, content_type, payload = await self.respond(method, target, headers, bytes(body))
            except Exception as exc:  # a bug of the server's own: deny what may be a call, and record it
                status, content_type, payload = self.internal_error(bytes(body), exc)
            del body
            self.buffered -= held
            held = 0
            await self._send(connection, stream, status, payload, content_type=content_type)
            return True
        except h11.RemoteProtocolError as exc:
            if connection.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                await self._send(
                    connection, stream, exc.error_status_hint, f"malformed HTTP request: {exc}", close=True
                )
            return False
        except ValueError as exc:  # a Content-Length that is not a number
            if connection.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                await self._send(connection, stream, 400, f"malformed HTTP request: {exc}", close=True)
            return False
        finally:
            self.buffered -= held

    async def _send_too_large(
        self, connection: h11.Connection, stream: anyio.abc.ByteStream, why: str
    ) -> None:
        """A body the server will not read might be a PreToolUse or a PreSkillShellCommand: deny it
        (200; the top-level block stops a skill's command, which ignores PreToolUse's answer), then close."""
        from .adapters import claude_code as protocol

        reason = f"{UNCHECKED}: {why}"
        output = {"decision": "block", "reason": reason, **(protocol.deny(reason).output or {})}
        reply = self.record_unjudged(protocol.HookReply(output=output))
        await self._send(
            connection, stream, 200, json_bytes(reply.output), content_type="application/json", close=True
        )

    async def _next(self, connection: h11.Connection, stream: anyio.abc.ByteStream) -> Any:
        import anyio
        import h11

        while True:
            event = connection.next_event()
            if event is h11.NEED_DATA:
                try:
                    # Only waiting for the client is bounded: a layer may take its time.
                    with anyio.fail_after(self.idle_timeout):
                        data = await stream.receive(65536)
                except anyio.EndOfStream:
                    data = b""
                connection.receive_data(data)
                continue
            if event is h11.PAUSED or isinstance(event, h11.ConnectionClosed):
                return None
            return event

    async def _send(
        self,
        connection: h11.Connection,
        stream: anyio.abc.ByteStream,
        status: int,
        body: str | bytes,
        *,
        content_type: str = "text/plain; charset=utf-8",
        close: bool = False,
    ) -> None:
        import h11

        data = body.encode("utf-8", "backslashreplace") if isinstance(body, str) else body
        headers = [("content-type", content_type), ("content-length", str(len(data)))]
        if close:
            headers.append(("connection", "close"))
        chunks = [
            connection.send(h11.Response(status_code=status, headers=headers)),
            connection.send(h11.Data(data=data)) if data else b"",
            connection.send(h11.EndOfMessage()),
        ]
        await stream.send(b"".join(chunk or b"" for chunk in chunks))

    # -- the application --------------------------------------------------------------

    def check(self, method: str, target: str, headers: dict[str, bytes]) -> tuple[int, str] | None:
        """Refuse a request by its head alone (path, method, token), before reading its body."""
        path = target.split("?", 1)[0]
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return None
        if path != HOOK_PATH:
            return 404, f"no such endpoint; Claude Code's hooks POST to {HOOK_PATH}"
        if method != "POST":
            return 405, f"{HOOK_PATH} takes POST requests"
        if self.token is not None and not self._authorised(headers.get("authorization")):
            return 401, "missing or wrong bearer token (Authorization: Bearer ...)"
        return None

    async def respond(
        self, method: str, target: str, headers: dict[str, bytes], body: bytes
    ) -> tuple[int, str, bytes]:
        """Answer one request: (status, content type, body)."""
        import anyio

        text = "text/plain; charset=utf-8"
        refused = self.check(method, target, headers)
        if refused is not None:
            return refused[0], text, refused[1].encode()
        if target.split("?", 1)[0] == HEALTH_PATH:
            return 200, "application/json", b'{"status": "ok"}'
        from .adapters import claude_code as protocol
        from .hook import AMBIGUOUS, guarding_event_named

        self.requests += 1
        try:
            payload = protocol.parse_payload(body)
        except protocol.HookInputError as exc:
            guarding = guarding_event_named(body)
            if guarding is not None and guarding != AMBIGUOUS:  # Claude Code would run it after a 400
                return _json(self.record_unjudged(protocol.deny(f"{UNCHECKED}: {exc}", guarding)))
            failed = self.record_unjudged(protocol.HookReply(exit_code=1, stderr=f"agentbus: {exc}"))
            return 400, text, (failed.stderr or "").encode("utf-8", "backslashreplace")
        if self.decide_in_thread:
            limiter = getattr(self, "_limiter", None)
            reply = await anyio.to_thread.run_sync(self._answer_in_thread, payload, limiter=limiter)
        else:
            reply = await self._answer_safely(payload)
        if isinstance(self.audit, AuditLog):
            self.audit.flush()
        event = payload.get("hook_event_name")
        if event in protocol.GUARDING_EVENTS and reply.output is None and reply.exit_code != 0:
            reply = protocol.deny(f"{UNCHECKED}: {reply.stderr}", str(event))
        if _unchecked(reply) or reply.exit_code != 0:  # no layer judged it, or deciding failed past the bus
            self.record_unjudged(reply, payload)
        if reply.exit_code != 0:
            return 400, text, (reply.stderr or "agentbus: bad request").encode("utf-8", "backslashreplace")
        return _json(reply)

    def internal_error(self, body: bytes, exc: Exception) -> tuple[int, str, bytes]:
        """The answer when answering raised: a 200 with a deny when the body may be a
        PreToolUse (Claude Code runs the tool after a 500 unless ``onFailure`` blocks it),
        else a 500; either way one record, as for any request no layer judged."""
        from .adapters import claude_code as protocol
        from .hook import AMBIGUOUS, guarding_event_named

        failure = f"agentbus serve failed: {type(exc).__name__}: {exc}"
        print(failure, file=sys.stderr)
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        payload = parsed if isinstance(parsed, dict) else None
        guarding = guarding_event_named(body)
        if guarding is not None and guarding != AMBIGUOUS:
            return _json(self.record_unjudged(protocol.deny(f"{UNCHECKED}: {failure}", guarding), payload))
        failed = self.record_unjudged(protocol.HookReply(exit_code=1, stderr=failure), payload)
        return 500, "text/plain; charset=utf-8", (failed.stderr or "").encode("utf-8", "backslashreplace")

    def record_unjudged(self, reply: HookReply, payload: Mapping[str, Any] | None = None) -> HookReply:
        """Leave the one record of a request answered without any layer's decision; return ``reply``.

        A body over the limit, one that is not a hook event (not JSON, not an
        object, not UTF-8), an event whose fields cannot be read: the server
        denies it (a 200 with a deny when it may be a PreToolUse) or refuses it
        (a 400), and no layer saw it, so no layer recorded it. The record (id
        ``agentbus:serve``) goes to the audit log and the console, as the
        command hook's ``agentbus:hook`` record does.
        """
        from .records import ERROR, Record

        specific = (reply.output or {}).get("hookSpecificOutput") or {}
        denied = specific.get("permissionDecision") == "deny"
        payload = payload or {}

        def text(key: str) -> str | None:
            value = payload.get(key)
            return value if isinstance(value, str) else None

        record = Record(
            point="tool.before" if denied else "hook",
            id="agentbus:serve",
            level=ERROR,
            tool=text("tool_name"),
            session_key=text("session_id"),
            call_id=text("tool_use_id"),
            decision="block" if denied else None,
            reason=str(specific.get("permissionDecisionReason")) if denied else None,
            error=None if denied else reply.stderr,
        )
        try:
            if self.audit is not None:
                self.audit(record)
                if isinstance(self.audit, AuditLog):
                    self.audit.flush()
            if self.console is not None:
                self.console(f"⛔ {record.reason}" if denied else f"✗ {record.error}")
        except Exception as exc:  # the answer goes out whatever happens to its record
            print(f"agentbus serve: cannot record this answer: {type(exc).__name__}: {exc}", file=sys.stderr)
        return reply

    def _answer_in_thread(self, payload: dict[str, Any]) -> HookReply:
        """Decide in this worker thread; never raises.

        A stack of sync layers (the built-in guards) never suspends, so its
        coroutine finishes on its first step, without an event loop (none to
        create per call, no file descriptors: it works even when the process
        has run out of them). A stack with async layers, or one that suspends
        after all, is decided on an event loop of this thread's own.
        """
        import anyio

        try:
            if not any(registration.is_async for registration in self.bus.registry.list()):
                coroutine = self.answer(payload)
                try:
                    coroutine.send(None)
                except StopIteration as finished:
                    return finished.value  # type: ignore[no-any-return]
                coroutine.close()  # it needed an event loop after all: decide again on one
            return anyio.run(self.answer, payload, backend=getattr(self, "_backend", "asyncio"))
        except BaseException as exc:  # in a worker thread, everything came from a layer
            return _failed(payload, exc)

    async def _answer_safely(self, payload: dict[str, Any]) -> HookReply:
        """Decide on the server's event loop; anything but cancellation becomes the failure reply."""
        import anyio

        try:
            return await self.answer(payload)
        except anyio.get_cancelled_exc_class():
            raise
        except BaseException as exc:  # SystemExit, KeyboardInterrupt, GeneratorExit from a layer
            return _failed(payload, exc)

    def _authorised(self, header: bytes | None) -> bool:
        assert self.token is not None
        expected = b"Bearer " + self.token.encode()
        return header is not None and hmac.compare_digest(header, expected)

    async def answer(self, payload: dict[str, Any]) -> HookReply:
        """The hook reply for one event, with the server's memory of approvals."""
        from .adapters import claude_code as protocol

        if payload.get("hook_event_name") == "PostToolUse":
            self._note_approval(payload)
        elsewhere = _other_config_dir(payload)
        if elsewhere and payload.get("hook_event_name") in protocol.GUARDING_EVENTS:
            return protocol.deny(
                f"agentbus could not check this call: this Claude Code session keeps its user directory in "
                f"{elsewhere}, while agentbus serve reads {claude_config_dir_name()} (the user's settings "
                f"and plugins, the shell snapshots it protects). {_remedy(elsewhere)}, "
                "or use the command hook",
                str(payload.get("hook_event_name")),
            )
        on_ask = self._asked_before if self.remember_approvals else None
        return await protocol.handle(
            self.bus, payload, rewrite_decision=self.rewrite_decision, on_ask=on_ask, project_hooks=True
        )

    async def _asked_before(self, call: ToolCall, payload: Mapping[str, Any]) -> bool:
        """Whether a person approved this call earlier in the session; if not, remember the ask."""
        key = _approval_key(payload)
        with self._lock:
            approved = key in self._approved
            if not approved and isinstance(payload.get("tool_use_id"), str):
                _remember(self._asked, payload["tool_use_id"], key)
        if approved and self.console is not None:
            self.console(f"✅ {call.tool} · approved earlier in this session, not asked again")
        return approved

    def _note_approval(self, payload: dict[str, Any]) -> None:
        """A PostToolUse for a call we asked about: a person approved it."""
        with self._lock:
            key = self._asked.pop(str(payload.get("tool_use_id")), None)
            if key is not None:
                _remember(self._approved, key, None)
        if key is not None and self.console is not None:
            self.console(f"✅ {payload.get('tool_name')} · approved by the user")


def _other_config_dir(payload: Mapping[str, Any]) -> str:
    """The session's Claude Code user directory where it is not the one this server reads ('' when
    it is, or the payload does not say). Claude Code 2.1.332 keeps the transcript in
    ``$CLAUDE_CONFIG_DIR/projects/<project>/<session>.jsonl`` (seen with the real CLI), and an HTTP
    hook gets none of the session's environment. A session's ``~/.claude`` under another home than
    the server's counts too: the server would judge its calls by another user directory's settings,
    plugins and snapshots."""
    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not os.path.isabs(transcript):
        return ""
    projects = os.path.dirname(os.path.dirname(transcript))
    if os.path.basename(projects) != "projects":
        return ""
    session = os.path.dirname(projects)
    if os.path.realpath(session) == os.path.realpath(claude_config_dir_name()):
        return ""
    return session


def _remedy(session: str) -> str:
    """How to start agentbus serve so that it reads the session's user directory ``session``."""
    if os.path.basename(session) != ".claude":
        return f"Start agentbus serve with CLAUDE_CONFIG_DIR={session}"
    home = os.path.dirname(session)
    if os.path.realpath(home) == os.path.realpath(os.path.expanduser("~")):
        return "Start agentbus serve without CLAUDE_CONFIG_DIR"
    return f"Start agentbus serve with HOME={home} (the session's home: its ~/.claude)"


def _unchecked(reply: HookReply) -> bool:
    """Whether a reply is the deny of a call no layer judged, or whose deciding failed past the
    bus (so no layer recorded it)."""
    specific = (reply.output or {}).get("hookSpecificOutput") or {}
    return specific.get("permissionDecision") == "deny" and str(
        specific.get("permissionDecisionReason")
    ).startswith((UNCHECKED, FAILED))


def _json(reply: HookReply) -> tuple[int, str, bytes]:
    """A 200 with the reply's JSON (any string, lone surrogates too, is sent), or an empty 200."""
    return 200, "application/json", json_bytes(reply.output) if reply.output is not None else b""


def _failed(payload: dict[str, Any], exc: BaseException) -> HookReply:
    """The reply when deciding raised: a PreToolUse is denied, anything else is an error."""
    from .adapters import claude_code as protocol

    failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    print(f"agentbus serve: a layer raised {failure}; the server goes on", file=sys.stderr)
    event = payload.get("hook_event_name")
    if event in protocol.GUARDING_EVENTS:
        return protocol.deny(f"{FAILED} ({failure}); denied to be safe", str(event))
    return protocol.HookReply(
        exit_code=1, stderr=f"agentbus: {payload.get('hook_event_name')} failed: {failure}"
    )


def _current_backend() -> str:
    """The async library running now, for the worker threads' event loops."""
    try:
        import sniffio

        return str(sniffio.current_async_library())
    except Exception:
        return "asyncio"


def _approval_key(payload: Mapping[str, Any]) -> tuple[str, ...]:
    arguments = json.dumps(payload.get("tool_input"), sort_keys=True, default=repr)
    return (str(payload.get("session_id")), str(payload.get("tool_name")), arguments)


def _remember(memory: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    memory[key] = value
    if len(memory) > _MEMORY_LIMIT:
        memory.popitem(last=False)


def console_printer(verbose: str) -> Callable[[Record], None]:
    """An observer that prints interceptions: the seed's lines, or (full) every layer."""
    from .logging import format_record

    def show(record: Record) -> None:
        line = format_record(record)
        if line is None and verbose == "full":
            changed = ", ".join(record.changes) or "unchanged"
            line = f"· {record.id} · {record.point} {record.tool or record.agent_id or ''} · {changed}"
        if line is not None:
            print(line, flush=True)

    return show


def run(args: argparse.Namespace) -> int:
    try:
        import h11  # noqa: F401
    except ImportError:
        print('agentbus serve needs h11: pip install "agentbus[serve]"', file=sys.stderr)
        return 2
    import anyio

    from .bus import Bus
    from .hook import audit_log_path, build_registry, drop_working_directory, refusal_record

    drop_working_directory()
    refused: list[str] = []
    try:
        registry, configured_log = build_registry(args.config, args.middleware, refused)
    except Exception as exc:
        print(f"agentbus serve: cannot load the middleware: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    for message in refused:
        print(f"agentbus serve: {message}", file=sys.stderr)
    if args.max_tool_calls is not None:
        add_tool_call_limit(registry, args.max_tool_calls)
    bus = Bus(registry, log_level=None)
    log_path = audit_log_path(args, configured_log)
    # One line per record, written at once: decisions run in several threads.
    audit = RecordLog(log_path) if log_path is not None else None
    if audit is not None:
        bus.on_event(audit, level=args.audit_level)
        for message in refused:
            audit(refusal_record(message))
    if args.verbose != "off":
        bus.on_event(console_printer(args.verbose), level="debug" if args.verbose == "full" else "info")
    token = args.token if args.token is not None else os.environ.get(TOKEN_ENV) or None
    server = HookServer(
        bus,
        token=token,
        max_bytes=args.max_bytes,
        max_connections=args.max_connections,
        rewrite_decision=args.rewrite_decision,
        remember_approvals=not args.always_ask,
        audit=audit,
        console=(lambda line: print(line, flush=True)) if args.verbose != "off" else None,
    )
    if args.host not in _LOOPBACK and token is None:
        print(
            f"agentbus serve: WARNING: listening on {args.host} without a token; "
            f"anyone who can reach it can read your tool calls. Set ${TOKEN_ENV}.",
            file=sys.stderr,
        )

    async def main() -> None:
        from anyio.abc import SocketAttribute

        listener = await anyio.create_tcp_listener(local_host=args.host, local_port=args.port)
        port = listener.extra(SocketAttribute.local_port)
        print(f"agentbus serve: http://{args.host}:{port}{HOOK_PATH}", file=sys.stderr, flush=True)
        await server.serve(listener)

    try:
        anyio.run(main)
    except interrupted():
        return 0
    except OSError as exc:
        print(f"agentbus serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    return 0

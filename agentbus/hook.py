"""Answer one Claude Code hook event: JSON on stdin, the decision on stdout.

`agentbus install claude-code` writes it into Claude Code's settings.json for
every event it answers, each entry with ``"onFailure": "block"`` and a
timeout; `agentbus doctor` checks the result. The middleware comes from the agentbus
configuration file (agentbus.toml, [tool.agentbus] in pyproject.toml, or
--config) and from --middleware installers; the built-in guards are on unless
the configuration turns them off. Each call appends its interception records
to a JSON-lines audit log, which `agentbus tail` follows.

Exit codes follow Claude Code's documentation: 0 with a JSON decision (or
nothing) on stdout; 1 with a message on stderr for input that is not a hook
event (a failure, which ``onFailure: block`` turns into a block). A PreToolUse
call that cannot be checked, for any reason, is denied. stdout carries the
answer alone: while layers run, file descriptor 1 points at stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .adapters.claude_code import HookReply
    from .bus import Bus
    from .records import Record
    from .registry import Registry

__all__ = [
    "AUDIT_LOG_ENV",
    "EXAMPLES",
    "AuditLog",
    "add_arguments",
    "add_bus_arguments",
    "audit_log_path",
    "build_registry",
    "run",
]

T = TypeVar("T")

AUDIT_LOG_ENV = "AGENTBUS_AUDIT_LOG"
DEFAULT_AUDIT_LOG = "~/.agentbus/audit.jsonl"

EXAMPLES = """\
examples:
  echo '{"hook_event_name": "PreToolUse", "tool_name": "Bash",
         "tool_input": {"command": "rm -rf /"}}' | agentbus hook claude-code
  agentbus hook claude-code --middleware mypolicies:install --audit-log /tmp/audit.jsonl
  agentbus hook claude-code --config agentbus.toml --no-audit-log
"""


def add_bus_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that say which middleware runs and where records go (shared with serve)."""
    parser.add_argument(
        "--config", metavar="PATH", help="configuration file (default: discovered in the project directory)"
    )
    parser.add_argument(
        "--middleware",
        metavar="MODULE:ATTR",
        action="append",
        default=[],
        help="an installer, install(registry, **options), to add after the configuration (repeatable)",
    )
    audit = parser.add_mutually_exclusive_group()
    audit.add_argument(
        "--audit-log",
        metavar="PATH",
        help=f"JSON-lines audit log (default: the configuration's, ${AUDIT_LOG_ENV}, or {DEFAULT_AUDIT_LOG})",
    )
    audit.add_argument("--no-audit-log", action="store_true", help="write no audit log")
    parser.add_argument(
        "--audit-level",
        choices=("debug", "info", "warning", "error"),
        default="debug",
        help="lowest record level written to the audit log (debug: every layer that ran)",
    )
    parser.add_argument(
        "--rewrite-decision",
        choices=("passthrough", "allow", "ask"),
        default="passthrough",
        help="what goes with rewritten arguments: passthrough (no decision: Claude Code's own permission "
        "checks judge the rewritten call; default), allow (approve it: skips Claude Code's checks, not its "
        "deny rules) or ask (a person confirms each rewritten call)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runtime", choices=("claude-code",), help="the hook protocol to speak")
    add_bus_arguments(parser)
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=None,
        metavar="N",
        help="largest hook event accepted (default 16 MiB); a larger PreToolUse event is denied",
    )


def build_registry(config_path: str | None, middleware: Iterable[str]) -> tuple[Registry, str | None]:
    """The registry for Claude Code's hooks, and the configuration's audit log path.

    Claude Code's tool names (glob, grep, task ...) are declared first, so that
    matchers written for them are accepted. The configuration is discovered in
    ``$CLAUDE_PROJECT_DIR`` (set by Claude Code) or else the working directory.
    """
    from .adapters.claude_code import CLAUDE_CODE_TOOLS
    from .config import load_config, load_installer
    from .registry import Registry

    registry = Registry()
    registry.declare_tools(*CLAUDE_CODE_TOOLS.values())
    config = load_config(config_path, cwd=os.environ.get("CLAUDE_PROJECT_DIR") or None)
    config.install(registry)
    for reference in middleware:
        load_installer(reference)(registry)
    return registry, config.audit_log


def audit_log_path(args: argparse.Namespace, configured: str | None) -> Path | None:
    """Where records go: --audit-log, the configuration, $AGENTBUS_AUDIT_LOG, the default."""
    if args.no_audit_log:
        return None
    chosen = args.audit_log or configured or os.environ.get(AUDIT_LOG_ENV) or DEFAULT_AUDIT_LOG
    return Path(chosen).expanduser()


class AuditLog:
    """An observer that appends each record as one JSON line (``record.to_dict()``).

    Records are buffered and written with one ``write`` on :meth:`flush`, to a
    file opened for appending: lines from concurrent hook processes do not
    interleave. A log that cannot be written costs a warning on stderr, never a
    decision.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lines: list[str] = []

    def __call__(self, record: Record) -> None:
        self._lines.append(json.dumps(record.to_dict(), ensure_ascii=False, default=repr) + "\n")

    def discard(self) -> None:
        """Forget the records not yet written."""
        self._lines.clear()

    def flush(self) -> None:
        """Append the records so far to the file."""
        if not self._lines:
            return
        text, self._lines = "".join(self._lines), []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as file:
                file.write(text)
        except OSError as exc:
            print(f"agentbus: cannot write the audit log {self.path}: {exc}", file=sys.stderr)


def _read_stdin(limit: int) -> tuple[bytes, int]:
    """Read at most ``limit + 1`` bytes; return them and how many were read in all."""
    stream = sys.stdin.buffer
    data = stream.read(limit + 1)
    size = len(data)
    if size > limit:
        while chunk := stream.read(1 << 20):  # drain, so that Claude Code's write does not fail
            size += len(chunk)
    return data, size


_answer_fd: int | None = None
"""A copy of the original stdout, where only the answer goes (see :func:`_claim_stdout`)."""


def _claim_stdout() -> None:
    """Keep stdout for the answer alone: Claude Code reads it as one JSON object.

    File descriptor 1 is pointed at stderr, so that nothing a layer writes, by
    ``print``, ``os.write(1, ...)`` or a child process it starts, lands among
    the answer; the answer goes to a copy of the original descriptor.
    """
    global _answer_fd
    if _answer_fd is not None:
        return
    try:
        sys.stdout.flush()
        _answer_fd = os.dup(1)
        os.dup2(2, 1)
    except (OSError, ValueError):  # no usable stdout or stderr: nothing to protect
        _answer_fd = None


def _write(reply: HookReply) -> int:
    """Write the answer (the only thing on stdout) and give stdout back."""
    global _answer_fd
    text = reply.stdout()
    if _answer_fd is not None:
        answer_fd, _answer_fd = _answer_fd, None
        try:
            sys.stdout.flush()  # what a layer printed goes to stderr, before the answer
            data = (text + "\n").encode() if text else b""
            while data:
                data = data[os.write(answer_fd, data) :]
            os.dup2(answer_fd, 1)
        finally:
            os.close(answer_fd)
    elif text:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    if reply.stderr:
        print(reply.stderr, file=sys.stderr)
    return reply.exit_code


_NO_EVENT_LOOP = ("NoEventLoopError", "AsyncLibraryNotFoundError", "no running event loop")
"""How a layer's failure reads when it needed a running event loop (anyio >= 4.10, older, asyncio)."""


def _run(main: Callable[[], Coroutine[Any, Any, T]], bus: Bus, audit: AuditLog | None) -> T:
    """Run ``main()`` to completion, without an event loop when nothing needs one.

    Sync handlers never suspend (timeouts apply to async layers only), so a
    coroutine over them finishes on its first step; that spares each hook
    process importing and starting asyncio (a quarter to a third of its run
    time). With an async layer it runs under ``anyio.run`` from the start;
    when a sync layer turns out to need a loop after all (it failed with
    anyio's NoEventLoopError, say, or the coroutine suspended), the attempt is
    thrown away, its records too, and the whole event is run again under
    ``anyio.run``.
    """
    if not any(registration.is_async for registration in bus.registry.list()):
        needed_a_loop: list[Record] = []

        def watch(record: Record) -> None:
            if record.error is not None and any(sign in record.error for sign in _NO_EVENT_LOOP):
                needed_a_loop.append(record)

        undo = bus.on_event(watch, level="error")
        try:
            coroutine = main()
            try:
                coroutine.send(None)
            except StopIteration as finished:
                if not needed_a_loop:
                    return finished.value  # type: ignore[no-any-return]
            else:
                coroutine.close()
        finally:
            undo()
        if audit is not None:
            audit.discard()
    import anyio

    return anyio.run(main)


def run(args: argparse.Namespace) -> int:
    from .adapters import claude_code as protocol

    _claim_stdout()
    limit = args.max_bytes if args.max_bytes is not None else protocol.MAX_PAYLOAD_BYTES
    data, size = _read_stdin(max(limit, 0))
    if size > limit:
        return _write(protocol.payload_too_large(data, size, limit))
    try:
        payload = protocol.parse_payload(data)
    except protocol.HookInputError as exc:
        return _write(protocol.unreadable(data, exc))
    event = payload["hook_event_name"]
    if event not in protocol.HANDLED_EVENTS:
        return 0  # every other event passes through untouched
    # stdout is the protocol: whatever middleware prints goes to stderr instead.
    with contextlib.redirect_stdout(sys.stderr):
        try:
            registry, configured_log = build_registry(args.config, args.middleware)
        except Exception as exc:  # a broken configuration must not let calls through unchecked
            message = f"agentbus could not load its middleware ({type(exc).__name__}: {exc})"
            if event == "PreToolUse":
                reply = protocol.deny(f"{message}; denied to be safe. Fix the configuration.")
            else:
                reply = protocol.HookReply(exit_code=1, stderr=message)
        else:
            reply = _answer(args, registry, configured_log, payload)
    return _write(reply)


def _answer(
    args: argparse.Namespace, registry: Registry, configured_log: str | None, payload: dict[str, Any]
) -> HookReply:
    from .adapters import claude_code as protocol
    from .bus import Bus

    bus = Bus(registry, log_level=None)  # stdout is the protocol: structlog stays out of it
    log_path = audit_log_path(args, configured_log)
    audit = AuditLog(log_path) if log_path is not None else None
    if audit is not None:
        bus.on_event(audit, level=args.audit_level)

    async def answer() -> HookReply:
        return await protocol.handle(bus, payload, rewrite_decision=args.rewrite_decision)

    reply = _run(answer, bus, audit)
    if audit is not None:
        audit.flush()
    return reply

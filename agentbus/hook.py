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
call (or a skill's shell command, PreSkillShellCommand) that cannot be checked,
for any reason, is denied in that event's own answer: a layer that raises
anything (SystemExit and KeyboardInterrupt included), input that cannot be
read but names the event in any spelling JSON allows (naming both: a
top-level ``"decision": "block"``, which blocks either), a configuration that
cannot be loaded. stdout carries the answer alone: while layers run, file
descriptor 1 points at stderr. Any string JSON can carry (lone surrogates
too) reaches the guards, the audit log and the answer.

A configuration found in the project is limited until the user trusts it
(see :mod:`agentbus.config`); what it was refused is printed on stderr and
recorded in the audit log, and the hook decides with the rest.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import sys
from collections.abc import Callable, Coroutine, Iterable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .lazy_regex import lazy_compile

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

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
"""The default audit log: ``audit.jsonl`` in the data directory (``$AGENTBUS_HOME``, else ``~/.agentbus``)."""

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
    parser.add_argument(
        "--import-path",
        metavar="DIR",
        action="append",
        default=[],
        help="a directory to import --middleware from (repeatable): the installed hook runs Python "
        "in isolated mode, which ignores PYTHONPATH (a project's settings can set it)",
    )


_VALUED = {
    "--config": None,
    "--middleware": None,
    "--audit-log": None,
    "--audit-level": ("debug", "info", "warning", "error"),
    "--rewrite-decision": ("passthrough", "allow", "ask"),
    "--max-bytes": None,
    "--import-path": None,
}
"""The options that take a value, with the values they accept (None: any)."""


def parse_args_quickly(argv: Sequence[str]) -> argparse.Namespace | None:
    """The options of a plainly written hook command line, parsed without argparse.

    Claude Code starts a hook process per event, and argparse (with gettext and
    the locale lookups it makes while building the parser) is a few percent of
    one. Only exact spellings are read here: ``claude-code`` first, then whole
    option names with ``--name value`` or ``--name=value``, a value that does
    not start with ``-``, a listed choice, a ``--max-bytes`` of digits. Anything
    else (abbreviations, ``--help``, an error) returns None, and argparse parses
    the line as it always did; where this function answers, it gives what
    argparse gives (tests/test_hook_args.py compares them).
    """
    if not argv or argv[0] != "claude-code":
        return None
    values: dict[str, Any] = {
        "runtime": "claude-code",
        "config": None,
        "middleware": [],
        "audit_log": None,
        "no_audit_log": False,
        "audit_level": "debug",
        "rewrite_decision": "passthrough",
        "max_bytes": None,
        "import_path": [],
    }
    rest = list(argv[1:])
    while rest:
        word = rest.pop(0)
        if word == "--no-audit-log":
            values["no_audit_log"] = True
            continue
        name, equals, value = word.partition("=")
        if name not in _VALUED:
            return None
        if not equals:
            if not rest:
                return None
            value = rest.pop(0)
        choices = _VALUED[name]
        if not value or value.startswith("-") or (choices is not None and value not in choices):
            return None
        key = name[2:].replace("-", "_")
        if name in ("--middleware", "--import-path"):
            values[key].append(value)
        elif name == "--max-bytes":
            if not (value.isascii() and value.isdigit() and len(value) < 19):
                return None
            values[key] = int(value)
        else:
            values[key] = value
    if values["no_audit_log"] and values["audit_log"] is not None:
        return None  # argparse says they exclude each other
    # argparse.Namespace is a bag of attributes, as SimpleNamespace: the same attributes, the same values.
    return cast("argparse.Namespace", SimpleNamespace(**values))


def build_registry(
    config_path: str | None, middleware: Iterable[str], refused: list[str] | None = None
) -> tuple[Registry, str | None]:
    """The registry for Claude Code's hooks, and the configuration's audit log path.

    Claude Code's tool names (glob, grep, task ...) are declared first, so that
    matchers written for them are accepted. The configuration is discovered in
    ``$CLAUDE_PROJECT_DIR`` (set by Claude Code) or else the working directory;
    what an untrusted project was refused is appended to ``refused``.
    """
    from .adapters.claude_code import CLAUDE_CODE_TOOLS
    from .config import load_config, load_installer
    from .registry import Registry

    registry = Registry()
    registry.declare_tools(*CLAUDE_CODE_TOOLS.values())
    config = load_config(config_path, cwd=os.environ.get("CLAUDE_PROJECT_DIR") or None)
    config.install(registry)
    if refused is not None:
        refused.extend(config.refusals)
    for reference in middleware:
        load_installer(reference)(registry)
    return registry, config.audit_log


def audit_log_path(args: argparse.Namespace, configured: str | None) -> Path | None:
    """Where records go: --audit-log, the configuration, $AGENTBUS_AUDIT_LOG, the default."""
    from pathlib import Path

    name = _audit_log_name(args, configured)
    return Path(name) if name is not None else None


def _audit_log_name(args: argparse.Namespace, configured: str | None) -> str | None:
    """:func:`audit_log_path` as a string: the hook process does not import pathlib."""
    if args.no_audit_log:
        return None
    chosen = args.audit_log or configured or os.environ.get(AUDIT_LOG_ENV)
    if not chosen:
        from .userdirs import data_dir_name

        return os.path.join(data_dir_name(), "audit.jsonl")
    return os.path.expanduser(chosen)


def refusal_record(message: str) -> Record:
    """The record of a setting the configuration was refused (see :mod:`agentbus.config`)."""
    from .records import WARNING, Record

    return Record(point="config", id="agentbus:trust", level=WARNING, decision="refuse", reason=message)


def drop_working_directory() -> None:
    """The working and project directories are never on a hook's import path."""
    from ._import_path import drop_working_directory

    project = os.environ.get("CLAUDE_PROJECT_DIR")
    drop_working_directory(*([project] if project else []))


class AuditLog:
    """An observer that appends each record as one JSON line (``record.to_dict()``).

    Records are buffered and written with one ``write`` on :meth:`flush`, to a
    private file (0600 in a 0700 directory) opened for appending: lines from
    concurrent hook processes do not interleave. A log that cannot be written
    costs a warning on stderr, never a decision.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self._lines: list[bytes] = []
        self.blocked = False
        """Whether a record of a block (not a shadow's) came by: the hook's deny is on file."""

    def __call__(self, record: Record) -> None:
        from .audit_log import json_bytes

        if record.decision == "block" and not record.shadow:
            self.blocked = True
        line = record.to_dict()
        try:
            data = json_bytes(line)
        except (RecursionError, ValueError, TypeError) as exc:  # values nested past what json can write
            line["changes"] = {}
            line["error"] = f"{line['error'] or ''} (its changes could not be written: {type(exc).__name__})"
            data = json_bytes(line)
        self._lines.append(data + b"\n")

    def discard(self) -> None:
        """Forget the records not yet written."""
        self._lines.clear()
        self.blocked = False

    def flush(self) -> None:
        """Append the records so far to the file."""
        if not self._lines:
            return
        from .userdirs import open_private

        data, self._lines = b"".join(self._lines), []
        try:
            fd = open_private(self.path)
            try:
                written = os.write(fd, data)
                while written < len(data):
                    written += os.write(fd, data[written:])
            finally:
                os.close(fd)
        except OSError as exc:
            print(f"agentbus: cannot write the audit log {self.path}: {exc}", file=sys.stderr)


def _spelled(word: str) -> bytes:
    """A regex for ``word`` in a JSON string: each character as itself or as a ``\\uXXXX`` escape."""
    return b"".join(
        b"(?:%s|\\\\u%s)" % (re.escape(c).encode(), _hex_either_case(f"{ord(c):04x}")) for c in word
    )


def _hex_either_case(digits: str) -> bytes:
    return b"".join(
        b"[%s%s]" % (d.encode(), d.upper().encode()) if d.isalpha() else d.encode() for d in digits
    )


_PRE_TOOL_USE = lazy_compile(b'"' + _spelled("PreToolUse") + b'"')
"""``"PreToolUse"`` as a JSON string, however it is escaped (``"PreTool\\u0055se"``)."""
_PRE_SKILL_SHELL_COMMAND = lazy_compile(b'"' + _spelled("PreSkillShellCommand") + b'"')
_OVERLAP = 64 * 8
"""Bytes kept between chunks when scanning: longer than the longest spelling of the patterns."""
AMBIGUOUS = "PreToolUse or PreSkillShellCommand"
"""What :func:`guarding_event_named` says of input naming both (see :func:`refuse`)."""


def might_be_pre_tool_use(data: bytes) -> bool:
    """Whether input that could not be read may be a PreToolUse event (then it is denied).

    Any JSON string spelling ``PreToolUse``, anywhere in the input, counts:
    a reader that looked only at the first bytes, or only for the plain
    spelling, would let an escaped or padded event through unchecked.
    """
    return _PRE_TOOL_USE.search(data) is not None


def guarding_event_named(data: bytes) -> str | None:
    """The event, deciding whether something runs, that unreadable input may be (None: neither).

    Like :func:`might_be_pre_tool_use`, for PreToolUse and PreSkillShellCommand; input
    naming both is :data:`AMBIGUOUS` (an answer naming the wrong event is ignored).
    """
    tool = might_be_pre_tool_use(data)
    skill = _PRE_SKILL_SHELL_COMMAND.search(data) is not None
    if tool and skill:
        return AMBIGUOUS
    return "PreToolUse" if tool else "PreSkillShellCommand" if skill else None


def _read_stdin(limit: int) -> tuple[bytes, int, str | None]:
    """Read at most ``limit + 1`` bytes; return them, how many were read in all, and
    the guarding event the part past the limit (read and dropped) names."""
    stream = sys.stdin.buffer
    data = stream.read(limit + 1)
    size = len(data)
    named: set[str] = set()
    if size > limit:
        tail = data[-_OVERLAP:]
        while chunk := stream.read(1 << 20):  # drain, so that Claude Code's write does not fail
            size += len(chunk)
            window = tail + chunk
            found = guarding_event_named(window)
            if found is not None:
                named.update(found.split(" or "))
            tail = window[-_OVERLAP:]
    return data, size, _joined(named)


def _joined(events: set[str]) -> str | None:
    if len(events) > 1:
        return AMBIGUOUS
    return next(iter(events), None)


def _either(first: str | None, second: str | None) -> str | None:
    """The guarding event two scans of one input name together."""
    return _joined({name for found in (first, second) if found for name in found.split(" or ")})


def refuse(event: str | None, reason: str, failure: str) -> HookReply:
    """Deny ``event`` (a guarding event, :data:`AMBIGUOUS`) with ``reason``; any other fails with ``failure``.

    Input that may be either guarding event gets the top-level ``"decision": "block"``,
    which blocks both (checked with the real CLI 2.1.332): a ``hookSpecificOutput``
    naming one is ignored when the event was the other.
    """
    from .adapters import claude_code as protocol

    if event == AMBIGUOUS:
        return protocol.HookReply(output={"decision": "block", "reason": reason})
    if event is not None:
        return protocol.deny(reason, event)
    return protocol.HookReply(exit_code=1, stderr=failure)


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
    """Write the answer (the only thing on stdout) and give stdout back.

    The JSON is UTF-8 whatever its strings hold (see :func:`agentbus.audit_log.json_bytes`).
    """
    from .audit_log import json_bytes

    global _answer_fd
    data = json_bytes(reply.output) + b"\n" if reply.output is not None else b""
    try:
        if _answer_fd is not None:
            answer_fd, _answer_fd = _answer_fd, None
            try:
                sys.stdout.flush()  # what a layer printed goes to stderr, before the answer
                while data:
                    data = data[os.write(answer_fd, data) :]
                os.dup2(answer_fd, 1)
            finally:
                os.close(answer_fd)
        elif data:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
    except (OSError, ValueError):
        pass  # nobody reads the answer any more
    if reply.stderr:
        try:
            print(reply.stderr, file=sys.stderr)
        except (OSError, ValueError):
            pass
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
    """Answer the event on stdin: the whole of a hook process (it takes over stdout and the
    garbage collector, see :func:`_collect_only_the_event`)."""
    # Denied as PreToolUse until the event says otherwise; whether the collector ran before run() took it.
    context: dict[str, Any] = {"guarding": "PreToolUse", "collecting": gc.isenabled()}
    gc.disable()
    drop_working_directory()
    _claim_stdout()
    try:
        reply = _decide(args, context)
    except BaseException as exc:  # SystemExit, KeyboardInterrupt ... from a layer: deny
        reply = _failed(exc, context["guarding"])
    finally:
        _collect_only_the_event(context["collecting"])
    _record_unjudged(args, context, reply)
    return _write(reply)


def _record_unjudged(args: argparse.Namespace, context: dict[str, Any], reply: HookReply) -> None:
    """Leave a record of a deny or a failure that no layer recorded.

    Input that cannot be read, an event over the size limit, a configuration
    that cannot be loaded, args that cannot be copied, a layer that raised past
    the bus: the hook answers each without any layer's block record, so it
    writes one itself (id ``agentbus:hook``), to the audit log it would have used.
    """
    specific = reply.output.get("hookSpecificOutput") if reply.output is not None else None
    if not isinstance(specific, dict):
        specific = {}
    denied = specific.get("permissionDecision") == "deny" or context.get("guarding") == AMBIGUOUS
    asked = specific.get("permissionDecision") == "ask" and _asked_unjudged(specific)
    if not denied and not asked and reply.exit_code == 0:
        return
    audit: AuditLog | None = context.get("audit")
    if "audit" not in context:  # _answer never ran: the log it would have opened
        log_path = _audit_log_name(args, context.get("configured_log"))
        audit = AuditLog(log_path) if log_path is not None else None
    if audit is None or (denied and audit.blocked):
        return
    from .records import ERROR, Record

    payload = context.get("payload") or {}

    def text(key: str) -> str | None:
        value = payload.get(key)
        return value if isinstance(value, str) else None

    try:
        audit(
            Record(
                point="tool.before" if denied or asked else "hook",
                id="agentbus:hook",
                level=ERROR,
                tool=text("tool_name"),
                agent_id=None,
                session_key=text("session_id"),
                call_id=text("tool_use_id"),
                decision="block" if denied else "ask" if asked else None,
                reason=_reason(reply) if denied or asked else None,
                error=None if denied or asked else reply.stderr,
            )
        )
        audit.flush()
    except Exception as exc:  # the answer goes out whatever happens to its record
        print(f"agentbus: cannot record this answer: {type(exc).__name__}: {exc}", file=sys.stderr)


def _asked_unjudged(specific: dict[str, Any]) -> bool:
    """An ask no layer made: a call the project's own hook may replace (the adapter's ``UNJUDGED``)."""
    from .adapters.claude_code import UNJUDGED

    return UNJUDGED in str(specific.get("permissionDecisionReason"))


def _reason(reply: HookReply) -> str:
    """The reason a deny (or a top-level block) gives."""
    output = reply.output or {}
    specific = output.get("hookSpecificOutput")
    if isinstance(specific, dict) and "permissionDecisionReason" in specific:
        return str(specific["permissionDecisionReason"])
    return str(output.get("reason"))


def _collect_only_the_event(collecting: bool) -> None:
    """Exclude what is alive now from every later collection, then collect as before.

    A hook process loads its guards (a hundred modules, their classes and tables)
    and lives one event. Python's cyclic collector would traverse all of that,
    during the loading and once more at exit, for nothing: it is freed, if at all,
    when the process ends. So :func:`run` loads with the collector off, and the
    registry, once built, and all that is alive at the end are frozen
    (:func:`gc.freeze`): the decision runs with the collector on, over what the
    event itself allocates. Only objects that cannot be collected before exit
    anyway are spared: nothing a layer sees changes, and finalizers of objects
    still alive at exit were never guaranteed to run.
    """
    gc.freeze()
    if collecting:
        gc.enable()


def _failed(exc: BaseException, guarding: str | None) -> HookReply:
    """The answer when deciding raised: a deny for a call that may be a guarding event."""
    failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return refuse(
        guarding,
        f"agentbus failed while checking this call ({failure}); denied to be safe",
        f"agentbus failed: {failure}",
    )


def _decide(args: argparse.Namespace, context: dict[str, Any]) -> HookReply:
    from .adapters import claude_code as protocol

    limit = args.max_bytes if args.max_bytes is not None else protocol.MAX_PAYLOAD_BYTES
    data, size, later_named = _read_stdin(max(limit, 0))
    if size > limit:
        context["guarding"] = _either(later_named, guarding_event_named(data))
        message = f"the hook event is larger than the limit of {limit} bytes ({size} bytes read)"
        return refuse(
            context["guarding"],
            f"agentbus could not check this call: {message}",
            f"agentbus: {message}; raise it with --max-bytes",
        )
    try:
        payload = protocol.parse_payload(data)
    except protocol.HookInputError as exc:
        context["guarding"] = guarding_event_named(data)
        return refuse(context["guarding"], f"agentbus could not check this call: {exc}", f"agentbus: {exc}")
    event = payload["hook_event_name"]
    context["guarding"] = event if event in protocol.GUARDING_EVENTS else None
    context["payload"] = payload
    if event not in protocol.HANDLED_EVENTS:
        return protocol.PASS  # every other event passes through untouched
    overridden = _project_env_overrides()
    if overridden:
        message = (
            f'{overridden} in "env", which agentbus reads: a project does not choose agentbus\'s '
            "configuration or audit log. Remove it there (your own ~/.claude/settings.json may set it)"
        )
        unchecked = f"agentbus could not check this call: {message}"
        return refuse(context["guarding"], unchecked, f"agentbus: {message}")
    directories = [os.path.expanduser(directory) for directory in getattr(args, "import_path", ())]
    relative = [directory for directory in directories if not os.path.isabs(directory)]
    if relative:  # it would be found in the session's directory: the project's
        message = f"--import-path takes absolute directories, not {', '.join(relative)}"
        unchecked = f"agentbus could not check this call: {message}"
        return refuse(context["guarding"], unchecked, f"agentbus: {message}")
    sys.path[:0] = directories
    # stdout is the protocol: whatever middleware prints goes to stderr instead.
    with contextlib.redirect_stdout(sys.stderr):
        refused: list[str] = []
        try:
            registry, configured_log = build_registry(args.config, args.middleware, refused)
        except Exception as exc:  # a broken configuration must not let calls through unchecked
            message = f"agentbus could not load its middleware ({type(exc).__name__}: {exc})"
            denied = f"{message}; denied to be safe. Fix the configuration."
            return refuse(context["guarding"], denied, message)
        context["configured_log"] = configured_log
        for message in refused:
            print(f"agentbus: {message}", file=sys.stderr)
        _load_judges(registry, payload)
        if "collecting" in context:  # run() took the collector for the start-up: give it back
            _collect_only_the_event(context["collecting"])
        return _answer(args, registry, configured_log, payload, refused, context)


def _project_env_overrides() -> str:
    """Which variables agentbus reads the project's Claude Code settings set ('' if none).

    They are dropped from this process's environment, so that the record of
    the deny goes where the user's own settings say.
    """
    from .hook_env import project_env_names

    found = project_env_names(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    for _, name in found:
        os.environ.pop(name, None)
    return "; ".join(f"{path} sets {name}" for path, name in found)


def _load_judges(registry: Registry, payload: dict[str, Any]) -> None:
    """Import the built-in guards that judge this call now, while the collector is off.

    They would load at their first call anyway (:mod:`agentbus.middleware.builtin`);
    a module that cannot be imported fails there, where a failure is a deny.
    """
    tool = payload.get("tool_name")
    if payload["hook_event_name"] == "PreSkillShellCommand":
        tool = "Bash"
    elif payload["hook_event_name"] != "PreToolUse" or not isinstance(tool, str):
        return
    from .adapters.claude_code import canonical_tool
    from .middleware import builtin

    with contextlib.suppress(Exception):
        builtin.load(registration.id for registration in registry.get("tool.before", canonical_tool(tool)))


def _remember_sessions_in_files() -> None:
    """A process per tool call: what a session downloaded is kept in a file between calls."""
    from .guards import session_downloads
    from .userdirs import data_dir_name

    session_downloads.persist_in(os.path.join(data_dir_name(), "sessions"))


def _answer(
    args: argparse.Namespace,
    registry: Registry,
    configured_log: str | None,
    payload: dict[str, Any],
    refused: Iterable[str] = (),
    context: dict[str, Any] | None = None,
) -> HookReply:
    from .adapters import claude_code as protocol
    from .bus import Bus

    bus = Bus(registry, log_level=None)  # stdout is the protocol: structlog stays out of it
    _remember_sessions_in_files()
    log_path = _audit_log_name(args, configured_log)
    audit = AuditLog(log_path) if log_path is not None else None
    if context is not None:
        context["audit"] = audit
    if audit is not None:
        bus.on_event(audit, level=args.audit_level)

    async def answer() -> HookReply:
        return await protocol.handle(bus, payload, rewrite_decision=args.rewrite_decision, project_hooks=True)

    try:
        return _run(answer, bus, audit)
    finally:  # the records of a layer that raised are kept too
        if audit is not None:
            for message in refused:
                audit(refusal_record(message))
            audit.flush()

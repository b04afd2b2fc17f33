"""``agentbus eval --diff AUDIT_LOG``: which recorded calls the current stack would decide differently.

How a team checks a policy change against its own history before deploying
it: the tool calls of recorded sessions are run through tool.before of the
stack as configured now (nothing is executed), and each call whose decision
differs from the recorded one is printed as a JSON line::

  {"line": 7, "tool": "exec", "args": {...}, "old": {"decision": "allow", "by": null,
   "reason": null}, "new": {"decision": "block", "by": "builtin:command-safety-guard",
   "reason": "..."}, "notes": []}

A decision is ``block``, ``ask`` or ``allow``; a call blocked by another rule
than before has not changed. Exit status 1 when any call changed, 0 when none
did, 2 when the log cannot be read (missing, a line that is not JSON, no tool
call with its arguments in it) or the stack cannot be built.

What can be replayed, one per line (other lines of these logs are skipped):

- the audit middleware's entries (:mod:`agentbus.middleware.audit`, any
  adapter): the ``tool.before`` entry holds the args and the decision;
- the output of ``agentbus eval`` (a baseline taken before a change), and its
  input (``{"tool": ..., "args": ...}``);
- Claude Code hook payloads (``PreToolUse`` / ``PostToolUse``). A payload does
  not hold the decision: a ``PostToolUse`` call ran, so it was allowed, and a
  ``PreToolUse`` call is taken as allowed too, and said so (``"assumed": true``).

The record log of ``bus.log_to`` and of ``agentbus hook`` holds what each layer
decided but not the tool's arguments, so it cannot be replayed; a log with only
such records is refused with a message that says what to record instead.

The audit middleware redacts secrets and cuts long strings before writing them:
such a call is replayed as logged, and its output line carries a note. The
stack's own audit layers are left out of the replay: a replayed call does not
run, and an audit log is the record of calls that did.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from .bus import Bus
    from .registry import Registry

__all__ = [
    "NotACall",
    "Recorded",
    "Replay",
    "drop_audit_layers",
    "parse_recorded",
    "recorded_calls",
    "refusal",
    "replay",
    "summary",
]

_TRUNCATED = re.compile(r"… \[\d+ more characters\]$")
_DECISIONS = ("block", "ask")


@attrs.frozen
class Recorded:
    """One tool call from a log, with the decision it got then."""

    line: int
    tool: str
    args: dict[str, Any]
    decision: str
    """``block``, ``ask`` or ``allow``."""
    by: str | None = None
    reason: str | None = None
    agent: str | None = None
    session: str | None = None
    call_id: str | None = None
    """Claude Code's tool_use_id: its two payloads of one call are replayed once."""
    assumed: bool = False
    """The log did not say what was decided; ``allow`` is assumed."""


@attrs.define
class Replay:
    """What a replay found: the changed calls are written as they are found."""

    calls: int = 0
    changed: int = 0
    errors: list[str] = attrs.field(factory=list)
    """Lines that could not be read, as ``line N: why``."""
    argless: int = 0
    """Records of the bus's record log: decisions without the tool's arguments."""


class NotACall(Exception):
    """A line of a log that is valid but holds no call to replay (a tool.after entry ...).

    ``argless``: the line is a record of the bus's record log, which never holds args.
    """

    def __init__(self, *, argless: bool = False) -> None:
        super().__init__("not a tool call")
        self.argless = argless


def _decision(value: Any) -> str:
    return value if value in _DECISIONS else "allow"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _object(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ValueError(f'"{key}" must be a JSON object')
    return value


def parse_recorded(number: int, data: Any) -> Recorded:
    """The call on one parsed line; raises NotACall or ValueError (the message says why)."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if "hook_event_name" in data:
        return _claude_code(number, data)
    if "event" in data:  # the audit middleware
        if data["event"] != "tool.before":
            raise NotACall
        args = _object(data, "args")
        return Recorded(
            number, _tool(data, "tool"), args, _decision(data.get("decision")), _text(data.get("by")),
            _text(data.get("reason")), _text(data.get("agent_id")), _text(data.get("session_key")),
        )  # fmt: skip
    if "point" in data and "level" in data:  # a record of bus.log_to: no args
        raise NotACall(argless=True)
    if "error" in data and "tool" not in data:  # an error line of agentbus eval
        raise NotACall
    tool = _tool(data, "tool" if "tool" in data else "tool_name")
    key = "args" if "args" in data else "tool_input"
    args = _object(data, key) if key in data else {}
    return Recorded(
        number, tool, args, _decision(data.get("decision")), _text(data.get("by")), _text(data.get("reason")),
        _text(data.get("agent")), _text(data.get("session")), assumed="decision" not in data,
    )  # fmt: skip


def _tool(data: dict[str, Any], key: str) -> str:
    tool = data.get(key)
    if not isinstance(tool, str) or not tool.strip():
        raise ValueError(f'"{key}" must be a non-empty string')
    return tool


def _claude_code(number: int, data: dict[str, Any]) -> Recorded:
    from .adapters.claude_code import canonical_args, canonical_tool

    event = data["hook_event_name"]
    if event not in ("PreToolUse", "PostToolUse"):
        raise NotACall
    name = _tool(data, "tool_name")
    return Recorded(
        number, canonical_tool(name), canonical_args(name, _object(data, "tool_input")), "allow",
        agent=_text(data.get("agent_id")), session=_text(data.get("session_id")),
        call_id=_text(data.get("tool_use_id")), assumed=event == "PreToolUse",
    )  # fmt: skip


def recorded_calls(
    stream: IO[bytes], result: Replay, *, max_bytes: int, limit: int | None = None
) -> Iterator[Recorded]:
    """The calls in a log, each once (a call logged before and after it ran is one call).

    ``limit``: stop after this many bytes, the size of the file when the replay
    began, so that a stack that audits into the log it replays cannot feed
    itself for ever. Unreadable lines are added to ``result.errors``.
    """
    from .evaluate import read_lines

    seen: set[tuple[str | None, str]] = set()
    for number, raw in read_lines(stream, max_bytes, limit=limit):
        if raw is None:
            result.errors.append(f"line {number}: longer than {max_bytes} bytes")
            continue
        try:
            text = raw.decode("utf-8").strip().lstrip("\ufeff")
        except UnicodeDecodeError as exc:
            result.errors.append(f"line {number}: not valid UTF-8 (byte 0x{raw[exc.start]:02x})")
            continue
        if not text:
            continue
        try:
            call = parse_recorded(number, json.loads(text))
        except NotACall as skipped:
            result.argless += skipped.argless
            continue
        except RecursionError:
            result.errors.append(f"line {number}: not valid JSON: nested too deeply")
            continue
        except ValueError as exc:  # JSONDecodeError too
            what = "not valid JSON" if isinstance(exc, json.JSONDecodeError) else "not a tool call"
            result.errors.append(f"line {number}: {what}: {exc}")
            continue
        if call.call_id is not None:  # Claude Code sends PreToolUse and PostToolUse for one call
            key = (call.session, call.call_id)
            if key in seen:
                continue
            seen.add(key)
        yield call


def drop_audit_layers(registry: Registry) -> list[str]:
    """Remove the audit middleware's registrations from ``registry``; return their ids."""
    from .middleware.audit import AuditLog

    dropped = [r.id for r in registry.list() if isinstance(getattr(r.handler, "__self__", None), AuditLog)]
    for id in dropped:
        registry.remove(id)
    return dropped


def _truncated(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_TRUNCATED.search(value))
    if isinstance(value, dict):
        return any(_truncated(v) for v in value.values())
    if isinstance(value, list):
        return any(_truncated(v) for v in value)
    return False


async def replay(
    bus: Bus,
    stream: IO[bytes],
    write: Callable[[str], None],
    *,
    max_bytes: int,
    limit: int | None = None,
) -> Replay:
    """Run every recorded call through ``bus``'s tool.before; write one JSON line per changed decision."""
    result = Replay()
    for call in recorded_calls(stream, result, max_bytes=max_bytes, limit=limit):
        result.calls += 1
        try:
            decided = await bus.decide_tool(
                call.tool, call.args, agent_id=call.agent, session_key=call.session
            )
            new = {"decision": _decision(decided.decision), "by": decided.blocked_by,
                   "reason": decided.block_reason}  # fmt: skip
        except Exception as exc:  # a stack that fails is a decision nobody can rely on
            new = {
                "decision": "error",
                "by": None,
                "reason": f"the stack failed: {type(exc).__name__}: {exc}",
            }
        if new["decision"] == call.decision:
            continue
        result.changed += 1
        notes = []
        if call.assumed:
            notes.append("the log does not record the old decision: allow is assumed (the call was made)")
        if _truncated(call.args):
            notes.append("the audit log cut a long argument: the replay judged the cut text")
        old = {"decision": call.decision, "by": call.by, "reason": call.reason}
        write(
            json.dumps(
                {
                    "line": call.line,
                    "tool": call.tool,
                    "args": call.args,
                    "old": old,
                    "new": new,
                    "notes": notes,
                },
                ensure_ascii=False,
                default=repr,
            )
        )
    return result


def summary(result: Replay, name: str) -> str:
    """The line ``eval --diff`` prints on stderr at the end."""
    changed = f"{result.changed} of {result.calls} recorded calls would be decided differently"
    return f"agentbus eval --diff: {name}: {changed}"


def refusal(result: Replay, name: str) -> str | None:
    """Why the replay's answer cannot be trusted (exit status 2), or None."""
    if result.errors:
        shown = "; ".join(result.errors[:5])
        more = f" (and {len(result.errors) - 5} more)" if len(result.errors) > 5 else ""
        return f"agentbus eval --diff: {name}: unreadable lines, so the check is incomplete: {shown}{more}"
    if result.calls == 0:
        if result.argless:
            return (
                f"agentbus eval --diff: {name} holds {result.argless} records of layers' decisions but no "
                "tool arguments to replay (it is a record log, as bus.log_to and agentbus hook write). "
                "Record sessions with the audit middleware (agentbus.middleware.audit, path=...), or "
                "capture Claude Code hook payloads, and replay that file."
            )
        return f"agentbus eval --diff: {name} holds no tool calls to replay"
    return None

"""An audit trail of every tool call (seed 000: "Log or audit every tool invocation").

Two layers at priority -10, the seed's band for observers, so they see the
final state that every other layer left:

- on tool.before, the call as it will run: final args, and a block or an ask
  if some layer decided one;
- on tool.after, the outcome (``ok``, ``error`` or ``blocked``), the error,
  and how long the tool took.

Each entry is a JSON-serialisable dict, written as one JSON line to a private
file (0600 in a 0700 directory; appended with one ``write`` per entry, so log
rotation and several processes appending to one file work; a Claude Code hook
is a new process per call) or given to a callback. Secrets in the args are redacted with
:class:`~agentbus.middleware.redact.Redactor` before they are written, and long
strings are truncated: an audit log is read by more people than the agent's
output is.
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Callable
from typing import Any

from ..audit_log import RecordLog, json_bytes
from ..events import ToolCall, ToolResult
from ..registry import Matcher, Registry
from ..typing import CallNext
from ..userdirs import make_private_dir
from ._walk import map_strings
from .redact import Redactor

__all__ = ["AuditLog", "AuditSink", "install", "jsonl_file"]

AuditSink = Callable[[dict[str, Any]], None]
"""Receives each audit entry (a JSON-serialisable dict)."""


def jsonl_file(path: str | os.PathLike[str]) -> AuditSink:
    """A sink that appends each entry to ``path`` (``~`` expanded) as one JSON line.

    The file is private: created 0600 in a directory created 0700 (now, if it
    is missing), and narrowed to 0600 if it exists with wider permissions.
    Each entry is one ``write`` with ``O_APPEND`` (see
    :class:`agentbus.audit_log.RecordLog`); an entry that cannot be written
    raises, so that ``fail_closed=True`` can block the call.
    """
    log = RecordLog(path)
    make_private_dir(log.path.parent)

    def write(entry: dict[str, Any]) -> None:
        if not log.write_bytes(json_bytes(entry)):
            raise log.last_error or OSError(f"cannot write the audit log {log.path}")

    return write


class AuditLog:
    """Builds audit entries and hands them to ``sink``.

    ``redactor`` (default: the standard patterns; None to log args verbatim)
    cleans the args, reasons and errors; strings longer than ``max_chars`` are cut, with a note of
    how much was cut. ``clock`` returns the wall-clock time of an entry.
    """

    def __init__(
        self,
        sink: AuditSink,
        *,
        redactor: Redactor | None = None,
        redact: bool = True,
        max_chars: int = 2000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.sink = sink
        self.redactor = (redactor or Redactor()) if redact else None
        self.max_chars = max_chars
        self.clock = clock

    def _clean(self, value: Any) -> Any:
        """``value`` with secrets redacted and long strings cut, never the live object."""
        cleaned: Any = value
        if self.redactor is not None:
            cleaned, _ = self.redactor.redact(value)
        limit = self.max_chars

        def truncate(text: str) -> str:
            if len(text) <= limit:
                return text
            return f"{text[:limit]}… [{len(text) - limit} more characters]"

        cleaned = map_strings(cleaned, truncate)
        # The entry must not share the live args: the tool may mutate them later.
        return copy.deepcopy(cleaned) if cleaned is value else cleaned

    async def before(self, call: ToolCall, call_next: CallNext) -> Any:
        """tool.before middleware: record the call with its final args and any decision.

        Middleware rather than a handler, and recording after ``call_next``:
        the bus names the layer that blocked (``blocked_by``) once a run of
        handlers has finished, so a handler in that run would not see it yet;
        and whatever layers run after this one have had their say as well.
        """
        result = await call_next(call)
        self.sink(
            {
                "time": self.clock(),
                "event": "tool.before",
                "tool": call.tool,
                "call_id": call.call_id,
                "agent_id": call.agent_id,
                "session_key": call.session_key,
                "args": self._clean(call.args),
                "decision": call.decision,
                "reason": self._clean(call.block_reason),
                "by": call.blocked_by,
            }
        )
        return result

    def after(self, event: ToolResult) -> None:
        """tool.after: the outcome and the duration."""
        if event.blocked:
            outcome = "blocked"
        elif event.error is not None:
            outcome = "error"
        else:
            outcome = "ok"
        error = event.error
        self.sink(
            {
                "time": self.clock(),
                "event": "tool.after",
                "tool": event.tool,
                "call_id": event.call_id,
                "agent_id": event.agent_id,
                "session_key": event.session_key,
                "outcome": outcome,
                "reason": self._clean(event.block_reason),
                "error": self._clean(f"{type(error).__name__}: {error}") if error is not None else None,
                "duration": event.duration,
            }
        )


def install(
    registry: Registry,
    *,
    path: str | os.PathLike[str] | None = None,
    callback: AuditSink | None = None,
    redact: bool = True,
    max_chars: int = 2000,
    priority: int = -10,
    tool: Matcher = None,
    id: str = "audit",
    fail_closed: bool = False,
) -> None:
    """Audit every tool call to ``path`` (JSON lines) or ``callback``.

    Adds ``audit:tool.before`` and ``audit:tool.after`` (ids from ``id``). An
    audit sink that fails (a full disk) is recorded and the call goes on;
    ``fail_closed=True`` blocks calls that could not be audited instead.
    """
    if (path is None) == (callback is None):
        raise ValueError("audit.install needs exactly one of path= (a JSON-lines file) or callback=")
    sink = callback if callback is not None else jsonl_file(path)  # type: ignore[arg-type]
    log = AuditLog(sink, redact=redact, max_chars=max_chars)
    registry.add(
        "tool.before", log.before, kind="middleware", id=f"{id}:tool.before", priority=priority, tool=tool,
        on_error="block" if fail_closed else "continue",
    )  # fmt: skip
    registry.add("tool.after", log.after, id=f"{id}:tool.after", priority=priority, tool=tool)


install.agentbus_file_options = ("path",)  # type: ignore[attr-defined]
"""``path`` is a file this installer writes: an untrusted project may only name one in
agentbus's data directory (see :data:`agentbus.config.FILE_OPTIONS_ATTRIBUTE`)."""

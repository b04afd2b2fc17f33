"""Interception records and the observers that receive them.

Every time a layer runs while somebody observes, the bus produces a
:class:`Record`: which hook point, which registration, for which tool or agent,
what changed, what it decided, what failed, how long it took. Records go to
observers; when there are none the bus does not build them at all.

Levels follow :mod:`logging`: a layer that changed nothing is DEBUG, a change is
INFO, a block (or an ask) is WARNING, a failure is ERROR. An observer states the
lowest level it wants, so the bus only computes diffs when somebody listens at
INFO or below.
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol

import attrs

if TYPE_CHECKING:  # anyio is imported only by a subscription: the hook process never needs it
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

__all__ = [
    "DEBUG",
    "DISPATCH",
    "ERROR",
    "INFO",
    "WARNING",
    "Observers",
    "Record",
    "RecordSource",
    "Subscription",
    "level_number",
]

DEBUG, INFO, WARNING, ERROR = 10, 20, 30, 40
"""The standard library's logging levels (not imported: the hook process never needs it)."""

DISPATCH = "agentbus:dispatch"
"""The ``id`` of the record the bus emits when a whole dispatch ends.

Its ``point`` is the hook point the verb ran (``tool.call`` for a whole tool
call, ``tool.before`` for ``decide_tool``, ``tool.after`` for ``finish_tool``),
its ``duration`` the whole dispatch, its ``decision``/``reason``/``error`` the
outcome. Only observers added with ``dispatches=True`` receive these records:
they tell a span exporter or a ``full`` console when a tool call ended.
"""

_LEVEL_NAMES = {"debug": DEBUG, "info": INFO, "warning": WARNING, "error": ERROR}
_LEVEL_BY_NUMBER = {number: name for name, number in _LEVEL_NAMES.items()} | {0: "notset", 50: "critical"}


def level_number(level: int | str) -> int:
    """``"info"`` -> 20; numbers pass through."""
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    if isinstance(level, str) and level.lower() in _LEVEL_NAMES:
        return _LEVEL_NAMES[level.lower()]
    raise ValueError(f"unknown level {level!r}; use one of {', '.join(_LEVEL_NAMES)} or a number")


@attrs.define(slots=True, repr=False)
class Record:
    """What one layer did to one event.

    Every observer receives the same object: treat it as read-only. (It is not
    frozen because a frozen attrs class costs twice as much to build, and the
    bus builds one per interception while anybody listens.)
    """

    point: str
    """The hook point (``tool.before`` ...)."""
    id: str
    """The registration id."""
    level: int
    tool: str | None = None
    agent_id: str | None = None
    session_key: str | None = None
    call_id: str | None = None
    changes: dict[str, tuple[Any, Any]] = attrs.field(factory=dict)
    """Field -> (old, new), e.g. ``{"args.command": ("ls", "ls --color=never")}``."""
    decision: str | None = None
    """``"block"`` or ``"ask"`` if this layer took that decision."""
    reason: str | None = None
    error: str | None = None
    """``"TypeName: message"`` if the layer failed (or timed out)."""
    duration: float = 0.0
    """Seconds spent in the layer (for middleware: including the inner layers)."""
    shadow: bool = False
    """True if the layer ran in shadow mode: its decision was not applied."""
    time: float = attrs.field(factory=time.time)

    def __repr__(self) -> str:
        # Written once (attrs' repr=False): a generated one is compiled at import, in every hook process.
        shown = (f"{f.name}={getattr(self, f.name)!r}" for f in attrs.fields(Record))
        return f"Record({', '.join(shown)})"

    @property
    def level_name(self) -> str:
        return _LEVEL_BY_NUMBER.get(self.level) or f"level {self.level}"

    def jsonable_changes(self) -> dict[str, list[Any]]:
        """``changes`` with values made JSON-serialisable (``repr`` for other objects)."""
        return {key: [_jsonable(old), _jsonable(new)] for key, (old, new) in self.changes.items()}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable form (the audit log's line)."""
        return {
            "time": self.time,
            "level": self.level_name,
            "point": self.point,
            "id": self.id,
            "tool": self.tool,
            "agent_id": self.agent_id,
            "session_key": self.session_key,
            "call_id": self.call_id,
            "changes": self.jsonable_changes(),
            "decision": self.decision,
            "reason": self.reason,
            "error": self.error,
            "duration": self.duration,
            "shadow": self.shadow,
        }


def _jsonable(value: Any) -> Any:
    if value is None or type(value) in (str, bool, int):
        return value
    return _jsonable_slow(value)


def _jsonable_slow(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return repr(value)


class RecordSource(Protocol):
    """What records can be watched on (a :class:`~agentbus.Bus`).

    The console and the audit log take one, so that they need not import the bus.
    """

    def on_event(
        self, callback: Callable[[Record], None], *, level: int | str = ..., dispatches: bool = ...
    ) -> Callable[[], None]: ...


class Subscription:
    """An async stream of records with a bounded buffer.

    Use it as ``async with bus.subscribe() as records: async for r in records``.
    A subscriber that falls behind never slows the bus: records that do not fit
    in the buffer are dropped and counted in :attr:`dropped`.
    """

    def __init__(self, observers: Observers, *, max_buffer: int, level: int) -> None:
        self._observers = observers
        self.level = level
        self.dropped = 0
        import anyio

        self._send: MemoryObjectSendStream[Record]
        self._receive: MemoryObjectReceiveStream[Record]
        self._send, self._receive = anyio.create_memory_object_stream[Record](max_buffer)
        self._full = anyio.WouldBlock
        self._gone = (anyio.BrokenResourceError, anyio.ClosedResourceError)
        observers.add(self._deliver, level)

    def _deliver(self, record: Record) -> None:
        try:
            self._send.send_nowait(record)
        except self._full:
            self.dropped += 1
        except self._gone:
            self.close()

    def close(self) -> None:
        """Stop receiving records; iteration ends once the buffer is drained."""
        self._observers.discard(self._deliver)
        self._send.close()

    async def receive(self) -> Record:
        return await self._receive.receive()

    def receive_nowait(self) -> Record:
        return self._receive.receive_nowait()

    def __aiter__(self) -> AsyncIterator[Record]:
        return self._receive.__aiter__()

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
        self._receive.close()


class Observers:
    """The set of record consumers, with the lowest level any of them wants.

    ``level`` is None while nobody listens: the bus then skips records entirely.
    ``on_change`` is called whenever the set changes, so compiled stacks that
    baked in "observed or not" are dropped. ``wants_dispatches`` is True
    while a consumer asked for :data:`DISPATCH` records.
    """

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._callbacks: dict[Callable[[Record], None], int] = {}
        self._dispatch_callbacks: dict[Callable[[Record], None], None] = {}
        self._snapshot: tuple[tuple[Callable[[Record], None], int], ...] = ()
        self._on_change = on_change
        self.level: int | None = None
        self.wants_dispatches = False
        self.failures = 0

    def add(
        self, callback: Callable[[Record], None], level: int = DEBUG, *, dispatches: bool = False
    ) -> Callable[[], None]:
        """Add a consumer; return a function that removes it again.

        With ``dispatches=True`` it also receives one :data:`DISPATCH` record per
        dispatch, whatever its level.
        """
        self._callbacks[callback] = level
        if dispatches:
            self._dispatch_callbacks[callback] = None
        self._changed()
        return lambda: self.discard(callback)

    def discard(self, callback: Callable[[Record], None]) -> None:
        self._dispatch_callbacks.pop(callback, None)
        if self._callbacks.pop(callback, None) is not None:
            self._changed()

    def _changed(self) -> None:
        self.level = min(self._callbacks.values(), default=None)
        self.wants_dispatches = bool(self._dispatch_callbacks)
        self._snapshot = tuple(self._callbacks.items())
        if self._on_change is not None:
            self._on_change()

    def emit_dispatch(self, record: Record) -> None:
        """Hand a :data:`DISPATCH` record to the consumers that asked for them. Never raises."""
        for callback in tuple(self._dispatch_callbacks):
            try:
                callback(record)
            except Exception:  # observation never breaks interception
                self.failures += 1

    def emit(self, record: Record) -> None:
        """Hand a record to every consumer that wants its level. Never raises."""
        for callback, level in self._snapshot:
            if record.level >= level:
                try:
                    callback(record)
                except Exception:  # observation never breaks interception
                    self.failures += 1

    def __bool__(self) -> bool:
        return bool(self._callbacks)

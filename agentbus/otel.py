"""OpenTelemetry export: a span per tool call, with the interceptions as its events.

Install the extra (``pip install 'agentbus[otel]'``), configure a tracer
provider as usual, then::

    from agentbus.otel import export_to_otel
    undo = export_to_otel(bus)          # the global tracer provider, or tracer_provider=...

Each tool call becomes a span named ``execute_tool {tool}`` (OpenTelemetry's
GenAI semantic conventions: ``gen_ai.operation.name``, ``gen_ai.tool.name``,
``gen_ai.tool.call.id``, ``gen_ai.agent.id``, ``gen_ai.conversation.id`` for
the session, ``error.type`` when the tool failed), each message.before and
params.before dispatch a span named ``agentbus message.before`` /
``agentbus params.before``. Every layer that ran is an ``agentbus.interception``
event on its span, and the outcome is in ``agentbus.*`` attributes (decision,
reason, blocked_by, the changed fields). Values (arguments, results, messages)
are never exported, only the names of the fields that changed: they may hold
exactly the secrets the middleware redacts. Lifecycle interceptions become
events on whatever span is current (the agent's own span, if it has one).

How a span knows its call ended: the bus emits one dispatch record
(:data:`agentbus.records.DISPATCH`) at the end of each tool call and each
message/params dispatch to observers that ask for it. Records arrive after the
layer ran, so spans are written when the dispatch ends, with start and end
times taken from the records; the parent is the span current in the task that
ran the dispatch. Records of one dispatch are gathered per task (a context
variable), so concurrent calls in other tasks never mix.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

try:
    from opentelemetry import trace
    from opentelemetry.trace import SpanKind, Status, StatusCode
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "agentbus.otel needs OpenTelemetry: pip install 'agentbus[otel]' "
        "(opentelemetry-api and opentelemetry-sdk)"
    ) from exc

from .events import TOOL_POINTS
from .records import DISPATCH, Record, level_number

if TYPE_CHECKING:
    from .bus import Bus

__all__ = ["OtelObserver", "export_to_otel"]

_BUFFERED_POINTS = TOOL_POINTS | {"message.before", "params.before"}
_MAX_EVENTS = 256
"""Records kept per dispatch; a runaway stack cannot grow a span without bound."""


def _nanos(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


class OtelObserver:
    """A bus observer that turns records into OpenTelemetry spans and span events."""

    def __init__(self, tracer_provider: trace.TracerProvider | None = None) -> None:
        from . import __version__

        self.tracer = trace.get_tracer("agentbus", __version__, tracer_provider=tracer_provider)
        self._pending: contextvars.ContextVar[dict[str, list[Record]] | None] = contextvars.ContextVar(
            f"agentbus_otel_{id(self)}", default=None
        )

    def __call__(self, record: Record) -> None:
        point = record.point
        key = record.call_id if point in TOOL_POINTS and record.call_id else point
        if record.id == DISPATCH:
            pending = self._pending.get()
            layers = pending.pop(key, []) if pending else []
            self._export(record, layers)
        elif point in _BUFFERED_POINTS:
            pending = self._pending.get()
            if pending is None:
                pending = {}
                self._pending.set(pending)
            layers = pending.setdefault(key, [])
            if len(layers) < _MAX_EVENTS:
                layers.append(record)
        else:
            span = trace.get_current_span()
            if span.is_recording():
                span.add_event("agentbus.interception", _event_attributes(record), _nanos(record.time))

    def _export(self, dispatch: Record, layers: list[Record]) -> None:
        end = _nanos(dispatch.time)
        start = end - _nanos(dispatch.duration)
        attributes: dict[str, Any] = {"agentbus.point": dispatch.point}
        if dispatch.tool is not None:
            name = f"execute_tool {dispatch.tool}"
            attributes["gen_ai.operation.name"] = "execute_tool"
            attributes["gen_ai.tool.name"] = dispatch.tool
            if dispatch.call_id:
                attributes["gen_ai.tool.call.id"] = dispatch.call_id
        else:
            name = f"agentbus {dispatch.point}"
        if dispatch.agent_id:
            attributes["gen_ai.agent.id"] = dispatch.agent_id
        if dispatch.session_key:
            attributes["gen_ai.conversation.id"] = dispatch.session_key
        if dispatch.decision is not None:
            attributes["agentbus.decision"] = dispatch.decision
            if dispatch.reason is not None:
                attributes["agentbus.reason"] = dispatch.reason
            deciders = [r.id for r in layers if r.decision is not None and not r.shadow]
            if deciders:
                attributes["agentbus.blocked_by"] = deciders[0]
        changed = sorted({field for r in layers if not r.shadow for field in r.changes} - {"decision"})
        if changed:
            attributes["agentbus.changed"] = changed
        failed = [r.id for r in layers if r.error is not None]
        if failed:
            attributes["agentbus.failed_layers"] = failed
        if dispatch.error is not None:
            attributes["error.type"] = dispatch.error.split(":", 1)[0]
        end = max(end, start)
        span = self.tracer.start_span(name, kind=SpanKind.INTERNAL, attributes=attributes, start_time=start)
        for record in layers:
            # the span's start is its end less a monotonic duration, an event's time the wall clock's: kept
            # inside the span, which a float's rounding (or a clock step) could otherwise leave it outside
            at = min(max(_nanos(record.time), start), end)
            span.add_event("agentbus.interception", _event_attributes(record), at)
        if dispatch.error is not None:
            span.set_status(Status(StatusCode.ERROR, dispatch.error))
        span.end(end_time=end)


def _event_attributes(record: Record) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "agentbus.point": record.point,
        "agentbus.id": record.id,
        "agentbus.level": record.level_name,
        "agentbus.duration": record.duration,
    }
    if record.changes:
        attributes["agentbus.changed"] = list(record.changes)
    for key in ("decision", "reason", "error"):
        value = getattr(record, key)
        if value is not None:
            attributes[f"agentbus.{key}"] = value
    if record.shadow:
        attributes["agentbus.shadow"] = True
    return attributes


def export_to_otel(
    bus: Bus,
    *,
    tracer_provider: trace.TracerProvider | None = None,
    level: int | str = "debug",
) -> Callable[[], None]:
    """Export ``bus``'s tool calls and dispatches as spans; return an undo function.

    ``level`` is the lowest record level that becomes a span event (``debug``:
    every layer that ran; ``info``: only layers that changed or decided
    something). Spans are created for every call either way.
    """
    return bus.on_event(OtelObserver(tracer_provider), level=level_number(level), dispatches=True)

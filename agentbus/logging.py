"""structlog wiring and the verbose lines of seed 000.

agentbus never configures structlog: it logs to the logger named ``agentbus``
and leaves rendering, levels and destinations to the application (the
``agentbus`` CLI is such an application). :func:`format_record` renders a
record as the seed's one-line status (``🛡️ id · blocked exec — "reason"``).
"""

from __future__ import annotations

from typing import Any

from .records import Record

__all__ = ["PARAM_LABELS", "StructlogSink", "format_record"]

PARAM_LABELS = {
    "think_level": "thinkLevel",
    "reasoning_level": "reasoningLevel",
    "temperature": "temperature",
}
"""The seed's names for params.before fields, as its verbose lines show them."""


class StructlogSink:
    """An observer that logs each record through structlog (logger ``agentbus``).

    structlog is configured by the application, possibly after this sink was
    made (``structlog.configure()``, ``structlog.testing.capture_logs()``). The
    bound logger is therefore cached only while structlog's configuration stays
    the same object; any reconfiguration is picked up on the next record.
    Fields that are empty are left out of the line: the JSON audit log
    (``Record.to_dict``) is where every field is kept.

    While ``console_streams`` is above zero (``bus.stream_to_console()`` is on)
    and the application has not configured structlog, the sink stays quiet:
    structlog's default would print each record a second time, on stdout.
    """

    def __init__(self, name: str = "agentbus") -> None:
        # Imported here, not at the top: `import agentbus` stays cheap for a hook
        # process that runs once per tool call and never logs through structlog.
        import structlog

        try:  # structlog's global configuration object, watched to know when to rebind
            from structlog._config import _CONFIG
        except ImportError:  # pragma: no cover - a future structlog without it
            _CONFIG = None  # type: ignore[assignment]
        self._config: Any = _CONFIG
        self._name = name
        self._proxy: Any = structlog.get_logger(name)
        self._bound: Any = None
        self._config_key: tuple[Any, ...] = ()
        self._is_configured: Any = structlog.is_configured
        self.console_streams = 0

    def _logger(self) -> Any:
        config = self._config
        if config is None:  # a structlog without the attribute we watch: no caching
            return self._proxy
        key = (config.default_processors, config.default_wrapper_class, config.logger_factory)
        cached = self._config_key
        if not cached or key[0] is not cached[0] or key[1] is not cached[1] or key[2] is not cached[2]:
            self._bound = self._proxy.bind()
            self._config_key = key
        return self._bound

    def __call__(self, record: Record) -> None:
        if self.console_streams and not self._is_configured():
            return  # the console prints it; structlog's default would print it again
        fields: dict[str, Any] = {"point": record.point, "id": record.id}
        # Spelled out rather than looped over: this runs once per interception.
        if record.tool is not None:
            fields["tool"] = record.tool
        if record.agent_id is not None:
            fields["agent_id"] = record.agent_id
        if record.session_key is not None:
            fields["session_key"] = record.session_key
        if record.call_id is not None:
            fields["call_id"] = record.call_id
        if record.decision is not None:
            fields["decision"] = record.decision
            fields["reason"] = record.reason
        if record.error is not None:
            fields["error"] = record.error
        if record.changes:
            fields["changes"] = record.jsonable_changes()
        if record.shadow:
            fields["shadow"] = True
        fields["duration"] = record.duration
        self._logger().log(record.level, "interception", **fields)


def format_record(record: Record) -> str | None:
    """The seed's verbose line for a record, or None if the seed shows nothing.

    Shown: a block (or ask) on tool.before, a mutated message or metadata on
    message.before, changed parameters on params.before, and any failure.
    Not shown: tool.after and layers that changed nothing.
    """
    if record.error is not None:
        return f"⚠️ {record.id} · {record.point} failed — {record.error}"
    if record.point == "tool.before" and record.decision is not None:
        verb = "blocked" if record.decision == "block" else "asks approval for"
        prefix = "👻 shadow " if record.shadow else "🛡️ "
        return f'{prefix}{record.id} · {verb} {record.tool} — "{record.reason}"'
    if record.point == "message.before" and record.changes:
        parts = []
        if "message" in record.changes:
            parts.append("message mutated")
        keys = [k.split(".", 1)[1] for k in record.changes if k.startswith("metadata.")]
        if keys:
            parts.append(f"metadata: {', '.join(keys)}")
        return f"{_shadow(record)}📨 message.before · {', '.join(parts)}"
    if record.point == "params.before" and record.changes:
        parts = [f"{PARAM_LABELS.get(field, field)} → {new}" for field, (_old, new) in record.changes.items()]
        return f"{_shadow(record)}⚙️ params.before · {', '.join(parts)}"
    return None


def _shadow(record: Record) -> str:
    # A shadow layer's change was recorded, not applied: the line must not read as if it were.
    return "👻 shadow " if record.shadow else ""

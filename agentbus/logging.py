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

    The logger is looked up per record, so ``structlog.configure()`` and
    ``structlog.testing.capture_logs()`` take effect whenever they are called.
    """

    def __init__(self, name: str = "agentbus") -> None:
        import structlog  # here, not at the top: `import agentbus` stays cheap for per-call hooks

        self._logger: Any = structlog.get_logger(name)

    def __call__(self, record: Record) -> None:
        fields = record.to_dict()
        del fields["time"], fields["level"]
        self._logger.log(record.level, "interception", **fields)


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
        return f"📨 message.before · {', '.join(parts)}"
    if record.point == "params.before" and record.changes:
        parts = [f"{PARAM_LABELS.get(field, field)} → {new}" for field, (_old, new) in record.changes.items()]
        return f"⚙️ params.before · {', '.join(parts)}"
    return None

"""The verbose stream: interception records as the seed's status lines, live.

The level is the seed's ``verboseLevel``:

- ``off``: nothing at all (no observer is added, so nothing is built);
- ``on``: exactly the seed's lines (:func:`agentbus.format_record`): a block or
  ask on tool.before, a mutated message or metadata, changed parameters, and
  any layer that failed;
- ``full``: every layer that ran, tool.after and unchanged layers included,
  with compact diffs of args, messages and results and each layer's duration,
  plus one line when each tool call (or message/params dispatch) ends.

Colours are plain ANSI SGR codes: a handful of them cover what the stream needs
(red for blocks and failures, green for new values, dim for noise), and the
plain lines must stay byte-for-byte the seed's, so rich would add a dependency
and a render pipeline without earning either. Colour is on when the stream is a
terminal, off when it is not; ``NO_COLOR`` turns it off and ``FORCE_COLOR``
turns it on (https://no-color.org, https://force-color.org), ``TERM=dumb`` off.

The same renderer serves ``agentbus tail``, which reads records back from a
JSON-lines audit log with :func:`record_from_dict`.
"""

from __future__ import annotations

import json as jsonlib
import os
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any, Literal

from .logging import PARAM_LABELS, format_record
from .records import DEBUG, DISPATCH, ERROR, INFO, WARNING, Record, RecordSource, level_number

__all__ = [
    "VERBOSE_LEVELS",
    "ConsoleStream",
    "VerboseLevel",
    "check_level",
    "color_enabled",
    "compact_pair",
    "format_duration",
    "record_from_dict",
    "render",
    "stream_to_console",
]

VerboseLevel = Literal["off", "on", "full"]
VERBOSE_LEVELS: tuple[VerboseLevel, ...] = ("off", "on", "full")

_VALUE_WIDTH = 48
"""Longest rendering of one value in a diff; longer ones are cut around the change."""

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_YELLOW = "\x1b[33m"
_CYAN = "\x1b[36m"


def check_level(level: str) -> VerboseLevel:
    """Validate a verbose level, with an error that lists the valid ones."""
    if level not in VERBOSE_LEVELS:
        raise ValueError(f"unknown verbose level {level!r}; use one of {', '.join(VERBOSE_LEVELS)}")
    return level  # type: ignore[return-value,unused-ignore]


def color_enabled(file: Any, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour output written to ``file``.

    ``NO_COLOR`` (non-empty) wins, then ``FORCE_COLOR`` (non-empty), then
    ``TERM=dumb`` turns colour off; otherwise colour is on for a terminal.
    """
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(file, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False


def record_from_dict(data: Mapping[str, Any]) -> Record:
    """Rebuild a :class:`Record` from its ``to_dict()`` form (an audit-log line).

    Raises ValueError naming the missing or malformed field.
    """
    try:
        point, id_ = data["point"], data["id"]
    except KeyError as missing:
        raise ValueError(f"not an agentbus record: no {missing.args[0]!r} field") from None
    if not isinstance(point, str) or not isinstance(id_, str):
        raise ValueError("not an agentbus record: 'point' and 'id' must be strings")
    changes = data.get("changes") or {}
    if not isinstance(changes, dict) or not all(
        isinstance(pair, list) and len(pair) == 2 for pair in changes.values()
    ):
        raise ValueError("not an agentbus record: 'changes' must map fields to [old, new]")
    try:
        level = level_number(data.get("level") or "debug")
        duration = float(data.get("duration") or 0.0)
        time = float(data["time"]) if data.get("time") is not None else 0.0
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not an agentbus record: {exc}") from None

    def text(key: str) -> str | None:
        value = data.get(key)
        return None if value is None else str(value)

    return Record(
        point=point, id=id_, level=level, tool=text("tool"), agent_id=text("agent_id"),
        session_key=text("session_key"), call_id=text("call_id"),
        changes={str(k): (v[0], v[1]) for k, v in changes.items()}, decision=text("decision"),
        reason=text("reason"), error=text("error"), duration=duration,
        shadow=bool(data.get("shadow")), time=time,
    )  # fmt: skip


# -- rendering ------------------------------------------------------------------------


def render(record: Record, level: VerboseLevel = "on", *, color: bool = False) -> str | None:
    """The line ``level`` shows for ``record``, or None if it shows nothing.

    ``on`` gives the seed's lines exactly (coloured as a whole when ``color``);
    ``full`` gives a line for every record, with diffs and durations.
    """
    if level == "on":
        if record.id == DISPATCH:
            return None
        line = format_record(record)
        if line is None or not color:
            return line
        return f"{_level_color(record)}{line}{_RESET}"
    if level == "full":
        return _render_full(record, color)
    return None


def _level_color(record: Record) -> str:
    if record.level >= ERROR:
        return _RED
    if record.level >= WARNING:
        return _YELLOW if record.decision == "ask" else _RED
    if record.level >= INFO:
        return _CYAN
    return _DIM


def _render_full(record: Record, color: bool) -> str:
    paint = _painter(color)
    if record.id == DISPATCH:
        return _render_dispatch(record, paint)
    seed_line = format_record(record)
    diff = _render_changes(record, paint)
    if seed_line is not None:
        line = paint(_level_color(record), seed_line)
        if record.point in ("message.before", "params.before"):
            line += f" · {paint(_BOLD, record.id)}"  # the seed's line names the point, not the layer
        if diff and record.point != "params.before":  # params lines already show the new values
            line += f" — {diff}"
    else:
        subject = " ".join(part for part in (record.point, record.tool) if part)
        icon = ("👻 shadow " if record.shadow else "") + _ICONS.get(record.point, "🔄")
        if diff:
            line = f"{icon} {paint(_BOLD, record.id)} · {subject} — {diff}"
        elif record.level < INFO:
            line = paint(_DIM, f"· {record.id} · {subject} unchanged")
        else:
            line = f"{icon} {paint(_BOLD, record.id)} · {subject}"
    if not record.duration:  # exactly 0: not measured (a line of the audit middleware's log)
        return line
    return f"{line} {paint(_DIM, f'({format_duration(record.duration)})')}"


_ICONS = {"tool.before": "🔧", "tool.call": "⏱️", "tool.after": "📤", "message.before": "📨"}


def _render_dispatch(record: Record, paint: Callable[[str, str], str]) -> str:
    subject = record.tool or record.point
    # A duration of exactly 0 means none was measured (an entry of the audit middleware).
    took = f" in {format_duration(record.duration)}" if record.duration else ""
    if record.error is not None:
        return paint(_RED, f"❌ {subject} · failed{took} — {record.error}")
    if record.decision == "ask":
        return paint(_YELLOW, f'❓ {subject} · needs approval — "{record.reason}"')
    if record.decision is not None:
        return paint(_RED, f'⛔ {subject} · blocked{took} — "{record.reason}"')
    verb = {"tool.before": "allowed", "tool.after": "finished"}.get(record.point, "done")
    return paint(_DIM, f"✅ {subject} · {verb}{took}")


def _painter(color: bool) -> Callable[[str, str], str]:
    if color:
        return lambda code, text: f"{code}{text}{_RESET}"
    return lambda code, text: text


def _render_changes(record: Record, paint: Callable[[str, str], str]) -> str:
    parts = []
    for field, (old, new) in record.changes.items():
        if field == "decision":
            continue  # the line says it already
        if isinstance(old, dict) and isinstance(new, dict):
            parts += [_render_pair(f"{field}.{key}", a, b, paint) for key, (a, b) in _dict_changes(old, new)]
        else:
            parts.append(_render_pair(PARAM_LABELS.get(field, field), old, new, paint))
    return ", ".join(parts)


def _dict_changes(old: dict[Any, Any], new: dict[Any, Any]) -> list[tuple[Any, tuple[Any, Any]]]:
    keys = list(old) + [key for key in new if key not in old]
    return [(key, (old.get(key), new.get(key))) for key in keys if old.get(key) != new.get(key)]


def _render_pair(field: str, old: Any, new: Any, paint: Callable[[str, str], str]) -> str:
    was, now = compact_pair(old, new)
    return f"{field}: {paint(_RED, was)} → {paint(_GREEN, now)}"


def compact_pair(old: Any, new: Any, width: int = _VALUE_WIDTH) -> tuple[str, str]:
    """Short renderings of two values that show where they differ.

    Values are shown as JSON (``∅`` for None); two long strings are cut to the
    part around the first difference, so a redacted secret stays visible.
    """
    if isinstance(old, str) and isinstance(new, str) and max(len(old), len(new)) > width:
        start = 0
        while start < min(len(old), len(new)) and old[start] == new[start]:
            start += 1
        start = max(0, start - 8)
        return _cut(old, start, width), _cut(new, start, width)
    return _cut_value(old, width), _cut_value(new, width)


def _cut(text: str, start: int, width: int) -> str:
    piece = text[start : start + width]
    head = "…" if start > 0 else ""
    tail = "…" if start + width < len(text) else ""
    return jsonlib.dumps(head + piece + tail, ensure_ascii=False)


def _cut_value(value: Any, width: int) -> str:
    if value is None:
        return "∅"
    text = jsonlib.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= width else text[: width - 1] + "…"


def format_duration(seconds: float) -> str:
    """``42 µs``, ``12.3 ms``, ``1.25 s``."""
    if seconds < 0.001:
        return f"{seconds * 1_000_000:.0f} µs"
    if seconds < 1.0:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


# -- the observer ---------------------------------------------------------------------


class ConsoleStream:
    """An observer that writes each record's line (or JSON) to a text stream.

    It is added at the lowest record level its verbose level shows (INFO for
    ``on``, DEBUG plus the dispatch records for ``full``), so the bus builds
    nothing else for it; records it does not show are dropped before any
    formatting. Write errors (a closed pipe) are the observer's failures: the
    bus counts them and goes on.
    """

    def __init__(
        self,
        level: str = "on",
        *,
        file: IO[str] | None = None,
        json: bool = False,
        color: bool | None = None,
    ) -> None:
        self.level = check_level(level)
        self.file: IO[str] = file if file is not None else sys.stderr
        self.json = json
        self.color = (not json and color_enabled(self.file)) if color is None else color

    @property
    def record_level(self) -> int:
        """The lowest record level this stream shows."""
        return DEBUG if self.level == "full" else INFO

    @property
    def wants_dispatches(self) -> bool:
        return self.level == "full"

    def line(self, record: Record) -> str | None:
        """What this stream writes for ``record`` (without the newline), or None."""
        if self.json:
            if self.level == "on" and (record.id == DISPATCH or format_record(record) is None):
                return None
            return jsonlib.dumps(record.to_dict(), ensure_ascii=False)
        return render(record, self.level, color=self.color)

    def __call__(self, record: Record) -> None:
        line = self.line(record)
        if line is not None:
            self.file.write(line + "\n")
            self.file.flush()


def stream_to_console(
    bus: RecordSource,
    level: str = "on",
    *,
    file: IO[str] | None = None,
    json: bool = False,
    color: bool | None = None,
) -> Callable[[], None]:
    """Stream ``bus``'s interceptions to ``file`` (stderr); return an undo function.

    ``level="off"`` adds nothing. See :meth:`agentbus.Bus.stream_to_console`.
    """
    stream = ConsoleStream(check_level(level), file=file, json=json, color=color)
    if stream.level == "off":
        return lambda: None
    return bus.on_event(stream, level=stream.record_level, dispatches=stream.wants_dispatches)

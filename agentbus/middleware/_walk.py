"""Applying a text transformation to every string inside a tool result.

Tool results are rarely plain strings: MCP returns ``{"content": [{"type":
"text", "text": ...}]}``, shells return ``{"stdout": ..., "stderr": ...}``.
Redaction and ANSI stripping must reach every string in them, and must not
copy a large result that holds nothing to change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["map_strings"]

MAX_DEPTH = 64
"""Deeper structures are left as they are (and a cycle cannot recurse forever)."""


def map_strings(value: Any, transform: Callable[[str], str], _depth: int = 0) -> Any:
    """Return ``value`` with ``transform`` applied to every string in it.

    Walks dict values, lists and tuples; dict keys and other objects are kept.
    A container is copied only if something inside it changed, so the result
    is ``value`` itself (the same object) when there was nothing to change.
    """
    if isinstance(value, str):
        new_text = transform(value)
        return value if new_text == value else new_text
    if _depth >= MAX_DEPTH:
        return value
    if isinstance(value, dict):
        changed: dict[Any, Any] | None = None
        for key, item in value.items():
            new = map_strings(item, transform, _depth + 1)
            if new is not item:
                if changed is None:
                    changed = dict(value)
                changed[key] = new
        return value if changed is None else changed
    if isinstance(value, (list, tuple)):
        items = [map_strings(item, transform, _depth + 1) for item in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        if isinstance(value, list):
            return items
        if hasattr(value, "_fields"):  # a named tuple
            return type(value)(*items)
        return tuple(items)
    return value

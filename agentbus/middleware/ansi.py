"""Stripping ANSI escape sequences from tool results (seed 000's "Transform tool results").

Colour codes, cursor movement and terminal titles cost the model tokens and
confuse it (``\\x1b[31merror\\x1b[0m`` is not the word "error"). The seed's
regex removes only colour (SGR) sequences; this one follows ECMA-48 and removes
every control sequence a terminal program emits: CSI (colour, cursor, erase),
OSC (window titles, hyperlinks; ended by BEL or ST), DCS/PM/APC strings, and
the two-byte escapes (``ESC 7``, ``ESC (B``). The visible text is kept,
including the text of a hyperlink; no ESC survives, even of a sequence cut
short by truncated output.
"""

from __future__ import annotations

import re
from typing import Any

from ..events import ToolResult
from ..registry import Matcher, Registry
from ._walk import map_strings

__all__ = ["ANSI_PATTERN", "AnsiStripper", "install", "strip_ansi"]

ANSI_PATTERN = re.compile(
    r"""
      \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?       # OSC ... BEL or ST (title, hyperlink)
    | \x1b[P^_X][^\x1b]*(?:\x1b\\)?          # DCS, PM, APC, SOS ... ST
    | (?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]       # CSI: parameters, intermediates, final byte
    | \x1b[ -/]*[0-~]                        # two-byte and nF escapes: ESC 7, ESC ( B, ESC =
    | [\x1b\x9b]                              # a sequence cut short: never leave a bare ESC
    """,
    re.VERBOSE,
)
"""Every ECMA-48 escape sequence (7-bit, and 8-bit CSI)."""


def strip_ansi(text: str) -> str:
    """``text`` without ANSI escape sequences."""
    if "\x1b" not in text and "\x9b" not in text:
        return text
    return ANSI_PATTERN.sub("", text)


class AnsiStripper:
    """A tool.after handler that strips escape sequences from every string in the result."""

    def __call__(self, event: ToolResult) -> None:
        result = event.result
        if isinstance(result, str):
            if "\x1b" in result or "\x9b" in result:
                event.result = ANSI_PATTERN.sub("", result)
            return
        if isinstance(result, (dict, list, tuple)):
            stripped: Any = map_strings(result, strip_ansi)
            if stripped is not result:
                event.result = stripped


def install(
    registry: Registry,
    *,
    id: str = "clean:strip-ansi",
    priority: int = 0,
    tool: Matcher = None,
) -> None:
    """Strip ANSI escape sequences from every tool result (or those of ``tool``)."""
    # record_values=False: this layer runs before redaction, so the old result it would
    # record may still hold a secret; its records name the field, not the values.
    registry.add("tool.after", AnsiStripper(), id=id, priority=priority, tool=tool, record_values=False)

"""Canonical tool names, tool groups and name normalisation.

Agent runtimes spell the same tool differently (``bash``, ``Bash``,
``apply-patch``). Matchers are written against one canonical spelling, so every
tool name is normalised on its way into the bus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import describe_error

__all__ = [
    "KNOWN_TOOL_NAMES",
    "MAX_NAME_LENGTH",
    "TOOL_ALIASES",
    "TOOL_GROUPS",
    "blocked_result",
    "error_result",
    "expand_tool_names",
    "normalize_tool_name",
]

TOOL_GROUPS: Mapping[str, frozenset[str]] = {
    "group:fs": frozenset({"read", "write", "edit", "apply_patch"}),
    "group:runtime": frozenset({"exec", "process"}),
    "group:memory": frozenset({"memory_search", "memory_get"}),
    "group:web": frozenset({"web_search", "web_fetch"}),
    "group:sessions": frozenset(
        {"sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "session_status"}
    ),
    "group:ui": frozenset({"browser", "canvas"}),
    "group:automation": frozenset({"cron", "gateway"}),
    "group:messaging": frozenset({"message"}),
    "group:nodes": frozenset({"nodes"}),
}
"""Named groups of canonical tool names, usable as matchers (``tool="group:fs"``)."""

KNOWN_TOOL_NAMES: frozenset[str] = frozenset().union(*TOOL_GROUPS.values(), {"agents_list", "image", "tts"})
"""The canonical tool names of seed 000. Matchers are validated against them."""

TOOL_ALIASES: Mapping[str, str] = {
    "bash": "exec",
    "shell": "exec",
    "apply-patch": "apply_patch",
    # Claude Code's multi-edit tools edit files: the same guards apply to them.
    "multiedit": "edit",
    "notebookedit": "edit",
}
"""Spellings that name a canonical tool (after lower-casing)."""

MAX_NAME_LENGTH = 256
"""The longest tool name (and agent id matched by a regex) agentbus accepts.

Model APIs allow 64 or 128 characters; the bound keeps matchers fast on names a
model made up, and keeps the normalisation cache small."""

_normalized: dict[str, str] = {}
_NORMALIZED_CACHE_LIMIT = 4096


def normalize_tool_name(name: str) -> str:
    """Return the canonical spelling of a tool name: ``"Bash"`` -> ``"exec"``.

    Names are stripped and lower-cased, and known aliases are resolved; any
    other name (a plugin tool, ``mcp__server__tool``) is kept as it is,
    lower-cased. The result is cached, since the same few names recur on
    every call. A name longer than MAX_NAME_LENGTH is refused (ValueError):
    no tool has such a name, and matchers only promise to be fast on names
    up to that length.
    """
    try:
        return _normalized[name]
    except KeyError:
        pass
    if not isinstance(name, str):
        raise TypeError(f"a tool name must be a string, got {type(name).__name__}")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(
            f"a tool name is at most {MAX_NAME_LENGTH} characters, got {len(name)}: {name[:40]!r}..."
        )
    lowered = name.strip().lower()
    if not lowered:
        raise ValueError("a tool name must not be empty")
    canonical = TOOL_ALIASES.get(lowered, lowered)
    if len(_normalized) < _NORMALIZED_CACHE_LIMIT:
        _normalized[name] = canonical
    return canonical


def expand_tool_names(names: Iterable[str]) -> frozenset[str]:
    """Expand group names (``group:fs``) and normalise the rest."""
    expanded: set[str] = set()
    for name in names:
        group = TOOL_GROUPS.get(name)
        if group is not None:
            expanded |= group
        elif name.startswith("group:"):
            raise KeyError(name)
        else:
            expanded.add(normalize_tool_name(name))
    return frozenset(expanded)


def blocked_result(tool: str, reason: str) -> dict[str, str]:
    """The result an agent receives for a blocked call (seed 000)."""
    return {"status": "blocked", "tool": tool, "reason": reason}


def error_result(tool: str, error: BaseException | str) -> dict[str, str]:
    """The result an agent receives when the tool raised (seed 004)."""
    message = describe_error(error) if isinstance(error, BaseException) else error
    return {"status": "error", "tool": tool, "error": message}

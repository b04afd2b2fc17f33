"""Keeping ``.venv``, ``node_modules`` and friends out of glob results (seed 002).

Claude Code's Glob tool does not respect ``.gitignore``: ``**/*.py`` returns
thousands of files under ``.venv/`` and wastes the agent's context. Glob has no
exclusion parameter to inject, so seed 002 weighs four strategies and
recommends *advisory context*: tell the agent which directories are noise.
:class:`GlobExclude` does that on tool.before (a note in ``call.notes``, which
adapters pass on as Claude Code's ``additionalContext``), and, where the
runtime lets tool.after change the result, it can also drop the excluded
paths from the result: a list of paths, or an object with a ``filenames``
list (Claude Code's Glob and Grep results), whose counts are kept in step.

A call that targets an excluded directory on purpose (``path=".venv/lib"``,
``pattern="node_modules/**/*.d.ts"``) gets neither: the agent asked for it.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..events import ToolCall, ToolResult
from ..registry import Registry
from ..tools import normalize_tool_name

__all__ = ["DEFAULT_EXCLUDED", "GlobExclude", "install"]

DEFAULT_EXCLUDED: tuple[str, ...] = (".venv", "node_modules", "__pycache__", ".git", "*.egg-info")
"""Seed 002's example configuration: directory names or fnmatch patterns."""

_SEPARATOR = re.compile(r"[\\/]+")


class GlobExclude:
    """Advise the agent to ignore excluded directories; optionally filter them out.

    ``patterns`` are directory names or fnmatch patterns matched against each
    path component (``*.egg-info``). ``filter_results`` drops matching paths
    from list results in tool.after.
    """

    def __init__(self, patterns: Iterable[str] = DEFAULT_EXCLUDED, *, filter_results: bool = False) -> None:
        self.patterns = tuple(patterns)
        self.filter_results = filter_results
        # One regex for all patterns; with no pattern nothing is excluded.
        combined = "|".join(fnmatch.translate(p) for p in self.patterns) or r"(?!)"
        self._match = re.compile(combined).match

    def excluded(self, path: str) -> bool:
        """Whether any directory in ``path`` matches an excluded pattern."""
        *directories, _name = _SEPARATOR.split(path)
        return any(self._match(part) for part in directories if part)

    def targeted(self, args: Mapping[str, Any]) -> bool:
        """Whether the search root or a literal part of the pattern names an excluded directory."""
        for key in ("path", "pattern"):
            value = args.get(key)
            if isinstance(value, str) and any(
                self._match(part) for part in _SEPARATOR.split(value) if part and "*" not in part
            ):
                return True
        return False

    def advise(self, call: ToolCall) -> None:
        """tool.before: add a note naming the excluded directories."""
        if not self.patterns or self.targeted(call.args):
            return
        call.notes.append(
            f"{call.tool}: ignore results under {', '.join(self.patterns)}; these directories hold "
            f"dependencies and generated files, not project code (glob cannot exclude them itself)"
        )

    def filter(self, event: ToolResult) -> None:
        """tool.after: drop excluded paths from a list of paths or a ``filenames`` list."""
        result = event.result
        if not self.filter_results or event.is_error or not self.patterns:
            return
        paths = result.get("filenames") if isinstance(result, dict) else result
        if not isinstance(paths, list) or not all(isinstance(item, str) for item in paths):
            return
        if self.targeted(event.args):
            return
        kept: list[Any] = [path for path in paths if not self.excluded(path)]
        if len(kept) == len(paths):
            return
        if isinstance(result, dict):
            event.result = _with_filenames(result, kept, dropped=len(paths) - len(kept))
        else:
            event.result = kept


def _with_filenames(result: dict[str, Any], kept: list[Any], *, dropped: int) -> dict[str, Any]:
    """A copy of a Glob/Grep result object with only ``kept`` and its counts adjusted."""
    filtered = {**result, "filenames": kept}
    if isinstance(result.get("numFiles"), int):
        filtered["numFiles"] = len(kept)
    total = result.get("totalMatches")
    if isinstance(total, int):
        filtered["totalMatches"] = max(total - dropped, len(kept))
    return filtered


def install(
    registry: Registry,
    *,
    patterns: Iterable[str] = DEFAULT_EXCLUDED,
    filter_results: bool = False,
    tool: str | Iterable[str] = "glob",
    priority: int = 10,
) -> None:
    """Advise (and optionally filter) glob calls: ``glob-exclude:advise`` / ``glob-exclude:filter``.

    ``tool`` names the tools to cover (Claude Code's ``Glob`` is ``glob`` once
    normalised); they are declared on the registry as plugin tools. This is
    seed 002's ``exclude_directories`` transformer (the entry-point name), so
    its YAML configures it as it stands.
    """
    names = [normalize_tool_name(name) for name in ([tool] if isinstance(tool, str) else tool)]
    registry.declare_tools(*names)
    layer = GlobExclude(patterns, filter_results=filter_results)
    registry.add("tool.before", layer.advise, id="glob-exclude:advise", priority=priority, tool=names)
    if filter_results:
        registry.add("tool.after", layer.filter, id="glob-exclude:filter", priority=priority, tool=names)

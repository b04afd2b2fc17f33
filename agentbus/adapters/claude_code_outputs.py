"""Tool outputs in the shapes Claude Code accepts back from a PostToolUse hook.

A PostToolUse hook may replace what the model reads with ``updatedToolOutput``,
but Claude Code checks it against the tool's own output schema and ignores
(with a line in its debug log) anything of another shape: Bash's output is an
object (``stdout``, ``stderr``, ``interrupted``), Read's is ``{"type": "text",
"file": {...}}``, Glob's and Grep's hold ``filenames``. MCP tools take any JSON
as ``updatedMCPToolOutput``. The shapes were read from the real CLI (2.1.332):
each ``tool_response`` a hook receives has the shape its replacement must have.

Two things are built here: a layer's replacement in the original's shape
(:func:`replacement`), and an output that carries only a message, for a result
a layer blocked (:func:`withheld`), so that the model never reads the original.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["replacement", "withheld"]


def replacement(original: Any, result: Any) -> Any:
    """``result`` as ``updatedToolOutput``: as it is when it keeps the original's
    shape (a layer redacted strings inside it), else as text in the original's shape."""
    if type(result) is type(original) and (not isinstance(result, dict) or result.keys() == original.keys()):
        return result
    return withheld(original, result if isinstance(result, str) else _text(result))


def withheld(original: Any, message: str) -> Any:
    """An output of ``original``'s shape whose only content is ``message``.

    Known shapes (Bash, Read, Glob, Grep, WebFetch) get their fields; any other
    object keeps its keys, with every string emptied except the first text-like
    field, which gets the message, and every list emptied; a string becomes the
    message. Claude Code ignores a replacement of the wrong shape, so for a tool
    whose output is none of these the block's reason is the only safeguard.
    """
    if not isinstance(original, Mapping):
        return [] if isinstance(original, list) and not original else message
    if "stdout" in original:  # Bash, BashOutput
        return {"stdout": message, "stderr": "", "interrupted": False, "isImage": False}
    if original.get("type") in ("text", "image", "notebook", "pdf") and isinstance(
        original.get("file"), Mapping
    ):
        lines = message.count("\n") + 1
        path = str(original["file"].get("filePath", ""))
        file = {"filePath": path, "content": message, "numLines": lines, "startLine": 1, "totalLines": lines}
        return {"type": "text", "file": file}
    if "filenames" in original:  # Glob, Grep
        emptied: dict[str, Any] = {"filenames": [], "numFiles": 0}
        for key in ("durationMs", "truncated", "mode"):
            if key in original:
                emptied[key] = original[key] if key != "truncated" else False
        if "content" in original:
            emptied["content"] = message
            emptied["numLines"] = message.count("\n") + 1
        return emptied
    return _hollow(original, message)


def _hollow(original: Mapping[str, Any], message: str) -> dict[str, Any]:
    text_keys = ("result", "content", "output", "text", "stdout", "message")
    target = next((key for key in text_keys if isinstance(original.get(key), str)), None)
    hollowed: dict[str, Any] = {}
    for key, value in original.items():
        if key == target:
            hollowed[key] = message
        elif isinstance(value, str):
            hollowed[key] = value if key in ("type", "mode", "status", "url", "filePath") else ""
        elif isinstance(value, (list, Mapping)):
            hollowed[key] = [] if isinstance(value, list) else {}
        else:
            hollowed[key] = value
    return hollowed


def _text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, default=repr)

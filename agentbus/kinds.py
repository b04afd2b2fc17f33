"""Tool kinds: what a tool does, whatever it is called.

Agents name their shell tool ``exec``, ``run_shell``, ``terminal`` or
``execute_bash``. The built-in guards and ``group:`` matchers are written
against a few kinds (``exec``, ``read``, ``write``, ``edit``, ``search``,
``fetch``); a tool gets its kind in one of three ways, strongest first:

1. declared by the user: ``registry.declare_tools({"run_shell": "exec"})``, an
   adapter's ``tool_kinds=`` option, ``@tool(bus, kind="exec")``;
2. its canonical name: ``exec``, ``read``, ``grep`` ... are their own kind;
3. inferred from its JSON schema, only where that is unambiguous: a free-text
   ``command``/``cmd`` argument is a shell command, a file path with
   ``content`` is a write, with ``old_str``/``new_str`` an edit, a path alone
   under a reading name (``read_file``, ``view``) a read.

A tool whose name or arguments look like a shell or file tool but whose kind
cannot be told gets one :class:`ToolKindWarning` when an adapter binds it, so
that no such tool goes unguarded silently. Kinds only ever add matches: a tool
is matched by its name and by its kind, so a kind cannot hide a tool from a
matcher that names it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

__all__ = [
    "COMMAND_KEYS",
    "GROUP_KINDS",
    "NAME_KINDS",
    "PATH_KEYS",
    "READABLE_KEYS",
    "TOOL_KINDS",
    "Inference",
    "ToolKindWarning",
    "guard_readable",
    "infer_kind",
    "name_words",
]

TOOL_KINDS: Mapping[str, str] = {
    "exec": "runs a shell command",
    "read": "reads a file",
    "write": "writes, creates, moves or deletes a file",
    "edit": "edits a file in place",
    "search": "searches file names or contents",
    "fetch": "fetches a URL",
}
"""The kinds a tool can have, with what each means."""

NAME_KINDS: Mapping[str, str] = {
    "exec": "exec",
    "read": "read",
    "notebookread": "read",
    "write": "write",
    "edit": "edit",
    "apply_patch": "edit",
    "grep": "search",
    "glob": "search",
    "find": "search",
    "ls": "search",
    "list_dir": "search",
    "list_files": "search",
    "search_files": "search",
    "file_search": "search",
    "web_fetch": "fetch",
}
"""The kind of a canonical tool name (after :func:`agentbus.tools.normalize_tool_name`)."""

GROUP_KINDS: Mapping[str, frozenset[str]] = {
    "group:fs": frozenset({"read", "write", "edit"}),
    "group:runtime": frozenset({"exec"}),
    "group:web": frozenset({"fetch"}),
}
"""The kinds each tool group matches besides its names: ``group:web`` matches a ``fetch`` tool."""

COMMAND_KEYS = ("command", "cmd")
"""Arguments that carry a shell command (the command guard reads these, and ``script``)."""
PATH_KEYS = ("path", "file_path", "filePath", "notebook_path", "target_file", "filename")
"""Arguments that carry a file path (the path guards read these, spelled so)."""
READABLE_KEYS: Mapping[str, tuple[str, ...]] = {
    "exec": (*COMMAND_KEYS, "script"),
    "read": (*PATH_KEYS, "paths"),
    "write": (*PATH_KEYS, "paths", "source", "destination", "patch", "input", "diff"),
    "edit": (*PATH_KEYS, "paths", "patch", "input", "diff"),
}
"""Per kind, the arguments a built-in guard reads: a tool of that kind needs one of them to be judged."""
_CONTENT_KEYS = ("content", "contents", "file_text", "text", "data", "new_content")
_EDIT_KEYS = (("old_str", "new_str"), ("old_string", "new_string"), ("old_text", "new_text"))
_URL_KEYS = ("url", "uri", "href")
_SEARCH_KEYS = ("pattern", "glob", "query", "regex", "include")

# Words in a tool's name that say what it does (the name split at "_", "-", "." and case changes).
_EXEC_WORDS = frozenset({"shell", "bash", "sh", "zsh", "exec", "execute", "terminal", "cmd", "command",
                         "powershell", "subprocess", "console"})  # fmt: skip
_READ_WORDS = frozenset({"read", "view", "cat", "open", "load", "show"})
_WRITE_WORDS = frozenset({"write", "create", "save", "delete", "remove", "rm", "move", "rename", "mkdir",
                          "append", "put", "upload", "overwrite"})  # fmt: skip
_EDIT_WORDS = frozenset({"edit", "editor", "replace", "patch", "modify", "update", "insert"})
_FILE_WORDS = frozenset({"file", "files", "fs", "path", "dir", "directory", "folder", "notebook"})
_SEARCH_WORDS = frozenset({"grep", "glob", "search", "find", "ls", "list", "ripgrep", "rg"})
_FETCH_WORDS = frozenset({"fetch", "download", "http", "curl", "wget", "browse", "url", "request", "scrape"})

_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


class ToolKindWarning(UserWarning):
    """A bound tool may escape the guards meant for it.

    It looks like a shell or file tool but its kind cannot be told; or it has a
    kind but none of the arguments that kind's guards read; or two tools of one
    name have different kinds.
    """


@attrs.frozen
class Inference:
    """What a tool's name and schema say: its kind (or None), and why.

    ``suspect`` is set when the tool looks like a shell or file tool (its name
    or its arguments say so) but no kind could be told unambiguously: the
    adapter warns about it.
    """

    kind: str | None
    reason: str
    suspect: str | None = None


def name_words(name: str) -> frozenset[str]:
    """The words of a tool name: ``"executeBash"`` -> ``{"execute", "bash"}``."""
    return frozenset(word.lower() for word in _WORD.findall(name))


def _properties(schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """The top-level properties of a JSON schema (names as spelled: the guards read them so)."""
    if not isinstance(schema, Mapping):
        return {}
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return {}
    return {str(key): value for key, value in properties.items()}


def guard_readable(kind: str, schema: Mapping[str, Any] | None) -> bool:
    """Whether a built-in guard of ``kind`` finds what it judges among the schema's arguments.

    True when there is nothing to check: no schema, or a kind no built-in guard reads.
    """
    keys = READABLE_KEYS.get(kind)
    if keys is None or schema is None:
        return True
    properties = _properties(schema)
    return any(key in properties for key in keys)


def _is_free_text(spec: Any) -> bool:
    """A string (or list of strings) argument without an ``enum``/``const``: text the model writes."""
    if not isinstance(spec, Mapping):
        return True  # an untyped argument can carry anything
    if "enum" in spec or "const" in spec:
        return False
    declared = spec.get("type")
    if declared is None:
        options = spec.get("anyOf") or spec.get("oneOf")
        if isinstance(options, list):
            return any(_is_free_text(option) for option in options if option != {"type": "null"})
        return True
    types = declared if isinstance(declared, list) else [declared]
    if "string" in types:
        return True
    return "array" in types and _is_free_text(spec.get("items"))


def infer_kind(name: str, schema: Mapping[str, Any] | None = None) -> Inference:
    """Tell a tool's kind from its name and JSON schema, only where that is unambiguous.

    >>> infer_kind("run_shell", {"properties": {"command": {"type": "string"}}}).kind
    'exec'
    >>> infer_kind("write_to_file", {"properties": {"path": {}, "content": {}}}).kind
    'write'
    """
    words = name_words(name)
    if schema is None:
        return _infer_from_name(name, words)
    properties = _properties(schema)
    command = next(
        (key for key in COMMAND_KEYS if key in properties and _is_free_text(properties[key])), None
    )
    path = next((key for key in PATH_KEYS if key in properties), None)
    exec_name = bool(words & _EXEC_WORDS)
    file_name = bool(words & _FILE_WORDS)
    file_kinds: list[str] = []
    if path is not None:
        if any(old in properties and new in properties for old, new in _EDIT_KEYS):
            file_kinds.append("edit")
        elif any(key in properties for key in _CONTENT_KEYS):
            file_kinds.append("write")
        elif words & _EDIT_WORDS:
            file_kinds.append("edit")
        elif words & _WRITE_WORDS:
            file_kinds.append("write")
        elif words & _READ_WORDS:
            file_kinds.append("read")
    if command is not None and file_kinds:
        return Inference(
            None,
            f"its arguments carry both a command ({command!r}) and a file path ({path!r})",
            suspect="a shell or file tool",
        )
    if command is not None:
        return Inference("exec", f"its {command!r} argument is free text (a shell command)")
    if file_kinds:
        return Inference(file_kinds[0], f"its {path!r} argument under the name {name!r}")
    if exec_name:
        return Inference(
            None,
            f"its name says shell, but no argument is named {' or '.join(map(repr, COMMAND_KEYS))}",
            suspect="a shell tool",
        )
    if path is not None and words & _SEARCH_WORDS and any(key in properties for key in _SEARCH_KEYS):
        return Inference("search", f"its {path!r} argument under the name {name!r}")
    if words & _SEARCH_WORDS and words & _FILE_WORDS:
        return Inference(None, "its name says it searches files", suspect="a file search tool")
    if path is not None or file_name:
        what = f"its {path!r} argument" if path is not None else f"its name {name!r}"
        return Inference(
            None, f"{what} says files, but not whether it reads or writes", suspect="a file tool"
        )
    url = next((key for key in _URL_KEYS if key in properties and _is_free_text(properties[key])), None)
    if url is not None and words & _FETCH_WORDS:
        return Inference("fetch", f"its {url!r} argument under the name {name!r}")
    return Inference(None, "nothing in its name or arguments says shell, files or the web")


def _infer_from_name(name: str, words: frozenset[str]) -> Inference:
    """Without a schema (an adapter that cannot see the arguments, a list of names), the name decides."""
    because = f"its name {name!r} (no schema)"
    if words & _EXEC_WORDS:
        return Inference("exec", because)
    if words & _FILE_WORDS:
        for kind, verbs in (("edit", _EDIT_WORDS), ("write", _WRITE_WORDS), ("read", _READ_WORDS)):
            if words & verbs:
                return Inference(kind, because)
        if words & _SEARCH_WORDS:
            return Inference("search", because)
        return Inference(
            None, f"{because} says files, but not whether it reads or writes", suspect="a file tool"
        )
    if words & _FETCH_WORDS:
        return Inference("fetch", because)
    return Inference(None, "nothing in its name says shell, files or the web")

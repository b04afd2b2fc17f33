"""Which tools each built-in guard judges: its id and its tool matcher, without the guard.

A hook process answers one tool call. It registers every built-in guard from
these (see :mod:`agentbus.middleware.builtin`), and imports a guard's module
only when a call that guard judges comes: a ``Read`` does not load the shell
parser and the tactic tables that only ``exec`` commands need.
"""

from __future__ import annotations

import re

__all__ = [
    "COMMAND_SAFETY_GUARD_ID",
    "EXEC_TOOL",
    "FILE_TOOLS",
    "SEARCH_PATH_GUARD_ID",
    "SEARCH_TOOLS",
    "SEARCH_TOOL_NAMES",
    "SECURITY_AUDIT_ID",
    "SHELL_FILE_GUARD_ID",
]

COMMAND_SAFETY_GUARD_ID = "builtin:command-safety-guard"
SECURITY_AUDIT_ID = "builtin:security-audit"
SHELL_FILE_GUARD_ID = "builtin:shell-file-guard"
SEARCH_PATH_GUARD_ID = "builtin:search-path-guard"

EXEC_TOOL = r"^exec$"
"""The shell tool (every spelling of it is normalised to ``exec``)."""

_MCP_FILE_TOOLS = (
    "read_file|read_text_file|read_media_file|read_multiple_files|write_file|edit_file|move_file|"
    "create_directory"
)
FILE_TOOLS = re.compile(
    rf"^(?:read|write|edit|apply_patch|multiedit|notebookedit|notebookread)$|^mcp__.+__(?:{_MCP_FILE_TOOLS})$"
)
"""The tools the security audit judges (normalised names; MCP tools by suffix)."""

SEARCH_TOOL_NAMES = ("grep", "glob", "find", "ls", "list_dir", "list_files", "search_files", "file_search")
"""Search tool names outside agentbus.tools; the guard declares them on install."""
SEARCH_TOOLS = re.compile(
    rf"^(?:search|{'|'.join(SEARCH_TOOL_NAMES)})$"
    r"|^mcp__.+__(?:search_files|list_directory(?:_with_sizes)?|directory_tree|get_file_info|grep|glob|find)$"
)
"""The tools the search-path guard judges."""

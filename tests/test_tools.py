"""Canonical tool names, groups, normalisation and the results an agent receives."""

from __future__ import annotations

import pytest

import agentbus
from agentbus.tools import blocked_result, error_result, expand_tool_names, normalize_tool_name

SEED_000_GROUPS = {
    "group:fs": {"read", "write", "edit", "apply_patch"},
    "group:runtime": {"exec", "process"},
    "group:memory": {"memory_search", "memory_get"},
    "group:web": {"web_search", "web_fetch"},
    "group:sessions": {
        "sessions_list",
        "sessions_history",
        "sessions_send",
        "sessions_spawn",
        "session_status",
    },
    "group:ui": {"browser", "canvas"},
    "group:automation": {"cron", "gateway"},
    "group:messaging": {"message"},
    "group:nodes": {"nodes"},
}


def test_groups_and_known_names_are_those_of_seed_000() -> None:
    assert {k: set(v) for k, v in agentbus.TOOL_GROUPS.items()} == SEED_000_GROUPS
    expected = set().union(*SEED_000_GROUPS.values(), {"agents_list", "image", "tts"})
    assert set(agentbus.KNOWN_TOOL_NAMES) == expected


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("bash", "exec"),
        ("Bash", "exec"),
        (" shell ", "exec"),
        ("apply-patch", "apply_patch"),
        ("Apply-Patch", "apply_patch"),
        ("exec", "exec"),
        ("Read", "read"),
        ("mcp__GitHub__create_issue", "mcp__github__create_issue"),
    ],
)
def test_normalisation(name: str, canonical: str) -> None:
    assert normalize_tool_name(name) == canonical
    assert normalize_tool_name(name) == canonical  # the cached answer is the same


def test_non_string_tool_name_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="a tool name must be a string, got int"):
        normalize_tool_name(3)  # type: ignore[arg-type]


def test_expand_tool_names_expands_groups_and_normalises() -> None:
    assert expand_tool_names(["group:runtime", "Bash", "apply-patch"]) == {"exec", "process", "apply_patch"}
    with pytest.raises(KeyError):
        expand_tool_names(["group:nope"])


def test_blocked_result_is_the_seed_shape() -> None:
    assert blocked_result("exec", "no") == {"status": "blocked", "tool": "exec", "reason": "no"}


def test_error_result_names_the_exception() -> None:
    assert error_result("read", FileNotFoundError("x.txt")) == {
        "status": "error",
        "tool": "read",
        "error": "FileNotFoundError: x.txt",
    }
    assert error_result("read", TimeoutError())["error"] == "TimeoutError"
    assert error_result("read", "plain text")["error"] == "plain text"


def test_claude_codes_multi_edit_tools_are_edits() -> None:
    assert normalize_tool_name("MultiEdit") == "edit"
    assert normalize_tool_name("NotebookEdit") == "edit"


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_tool_name_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="must not be empty"):
        normalize_tool_name(name)

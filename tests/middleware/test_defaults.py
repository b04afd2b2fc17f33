"""Default-argument injection, through a real bus."""

from __future__ import annotations

from typing import Any

import pytest

import agentbus
from agentbus.middleware import defaults
from agentbus.middleware.defaults import default_args, no_color

pytestmark = pytest.mark.anyio


async def echo(args: dict[str, Any]) -> dict[str, Any]:
    return args


async def test_missing_arguments_get_their_defaults_and_explicit_ones_are_kept() -> None:
    bus = agentbus.Bus(log_level=None)
    defaults.install(bus.registry, tools={"web_search": {"count": 5, "safe": True}})
    assert await bus.call_tool("web_search", {"query": "x", "count": 20}, echo) == {
        "query": "x",
        "count": 20,
        "safe": True,
    }


async def test_a_null_argument_counts_as_left_out_unless_fill_none_is_off() -> None:
    bus = agentbus.Bus(log_level=None)
    defaults.install(bus.registry, tools={"web_search": {"count": 5}})
    assert await bus.call_tool("web_search", {"count": None}, echo) == {"count": 5}
    strict = agentbus.Bus(log_level=None)
    defaults.install(strict.registry, tools={"web_search": {"count": 5}}, fill_none=False)
    assert await strict.call_tool("web_search", {"count": None}, echo) == {"count": None}


async def test_a_mutable_default_is_not_shared_between_calls() -> None:
    bus = agentbus.Bus(log_level=None)
    bus.intercept("tool.before", default_args(tags=[]), tool="web_fetch")
    first = await bus.call_tool("web_fetch", {}, echo)
    first["tags"].append("changed")
    assert (await bus.call_tool("web_fetch", {}, echo))["tags"] == []


async def test_plugin_tools_given_as_tool_and_args_are_declared_and_covered() -> None:
    bus = agentbus.Bus(log_level=None)
    defaults.install(bus.registry, tool="mcp__search__query", args={"limit": 10})
    assert await bus.call_tool("mcp__search__query", {}, echo) == {"limit": 10}
    assert await bus.call_tool("web_search", {}, echo) == {}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls -la", "ls --color=never -la"),
        ("cd src && ls", "cd src && ls --color=never"),
        (
            "FOO=1 grep -r x . | /usr/bin/grep y",
            "FOO=1 grep --color=never -r x . | /usr/bin/grep --color=never y",
        ),
        ("echo $(ls)", "echo $(ls --color=never)"),
        ('echo "ls; grep"', 'echo "ls; grep"'),  # quoted text is not a command
        ("ls --color=auto", "ls --color=auto"),  # the agent chose a colour setting
        ("git status", "git status"),  # not a program that takes the flag
    ],
)
async def test_no_color_adds_the_flag_after_each_program_that_takes_it(command: str, expected: str) -> None:
    bus = agentbus.Bus(log_level=None)
    defaults.install(bus.registry, no_color=True)
    assert await bus.call_tool("bash", {"command": command}, echo) == {"command": expected}


async def test_no_color_ignores_calls_without_a_string_command() -> None:
    bus = agentbus.Bus(log_level=None)
    bus.intercept("tool.before", no_color(), tool="exec")
    assert await bus.call_tool("exec", {"argv": ["ls"]}, echo) == {"argv": ["ls"]}


def test_args_without_a_tool_is_refused() -> None:
    with pytest.raises(ValueError, match="needs tool="):
        defaults.install(agentbus.Registry(), args={"x": 1})

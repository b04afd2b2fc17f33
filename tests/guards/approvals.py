"""A shell call through a bus with the built-in guards and an approver: the tactic tests share it."""

from __future__ import annotations

from typing import Any

import agentbus
from agentbus.middleware import builtin


async def run(bus: agentbus.Bus, command: str) -> tuple[agentbus.ToolResult, list[str]]:
    """Run ``command`` through ``bus``; the commands the tool really ran come back with the result."""
    ran: list[str] = []
    result = await bus.run_tool("bash", {"command": command}, lambda args: ran.append(args["command"]))
    return result, ran


def bus_with(approver: Any, **options: Any) -> agentbus.Bus:
    """A bus with the built-in guards (``options`` for :func:`builtin.install`) and ``approver``."""
    registry = agentbus.Registry()
    builtin.install(registry, **options)
    return agentbus.Bus(registry, log_level=None, approver=approver)

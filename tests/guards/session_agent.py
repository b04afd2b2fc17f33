"""An agent whose shell calls go through a bus with the built-in guards, for tests of session state."""

from __future__ import annotations

from typing import Any

import agentbus
from agentbus.middleware import builtin


class Agent:
    """A bus with the built-in guards, and a shell tool that records what it ran."""

    def __init__(self) -> None:
        self.bus = agentbus.Bus(log_level=None)
        builtin.install(self.bus.registry)
        self.ran: list[str] = []

    def shell(self, args: dict[str, Any]) -> str:
        self.ran.append(args["command"])
        return "done"

    async def run(self, command: str, session: str | None = "s1") -> Any:
        """One exec call in ``session`` (None: a call that belongs to no session)."""
        return await self.bus.call_tool("exec", {"command": command}, self.shell, session_key=session)

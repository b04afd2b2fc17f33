"""Errors raised by agentbus.

Every error derives from :class:`AgentbusError`, and also from the builtin it
behaves like, so callers can catch it the natural way::

    AgentbusError
     ├── RegistrationError (ValueError)   a registration is malformed; raised by add()
     ├── InterceptionError (RuntimeError) a handler failed under on_error="raise"
     └── ToolBlockedError (PermissionError) raised by wrapped tools that are blocked
                                            when the caller asked for exceptions

    ToolPaused (BaseException)            not an error: a tool paused its call (an adapter
                                          raises it past the layers, see its docstring)
    RunEnded (BaseException)              not an error: a layer ended the run with a reason
                                          (event.end_run(); adapters stop the run cleanly)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AgentbusError",
    "InterceptionError",
    "RegistrationError",
    "RunEnded",
    "ToolBlockedError",
    "ToolPaused",
    "describe_error",
]


def describe_error(error: BaseException) -> str:
    """``"TypeName: message"``, or just the type name when the message is empty."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class AgentbusError(Exception):
    """Root of every error agentbus raises."""


class RegistrationError(AgentbusError, ValueError):
    """A registration cannot be accepted; the message says what to change."""


class InterceptionError(AgentbusError, RuntimeError):
    """A handler registered with ``on_error="raise"`` failed.

    The original exception is chained as ``__cause__``; ``registration_id`` and
    ``point`` say where it happened.
    """

    def __init__(self, message: str, *, registration_id: str, point: str) -> None:
        super().__init__(message)
        self.registration_id = registration_id
        self.point = point


class ToolBlockedError(AgentbusError, PermissionError):
    """A tool call was blocked by a tool.before layer."""

    def __init__(self, tool: str, reason: str, *, by: str | None = None) -> None:
        super().__init__(f"{tool} blocked: {reason}")
        self.tool = tool
        self.reason = reason
        self.by = by


class ToolPaused(BaseException):
    """A tool paused its call, to be resumed later (LangGraph's ``interrupt()``).

    An adapter raises it from the tool function it hands the bus, carrying the
    framework's own signal in ``signal`` and the args tool.before approved in
    ``approved``. A BaseException, so that no layer and not the bus take it for
    the tool's error: tool.after does not run now, the dispatch record says
    "paused", and :meth:`agentbus.Bus.resume_tool` finishes the call later.
    """

    def __init__(self, signal: BaseException, approved: dict[str, Any]) -> None:
        super().__init__(f"the call paused ({type(signal).__name__}); it ends when it is resumed")
        self.signal = signal
        self.approved = approved


class RunEnded(BaseException):
    """A layer ended the agent's run on purpose: ``event.end_run(reason)``.

    A BaseException, like :class:`ToolPaused`, so that no layer's failure
    policy and not the bus take it for an error: it goes straight out to the
    adapter, which stops the run the framework's own clean way (see each
    adapter's page) and leaves ``reason`` where the caller can read it. Where
    an adapter has no clean stop, it reaches the caller as this exception.
    """

    def __init__(self, reason: str, *, point: str = "", agent_id: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.point = point
        self.agent_id = agent_id

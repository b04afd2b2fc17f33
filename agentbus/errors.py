"""Errors raised by agentbus.

Every error derives from :class:`AgentbusError`, and also from the builtin it
behaves like, so callers can catch it the natural way::

    AgentbusError
     ├── RegistrationError (ValueError)   a registration is malformed; raised by add()
     ├── InterceptionError (RuntimeError) a handler failed under on_error="raise"
     └── ToolBlockedError (PermissionError) raised by wrapped tools that are blocked
                                            when the caller asked for exceptions
"""

from __future__ import annotations

__all__ = ["AgentbusError", "InterceptionError", "RegistrationError", "ToolBlockedError", "describe_error"]


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

"""agentbus: intercept an AI agent's loop with middleware stacks.

The public API; everything else lives in the modules named in the docs.
"""

from . import _import_path  # noqa: F401  (first: before any other module is imported)

# isort: split
import typing as _typing

if _typing.TYPE_CHECKING:
    from .bus import Approver as Approver
    from .bus import Bus as Bus
    from .bus import ToolFunction as ToolFunction
    from .errors import AgentbusError as AgentbusError
    from .errors import InterceptionError as InterceptionError
    from .errors import RegistrationError as RegistrationError
    from .errors import RunEnded as RunEnded
    from .errors import ToolBlockedError as ToolBlockedError
    from .events import HOOK_POINTS as HOOK_POINTS
    from .events import Event as Event
    from .events import HookPoint as HookPoint
    from .events import Lifecycle as Lifecycle
    from .events import Message as Message
    from .events import Params as Params
    from .events import ToolCall as ToolCall
    from .events import ToolList as ToolList
    from .events import ToolResult as ToolResult
    from .global_registry import get_registry as get_registry
    from .global_registry import init_registry as init_registry
    from .global_registry import reset_registry as reset_registry
    from .kinds import TOOL_KINDS as TOOL_KINDS
    from .kinds import ToolKindWarning as ToolKindWarning
    from .logging import format_record as format_record
    from .records import Record as Record
    from .records import Subscription as Subscription
    from .registry import Registration as Registration
    from .registry import Registry as Registry
    from .tool_coverage import coverage as coverage
    from .tools import KNOWN_TOOL_NAMES as KNOWN_TOOL_NAMES
    from .tools import TOOL_GROUPS as TOOL_GROUPS
    from .tools import normalize_tool_name as normalize_tool_name

_EXPORTS = {
    "Approver": "bus",
    "Bus": "bus",
    "ToolFunction": "bus",
    "AgentbusError": "errors",
    "InterceptionError": "errors",
    "RegistrationError": "errors",
    "RunEnded": "errors",
    "ToolBlockedError": "errors",
    "HOOK_POINTS": "events",
    "Event": "events",
    "HookPoint": "events",
    "Lifecycle": "events",
    "Message": "events",
    "Params": "events",
    "ToolCall": "events",
    "ToolList": "events",
    "ToolResult": "events",
    "get_registry": "global_registry",
    "init_registry": "global_registry",
    "reset_registry": "global_registry",
    "TOOL_KINDS": "kinds",
    "ToolKindWarning": "kinds",
    "format_record": "logging",
    "Record": "records",
    "Subscription": "records",
    "Registration": "registry",
    "Registry": "registry",
    "KNOWN_TOOL_NAMES": "tools",
    "TOOL_GROUPS": "tools",
    "normalize_tool_name": "tools",
    "coverage": "tool_coverage",
}
"""Where each public name lives. They are imported on first use: the Claude Code hook,
a process per tool call, imports ``agentbus.cli`` first and the rest as it needs it
(and ``coverage``, for one, never)."""

__version__ = "0.1.0"

__all__ = [
    "HOOK_POINTS",
    "KNOWN_TOOL_NAMES",
    "TOOL_GROUPS",
    "TOOL_KINDS",
    "AgentbusError",
    "Approver",
    "Bus",
    "Event",
    "HookPoint",
    "InterceptionError",
    "Lifecycle",
    "Message",
    "Params",
    "Record",
    "Registration",
    "RegistrationError",
    "Registry",
    "RunEnded",
    "Subscription",
    "ToolBlockedError",
    "ToolCall",
    "ToolFunction",
    "ToolKindWarning",
    "ToolList",
    "ToolResult",
    "coverage",
    "format_record",
    "get_registry",
    "init_registry",
    "normalize_tool_name",
    "reset_registry",
]


def __getattr__(name: str) -> _typing.Any:
    """A public name, imported from its module on first use (see _EXPORTS)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})

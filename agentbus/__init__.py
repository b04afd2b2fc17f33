"""agentbus: intercept an AI agent's loop with middleware stacks.

The public API; everything else lives in the modules named in the docs.
"""

from . import _import_path  # noqa: F401  (first: before any other module is imported)

# isort: split
import typing as _typing

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
from .tools import KNOWN_TOOL_NAMES as KNOWN_TOOL_NAMES
from .tools import TOOL_GROUPS as TOOL_GROUPS
from .tools import normalize_tool_name as normalize_tool_name

if _typing.TYPE_CHECKING:
    from .tool_coverage import coverage as coverage

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
    """``coverage`` is imported on first use: the hook process, started per tool call, never uses it."""
    if name == "coverage":
        from .tool_coverage import coverage

        globals()["coverage"] = coverage
        return coverage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

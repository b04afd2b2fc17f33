"""Hook points and the events that flow through them.

One slotted attrs class per kind of event. Context a layer may read but not
change (agent id, session key, provider, model, tool name, call id) is exposed
through read-only properties, so ``event.tool = "x"`` raises
``AttributeError``. What a layer may change (message, metadata, think level,
args, block, result) is a plain attribute; assignments are type-checked, since
a wrong type would otherwise surface far away, inside the agent.
"""

from __future__ import annotations

import copy
import math
import sys
from contextvars import ContextVar
from operator import attrgetter
from types import MappingProxyType
from typing import Any, ClassVar, Final, Literal

import attrs

from . import lineage as _lineage
from .errors import RunEnded
from .lineage import _chain as _lineage_chain
from .lineage import parent_of

__all__ = [
    "HOOK_POINTS",
    "LIFECYCLE_POINTS",
    "REASONING_LEVELS",
    "THINK_LEVELS",
    "TOOL_POINTS",
    "Event",
    "HookPoint",
    "Lifecycle",
    "Message",
    "Params",
    "ToolCall",
    "ToolList",
    "ToolResult",
    "copy_args",
]

HookPoint = Literal[
    "message.before",
    "params.before",
    "tool.before",
    "tool.call",
    "tool.after",
    "agent.start",
    "agent.end",
    "turn.start",
    "turn.end",
    "session",
    "tool.list",
]
"""The names of the hook points, as used in registrations."""

TOOL_POINTS: Final = frozenset({"tool.before", "tool.call", "tool.after"})
LIFECYCLE_POINTS: Final = frozenset({"agent.start", "agent.end", "turn.start", "turn.end", "session"})
HOOK_POINTS: Final = (
    frozenset({"message.before", "params.before", "tool.list"}) | TOOL_POINTS | LIFECYCLE_POINTS
)

THINK_LEVELS: Final = ("off", "minimal", "low", "medium", "high")
REASONING_LEVELS: Final = ("off", "on")


def _readonly(name: str, doc: str) -> Any:
    # attrgetter is implemented in C: reading context costs about as much as a slot.
    return property(attrgetter(name), doc=doc)


def _checked_str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value


def _checked_dict(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict, got {type(value).__name__}")
    return value


def _checked_choice(value: object, choices: tuple[str, ...], what: str) -> str | None:
    if value is not None and value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)} or None, got {value!r}")
    return value  # type: ignore[return-value,unused-ignore]


def _dict_diff(prefix: str, old: dict[str, Any], new: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    if old == new:
        return {}
    missing = object()
    changes = {}
    for key in [*old, *(key for key in new if key not in old)]:  # in a stable order
        was, now = old.get(key, missing), new.get(key, missing)
        if was is missing or now is missing or was != now:
            changes[f"{prefix}.{key}"] = (
                None if was is missing else was,
                None if now is missing else now,
            )
    return changes


def _field_diff(
    fields: tuple[str, ...], before: tuple[Any, ...], after: tuple[Any, ...]
) -> dict[str, tuple[Any, Any]]:
    return {f: (b, a) for f, b, a in zip(fields, before, after, strict=True) if b != a}


_ATOMS: Final = frozenset({str, int, float, bool, type(None)})


def copy_args(value: Any) -> Any:
    """A deep copy of a tool's args: what the tool receives can change only through the bus.

    JSON-shaped data (dicts, lists, strings, numbers) is copied here, about ten
    times faster than :func:`copy.deepcopy`; a dict of plain values costs one
    ``dict.copy``. Anything else goes through :func:`copy.deepcopy`. Raises
    RecursionError for data nested too deep (or cyclic), TypeError for objects
    that cannot be copied: the bus then denies the call.
    """
    kind = type(value)
    if kind is dict:
        for key in value:  # (not .values(): one object fewer to make)
            if type(value[key]) not in _ATOMS:
                return {key: copy_args(item) for key, item in value.items()}
        return value.copy()
    if kind in _ATOMS:
        return value
    if kind is list:
        return [copy_args(item) for item in value]
    if kind is tuple:
        return tuple(copy_args(item) for item in value)
    if kind is MappingProxyType:  # tool.call's read-only view of the args
        return {key: copy_args(item) for key, item in value.items()}
    return copy.deepcopy(value)


_DECIDING: ContextVar[ToolCall | None] = ContextVar("agentbus_deciding", default=None)
"""The call whose tool.before stack runs in this context, when the stack has middleware.

A block or an ask on *any* ToolCall while it runs (a copy a layer made, a new
one it built and passed to ``call_next``) is also taken by this call: a decision
belongs to the call, not to whichever object reached the end of the stack. Only
a middleware hands an event on to other layers, so a stack of handlers only runs
without it (set and reset per call, it would cost more than the handlers): each
handler gets the call itself. Shadow layers run with it unset, so their decisions
stay theirs.
"""


def _copy_for_diff(value: Any) -> Any:
    """A deep copy to diff against later; a value that cannot be copied is compared as it is."""
    try:
        return copy_args(value)
    except Exception:
        try:
            return copy.copy(value)
        except Exception:
            return value


_new = object.__new__


def _caller_codes(depth: int = 8) -> tuple[Any, ...]:
    """The code objects of the callers of our caller, innermost first."""
    codes: list[Any] = []
    frame = sys._getframe(2)
    while frame is not None and len(codes) < depth:
        codes.append(frame.f_code)
        frame = frame.f_back  # type: ignore[assignment]
    return tuple(codes)


class Event:
    """Base of every event. ``point`` names the hook point it runs through."""

    __slots__ = ()
    point: ClassVar[str]

    def snapshot(self) -> tuple[Any, ...]:
        """The values of the mutable fields, cheap to take and to compare."""
        return ()

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        """What changed between two snapshots: ``{"args.command": (old, new)}``."""
        return {}

    # The attributes a layer may change in place: deep-copied for shadow layers.
    _MUTABLE: ClassVar[tuple[str, ...]] = ()

    def shadow_copy(self) -> Event:
        """A copy for shadow-mode layers: whatever they do to it is not applied.

        The fields a layer may change are deep-copied; the rest is shared.
        """
        return self.__deepcopy__({})

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        # What a layer may change is copied; the context and the bus's own machinery
        # (the stack that attributes decisions, the tool) are shared, as they cannot be copied.
        twin = copy.copy(self)
        for name in self._MUTABLE:
            object.__setattr__(twin, name, copy.deepcopy(getattr(self, name), memo))
        return twin

    def __repr__(self) -> str:
        # One for every event class (attrs' repr=False): attrs would generate and compile
        # one per class, which the import of agentbus, in every hook process, pays for.
        shown = (f"{f.name}={getattr(self, f.name)!r}" for f in attrs.fields(type(self)) if f.repr)  # type: ignore[arg-type]
        return f"{type(self).__qualname__}({', '.join(shown)})"

    def end_run(self, reason: str) -> None:
        """End the agent's run cleanly, with ``reason``: nothing after this layer runs.

        Raises :class:`~agentbus.errors.RunEnded`, which passes every layer's
        failure policy and the bus; the adapter stops the run the framework's
        own clean way (see the adapter's page for what the caller gets).
        """
        reason = _checked_str(reason, "an end_run reason") or "ended by a layer"
        raise RunEnded(reason, point=self.point, agent_id=getattr(self, "_agent_id", None))


def _parent(event: Any) -> str | None:
    # The common case, no agent's tool ever run in this process, costs one module attribute read.
    return parent_of(event._agent_id) if _lineage.nested and _lineage_chain.get() else None


def _parent_field() -> Any:
    # Taken when the event is built, from the agents whose tools run around it (agentbus.lineage).
    return attrs.field(default=attrs.Factory(_parent, takes_self=True), init=False, repr=False)


_PARENT_DOC = "The agent whose tool call started this (sub-)agent, or None at the top level."


@attrs.define(eq=False, repr=False, slots=True, kw_only=True)
class _ModelContext(Event):
    """What message.before and params.before both know: who asks, and which model."""

    _agent_id: str = attrs.field(default="main", alias="agent_id")
    _session_key: str | None = attrs.field(default=None, alias="session_key")
    _provider: str = attrs.field(default="", alias="provider")
    _model: str = attrs.field(default="", alias="model")
    _parent_agent_id: str | None = _parent_field()

    agent_id = _readonly("_agent_id", "The resolved agent id.")
    parent_agent_id = _readonly("_parent_agent_id", _PARENT_DOC)
    session_key = _readonly("_session_key", "The session key, if the runtime has one.")
    provider = _readonly("_provider", "The model provider, e.g. 'anthropic' (read-only context).")
    model = _readonly("_model", "The model name (read-only context).")


@attrs.define(eq=False, repr=False, slots=True, kw_only=True)
class Message(_ModelContext):
    """message.before: the user's message, before the agent sees it."""

    point: ClassVar[str] = "message.before"
    FIELDS: ClassVar[tuple[str, ...]] = ("message", "metadata")
    _MUTABLE: ClassVar[tuple[str, ...]] = ("_metadata",)

    _message: str = attrs.field(alias="message")
    _metadata: dict[str, Any] = attrs.field(factory=dict, alias="metadata")

    @property
    def message(self) -> str:
        """The message text; assign to change what the agent sees."""
        return self._message

    @message.setter
    def message(self, value: str) -> None:
        self._message = _checked_str(value, "message")

    @property
    def metadata(self) -> dict[str, Any]:
        """A bag of tags for params.before (and the agent loop) to read."""
        return self._metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any]) -> None:
        self._metadata = _checked_dict(value, "metadata")

    def snapshot(self) -> tuple[Any, ...]:
        return (self._message, _copy_for_diff(self._metadata))

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        changes = _dict_diff("metadata", before[1], after[1])
        if before[0] != after[0]:
            changes["message"] = (before[0], after[0])
        return changes


@attrs.define(eq=False, repr=False, slots=True, kw_only=True)
class Params(_ModelContext):
    """params.before: the model parameters for this run, after message.before."""

    point: ClassVar[str] = "params.before"
    FIELDS: ClassVar[tuple[str, ...]] = ("think_level", "reasoning_level", "temperature", "system_prompt")
    _MUTABLE: ClassVar[tuple[str, ...]] = ("_metadata",)  # read-only, but a dict: shadow copies it

    _message: str = attrs.field(alias="message")
    _metadata: dict[str, Any] = attrs.field(factory=dict, alias="metadata")
    _think_level: str | None = attrs.field(default=None, alias="think_level")
    _reasoning_level: str | None = attrs.field(default=None, alias="reasoning_level")
    _temperature: float | None = attrs.field(default=None, alias="temperature")
    _system_prompt: str | None = attrs.field(default=None, alias="system_prompt")

    message = _readonly("_message", "The message text, as message.before left it.")
    metadata = _readonly("_metadata", "The metadata that message.before layers set.")

    @property
    def think_level(self) -> str | None:
        """Thinking level: one of THINK_LEVELS, or None for the runtime's default."""
        return self._think_level

    @think_level.setter
    def think_level(self, value: str | None) -> None:
        self._think_level = _checked_choice(value, THINK_LEVELS, "think_level")

    @property
    def reasoning_level(self) -> str | None:
        """Reasoning level: "off", "on", or None for the runtime's default."""
        return self._reasoning_level

    @reasoning_level.setter
    def reasoning_level(self, value: str | None) -> None:
        self._reasoning_level = _checked_choice(value, REASONING_LEVELS, "reasoning_level")

    @property
    def temperature(self) -> float | None:
        """Sampling temperature, a finite number >= 0, or None for the default."""
        return self._temperature

    @temperature.setter
    def temperature(self, value: float | None) -> None:
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"temperature must be a number, got {type(value).__name__}")
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"temperature must be a finite number >= 0, got {value!r}")
            value = float(value)
        self._temperature = value

    @property
    def system_prompt(self) -> str | None:
        """The system prompt (instructions) the model gets, where the adapter can read it;
        assign a str to replace it where the adapter can write it (see its page)."""
        return self._system_prompt

    @system_prompt.setter
    def system_prompt(self, value: str | None) -> None:
        self._system_prompt = None if value is None else _checked_str(value, "system_prompt")

    def snapshot(self) -> tuple[Any, ...]:
        return (self._think_level, self._reasoning_level, self._temperature, self._system_prompt)

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        return _field_diff(self.FIELDS, before, after)


class _CallState:
    """What a tool call rarely needs: made the first time one of these is written.

    Every intercepted call builds a ToolCall, and each slot costs it a store and a
    release; these fields are set only when a layer decides, a tool.call stack runs
    or somebody reads the notes, so they live here, with their defaults on the class.
    """

    block_reason: str | None = None
    # The code objects of the frames that called block()/ask(): the stack maps them
    # to the registration that decided, so layers need no per-call bookkeeping.
    decided_in: tuple[Any, ...] = ()
    blocked_by: str | None = None
    notes: list[str] | None = None  # advisory text for the agent, made on first read
    # Taken when the call is built, only when an agent's tool runs around it (agentbus.lineage).
    parent_agent_id: str | None = None

    def copy(self) -> _CallState:
        twin = _CallState()
        twin.__dict__.update(self.__dict__)
        return twin


class _ToolRun:
    """What the tool.call stack needs (made when a call runs through one): the tool, the
    args tool.before approved (tool.call layers see a read-only view), what it returned
    or raised. A slotted object of its own, since each of these is set on every such call."""

    __slots__ = ("approved_args", "execute", "tool_error", "tool_result")

    def __init__(self) -> None:
        self.approved_args: dict[str, Any] | None = None
        self.execute: Any = None
        self.tool_error: BaseException | None = None
        self.tool_result: Any = None


def _in_run(name: str, doc: str | None = None) -> Any:
    """A property kept in the call's :class:`_ToolRun` (None until the call runs through tool.call)."""
    read = attrgetter(name)

    def get(call: ToolCall) -> Any:
        run = call._run
        return None if run is None else read(run)

    def set(call: ToolCall, value: Any) -> None:
        run = call._run
        if run is None:
            run = call._run = _ToolRun()
        setattr(run, name, value)

    return property(get, set, doc=doc)


def _in_state(name: str, doc: str | None = None) -> Any:
    """A property kept in the call's :class:`_CallState` (its class default until written)."""
    read = attrgetter(name)

    def get(call: ToolCall) -> Any:
        state = call._state
        return read(_CallState if state is None else state)

    def set(call: ToolCall, value: Any) -> None:
        state = call._state
        if state is None:
            state = call._state = _CallState()
        setattr(state, name, value)

    return property(get, set, doc=doc)


@attrs.define(eq=False, repr=False, slots=True, init=False)
class ToolCall(Event):
    """tool.before and tool.call: a tool call about to run.

    Layers mutate ``args`` or call :meth:`block`. A block cannot be lifted by a
    later layer, and the first reason wins (seed 004's veto contract). (The bus
    builds it positionally on its hot path: keep the order of the fields.)
    """

    point: ClassVar[str] = "tool.before"
    FIELDS: ClassVar[tuple[str, ...]] = ("args", "blocked")
    _MUTABLE: ClassVar[tuple[str, ...]] = ("_args", "_notes")

    _tool: str = attrs.field(alias="tool")
    _args: dict[str, Any] = attrs.field(alias="args")
    # A str, or the bus's number for the call, spelled "call-N" when somebody first reads it.
    _call_id: str | int = attrs.field(default="", alias="call_id")
    _agent_id: str | None = attrs.field(default=None, alias="agent_id")
    _session_key: str | None = attrs.field(default=None, alias="session_key")
    _kind: str | None = attrs.field(default=None, alias="kind")
    _decision: str | None = attrs.field(default=None, init=False)
    # The stack running this event: it can tell, from _decided_in, who decided.
    _attribution: Any = attrs.field(default=None, init=False, repr=False)
    # Everything else (block reason, notes, what the tool.call stack needs): see _CallState.
    # (the event that reached the end of tool.before, a deep copy of its args): set by the stack
    # of every tool.before with middleware, so a slot of its own.
    _approval: tuple[Any, Any] | None = attrs.field(default=None, init=False, repr=False)
    _state: _CallState | None = attrs.field(default=None, init=False, repr=False)
    # The tool.call machinery, set when the call runs through a tool.call stack: see _ToolRun.
    _run: _ToolRun | None = attrs.field(default=None, init=False, repr=False)

    _block_reason = _in_state("block_reason")
    _decided_in = _in_state("decided_in")
    _blocked_by = _in_state("blocked_by")
    _notes = _in_state("notes")
    tool_error = _in_run(
        "tool_error", "The exception the tool itself raised (set by the tool.call terminal)."
    )
    execute = _in_run("execute", "The tool's callable (set by the bus for the tool.call terminal).")
    _approved_args = _in_run("approved_args")
    _tool_result = _in_run("tool_result")
    _parent_agent_id = _in_state("parent_agent_id")

    def __init__(
        self,
        tool: str,
        args: dict[str, Any],
        call_id: str | int = "",
        agent_id: str | None = None,
        session_key: str | None = None,
        kind: str | None = None,
    ) -> None:
        # Written by hand: attrs' generated __init__ looks each default up per call, and
        # every intercepted tool call builds one of these (the fields above stay the spec).
        self._tool = tool
        self._args = args
        self._call_id = call_id
        self._agent_id = agent_id
        self._session_key = session_key
        self._kind = kind
        self._decision = self._attribution = self._approval = self._state = self._run = None
        if _lineage.nested and _lineage_chain.get():  # _parent(), inline
            self._parent_agent_id = parent_of(agent_id)

    def __copy__(self) -> ToolCall:
        # A copy decides on its own: it gets its own state, not a shared one.
        twin: ToolCall = _new(type(self))
        twin.__setstate__(self.__getstate__())  # type: ignore[attr-defined]
        state = self._state
        if state is not None:
            twin._state = state.copy()
        run = self._run
        if run is not None:
            twin._run = copy.copy(run)
        return twin

    def __repr__(self) -> str:
        self.call_id  # noqa: B018 (spells a call's number: the repr shows the id, "call-N")
        shown = super().__repr__()[:-1]
        rare = ("_block_reason", "_blocked_by", "_notes", "tool_error")  # shown as when they were fields
        extra = (f"{name}={getattr(self, name)!r}" for name in rare)
        return f"{shown}, {', '.join(extra)})"

    tool = _readonly("_tool", "The normalised tool name, e.g. 'exec'.")
    parent_agent_id = _readonly("_parent_agent_id", _PARENT_DOC)
    kind = _readonly("_kind", "What the tool does (exec, read, write ...; agentbus.kinds), or None.")

    @property
    def call_id(self) -> str:
        """The id of this tool call (the caller's, or ``call-N``: the bus's N-th numbered call)."""
        call_id = self._call_id
        if isinstance(call_id, str):
            return call_id
        spelled = self._call_id = f"call-{call_id}"  # once: records read it for every layer
        return spelled

    agent_id = _readonly("_agent_id", "The agent making the call, if known.")
    session_key = _readonly("_session_key", "The session key, if known.")

    @property
    def notes(self) -> list[str]:
        """Advisory text for the agent (Claude Code's additionalContext): append to it."""
        notes: list[str] | None = self._notes
        if notes is None:
            notes = self._notes = []
        return notes

    @notes.setter
    def notes(self, value: list[str]) -> None:
        self._notes = value

    block_reason = _readonly("_block_reason", "Why the call was blocked (the first reason given).")
    decision = _readonly("_decision", 'None (allow), "block", or "ask" (a person must approve).')

    def _set_args(self, value: dict[str, Any]) -> None:
        if self._approved_args is not None:
            raise AttributeError(
                "args are read-only in tool.call: tool.before approved them; change them in a "
                "tool.before layer, where the guards see the change"
            )
        self._args = _checked_dict(value, "args")

    def approve_args(self, approved: dict[str, Any]) -> None:
        """Hand tool.call layers a read-only view of a copy of ``approved``.

        ``approved`` itself, private to the bus, is what the tool receives: a
        layer that changes something nested in its view changes nothing the tool sees.
        """
        self._approved_args = approved
        self._args = MappingProxyType(copy_args(approved))  # type: ignore[assignment]

    def _run_through(self, execute: Any, approved: dict[str, Any]) -> None:
        """Set the call up for a tool.call stack: ``execute`` for its terminal, ``approved``
        for the tool, a read-only view of them for the layers (:meth:`approve_args`)."""
        run = self._run = _new(_ToolRun)  # (no __init__ frame: every field is set here)
        run.execute = execute
        run.approved_args = approved
        run.tool_error = run.tool_result = None
        self._args = MappingProxyType(copy_args(approved))  # type: ignore[assignment]

    def _get_args(self) -> dict[str, Any]:
        return self._args

    # Handlers read args on every call, so its getter is the faster one of the interpreter:
    # attrgetter (C) up to 3.11, where a Python getter runs in a frame of its own; a Python
    # function from 3.12, which inlines it (half the cost of attrgetter there, and a sixth of
    # a sync layer).
    args = property(
        attrgetter("_args") if sys.version_info < (3, 12) else _get_args,
        _set_args,
        doc="The tool's arguments: mutate in place or assign a new dict (in tool.before; "
        "tool.call layers see them read-only).",
    )

    @property
    def blocked(self) -> bool:
        """True once any layer has blocked the call."""
        return self._decision == "block"

    @property
    def blocked_by(self) -> str | None:
        """The id of the registration that blocked (or asked about) the call."""
        if self._decision is not None and self._blocked_by is None and self._attribution is not None:
            registration = self._attribution.decided_by(self)
            if registration is not None:
                self._blocked_by = registration.id
        blocked_by: str | None = self._blocked_by
        return blocked_by

    @blocked_by.setter
    def blocked_by(self, value: str | None) -> None:
        self._blocked_by = value

    def block(self, reason: str) -> None:
        """Block the call; the agent receives a blocked result with this reason."""
        reason = _checked_str(reason, "a block reason") or "blocked"
        codes = _caller_codes()
        self._take("block", reason, codes)
        deciding = _DECIDING.get()
        if deciding is not None and deciding is not self:  # a copy: the call takes it too
            deciding._take("block", reason, codes)

    def ask(self, reason: str) -> None:
        """Ask a person to approve the call; an adapter without an approver denies."""
        reason = _checked_str(reason, "an ask reason") or "approval required"
        codes = _caller_codes()
        self._take("ask", reason, codes)
        deciding = _DECIDING.get()
        if deciding is not None and deciding is not self:
            deciding._take("ask", reason, codes)

    def _take(self, decision: str, reason: str, codes: tuple[Any, ...]) -> None:
        # A block beats an ask, and the first reason of the strongest decision wins.
        if self._decision == "block" or (decision == "ask" and self._decision == "ask"):
            return
        self._decision = decision
        state = self._state
        if state is None:
            state = self._state = _CallState()
        state.block_reason = reason
        state.decided_in = codes
        state.blocked_by = None  # found again from the frames of the deciding layer

    def snapshot(self) -> tuple[Any, ...]:
        return (_copy_for_diff(self._args), self._decision)

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        changes = _dict_diff("args", before[0], after[0])
        if before[1] != after[1]:
            changes["decision"] = (before[1], after[1])
        return changes


def _new_tool_call(
    tool: str,
    args: dict[str, Any],
    call_id: str | int,
    agent_id: str | None,
    session_key: str | None,
    kind: str | None,
) -> ToolCall:
    """``ToolCall(tool, args, call_id, agent_id, session_key, kind)`` for the bus's hot path.

    The same object, built without calling ``__init__`` (which CPython 3.11 runs in a
    frame of its own, a sixth of what building the event costs).
    """
    call: ToolCall = _new(ToolCall)
    call._tool = tool
    call._args = args
    call._call_id = call_id
    call._agent_id = agent_id
    call._session_key = session_key
    call._kind = kind
    call._decision = call._attribution = call._approval = call._state = call._run = None
    if _lineage.nested and _lineage_chain.get():
        call._parent_agent_id = parent_of(agent_id)
    return call


@attrs.define(eq=False, repr=False, slots=True)
class ToolResult(Event):
    """tool.after: a finished tool call. Fires for success, error and blocked calls.

    (The bus builds it positionally on its hot path: keep the order of the fields.)
    """

    point: ClassVar[str] = "tool.after"
    FIELDS: ClassVar[tuple[str, ...]] = ("result",)
    _MUTABLE: ClassVar[tuple[str, ...]] = ("result", "_args")

    _tool: str = attrs.field(alias="tool")
    _args: dict[str, Any] = attrs.field(alias="args")
    result: Any = None
    """What the agent will receive: replace it or mutate it."""
    _call_id: str = attrs.field(default="", alias="call_id")
    _agent_id: str | None = attrs.field(default=None, alias="agent_id")
    _session_key: str | None = attrs.field(default=None, alias="session_key")
    _error: BaseException | None = attrs.field(default=None, alias="error")
    _blocked: bool = attrs.field(default=False, alias="blocked")
    _block_reason: str | None = attrs.field(default=None, alias="block_reason")
    _duration: float = attrs.field(default=0.0, alias="duration")
    _kind: str | None = attrs.field(default=None, alias="kind")
    _parent_agent_id: str | None = _parent_field()

    tool = _readonly("_tool", "The normalised tool name.")
    parent_agent_id = _readonly("_parent_agent_id", _PARENT_DOC)
    kind = _readonly("_kind", "What the tool does (exec, read, write ...; agentbus.kinds), or None.")
    args = _readonly("_args", "The arguments as executed (after tool.before).")
    call_id = _readonly("_call_id", "The id of this tool call.")
    agent_id = _readonly("_agent_id", "The agent that made the call, if known.")
    session_key = _readonly("_session_key", "The session key, if known.")
    error = _readonly("_error", "The exception the tool raised, or None.")
    blocked = _readonly("_blocked", "True if a tool.before layer blocked the call.")
    block_reason = _readonly("_block_reason", "Why the call was blocked.")
    duration = _readonly("_duration", "Seconds spent in the tool.call stack (0 when blocked).")

    @property
    def is_error(self) -> bool:
        """True if the tool raised or was blocked: the result is not a tool output."""
        return self._error is not None or self._blocked

    def snapshot(self) -> tuple[Any, ...]:
        result = self.result
        return (result, _copy_for_diff(result) if isinstance(result, (dict, list)) else None)

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        was, copied = before
        now = after[0]
        if copied is not None:  # a dict or list: it may have been mutated in place
            changed = now is not was or now != copied
            was = copied
        else:
            changed = now is not was and now != was
        return {"result": (was, now)} if changed else {}


@attrs.define(eq=False, repr=False, slots=True)
class Lifecycle(Event):
    """A lifecycle notification: agent.start/end, turn.start/end, session.

    Layers observe it; on a ``session`` event whose reason starts with
    ``before_`` they may also :meth:`cancel` the action (seed 003).
    """

    FIELDS: ClassVar[tuple[str, ...]] = ("cancelled",)
    _MUTABLE: ClassVar[tuple[str, ...]] = ("_data",)

    _point: str = attrs.field(alias="point")
    _agent_id: str | None = attrs.field(default=None, alias="agent_id")
    _session_key: str | None = attrs.field(default=None, alias="session_key")
    _reason: str | None = attrs.field(default=None, alias="reason")
    _data: dict[str, Any] = attrs.field(factory=dict, alias="data")
    _cancelled: bool = attrs.field(default=False, init=False)
    _parent_agent_id: str | None = _parent_field()

    point = _readonly("_point", "The lifecycle hook point.")
    parent_agent_id = _readonly("_parent_agent_id", _PARENT_DOC)
    agent_id = _readonly("_agent_id", "The agent, if known.")
    session_key = _readonly("_session_key", "The session key, if known.")
    reason = _readonly("_reason", "For session events: start, before_clear, clear, shutdown ...")
    data = _readonly("_data", "Whatever else the runtime reports (turn index, messages ...).")
    cancelled = _readonly("_cancelled", "True if a layer cancelled a before_* session action.")

    def cancel(self) -> None:
        """Cancel the action this before_* session event announces."""
        if not (self._point == "session" and (self._reason or "").startswith("before_")):
            raise ValueError("only session events with a before_* reason can be cancelled")
        self._cancelled = True

    def snapshot(self) -> tuple[Any, ...]:
        return (self._cancelled,)

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        return _field_diff(self.FIELDS, before, after)


@attrs.define(eq=False, repr=False, slots=True, kw_only=True)
class ToolList(Event):
    """tool.list: the tools the model is about to be offered, per agent and per turn.

    ``tools`` maps each tool's name to its description: delete an entry to
    hide the tool from the model this turn (:meth:`hide`), assign a new
    string to describe it differently. Adding a name the agent does not have
    is an error (a layer cannot invent a tool). Hiding shapes what the model
    is offered; it does not forbid a call: block the tool in tool.before for
    that, since a prompt-injected model (or an MCP client) may name a tool it
    was not shown.
    """

    point: ClassVar[str] = "tool.list"
    FIELDS: ClassVar[tuple[str, ...]] = ("tools",)
    _MUTABLE: ClassVar[tuple[str, ...]] = ("_tools",)

    _tools: dict[str, str] = attrs.field(alias="tools")
    _agent_id: str | None = attrs.field(default=None, alias="agent_id")
    _session_key: str | None = attrs.field(default=None, alias="session_key")
    _turn: int | None = attrs.field(default=None, alias="turn")
    _parent_agent_id: str | None = _parent_field()

    agent_id = _readonly("_agent_id", "The agent the tools are offered to, if known.")
    session_key = _readonly("_session_key", "The session key, if known.")
    turn = _readonly("_turn", "The turn (model call) number, where the adapter counts them.")
    parent_agent_id = _readonly("_parent_agent_id", _PARENT_DOC)

    @property
    def tools(self) -> dict[str, str]:
        """Tool name -> description: delete to hide, assign to describe."""
        return self._tools

    @tools.setter
    def tools(self, value: dict[str, str]) -> None:
        value = _checked_dict(value, "tools")
        for name, description in value.items():
            _checked_str(name, "a tool name")
            _checked_str(description, f"the description of {name!r}")
        self._tools = value

    def hide(self, *names: str) -> None:
        """Hide these tools from the model this turn (names it does not have are ignored)."""
        for name in names:
            self._tools.pop(name, None)

    def snapshot(self) -> tuple[Any, ...]:
        return (dict(self._tools),)

    def diff(self, before: tuple[Any, ...], after: tuple[Any, ...]) -> dict[str, tuple[Any, Any]]:
        return _dict_diff("tools", before[0], after[0])

"""The Bus: runs hook points, the tool-call pipeline, and observers.

A bus owns a :class:`~agentbus.registry.Registry` (its own, or a shared one)
and a cache of compiled stacks. Adapters call four verbs:

- :meth:`Bus.process_message` runs message.before,
- :meth:`Bus.resolve_params` runs params.before,
- :meth:`Bus.call_tool` runs tool.before -> tool.call -> tool.after,
- :meth:`Bus.notify` runs a lifecycle point.
"""

from __future__ import annotations

import itertools
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from inspect import isawaitable
from types import CoroutineType
from typing import Any, Literal, TypeVar, Union, overload

from . import lineage as _lineage
from .errors import RegistrationError, ToolBlockedError, ToolPaused, describe_error
from .events import (
    _ATOMS,
    HOOK_POINTS,
    LIFECYCLE_POINTS,
    TOOL_POINTS,
    Lifecycle,
    Message,
    Params,
    ToolCall,
    ToolList,
    ToolResult,
    _new_tool_call,
    copy_args,
)
from .lineage import _chain as _lineage_chain
from .lineage import parent_of
from .records import DEBUG, DISPATCH, ERROR, INFO, WARNING, Observers, Record, Subscription, level_number
from .registry import Kind, Matcher, OnError, Registration, Registry
from .stack import Chain, approve, compile_stack, gate_of
from .tools import blocked_result, error_result, normalize_tool_name

__all__ = ["Approver", "Bus", "ToolFunction"]

ToolFunction = Callable[[dict[str, Any]], Any]
"""A tool as the bus calls it: takes the args dict, returns the result (sync or async)."""

Approver = Callable[[ToolCall], Union[Awaitable[bool], bool]]
"""Decides a tool.before "ask" (sync or async): return True to let the call run."""

F = TypeVar("F", bound=Callable[..., Any])

_perf = time.perf_counter
_new = object.__new__
_MISSING: Any = object()
_CACHE_LIMIT = 16_384
"""Entries per generation of a cache: at most twice this many are held."""


class _Generations:
    """A bounded cache that keeps what is in use (an approximate LRU at a dict's cost).

    Entries go into a young generation; when it is full it becomes the old one
    (the previous old one is dropped), and an entry found in the old one moves
    back to the young one. Memory stays at most two generations, and there is
    no cliff where every entry is recompiled at once.
    """

    __slots__ = ("old", "young")

    def __init__(self) -> None:
        self.young: dict[Any, Any] = {}
        self.old: dict[Any, Any] = {}

    def get(self, key: Any, default: Any) -> Any:
        value = self.young.get(key, _MISSING)
        if value is _MISSING:
            value = self.old.pop(key, _MISSING)
            if value is _MISSING:
                return default
            self.put(key, value)
        return value

    def put(self, key: Any, value: Any) -> None:
        if len(self.young) >= _CACHE_LIMIT:
            self.old, self.young = self.young, {}
        self.young[key] = value


class _ToolPlan:
    """The three compiled stacks of one (tool, agent): one cache look-up per call."""

    __slots__ = (
        "after", "bare", "before", "call", "context", "direct", "empty", "gate", "handlers_only", "kind",
        "name", "settle", "timed",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        before: Chain | None,
        call: Chain | None,
        after: Chain | None,
        kind: str | None = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.before = before
        self.call = call
        self.after = after
        self.empty = before is None and call is None and after is None
        self.bare = False  # empty for every agent, and nobody wants dispatch records (see _new_plan)
        self.timed = after is not None  # somebody reads the tool's duration (or observes: see _new_plan)
        self.handlers_only = False  # tool.before holds handlers only (see _new_plan)
        # Only tool.before runs around the tool, and nobody wants a dispatch record:
        # call_tool runs the call in its own coroutine (see _new_plan).
        self.direct = before is not None and call is None and after is None
        # tool.before is one sync handler and nothing else runs or observes: call_tool calls
        # it itself (see stack.Gate), ``settle`` takes anything but the usual end.
        self.gate: Callable[[ToolCall], Any] | None = None
        self.settle: Callable[[ToolCall, Any, BaseException | None], Any] | None = None
        self.context: Any = None  # the attribution of the calls it builds (the stack's context)


async def _execute(call: ToolCall) -> Any:
    """The tool.call terminal: the real tool, with the args tool.before approved."""
    run: Any = call._run  # (set by approve_args before the stack runs)
    try:
        result = run.execute(run.approved_args)
        if type(result) is CoroutineType or isawaitable(result):
            result = await result
    except Exception as exc:
        run.tool_error = exc  # lets tool.call middleware pass it through untouched
        raise
    run.tool_result = result  # to tell a layer that dropped the result from a tool that returned None
    return result


def _changed(now: Any, approved: Any) -> bool:
    """Whether ``now`` differs from the deep copy ``approved`` in its JSON-shaped parts.

    Objects that were deep-copied another way may not compare equal to their
    copy; they are not judged here.
    """
    kind = type(now)
    if kind is not type(approved):
        return True
    if kind is dict:
        return now.keys() != approved.keys() or any(_changed(now[key], approved[key]) for key in now)
    if kind is list or kind is tuple:
        return len(now) != len(approved) or any(_changed(a, b) for a, b in zip(now, approved, strict=True))
    if kind in (str, int, float, bool):
        return now is not approved and bool(now != approved)
    return False


_TOOL_STACKS = {"tool.before": 0, "tool.call": 1, "tool.after": 2}
"""Where each tool point's stack is in a plan's (before, call, after)."""

PIPELINE = "agentbus:pipeline"
"""The ``id`` of the pipeline's own records: a call it denied, a call interrupted after the tool started."""


def _approved_args(call: ToolCall, returned: Any) -> dict[str, Any] | None:
    """The args the tool may receive once tool.before has run, or None: the call does not run.

    The decision is the call's (every block or ask on it or on a copy of it);
    beyond it, a call that no layer blocked is denied when the stack did not
    reach its end (a layer returned without calling ``call_next``, or returned
    it un-awaited: the layers inside it never judged the call), when its args
    cannot be copied, or when a layer changed them after the layers inside it
    had approved them.
    """
    if returned is not call and returned is not None and isawaitable(returned):
        # `return call_next(call)`: the layers inside it never ran
        if type(returned) is CoroutineType:
            returned.close()
        call.block(
            "a tool.before middleware returned call_next(...) without awaiting it, so the layers "
            "inside it never judged the call (write `return await call_next(call)`); blocked to be safe"
        )
    if call._decision == "block":
        return None
    approval = call._approval
    if approval is None:
        call.block(
            "a tool.before layer returned without calling call_next and without blocking, so the "
            "layers inside it never judged the call; blocked to be safe"
        )
        return None
    reached, approved = approval
    if reached is None:
        reached = call
    if isinstance(approved, BaseException):
        call.block(f"the tool's args cannot be copied ({describe_error(approved)}); blocked to be safe")
        return None
    if reached._args != approved and _changed(reached._args, approved):
        call.block(
            "a tool.before layer changed the args after the layers inside it had approved them "
            "(change them before call_next); blocked to be safe"
        )
        return None
    return approved  # type: ignore[no-any-return]


def _as_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the tool's args as a dict, or a TypeError that says what was expected."""
    if type(args) is dict:  # the usual case, without the ABC check
        return args.copy()
    if not isinstance(args, Mapping):
        raise TypeError(f"tool args must be a mapping of argument names to values, got {type(args).__name__}")
    return dict(args)


def _shorten(tool: object) -> str:
    text = tool if isinstance(tool, str) else repr(tool)
    return text if len(text) <= 64 else text[:63] + "…"


class Bus:
    """An event bus for one agent runtime (or several sharing a registry).

    ``log_level`` is the lowest record level sent to structlog (the logger
    named ``agentbus``); None keeps structlog out of it. ``dispatch_timeout``
    is the timeout of each async layer (and ``thread=True`` handler) without one
    of its own on message.before, params.before, tool.after and the lifecycle
    points (seed 003's 30 s): a slow layer fails alone, the layers after it
    still run. tool.before has none, since a gate may wait for a person.
    ``approver`` decides tool calls that a layer marked "ask"; without one they
    are denied.
    """

    def __init__(
        self,
        registry: Registry | None = None,
        *,
        log_level: int | str | None = INFO,
        dispatch_timeout: float | None = 30.0,
        approver: Approver | None = None,
    ) -> None:
        if registry is not None and not isinstance(registry, Registry):
            raise TypeError(f"registry must be an agentbus.Registry, got {type(registry).__name__}")
        if dispatch_timeout is not None and not (
            isinstance(dispatch_timeout, (int, float))
            and not isinstance(dispatch_timeout, bool)
            and dispatch_timeout > 0
        ):
            raise ValueError(
                f"dispatch_timeout must be a number of seconds > 0 or None, got {dispatch_timeout!r}"
            )
        if approver is not None and not callable(approver):
            raise TypeError(f"approver must be a callable taking the ToolCall, got {approver!r}")
        self.registry = registry if registry is not None else Registry()
        self._watchers: weakref.WeakSet[Any] = weakref.WeakSet()
        self.observers = Observers(on_change=self.invalidate)
        self.dispatch_timeout = dispatch_timeout
        self.approver = approver
        # Compiled stacks, keyed by the tool name as the caller spells it (so one
        # look-up also normalises it) or by (name, agent id) when there is an agent.
        self._plans: dict[Any, _ToolPlan] = {}
        self._old_plans: dict[Any, _ToolPlan] = {}
        # The names (as the caller spells them) that no layer at a tool point can match, for any
        # agent, while nobody wants dispatch records: call_tool runs them before any look-up.
        # A subset of the young generation's names, so bounded with it.
        self._bare: set[str] = set()
        # Compiled stacks by the registrations they hold: many names share one.
        self._compiled = _Generations()
        self._stacks = _Generations()
        self._redactor_cache: list[Any] | None = None
        self._call_ids = itertools.count(1)
        self.registry.watch(self)
        self._structlog: Any = None
        if log_level is not None:
            from .logging import StructlogSink

            self._structlog = StructlogSink()
            self.observers.add(self._structlog, level_number(log_level))

    # -- registration -------------------------------------------------------------

    def intercept(
        self,
        point: str,
        handler: F | None = None,
        *,
        id: str | None = None,
        priority: int = 0,
        tool: Matcher = None,
        agent: Matcher = None,
        on_error: OnError | None = None,
        timeout: float | None = None,
        shadow: bool = False,
        record_values: bool = True,
        thread: bool = False,
    ) -> Any:
        """Register a simple handler (sync or async): it mutates the event, returns nothing.

        Use as a decorator, ``@bus.intercept("tool.before", tool="exec")``, or
        call it with the handler. Options are those of :meth:`Registry.add`;
        ``thread=True`` runs a sync handler in a worker thread, so that a
        timeout holds even if it blocks (``time.sleep``, a slow read).
        """
        return self._register(
            "handler", point, handler, id=id, priority=priority, tool=tool, agent=agent,
            on_error=on_error, timeout=timeout, shadow=shadow, record_values=record_values,
            thread=thread,
        )  # fmt: skip

    def middleware(
        self,
        point: str,
        handler: F | None = None,
        *,
        id: str | None = None,
        priority: int = 0,
        tool: Matcher = None,
        agent: Matcher = None,
        on_error: OnError | None = None,
        timeout: float | None = None,
        shadow: bool = False,
        record_values: bool = True,
    ) -> Any:
        """Register ASGI-style middleware: ``async def mw(event, call_next)``.

        It acts before and after the inner layers (``result = await
        call_next(event)``) and short-circuits by not calling ``call_next``.
        """
        return self._register(
            "middleware", point, handler, id=id, priority=priority, tool=tool, agent=agent,
            on_error=on_error, timeout=timeout, shadow=shadow, record_values=record_values,
        )  # fmt: skip

    def _register(self, kind: Kind, point: str, handler: F | None, **options: Any) -> Any:
        if not isinstance(point, str):  # @bus.intercept without arguments
            verb = "intercept" if kind == "handler" else "middleware"
            raise RegistrationError(
                f'bus.{verb}() takes the hook point first: write @bus.{verb}("tool.before", ...), '
                f"not @bus.{verb}"
            )

        def register(fn: F) -> F:
            self.registry.add(point, fn, kind=kind, **options)
            return fn

        return register if handler is None else register(handler)

    def remove(self, id: str) -> bool:
        """Remove a registration by id."""
        return self.registry.remove(id)

    # -- observation ----------------------------------------------------------------

    def subscribe(self, *, max_buffer: int = 1024, level: int | str = "debug") -> Subscription:
        """An async stream of records: ``async with bus.subscribe() as records``.

        A subscriber that falls behind loses records (counted in ``dropped``);
        it never slows the bus down.
        """
        return Subscription(self.observers, max_buffer=max_buffer, level=level_number(level))

    def on_event(
        self, callback: Callable[[Record], None], *, level: int | str = "debug", dispatches: bool = False
    ) -> Callable[[], None]:
        """Call ``callback(record)`` for every record (seed's ``setOnEvent``); returns an undo function.

        The callback runs inline, so keep it quick; an exception in it is
        counted in ``bus.observers.failures`` and otherwise ignored. With
        ``dispatches=True`` it also gets one :data:`~agentbus.records.DISPATCH`
        record when each dispatch ends (how a span exporter knows a call ended).
        """
        return self.observers.add(callback, level_number(level), dispatches=dispatches)

    def stream_to_console(
        self, level: str = "on", *, file: Any = None, json: bool = False, color: bool | None = None
    ) -> Callable[[], None]:
        """Print interceptions as the seed's verbose lines; returns an undo function.

        ``level`` is the seed's verboseLevel: ``"on"`` (blocks, changes,
        failures) or ``"full"`` (every layer, diffs, durations, one line per
        finished call); ``"off"`` prints nothing. ``file`` defaults to stderr;
        ``json=True`` writes one JSON record per line. See :mod:`agentbus.console`.
        """
        from .console import stream_to_console

        undo = stream_to_console(self, level, file=file, json=json, color=color)
        sink = self._structlog
        if sink is None or level == "off":
            return undo
        sink.console_streams += 1  # printed once: structlog's default would print it again
        undone = False

        def undo_both() -> None:
            nonlocal undone
            if not undone:
                undone = True
                sink.console_streams -= 1
                undo()

        return undo_both

    def log_to(self, path: Any, *, level: int | str = "info") -> Callable[[], None]:
        """Append records to a JSON-lines audit log at ``path``; returns an undo function.

        Besides the records at ``level`` and above, every finished dispatch
        leaves one line. Write errors are counted, never raised. See
        :mod:`agentbus.audit_log`.
        """
        from .audit_log import log_to

        return log_to(self, path, level=level)

    # -- compiled stacks ------------------------------------------------------------

    def watch(self, watcher: Any) -> None:
        """Call ``watcher.invalidate()`` after every change of the registry or the observers
        (held weakly): for adapters that bind a framework hook only while it has work."""
        self._watchers.add(watcher)

    def invalidate(self) -> None:
        """Drop every compiled stack; called when the registry or the observers change.

        Dispatches under way keep the stacks they started with (copy-on-write).
        """
        self._plans = {}
        self._old_plans = {}
        self._bare = set()
        self._stacks = _Generations()
        self._compiled = _Generations()
        self._redactor_cache = None
        for watcher in tuple(self._watchers):
            watcher.invalidate()

    def _compile(
        self, point: str, registrations: tuple[Registration, ...], terminal: Chain | None
    ) -> Chain | None:
        if not registrations:
            return None
        bounded = point not in ("tool.before", "tool.call")
        return compile_stack(
            point,
            registrations,
            terminal,
            emit=self.observers.emit if self.observers else None,
            observe_level=self.observers.level,
            dispatch_timeout=self.dispatch_timeout if bounded else None,
            redactors=self._redactors() if self.observers else (),
        )

    def _matching(
        self, point: str, tool: str | None, agent: str | None, kind: str | None = None
    ) -> tuple[Registration, ...]:
        return tuple(r for r in self.registry.stack(point) if r.matches(tool, agent, kind))

    def _stack(self, point: str, agent: str | None) -> Chain | None:
        key = (point, agent)
        stack = self._stacks.get(key, _MISSING)
        if stack is _MISSING:
            matching = self._matching(point, None, agent)
            signature = (point, *(r.sequence for r in matching))
            stack = self._compiled.get(signature, _MISSING)
            if stack is _MISSING:
                stack = self._compile(point, matching, None)
                self._compiled.put(signature, stack)
            self._stacks.put(key, stack)
        return stack  # type: ignore[no-any-return]

    def _plan(self, tool: str, agent: str | None) -> _ToolPlan:
        plan = self._plans.get(tool if agent is None else (tool, agent))
        if plan is None:
            plan = self._new_plan(tool, agent)
        return plan

    def _new_plan(self, tool: str, agent: str | None, call_kind: str | None = None) -> _ToolPlan:
        """The plan of a name the young generation does not hold: promoted, or built.

        Plans live in two generations (``_plans``, the young one the hot path
        reads, and ``_old_plans``): when the young one is full it becomes the
        old one, and a name found there moves back. Names in use stay; memory
        holds at most two generations; no call pays for a cache emptied at once.
        Building a plan compiles nothing when another name matched the same
        registrations: stacks are cached by the registrations they hold.
        ``call_kind``: the kind one call's arguments told (``decide_tool(kind=...)``).
        """
        key: Any = tool if agent is None else (tool, agent)
        if call_kind is not None:
            key = (tool, agent, call_kind)
        plan = self._old_plans.pop(key, None)
        if plan is None:
            name = normalize_tool_name(tool)
            kind = call_kind or self.registry.kind_of(name)  # layers match the tool's name or its kind
            matching = (
                self._matching("tool.before", name, agent, kind),
                self._matching("tool.call", name, agent, kind),
                self._matching("tool.after", name, agent, kind),
            )
            # Registrations are known by their sequence number: unique, and always hashable.
            signature = tuple(tuple(r.sequence for r in stack) for stack in matching)
            # A tool.before stack of handlers only runs every handler on the call itself:
            # the pipeline takes the approved args at its end, with no terminal of its own.
            handlers_only = all(r.kind == "handler" for r in matching[0])
            stacks = self._compiled.get(signature, None)
            if stacks is None:
                stacks = (
                    self._compile("tool.before", matching[0], None if handlers_only else approve),
                    self._compile("tool.call", matching[1], _execute),
                    self._compile("tool.after", matching[2], None),
                )
                self._compiled.put(signature, stacks)
            plan = _ToolPlan(name, stacks[0], stacks[1], stacks[2], kind)
            plan.handlers_only = handlers_only
            if self.observers.wants_dispatches:
                plan.empty = False  # every call must end with its dispatch record
                plan.direct = False
            if self.observers:
                plan.timed = True  # a record of an interrupted call says how long it ran
            gate = gate_of(plan.before)
            if gate is not None and plan.direct and not self.observers:
                plan.gate, plan.settle, plan.context = gate.handler, gate.settle, gate.context
            plan.bare = plan.empty and not self._names(name, kind)
        if len(self._plans) >= _CACHE_LIMIT:
            self._old_plans = self._plans
            self._plans = {}
            self._bare = set()
        self._plans[key] = plan
        if plan.bare and call_kind is None:
            self._bare.add(tool)
        return plan

    def _names(self, name: str, kind: str | None) -> bool:
        """Whether a layer at a tool point may match ``name`` (or its kind) for some agent."""
        for point in TOOL_POINTS:
            for r in self.registry.stack(point):
                if r.tool is None or r.tool(name) or (kind is not None and r.tool(kind)):
                    return True
        return False

    def _dispatched(
        self,
        point: str,
        event: Any,
        started: float,
        decision: str | None = None,
        reason: str | None = None,
        error: BaseException | None = None,
    ) -> None:
        """Tell the observers that asked for them that a dispatch ended."""
        level = ERROR if error is not None else WARNING if decision is not None else DEBUG
        record = Record(
            point=point, id=DISPATCH, level=level, tool=getattr(event, "tool", None),
            agent_id=event.agent_id, session_key=event.session_key,
            call_id=getattr(event, "call_id", None), decision=decision, reason=reason,
            error=describe_error(error) if error is not None else None, duration=_perf() - started,
        )  # fmt: skip
        for redactor in self._redactors():
            record = redactor.redact_record(record)
        self.observers.emit_dispatch(record)

    # -- the verbs ------------------------------------------------------------------

    async def process_message(
        self,
        message: str,
        *,
        agent_id: str = "main",
        session_key: str | None = None,
        provider: str = "",
        model: str = "",
        metadata: dict[str, Any] | None = None,
    ) -> Message:
        """Run message.before; return the event with the final message and metadata."""
        if not isinstance(message, str):
            raise TypeError(f"message must be a str, got {type(message).__name__}")
        event = Message(
            message=message, metadata=dict(metadata) if metadata else {}, agent_id=agent_id,
            session_key=session_key, provider=provider, model=model,
        )  # fmt: skip
        dispatches = self.observers.wants_dispatches
        started = _perf() if dispatches else 0.0
        stack = self._stack("message.before", agent_id)
        if stack is not None:
            pending = stack(event)
            if type(pending) is CoroutineType:
                await pending
        if dispatches:
            self._dispatched("message.before", event, started)
        return event

    async def resolve_params(
        self,
        message: Message,
        *,
        think_level: str | None = None,
        reasoning_level: str | None = None,
        temperature: float | None = None,
        system_prompt: str | None = None,
    ) -> Params:
        """Run params.before for a processed message; return the effective parameters.

        ``system_prompt`` is the prompt the adapter can read (None where it cannot);
        a layer that assigns one asks the adapter to use it instead.
        """
        if not isinstance(message, Message):
            raise TypeError(
                "resolve_params takes the Message that process_message returned, "
                f"got {type(message).__name__}; bus.prepare(text) runs both"
            )
        event = Params(
            message=message.message, metadata=message.metadata, agent_id=message.agent_id,
            session_key=message.session_key, provider=message.provider, model=message.model,
        )  # fmt: skip
        # Through the setters, so that bad defaults fail here with a clear message.
        event.think_level = think_level
        event.reasoning_level = reasoning_level
        event.temperature = temperature
        event.system_prompt = system_prompt
        dispatches = self.observers.wants_dispatches
        started = _perf() if dispatches else 0.0
        stack = self._stack("params.before", message.agent_id)
        if stack is not None:
            pending = stack(event)
            if type(pending) is CoroutineType:
                await pending
        if dispatches:
            self._dispatched("params.before", event, started)
        return event

    async def prepare(
        self,
        message: str,
        *,
        agent_id: str = "main",
        session_key: str | None = None,
        provider: str = "",
        model: str = "",
        metadata: dict[str, Any] | None = None,
        think_level: str | None = None,
        reasoning_level: str | None = None,
        temperature: float | None = None,
    ) -> tuple[Message, Params]:
        """message.before then params.before: everything before a model call."""
        processed = await self.process_message(
            message, agent_id=agent_id, session_key=session_key, provider=provider,
            model=model, metadata=metadata,
        )  # fmt: skip
        params = await self.resolve_params(
            processed, think_level=think_level, reasoning_level=reasoning_level,
            temperature=temperature,
        )  # fmt: skip
        return processed, params

    async def notify(
        self,
        point: str,
        *,
        agent_id: str | None = None,
        session_key: str | None = None,
        reason: str | None = None,
        **data: Any,
    ) -> Lifecycle:
        """Run a lifecycle point (agent.start, turn.end, session ...); return the event.

        For ``session`` events with a ``before_*`` reason, check ``cancelled``.
        """
        if point not in LIFECYCLE_POINTS:
            raise ValueError(
                f"{point!r} is not a lifecycle point; use one of {', '.join(sorted(LIFECYCLE_POINTS))}"
            )
        event = Lifecycle(point=point, agent_id=agent_id, session_key=session_key, reason=reason, data=data)
        stack = self._stack(point, agent_id)
        if stack is not None:
            pending = stack(event)
            if type(pending) is CoroutineType:
                await pending
        return event

    async def list_tools(
        self,
        tools: Mapping[str, str],
        *,
        agent_id: str | None = None,
        session_key: str | None = None,
        turn: int | None = None,
    ) -> dict[str, str]:
        """Run tool.list on the tools about to be offered (name -> description).

        Returns what the layers left: the tools to offer and their
        descriptions, in the order given. A name that was not offered is
        refused (ValueError): a layer can hide or describe tools, not add them.
        """
        offered = dict(tools)
        stack = self._stack("tool.list", agent_id)
        if stack is None:
            return offered
        event = ToolList(tools=dict(offered), agent_id=agent_id, session_key=session_key, turn=turn)
        pending = stack(event)
        if type(pending) is CoroutineType:
            await pending
        added = [name for name in event.tools if name not in offered]
        if added:
            raise ValueError(
                f"a tool.list layer added {', '.join(map(repr, added))}, which the agent does not have; "
                "tool.list can hide and describe tools, not add them"
            )
        return {name: event.tools[name] for name in offered if name in event.tools}

    async def call_tool(
        self,
        tool: str,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_key: str | None = None,
    ) -> Any:
        """Run one tool call through the pipeline; return what the agent should see.

        ``execute(args)`` is the real tool, sync or async. A blocked call returns
        ``{"status": "blocked", "tool": ..., "reason": ...}`` without running it;
        a tool that raises returns ``{"status": "error", "tool": ..., "error": ...}``.
        Either way tool.after runs and the agent gets a result. (Pass ``call_id``,
        ``agent_id`` and ``session_key`` by keyword: they are not keyword-only
        because CPython does not specialise a call to a function that has such
        parameters, which costs a tenth of a call that nothing intercepts.)
        """
        try:
            if tool in self._bare and type(args) is dict:
                # No layer can match this tool and nobody wants a record of it: a call and a try
                # (other args take the plan's path below, which converts them or says why not).
                try:
                    result = execute(args)
                    if type(result) is CoroutineType:
                        return await result
                    if isawaitable(result):
                        result = await result
                except Exception as exc:
                    return error_result(normalize_tool_name(tool), exc)
                return result
        except TypeError:  # a name that cannot be a key: the look-up below says why
            pass
        try:
            plan = self._plans[tool] if agent_id is None else self._plans[tool, agent_id]
        except (KeyError, TypeError):  # not planned yet (or a name that cannot be a key)
            try:
                plan = self._new_plan(tool, agent_id)
            except (TypeError, ValueError) as exc:  # a name no matcher can judge: never run it
                return error_result(_shorten(tool), exc)
        if plan.empty:
            # Nothing intercepts this tool (for this agent): as above.
            try:
                result = execute(args if type(args) is dict else _as_args(args))
                if type(result) is CoroutineType or isawaitable(result):
                    result = await result
            except Exception as exc:
                return error_result(plan.name, exc)
            return result
        if not plan.direct:
            number_or_id = call_id or next(self._call_ids)  # the event spells it "call-N" when read
            if self.observers.wants_dispatches:
                return (
                    await self._run_dispatched(plan, args, execute, number_or_id, agent_id, session_key)
                ).result
            return await self._pipeline(plan, args, execute, number_or_id, agent_id, session_key, False, True)
        # Only tool.before runs around the tool: _pipeline's path for it, in this one coroutine
        # (whose every local costs the calls that nothing intercepts a little: keep them few).
        # The call, as _new_tool_call builds it, without a frame of its own.
        gate = plan.gate
        call = _new(ToolCall)
        call._tool = plan.name
        call._args = args.copy() if type(args) is dict else _as_args(args)
        call._call_id = call_id or next(self._call_ids)  # spelled "call-N" when it is read
        call._agent_id = agent_id
        call._session_key = session_key
        call._kind = plan.kind
        call._decision = call._approval = call._state = call._run = None
        call._attribution = plan.context
        if _lineage.nested and _lineage_chain.get():
            call._parent_agent_id = parent_of(agent_id)
        if gate is not None:  # one sync handler, called here: the stack settles anything unusual
            try:
                returned = gate(call)
            except Exception as exc:
                returned = plan.settle(call, None, exc)  # type: ignore[misc]
            else:
                if returned is None and call._decision is None:
                    # The usual end: args of plain values, whose deep copy is a dict.copy(),
                    # go to the tool (anything else: the general path below).
                    approved: dict[str, Any] | None = call._args
                    if type(approved) is dict:
                        for key in approved:  # (not .values(): one object fewer to make)
                            if type(approved[key]) not in _ATOMS:
                                break
                        else:
                            # Nobody observed when the call started: no record, no timing.
                            try:
                                result = execute(approved.copy())
                                if type(result) is CoroutineType:
                                    return await result
                                if isawaitable(result):
                                    result = await result
                            except Exception as exc:
                                return error_result(plan.name, exc)
                            return result
                    returned = call
                else:
                    returned = plan.settle(call, returned, None)  # type: ignore[misc]
        else:
            returned = plan.before(call)  # type: ignore[misc]
        awaited = type(returned) is CoroutineType
        if awaited:
            returned = await returned
        # The common case of a stack of handlers inline, as above (anything else: _approved).
        approved = call._args
        if plan.handlers_only and call._decision is None and type(approved) is dict:
            for key in approved:
                if type(approved[key]) not in _ATOMS:
                    approved = None
                    break
            else:
                approved = approved.copy()
        else:
            approved = None
        if approved is None:
            approved = self._approved(plan, call, returned, awaited)
        decision = call._decision
        if decision == "ask":
            decision = await self._ask(call)
        if decision is not None or approved is None:
            return blocked_result(plan.name, call.block_reason or "blocked")
        started = _perf() if plan.timed else 0.0
        try:
            result = execute(approved)
            if type(result) is CoroutineType or isawaitable(result):
                result = await result
        except Exception as exc:
            return error_result(plan.name, exc)
        except ToolPaused:  # not an end: resume_tool() finishes the call
            raise
        except BaseException as exc:  # cancelled (or worse) while the tool ran: say so
            self._interrupted(call, "tool.call", exc, started, "while the tool ran")
            raise
        return result

    async def run_tool(
        self,
        tool: str,
        args: Mapping[str, Any],
        execute: ToolFunction,
        *,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_key: str | None = None,
    ) -> ToolResult:
        """Like :meth:`call_tool`, but return the final tool.after event (result, error,
        blocked, block_reason, duration, args as executed)."""
        try:
            plan = self._plan(tool, agent_id)
        except (TypeError, ValueError) as exc:  # a name no matcher can judge: never run it
            name = _shorten(tool)
            return ToolResult(tool=name, args=_as_args(args), result=error_result(name, exc), error=exc)
        number_or_id = call_id or next(self._call_ids)
        if self.observers.wants_dispatches:
            return await self._run_dispatched(plan, args, execute, number_or_id, agent_id, session_key)
        return await self._pipeline(plan, args, execute, number_or_id, agent_id, session_key, False, False)

    async def decide_tool(
        self,
        tool: str,
        args: Mapping[str, Any],
        *,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_key: str | None = None,
        kind: str | None = None,
    ) -> ToolCall:
        """Run only tool.before and return its decision; nothing is executed.

        For adapters whose runtime executes the tool itself (Claude Code hooks)
        and for ``agentbus eval``. Run the tool only if ``call.decision is None``:
        an "ask" (``decision == "ask"``, ``blocked`` False) is not an approval;
        route it to your approver or your runtime's own permission prompt.

        ``kind``: this call's own kind, for a tool the registry gives none (one
        that reaches a hook with no schema): layers matching that kind judge this
        call only, and the registry learns nothing from it.
        """
        started = _perf() if self.observers.wants_dispatches else 0.0
        if kind is None:
            plan = self._plan(tool, agent_id)
        else:
            plan = self._plans.get((tool, agent_id, kind)) or self._new_plan(tool, agent_id, kind)
        if not isinstance(args, Mapping):
            _as_args(args)  # raises the TypeError that says what was expected
        try:
            # A deep copy: the caller compares its args with call.args to see what changed.
            own_args = copy_args(dict(args))
        except Exception as exc:
            own_args = {}
            failure: Exception | None = exc
        else:
            failure = None
        call = ToolCall(
            tool=plan.name, args=own_args, call_id=call_id or next(self._call_ids),
            agent_id=agent_id, session_key=session_key, kind=plan.kind,
        )  # fmt: skip
        if failure is not None:
            call.block(f"the tool's args cannot be copied ({describe_error(failure)}); blocked to be safe")
        before = plan.before
        if before is not None and failure is None:
            returned = before(call)
            awaited = type(returned) is CoroutineType
            if awaited:
                returned = await returned
            approved = self._approved(plan, call, returned, awaited)
            if approved is not None:
                call._args = approved  # what every layer approved, even if it reached the end as a copy
        if self.observers.wants_dispatches:
            self._dispatched("tool.before", call, started, call.decision, call.block_reason)
        return call

    def intercepts(self, point: str, *, tool: str | None = None, agent_id: str | None = None) -> bool:
        """Whether any layer runs at ``point`` for ``tool`` and ``agent_id`` (without them:
        whether any layer is registered there).

        For adapters that bind only what is registered: a framework hook or
        wrapper costs every call, so it is bound only when this is true (one
        cache look-up once the stacks are compiled). Ask again when the registry
        changes (``bus.registry.version``).
        """
        if point not in HOOK_POINTS:
            raise ValueError(f"{point!r} is not a hook point; use one of {', '.join(sorted(HOOK_POINTS))}")
        if point in TOOL_POINTS:
            if tool is None:
                return bool(self.registry.stack(point))
            plan = self._plan(tool, agent_id)
            return (plan.before, plan.call, plan.after)[_TOOL_STACKS[point]] is not None
        if agent_id is None:
            return bool(self.registry.stack(point))
        return self._stack(point, agent_id) is not None

    def intercepts_tool(self, tool: str, *, agent_id: str | None = None) -> bool:
        """Whether a call of ``tool`` has anything to run: a layer on a tool point that
        matches it (by name or kind), or an observer that wants a record of every dispatch.

        False means an adapter may let the framework run the call as it would without
        agentbus. Bind the tool's kind first (``registry.bind_tools``): layers that match
        by kind match only once it is known.
        """
        return not self._plan(tool, agent_id).empty

    async def execute_tool(self, call: ToolCall, execute: ToolFunction) -> Any:
        """Run tool.call around ``execute`` for a call :meth:`decide_tool` let through.

        For adapters whose runtime runs the tool between callbacks of its own
        (Google ADK, Strands): tool.before in one callback (:meth:`decide_tool`),
        this around the runtime's own execution, tool.after in the next one
        (:meth:`finish_tool`). ``execute(args)`` receives the args tool.before
        approved. Returns what the stack returned; what the tool raises is raised
        here once the layers have seen it, so that the runtime handles it as it
        would without agentbus. A blocked call raises
        :class:`~agentbus.ToolBlockedError` and never runs; an "ask" may run only
        once :meth:`approve` returned True.
        """
        if call.blocked:
            raise ToolBlockedError(call.tool, call.block_reason or "blocked")
        approved = call._approved_args if call._approved_args is not None else call._args
        started = _perf() if self.observers.wants_dispatches else 0.0
        try:
            plan = self._plan(call.tool, call.agent_id)
            if plan.call is None:
                result = execute(approved)
                if type(result) is CoroutineType or isawaitable(result):
                    result = await result
            else:
                call._run_through(execute, approved)
                try:
                    result = await plan.call(call)
                finally:
                    call._args = approved  # tool.after sees the args as executed, as a dict
                result = self._checked_call_result(call, plan, result)
        except BaseException as exc:
            if started:
                self._dispatched("tool.call", call, started, error=exc)
            raise
        if started:
            self._dispatched("tool.call", call, started)
        return result

    async def finish_tool(
        self,
        tool: str,
        args: Mapping[str, Any],
        result: Any,
        *,
        error: BaseException | None = None,
        blocked: bool = False,
        block_reason: str | None = None,
        duration: float = 0.0,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_key: str | None = None,
        kind: str | None = None,
    ) -> ToolResult:
        """Run only tool.after on a result produced elsewhere; return the final event.

        ``kind``: the call's own kind, as :meth:`decide_tool` takes it.
        """
        if error is not None and not isinstance(error, BaseException):
            raise TypeError(
                f"error must be the exception the tool raised, or None; got {type(error).__name__}"
            )
        started = _perf() if self.observers.wants_dispatches else 0.0
        if kind is None:
            plan = self._plan(tool, agent_id)
        else:
            plan = self._plans.get((tool, agent_id, kind)) or self._new_plan(tool, agent_id, kind)
        event = ToolResult(
            tool=plan.name, args=_as_args(args), result=result,
            call_id=call_id or f"call-{next(self._call_ids)}", agent_id=agent_id,
            session_key=session_key, error=error, blocked=blocked, block_reason=block_reason,
            duration=duration, kind=plan.kind,
        )  # fmt: skip
        after = plan.after
        if after is not None:
            pending = after(event)
            if type(pending) is CoroutineType:
                await pending
        if self.observers.wants_dispatches:
            self._dispatched("tool.after", event, started, "block" if blocked else None, block_reason, error)
        return event

    async def resume_tool(
        self,
        tool: str,
        approved_args: Mapping[str, Any],
        execute: ToolFunction,
        *,
        call_id: str | int,
        agent_id: str | None = None,
        session_key: str | None = None,
    ) -> ToolResult:
        """Finish a call that paused inside the tool after tool.before approved it.

        For a framework that stops a run inside a tool and later runs the tool
        again (LangGraph's ``interrupt()``): tool.call around the tool with the
        args tool.before approved the first time, then tool.after, so the call
        is judged once and ends once. Never for a new call: tool.before does
        not run.
        """
        plan = self._plan(tool, agent_id)
        if self.observers.wants_dispatches:
            return await self._run_dispatched(
                plan, approved_args, execute, call_id, agent_id, session_key, resumed=True
            )
        return await self._pipeline(plan, approved_args, execute, call_id, agent_id, session_key, True, False)

    async def _run_dispatched(
        self,
        plan: _ToolPlan,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str | int,
        agent_id: str | None,
        session_key: str | None,
        resumed: bool = False,
    ) -> ToolResult:
        """The pipeline, and one dispatch record when it ends, however it ends."""
        started = _perf()
        try:
            event = await self._pipeline(plan, args, execute, call_id, agent_id, session_key, resumed, False)
        except ToolPaused as paused:  # not an end: resume_tool() ends it later
            ended = ToolCall(plan.name, {}, call_id, agent_id, session_key)
            self._dispatched("tool.call", ended, started, "paused", str(paused))
            raise
        except BaseException as exc:  # cancelled, or on_error="raise": the call ended all the same
            ended = ToolCall(plan.name, {}, call_id, agent_id, session_key)
            self._dispatched("tool.call", ended, started, error=exc)
            raise
        decision = "block" if event.blocked else None
        self._dispatched("tool.call", event, started, decision, event.block_reason, event.error)
        return event

    @overload
    async def _pipeline(
        self,
        plan: _ToolPlan,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str | int,
        agent_id: str | None,
        session_key: str | None,
        resumed: bool,
        bare: Literal[False],
    ) -> ToolResult: ...

    @overload
    async def _pipeline(
        self,
        plan: _ToolPlan,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str | int,
        agent_id: str | None,
        session_key: str | None,
        resumed: bool,
        bare: Literal[True],
    ) -> Any: ...

    async def _pipeline(
        self,
        plan: _ToolPlan,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str | int,
        agent_id: str | None,
        session_key: str | None,
        resumed: bool,
        bare: bool,
    ) -> Any:
        """tool.before (unless ``resumed``: it approved these args already), then
        (unless blocked) tool.call around the tool, then tool.after.

        Returns the final ToolResult; with ``bare``, the result alone (what the agent
        gets), and without tool.after layers no ToolResult is built at all.
        """
        name = plan.name
        # Events are built positionally on this path: keywords cost twice as much.
        call = _new_tool_call(name, _as_args(args), call_id, agent_id, session_key, plan.kind)
        approved: dict[str, Any] | None
        if plan.before is not None and not resumed:
            returned = plan.before(call)
            awaited = type(returned) is CoroutineType
            if awaited:
                returned = await returned
            approved = self._approved(plan, call, returned, awaited)
        else:  # nothing judges the call, or it was judged before it paused: the args as given
            approved = call._args
        decision = call._decision
        if decision == "ask":
            decision = await self._ask(call)
        error: BaseException | None = None
        duration = 0.0
        ran = False
        if decision is not None or approved is None:
            decision = decision or "block"
            result: Any = blocked_result(name, call.block_reason or "blocked")
            approved = call._args
        else:
            # Timed only when a ToolResult or a record will say how long it took.
            started = _perf() if plan.timed or not bare else 0.0
            ran = True
            try:
                if plan.call is not None:
                    call._run_through(execute, approved)
                    try:
                        result = await plan.call(call)
                    finally:
                        call._args = approved  # tool.after sees the args as executed, as a dict
                    result = self._checked_call_result(call, plan, result)
                else:  # no tool.call layers: run the tool here, one coroutine fewer
                    result = execute(approved)
                    if type(result) is CoroutineType or isawaitable(result):
                        result = await result
            except Exception as exc:
                # The tool's error, or a tool.call layer's under on_error="raise": either
                # way the call failed, and the agent gets an error result.
                error = exc
                result = error_result(name, exc)
            except ToolPaused:  # not an end: resume_tool() finishes the call
                raise
            except BaseException as exc:  # cancelled (or worse) while the tool ran: say so
                self._interrupted(call, "tool.call", exc, started, "while the tool ran")
                raise
            if started:
                duration = _perf() - started
        if bare and plan.after is None:
            return result  # nothing reads a ToolResult: none is built
        blocked = decision is not None
        event = ToolResult(
            name, approved, result, call.call_id, agent_id, session_key, error, blocked,
            call.block_reason if blocked else None, duration, plan.kind,
        )  # fmt: skip
        if plan.after is not None:
            after_started = _perf()
            try:
                pending = plan.after(event)
                if type(pending) is CoroutineType:
                    await pending
            except Exception:  # on_error="raise": that layer's own record says what failed
                raise
            except BaseException as exc:
                if ran:  # the tool ran: whatever stops tool.after, the records must say so
                    outcome = "failed" if error is not None else "finished"
                    self._interrupted(
                        call, "tool.after", exc, after_started, f"during tool.after; the tool had {outcome}"
                    )
                raise
        return event.result if bare else event

    def _checked_call_result(self, call: ToolCall, plan: _ToolPlan, result: Any) -> Any:
        """What tool.call's stack returned, made safe for the agent.

        An un-awaited awaitable is an error. None when the tool returned a value
        means a middleware forgot ``return`` before ``await call_next(call)``:
        the agent gets the tool's own result, and an ERROR record says which fix to make.
        """
        if isawaitable(result):  # a layer wrote `return call_next(call)`
            if type(result) is CoroutineType:
                result.close()
            raise TypeError(
                "a tool.call middleware returned an un-awaited awaitable: "
                "write `return await call_next(call)`"
            )
        tool_result = call._run.tool_result if call._run is not None else None
        if result is None and tool_result is not None:
            if self.observers:
                layers = self.registry.stack("tool.call")
                ids = ", ".join(r.id for r in layers if r.matches(call.tool, call.agent_id))
                self._emit(
                    call, "tool.call", ERROR,
                    "a tool.call middleware returned None although the tool returned a result: "
                    f"write `return await call_next(call)` (layers: {ids}); the agent got the tool's result",
                )  # fmt: skip
            return tool_result
        return result

    def _approved(
        self, plan: _ToolPlan, call: ToolCall, returned: Any, awaited: bool
    ) -> dict[str, Any] | None:
        """The args the tool receives once ``plan``'s tool.before stack has run on ``call``
        (it returned ``returned``, after an await if ``awaited``), or None: the call does not run.

        The two common cases are decided here; anything else by :meth:`_approve`.
        """
        if plan.handlers_only:
            # Every handler ran on the call itself (one that raised was handled by its
            # failure policy; anything else propagated): the args the call holds now are
            # what they approved, and the tool receives a deep copy of them.
            if call._decision == "block":
                return None
            try:
                return copy_args(call._args)  # type: ignore[no-any-return]
            except Exception as exc:  # RecursionError (too deep), TypeError (cannot be copied)
                call._approval = (None, exc)
        else:
            approval = call._approval
            if (
                approval is not None  # the call itself got to the end,
                and approval[0] is None  # undecided, with the args it had there (no layer
                and call._decision is None  # ran after the end if the stack never awaited)
                and returned is call
                and type(approval[1]) is dict  # not the error of args that cannot be copied
                and (not awaited or call._args == approval[1])
            ):
                return approval[1]
        return self._approve(call, returned)  # denies with a reason and a record, or approves

    def _approve(self, call: ToolCall, returned: Any) -> dict[str, Any] | None:
        """:func:`_approved_args`, and a record when the pipeline itself denies the call."""
        decided = call._decision
        approved = _approved_args(call, returned)
        if approved is None and decided != "block" and self.observers:
            self._emit(call, "tool.before", WARNING, None, decision="block", reason=call.block_reason)
        return approved

    def _redactors(self) -> list[Any]:
        """Installed layers that redact (a ``redact_record`` method): every record goes through them."""
        redactors = self._redactor_cache
        if redactors is None:
            redactors = self._redactor_cache = [
                r.handler
                for point in self.registry.points()
                for r in self.registry.stack(point)
                if callable(getattr(type(r.handler), "redact_record", None))
            ]
        return redactors

    def _emit(
        self,
        call: ToolCall,
        point: str,
        level: int,
        error: str | None,
        duration: float = 0.0,
        *,
        decision: str | None = None,
        reason: str | None = None,
    ) -> None:
        """A record of the pipeline itself (id :data:`PIPELINE`)."""
        record = Record(
            point, PIPELINE, level, call.tool, call.agent_id, call.session_key, call.call_id,
            {}, decision, reason, error, duration,
        )  # fmt: skip
        for redactor in self._redactors():
            record = redactor.redact_record(record)
        self.observers.emit(record)

    def _interrupted(self, call: ToolCall, point: str, exc: BaseException, started: float, when: str) -> None:
        if self.observers:
            self._emit(
                call, point, ERROR,
                f"{describe_error(exc)}: the call was interrupted {when}; the remaining layers did not run",
                _perf() - started,
            )  # fmt: skip

    async def approve(self, call: ToolCall) -> bool:
        """Hand a call that tool.before marked "ask" (:meth:`decide_tool`) to the approver.

        For adapters whose runtime asks its own way (the Claude Agent SDK's
        ``can_use_tool``). True: run it. False: denied, and ``call.block_reason``
        says who denied it and why; no approver, or one that fails, denies.
        """
        return await self._ask(call) is None

    async def _ask(self, call: ToolCall) -> str | None:
        """Route an "ask" to the approver; return the final decision (None: run it)."""
        if self.approver is None:
            call.block(f"approval required and no approver is configured: {call.block_reason}")
            return "block"
        try:
            approved = self.approver(call)
            if isawaitable(approved):  # async approvers (the usual kind) and sync ones alike
                approved = await approved
        except Exception as exc:
            approved = False
            reason = f"the approver failed ({describe_error(exc)}); denied to be safe"
        else:
            reason = f"denied by the approver: {call.block_reason}"
        if approved is True:
            return None
        call.block(reason)
        return "block"

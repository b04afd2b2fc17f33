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
from collections.abc import Awaitable, Callable, Mapping
from inspect import isawaitable
from types import CoroutineType
from typing import Any, TypeVar, Union

from .errors import RegistrationError, ToolPaused, describe_error
from .events import LIFECYCLE_POINTS, Lifecycle, Message, Params, ToolCall, ToolResult
from .records import DEBUG, DISPATCH, ERROR, INFO, WARNING, Observers, Record, Subscription, level_number
from .registry import Kind, Matcher, OnError, Registry
from .stack import Chain, compile_stack
from .tools import blocked_result, error_result, normalize_tool_name

__all__ = ["Approver", "Bus", "ToolFunction"]

ToolFunction = Callable[[dict[str, Any]], Any]
"""A tool as the bus calls it: takes the args dict, returns the result (sync or async)."""

Approver = Callable[[ToolCall], Union[Awaitable[bool], bool]]
"""Decides a tool.before "ask" (sync or async): return True to let the call run."""

F = TypeVar("F", bound=Callable[..., Any])

_perf = time.perf_counter
_MISSING: Any = object()
_CACHE_LIMIT = 4096


class _ToolPlan:
    """The three compiled stacks of one (tool, agent): one cache look-up per call."""

    __slots__ = ("after", "before", "call", "empty", "kind", "name")

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


async def _execute(call: ToolCall) -> Any:
    """The tool.call terminal: the real tool, with the args tool.before approved."""
    try:
        result = call.execute(call._approved_args)
        if type(result) is CoroutineType or isawaitable(result):
            result = await result
    except Exception as exc:
        call.tool_error = exc  # lets tool.call middleware pass it through untouched
        raise
    return result


async def _identity(event: Any) -> Any:
    return event


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
    bounds each dispatch of message.before, params.before, tool.after and the
    lifecycle points that holds async layers (seed 003's 30 s); tool.before has
    none, since a gate may wait for a person. ``approver`` decides tool calls
    that a layer marked "ask"; without one they are denied.
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
        self.observers = Observers(on_change=self.invalidate)
        self.dispatch_timeout = dispatch_timeout
        self.approver = approver
        # Compiled stacks, keyed by the tool name as the caller spells it (so one
        # look-up also normalises it) or by (name, agent id) when there is an agent.
        self._plans: dict[Any, _ToolPlan] = {}
        self._stacks: dict[tuple[str, str | None], Chain | None] = {}
        self._call_ids = itertools.count(1)
        self.registry.watch(self)
        if log_level is not None:
            from .logging import StructlogSink

            self.observers.add(StructlogSink(), level_number(log_level))

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
    ) -> Any:
        """Register a simple handler (sync or async): it mutates the event, returns nothing.

        Use as a decorator, ``@bus.intercept("tool.before", tool="exec")``, or
        call it with the handler. Options are those of :meth:`Registry.add`.
        """
        return self._register(
            "handler", point, handler, id=id, priority=priority, tool=tool, agent=agent,
            on_error=on_error, timeout=timeout, shadow=shadow, record_values=record_values,
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

        return stream_to_console(self, level, file=file, json=json, color=color)

    def log_to(self, path: Any, *, level: int | str = "info") -> Callable[[], None]:
        """Append records to a JSON-lines audit log at ``path``; returns an undo function.

        Besides the records at ``level`` and above, every finished dispatch
        leaves one line. Write errors are counted, never raised. See
        :mod:`agentbus.audit_log`.
        """
        from .audit_log import log_to

        return log_to(self, path, level=level)

    # -- compiled stacks ------------------------------------------------------------

    def invalidate(self) -> None:
        """Drop every compiled stack; called when the registry or the observers change.

        Dispatches under way keep the stacks they started with (copy-on-write).
        """
        self._plans = {}
        self._stacks = {}

    def _compile(
        self, point: str, tool: str | None, agent: str | None, terminal: Chain, kind: str | None = None
    ) -> Chain | None:
        registrations = [r for r in self.registry.stack(point) if r.matches(tool, agent, kind)]
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
        )

    def _stack(self, point: str, agent: str | None) -> Chain | None:
        key = (point, agent)
        stack = self._stacks.get(key, _MISSING)
        if stack is _MISSING:
            if len(self._stacks) >= _CACHE_LIMIT:
                self._stacks = {}
            stack = self._stacks[key] = self._compile(point, None, agent, _identity)
        return stack  # type: ignore[no-any-return]

    def _plan(self, tool: str, agent: str | None) -> _ToolPlan:
        plan = self._plans.get(tool if agent is None else (tool, agent))
        if plan is None:
            plan = self._new_plan(tool, agent)
        return plan

    def _new_plan(self, tool: str, agent: str | None) -> _ToolPlan:
        name = normalize_tool_name(tool)
        kind = self.registry.kind_of(name)  # layers match the tool's name or its kind
        plan = _ToolPlan(
            name,
            self._compile("tool.before", name, agent, _identity, kind),
            self._compile("tool.call", name, agent, _execute, kind),
            self._compile("tool.after", name, agent, _identity, kind),
            kind,
        )
        if self.observers.wants_dispatches:
            plan.empty = False  # every call must end with its dispatch record
        if len(self._plans) >= _CACHE_LIMIT:  # many distinct tools or agents: start afresh
            self._plans = {}
        self._plans[tool if agent is None else (tool, agent)] = plan
        return plan

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
            await stack(event)
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
    ) -> Params:
        """Run params.before for a processed message; return the effective parameters."""
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
        dispatches = self.observers.wants_dispatches
        started = _perf() if dispatches else 0.0
        stack = self._stack("params.before", message.agent_id)
        if stack is not None:
            await stack(event)
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
            await stack(event)
        return event

    async def call_tool(
        self,
        tool: str,
        args: Mapping[str, Any],
        execute: ToolFunction,
        *,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_key: str | None = None,
    ) -> Any:
        """Run one tool call through the pipeline; return what the agent should see.

        ``execute(args)`` is the real tool, sync or async. A blocked call returns
        ``{"status": "blocked", "tool": ..., "reason": ...}`` without running it;
        a tool that raises returns ``{"status": "error", "tool": ..., "error": ...}``.
        Either way tool.after runs and the agent gets a result.
        """
        plan = self._plans.get(tool if agent_id is None else (tool, agent_id))
        if plan is None:
            try:
                plan = self._new_plan(tool, agent_id)
            except (TypeError, ValueError) as exc:  # a name no matcher can judge: never run it
                return error_result(_shorten(tool), exc)
        if plan.empty:
            # Nothing intercepts this tool: a call and a try, nothing more.
            try:
                result = execute(args if type(args) is dict else _as_args(args))
                if type(result) is CoroutineType or isawaitable(result):
                    result = await result
            except Exception as exc:
                return error_result(plan.name, exc)
            return result
        call_id = call_id or f"call-{next(self._call_ids)}"
        if self.observers.wants_dispatches:
            event = await self._run_dispatched(plan, args, execute, call_id, agent_id, session_key)
        else:
            event = await self._pipeline(plan, args, execute, call_id, agent_id, session_key)
        return event.result

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
        call_id = call_id or f"call-{next(self._call_ids)}"
        if self.observers.wants_dispatches:
            return await self._run_dispatched(plan, args, execute, call_id, agent_id, session_key)
        return await self._pipeline(plan, args, execute, call_id, agent_id, session_key)

    async def decide_tool(
        self,
        tool: str,
        args: Mapping[str, Any],
        *,
        call_id: str | None = None,
        agent_id: str | None = None,
        session_key: str | None = None,
    ) -> ToolCall:
        """Run only tool.before and return its decision; nothing is executed.

        For adapters whose runtime executes the tool itself (Claude Code hooks)
        and for ``agentbus eval``. Run the tool only if ``call.decision is None``:
        an "ask" (``decision == "ask"``, ``blocked`` False) is not an approval;
        route it to your approver or your runtime's own permission prompt.
        """
        started = _perf() if self.observers.wants_dispatches else 0.0
        plan = self._plan(tool, agent_id)
        call = ToolCall(
            tool=plan.name, args=_as_args(args), call_id=call_id or f"call-{next(self._call_ids)}",
            agent_id=agent_id, session_key=session_key, kind=plan.kind,
        )  # fmt: skip
        before = plan.before
        if before is not None:
            await before(call)
        if self.observers.wants_dispatches:
            self._dispatched("tool.before", call, started, call.decision, call.block_reason)
        return call

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
    ) -> ToolResult:
        """Run only tool.after on a result produced elsewhere; return the final event."""
        if error is not None and not isinstance(error, BaseException):
            raise TypeError(
                f"error must be the exception the tool raised, or None; got {type(error).__name__}"
            )
        started = _perf() if self.observers.wants_dispatches else 0.0
        plan = self._plan(tool, agent_id)
        event = ToolResult(
            tool=plan.name, args=_as_args(args), result=result,
            call_id=call_id or f"call-{next(self._call_ids)}", agent_id=agent_id,
            session_key=session_key, error=error, blocked=blocked, block_reason=block_reason,
            duration=duration, kind=plan.kind,
        )  # fmt: skip
        after = plan.after
        if after is not None:
            await after(event)
        if self.observers.wants_dispatches:
            self._dispatched("tool.after", event, started, "block" if blocked else None, block_reason, error)
        return event

    async def resume_tool(
        self,
        tool: str,
        approved_args: Mapping[str, Any],
        execute: ToolFunction,
        *,
        call_id: str,
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
        return await self._pipeline(
            plan, approved_args, execute, call_id, agent_id, session_key, resumed=True
        )

    async def _run_dispatched(
        self,
        plan: _ToolPlan,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str,
        agent_id: str | None,
        session_key: str | None,
        resumed: bool = False,
    ) -> ToolResult:
        """The pipeline, and one dispatch record when it ends, however it ends."""
        started = _perf()
        try:
            event = await self._pipeline(plan, args, execute, call_id, agent_id, session_key, resumed)
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

    async def _pipeline(
        self,
        plan: _ToolPlan,
        args: Mapping[str, Any],
        execute: ToolFunction,
        call_id: str,
        agent_id: str | None,
        session_key: str | None,
        resumed: bool = False,
    ) -> ToolResult:
        """tool.before (unless ``resumed``: it approved these args already), then
        (unless blocked) tool.call around the tool, then tool.after."""
        name = plan.name
        # Events are built positionally on this path: keywords cost twice as much.
        call = ToolCall(name, _as_args(args), call_id, agent_id, session_key, plan.kind)
        if plan.before is not None and not resumed:
            await plan.before(call)
        decision = call.decision
        if decision == "ask":
            decision = await self._ask(call)
        error: BaseException | None = None
        duration = 0.0
        if decision is not None:
            result: Any = blocked_result(name, call.block_reason or "blocked")
        else:
            call.execute = execute
            started = _perf()
            try:
                if plan.call is not None:
                    approved = call.approve_args()
                    try:
                        result = await plan.call(call)
                    finally:
                        call._args = approved  # tool.after sees the args as executed, as a dict
                    if isawaitable(result):  # a layer wrote `return call_next(call)`
                        if type(result) is CoroutineType:
                            result.close()
                        raise TypeError(
                            "a tool.call middleware returned an un-awaited awaitable: "
                            "write `return await call_next(call)`"
                        )
                else:  # no tool.call layers: run the tool here, one coroutine fewer
                    result = execute(call.args)
                    if type(result) is CoroutineType or isawaitable(result):
                        result = await result
            except Exception as exc:
                # The tool's error, or a tool.call layer's under on_error="raise": either
                # way the call failed, and the agent gets an error result.
                error = exc
                result = error_result(name, exc)
            duration = _perf() - started
        blocked = decision is not None
        event = ToolResult(
            name, call.args, result, call.call_id, agent_id, session_key, error, blocked,
            call.block_reason if blocked else None, duration, plan.kind,
        )  # fmt: skip
        if plan.after is not None:
            await plan.after(event)
        return event

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

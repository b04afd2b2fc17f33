"""Compiling a hook point's layers into one callable.

A stack is built once per (hook point, tool, agent) and cached by the bus. The
fold is Starlette's: start from the terminal, wrap it in each layer from the
innermost out. Two kinds of run are not wrapped layer by layer:

- a run of simple handlers is one flat loop (pluggy's ``_multicall``), and a
  plain function, not a coroutine, when no handler in it is async and no
  middleware calls it: a sync handler then costs a call, not an await;
- a run of plain gate middleware is chained with no frame of ours in between,
  and one guard at its top applies the failure policy of whichever layer raised.

A compiled stack returns the event (or the terminal's result), or a coroutine
of it when something had to be awaited: its caller checks which.

On tool.before the decision belongs to the call, not to the object that
reaches the end: in a stack with middleware (which can pass a copy of the call,
or a new one, inward) a block on any copy counts (see
:data:`agentbus.events._DECIDING`), and the stack's end, :func:`approve`, keeps
a deep copy of the args the layers let through. A call that never reached the
end without a decision was not judged by every layer, and the bus denies it.
Which layer decided is found from the code objects of the frames that called
``block()``/``ask()`` (recorded by the event, only when a layer decides): that
is what lets gate middleware run with no wrapper of ours around each, and it
holds when a layer passes a copy of the call inward.

Every async layer is bounded by its own timeout (its registration's, or the
bus's ``dispatch_timeout`` off tool.before and tool.call): a slow layer is
recorded as failed and the layers after it still run, so a slow tool.after
layer cannot skip the redaction below it.

Everything that depends on settings is decided here, at build time: whether
somebody observes (records, diffs), which failure policy applies, whether a
layer needs a cancel scope. The code that runs per call carries no branches for
features nobody uses.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable, Sequence
from inspect import isawaitable
from types import CoroutineType, FunctionType
from typing import Any

import attrs

from .errors import InterceptionError, describe_error
from .events import _DECIDING, TOOL_POINTS, ToolCall, copy_args
from .records import DEBUG, ERROR, INFO, WARNING, Record
from .registry import Registration

__all__ = ["Chain", "Emit", "Gate", "approve", "compile_stack", "gate_of"]

Chain = Callable[[Any], Any]
"""A compiled stack (or the rest of one): takes the event, returns the result, or a
coroutine of it when a layer must be awaited (the caller checks which)."""
Emit = Callable[[Record], None]

_perf = time.perf_counter

REDACTED = "<not recorded>"
"""What a record holds instead of values for a layer registered with record_values=False."""


def approve(event: Any) -> Any:
    """The end of a tool.before stack: every layer let the call through.

    Keeps, on the call being decided, the event that got here and a deep copy
    of its args: exactly what the tool will receive, whatever a layer does to
    the event afterwards. Args that cannot be copied are kept as the error, and
    the bus denies the call.
    """
    call = _DECIDING.get()
    if call is None:  # a stack run outside the bus's pipeline
        call = event
    try:
        approved: Any = copy_args(event._args)
    except Exception as exc:  # RecursionError (too deep), TypeError (cannot be copied)
        approved = exc
    # The event itself only when it is another object: a call that held itself would be a
    # reference cycle, left for the garbage collector on every call.
    call._approval = (None if event is call else event, approved)
    return event


def compile_stack(
    point: str,
    registrations: Sequence[Registration],
    terminal: Chain | None,
    *,
    emit: Emit | None,
    observe_level: int | None,
    dispatch_timeout: float | None,
    redactors: Sequence[Any] = (),
) -> Chain:
    """Fold ``registrations`` (outermost first) around ``terminal`` (None: the event).

    ``emit`` receives records at ``observe_level`` and above (None: nobody
    observes). ``dispatch_timeout`` is the timeout of each async layer that has
    none of its own (seed 003's per-emit timeout), so a slow layer fails alone
    and the layers after it still run. ``redactors`` (objects with a
    ``redact_record`` method) clean every record before it is emitted.
    """
    if dispatch_timeout is not None:
        registrations = [
            attrs.evolve(r, timeout=dispatch_timeout) if (r.is_async or r.thread) and r.timeout is None else r
            for r in registrations
        ]
    ctx = _Context(point, emit, observe_level, registrations, redactors)
    chain: Chain | None = terminal  # None: the stack returns the event
    chain_is_async = terminal is not None and inspect.iscoroutinefunction(terminal)
    end = len(registrations)
    while end > 0:
        # Take the run of same-shaped layers that ends at ``end``: simple handlers
        # become one flat loop; plain gates fold with no wrapper at all.
        start = end - 1
        last = registrations[start]
        if last.kind == "handler":
            # A handler without a code object runs alone: its run then knows who decided.
            while start > 0 and ctx.runs_with(registrations[start - 1]) and ctx.runs_with(last):
                start -= 1
            # The run may be a plain function unless a middleware calls it (as its call_next).
            called_by_us = start == 0 or registrations[start - 1].kind == "handler"
            chain = _handler_run(ctx, registrations[start:end], chain, called_by_us)
            chain_is_async = inspect.iscoroutinefunction(chain)
        else:
            call_next = chain if chain is not None and chain_is_async else _awaitable(chain)
            if ctx.is_plain_middleware(last):
                while start > 0 and ctx.is_plain_middleware(registrations[start - 1]):
                    start -= 1
                chain = _middleware_run(ctx, registrations[start:end], call_next)
            else:
                chain = _middleware_layer(ctx, last, call_next)
            chain_is_async = True
        end = start
    if chain is None:
        return _awaitable(None)
    if point == "tool.before" and any(r.kind == "middleware" for r in registrations):
        return _deciding(chain)
    return chain


def _deciding(stack: Chain) -> Chain:
    """A tool.before stack with middleware, run with the call marked as the one being decided.

    A middleware can pass a copy of the call, or a new one, to ``call_next``: a block or
    an ask on it, and the end of the stack (:func:`approve`), are then taken by the call
    (see :data:`agentbus.events._DECIDING`). A stack of handlers only needs no mark, as
    each handler gets the call itself from the bus.
    """

    async def deciding(call: Any) -> Any:
        token = _DECIDING.set(call)
        try:
            returned = stack(call)
            if type(returned) is CoroutineType:  # one await: an un-awaited call_next stays visible
                returned = await returned
            return returned
        finally:
            _DECIDING.reset(token)

    return deciding


def _awaitable(chain: Chain | None) -> Chain:
    """A sync end of a stack (None: the event itself), as the ``call_next`` of a middleware."""
    if chain is None:

        async def end(event: Any) -> Any:
            return event

        return end

    async def call_next(event: Any) -> Any:
        return chain(event)

    return call_next


def _code_of(handler: Callable[..., Any]) -> Any:
    """The code object that runs when ``handler`` is called, if there is one."""
    function = getattr(handler, "__func__", handler)  # bound methods
    code = getattr(function, "__code__", None)
    if code is None:
        code = getattr(getattr(type(handler), "__call__", None), "__code__", None)  # noqa: B004
    return code


def _tool_context(event: Any) -> tuple[Any, Any, Any, Any]:
    return event._tool, event._agent_id, event._session_key, event.call_id


def _agent_context(event: Any) -> tuple[Any, Any, Any, Any]:
    return None, event._agent_id, event._session_key, None


class _Context:
    """What every layer of one stack needs to report and fail correctly."""

    __slots__ = (
        "by_code",
        "context_of",
        "diffs",
        "emit",
        "observe_level",
        "point",
        "redactors",
        "tracks_decisions",
    )

    def __init__(
        self,
        point: str,
        emit: Emit | None,
        observe_level: int | None,
        registrations: Sequence[Registration],
        redactors: Sequence[Any] = (),
    ) -> None:
        self.point = point
        self.redactors = tuple(redactors)
        self.emit = emit if observe_level is not None else None
        self.observe_level = observe_level
        self.diffs = observe_level is not None and observe_level <= INFO
        self.tracks_decisions = point == "tool.before"
        self.context_of = _tool_context if point in TOOL_POINTS else _agent_context
        self.by_code: dict[Any, Registration] = {}
        for registration in registrations:
            code = _code_of(registration.handler)
            if code is not None:
                self.by_code.setdefault(code, registration)

    def runs_with(self, registration: Registration) -> bool:
        """Whether a handler can share a run with others: a decision it takes is
        credited to it by its code object, so it needs one."""
        return registration.kind == "handler" and _code_of(registration.handler) is not None

    def is_plain_middleware(self, registration: Registration) -> bool:
        """Whether a middleware can run with no wrapper of its own.

        True for gates whose failure policy is "block" or "raise" and that need
        no timeout, shadow copy or diff: an exception is then handled once, by
        the guard of their run, which finds the layer that raised in the traceback.
        """
        return (
            registration.kind == "middleware"
            and registration.on_error != "continue"
            and registration.timeout is None
            and not registration.shadow
            and not self.diffs
            and _code_of(registration.handler) is not None
        )

    def decided_by(
        self, event: ToolCall, candidates: Sequence[Registration] | None = None
    ) -> Registration | None:
        """The registration (among ``candidates``, if given) whose code called block()/ask()."""
        for code in event._decided_in:
            registration = self.by_code.get(code)
            if registration is not None and (candidates is None or registration in candidates):
                return registration
        return None

    def raised_by(self, error: BaseException, candidates: Sequence[Registration]) -> Registration | None:
        """The innermost registration among ``candidates`` in the error's traceback."""
        found = None
        traceback = error.__traceback__
        while traceback is not None:
            registration = self.by_code.get(traceback.tb_frame.f_code)
            if registration is not None and registration in candidates:
                found = registration
            traceback = traceback.tb_next
        return found

    def claim(self, event: ToolCall, candidates: Sequence[Registration]) -> object:
        """A layer among ``candidates`` decided: remember which one, and report it."""
        registration = self.decided_by(event, candidates)
        if registration is None and len(candidates) == 1:  # a run of one: it decided
            registration = candidates[0]
        if registration is not None:
            event.blocked_by = registration.id
            if self.emit is not None:
                self.record(registration, event, decided=True)
        return event._decision

    def record(
        self,
        registration: Registration,
        event: Any,
        changes: dict[str, tuple[Any, Any]] | None = None,
        decided: bool = False,
        error: BaseException | None = None,
        duration: float = 0.0,
        shadow: bool = False,
        shadow_event: Any = None,
    ) -> None:
        emit = self.emit
        if emit is None:
            return
        source = shadow_event if shadow_event is not None else event
        decision = reason = None
        if decided:
            decision = getattr(source, "decision", None)
            reason = getattr(source, "block_reason", None)
        if error is not None:
            level = ERROR
        elif decision is not None:
            level = WARNING
        elif changes:
            level = INFO
        else:
            level = DEBUG
        assert self.observe_level is not None
        if level < self.observe_level:
            return
        if changes and not registration.record_values:
            changes = dict.fromkeys(changes, (REDACTED, REDACTED))
        tool, agent_id, session_key, call_id = self.context_of(event)
        # Positional: half the cost of keywords, and this runs once per observed layer.
        record = Record(
            self.point,
            registration.id,
            level,
            tool,
            agent_id,
            session_key,
            call_id,
            changes or {},
            decision,
            reason,
            describe_error(error) if error is not None else None,
            duration,
            shadow,
        )
        for redactor in self.redactors:  # no record carries what a redactor would remove
            record = redactor.redact_record(record)
        emit(record)

    def fail(
        self, registration: Registration, event: Any, error: BaseException, duration: float = 0.0
    ) -> None:
        """Apply the registration's failure policy to an exception it raised."""
        if isinstance(error, InterceptionError):
            raise error  # an inner layer under on_error="raise": keep it as it is
        self.record(registration, event, error=error, duration=duration)
        policy = registration.on_error
        if policy == "raise":
            raise InterceptionError(
                f"{registration.id} failed on {self.point}: {describe_error(error)}",
                registration_id=registration.id,
                point=self.point,
            ) from error
        if policy == "block" and isinstance(event, ToolCall):
            # Fail closed: a gate that cannot decide does not let the call through.
            event.block(f"{registration.id} failed ({describe_error(error)}); blocked to be safe")
            if event.blocked_by is None:
                event.blocked_by = registration.id


class Gate:
    """A tool.before stack that is one sync handler, called as it is, and no terminal.

    The bus's fast path calls ``handler`` itself on a call it has just built, with
    ``context`` as the call's attribution (no frame of the stack in between), and
    hands anything but the usual end (the handler returned None and decided nothing)
    to ``settle(call, returned, error)``: what the stack does from there (the
    handler's failure policy, an awaitable it returned, crediting its decision).
    (A plain class: the hook process builds no attrs class it does not need.)
    """

    __slots__ = ("context", "handler", "settle")

    def __init__(
        self,
        handler: Callable[[Any], Any],
        settle: Callable[[Any, Any, BaseException | None], Any],
        context: _Context,
    ) -> None:
        self.handler = handler
        self.settle = settle
        self.context = context


def gate_of(stack: Chain | None) -> Gate | None:
    """The :class:`Gate` of a compiled tool.before stack that is one, else None."""
    return getattr(stack, "gate", None)


def _call_handler(registration: Registration, event: Any) -> Any:
    handler = registration.handler
    return handler(event, event) if registration.pair else handler(event)


async def _run_special(ctx: _Context, registration: Registration, event: Any) -> None:
    """One handler with a timeout, in shadow mode, or observed: the slow path."""
    if registration.shadow:
        try:
            target = event.shadow_copy()
        except Exception as exc:  # e.g. a result that cannot be copied: skip, and say so
            ctx.record(registration, event, error=exc, shadow=True)
            return
    else:
        target = event
    before = target.snapshot() if ctx.diffs else None
    decision_before = getattr(target, "decision", None)
    # A shadow layer's block or ask stays on its copy: the call being decided never takes it.
    deciding = _DECIDING.set(None) if registration.shadow else None
    started = _perf()
    try:
        if registration.thread:
            import anyio.to_thread  # here, not at the top: the hook process runs without anyio

            # A sync handler in a worker thread: its timeout holds, since the wait is
            # cancellable (the thread itself runs on, abandoned, and its result is ignored).
            run = functools.partial(_call_handler, registration, target)
            if registration.timeout is not None:
                with anyio.move_on_after(registration.timeout) as scope:
                    await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
                if scope.cancelled_caught:
                    raise TimeoutError(f"{registration.id} did not finish within {registration.timeout:g} s")
            else:
                await anyio.to_thread.run_sync(run)
        elif registration.timeout is not None:
            import anyio

            with anyio.move_on_after(registration.timeout) as scope:
                await _call_handler(registration, target)
            if scope.cancelled_caught:
                raise TimeoutError(f"{registration.id} did not finish within {registration.timeout:g} s")
        else:
            result = _call_handler(registration, target)
            if registration.is_async or (result is not None and isawaitable(result)):
                await result
    except Exception as exc:
        if registration.shadow:
            ctx.record(registration, event, error=exc, duration=_perf() - started, shadow=True)
            return
        ctx.fail(registration, event, exc, _perf() - started)
        return
    finally:
        if deciding is not None:
            _DECIDING.reset(deciding)
    duration = _perf() - started
    decided = getattr(target, "decision", None) != decision_before
    if decided and not registration.shadow:
        event.blocked_by = registration.id
    if ctx.emit is not None:
        changes = target.diff(before, target.snapshot()) if before is not None else None
        ctx.record(
            registration, event, changes=changes, decided=decided, duration=duration,
            shadow=registration.shadow, shadow_event=target if registration.shadow else None,
        )  # fmt: skip


def _observe_sync(ctx: _Context, registration: Registration, event: Any) -> Any:
    """One sync handler while somebody observes at INFO or below: diff it, record it.

    A plain function, not a coroutine: observing a sync handler adds no await.
    Returns an awaitable only if the handler itself returned one (then the
    record is made once it has been awaited).
    """
    before = event.snapshot()
    decision_before = event._decision if ctx.tracks_decisions else None
    started = _perf()
    try:
        handler = registration.handler
        result = handler(event, event) if registration.pair else handler(event)
    except Exception as exc:
        ctx.fail(registration, event, exc, _perf() - started)
        return None
    if result is not None and isawaitable(result):
        return _finish_observed(ctx, registration, event, result, before, decision_before, started)
    duration = _perf() - started
    decided = ctx.tracks_decisions and event._decision is not decision_before
    if decided:
        event.blocked_by = registration.id
    ctx.record(registration, event, event.diff(before, event.snapshot()), decided, None, duration)
    return None


async def _finish_observed(
    ctx: _Context,
    registration: Registration,
    event: Any,
    result: Any,
    before: Any,
    decision: Any,
    started: float,
) -> None:
    try:
        await result
    except Exception as exc:
        ctx.fail(registration, event, exc, _perf() - started)
        return
    decided = ctx.tracks_decisions and event._decision is not decision
    if decided:
        event.blocked_by = registration.id
    ctx.record(registration, event, event.diff(before, event.snapshot()), decided, None, _perf() - started)


def _handler_step(ctx: _Context, registration: Registration) -> Callable[[Any], Any]:
    """What a handler run calls for one handler: returns None, or an awaitable to await.

    A plain handler is called as it is (the seed's pair form with the event
    twice); a sync one observed at INFO is diffed and recorded with no await;
    one with a timeout, a shadow copy or a thread, or an async one observed,
    takes the slow path. Both wrappers apply the failure policy themselves.
    """
    handler = registration.handler
    if ctx.diffs and not (registration.is_async or registration.shadow or registration.thread):
        return functools.partial(_observe_sync, ctx, registration)
    if registration.shadow or registration.timeout is not None or registration.thread or ctx.diffs:
        return functools.partial(_run_special, ctx, registration)
    if registration.pair:
        return lambda event: handler(event, event)
    return handler


def _returns_coroutine(registration: Registration, step: Callable[[Any], Any]) -> bool:
    """Whether ``step`` (from :func:`_handler_step`) surely returns a coroutine when called."""
    if isinstance(step, functools.partial):
        return step.func is _run_special
    return registration.is_async


def _handler_run(
    ctx: _Context,
    registrations: Sequence[Registration],
    inner: Chain | None,
    called_by_us: bool,
) -> Chain:
    """A run of simple handlers as one flat loop (pluggy's ``_multicall``).

    The run is a plain function, not a coroutine, when no middleware calls it
    and no handler in it is async: a sync handler then costs a call and
    no await, and the run returns what ``inner`` returns (a value, or an
    awaitable for the bus to await). A handler that returns an awaitable all
    the same moves the rest of the run into a coroutine. On tool.before, the
    run credits a decision taken during it to the handler that took it
    (:meth:`_Context.claim`).
    """
    steps = tuple((r, _handler_step(ctx, r), index) for index, r in enumerate(registrations))
    candidates = tuple(registrations)
    fail = ctx.fail
    tracks = ctx.tracks_decisions

    async def rest(event: Any, index: int, pending: Any, decided: Any) -> Any:
        """The rest of the run, from the handler at ``index``, whose awaitable is ``pending``."""
        try:
            await pending
        except Exception as exc:
            fail(candidates[index], event, exc)
        for registration, step, _ in steps[index + 1 :]:
            try:
                result = step(event)
                # (the type test first: an async handler's coroutine skips isawaitable's call)
                if result is not None and (type(result) is CoroutineType or isawaitable(result)):
                    await result
            except Exception as exc:
                fail(registration, event, exc)
        if tracks and event._decision is not decided and event._blocked_by is None:
            ctx.claim(event, candidates)  # (a slow-path step credits itself)
        if inner is None:
            return event
        result = inner(event)
        if type(result) is CoroutineType:  # one await: an un-awaited call_next stays visible
            result = await result
        return result

    awaits = any(r.is_async or r.shadow or r.timeout is not None or r.thread for r in registrations)
    if called_by_us and not awaits and len(steps) == 1 and tracks and inner is None:
        # One handler on tool.before, the usual stack of one guard: a gate (see Gate).
        only, step = registrations[0], steps[0][1]

        def settle(event: Any, result: Any, error: BaseException | None, decided: Any = None) -> Any:
            if error is not None:
                fail(only, event, error)
            elif result is not None and isawaitable(result):
                return rest(event, 0, result, decided)
            if event._decision is not decided and event._blocked_by is None:
                ctx.claim(event, candidates)
            return event

        def gate(event: Any) -> Any:
            decided = event._decision
            event._attribution = ctx
            try:
                result = step(event)
            except Exception as exc:
                return settle(event, None, exc, decided)
            if result is None and event._decision is decided:
                return event
            return settle(event, result, None, decided)

        if step is only.handler:  # called as it is: the bus may call it itself
            setattr(gate, "gate", Gate(step, settle, ctx))  # noqa: B010
        return gate

    if called_by_us and not awaits and len(steps) == 1:
        # One handler (the usual tool.before stack of one guard): the loop below, unrolled.
        only, step = registrations[0], steps[0][1]

        def run_one(event: Any) -> Any:
            decided = None
            if tracks:
                decided = event._decision
                event._attribution = ctx
            try:
                result = step(event)
            except Exception as exc:
                fail(only, event, exc)
            else:
                if result is not None and isawaitable(result):
                    return rest(event, 0, result, decided)
            if tracks and event._decision is not decided and event._blocked_by is None:
                ctx.claim(event, candidates)
            return event if inner is None else inner(event)

        return run_one

    if called_by_us and not awaits:

        def run(event: Any) -> Any:
            decided = None
            if tracks:
                decided = event._decision
                event._attribution = ctx  # so blocked_by is right even for a decision on a copy
            for registration, step, index in steps:
                try:
                    result = step(event)
                except Exception as exc:
                    fail(registration, event, exc)
                    continue
                if result is not None and isawaitable(result):
                    return rest(event, index, result, decided)
            if tracks and event._decision is not decided and event._blocked_by is None:
                ctx.claim(event, candidates)
            return event if inner is None else inner(event)

        return run

    # Which steps return a coroutine for sure (an async handler, or a special step): awaited
    # without a test. A sync handler may still return an awaitable, which is awaited too.
    flagged = tuple((r, step, _returns_coroutine(r, step)) for r, step, _ in steps)

    async def run_async(event: Any) -> Any:
        decided = None
        if tracks:
            decided = event._decision
            event._attribution = ctx
        for registration, step, returns_coroutine in flagged:
            try:
                if returns_coroutine:
                    await step(event)
                else:
                    result = step(event)
                    if result is not None and isawaitable(result):
                        await result
            except Exception as exc:
                fail(registration, event, exc)
        if tracks and event._decision is not decided and event._blocked_by is None:
            ctx.claim(event, candidates)  # (a slow-path step credits itself)
        if inner is None:
            return event
        result = inner(event)
        if type(result) is CoroutineType:  # one await: an un-awaited call_next stays visible
            result = await result
        return result

    return run_async


def _middleware_run(ctx: _Context, registrations: Sequence[Registration], inner: Chain) -> Chain:
    """Plain gates folded with no wrapper each: one guard for the whole run.

    Each middleware's ``call_next`` is bound to the next one by :func:`_bind`
    (no frame of ours in between), so a layer costs about what a hand-written
    closure costs. An exception propagates outwards, as in ASGI, to the guard, which
    applies the policy of the layer that raised it.
    """
    chain = inner
    for registration in reversed(registrations):
        chain = _bind(registration.handler, chain)
    outermost = chain
    candidates = tuple(registrations)
    passes_tool_errors = ctx.point == "tool.call"
    tracks_decisions = ctx.tracks_decisions

    async def guard(event: Any) -> Any:
        decided = None
        if tracks_decisions:
            decided = event._decision
            event._attribution = ctx
        try:
            result = await outermost(event)
        except Exception as exc:
            if isinstance(exc, InterceptionError) or (passes_tool_errors and exc is event.tool_error):
                raise
            ctx.fail(ctx.raised_by(exc, candidates) or candidates[0], event, exc)
            return event
        if tracks_decisions and event._decision is not decided and event.blocked_by is None:
            ctx.claim(event, candidates)
        return result

    return guard


def _bind(middleware: Callable[..., Awaitable[Any]], call_next: Chain) -> Chain:
    """``middleware`` with its ``call_next`` bound, as a callable taking the event.

    For a plain ``async def mw(event, call_next)`` this is a copy of the
    function whose ``call_next`` parameter defaults to the next layer: calling it
    runs the user's code directly, with no frame of ours in between (the same
    code object, so tracebacks and attribution are unchanged). Anything else
    gets a one-line closure.
    """
    code = getattr(middleware, "__code__", None)
    if (
        isinstance(middleware, FunctionType)
        and code is not None
        and code.co_argcount == 2
        and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
        and not middleware.__defaults__
    ):
        bound = FunctionType(
            code, middleware.__globals__, middleware.__name__, (call_next,), middleware.__closure__
        )
        bound.__kwdefaults__ = middleware.__kwdefaults__
        bound.__qualname__ = middleware.__qualname__
        bound.__module__ = middleware.__module__
        return bound

    def bound_call(event: Any) -> Awaitable[Any]:
        return middleware(event, call_next)

    return bound_call


def _middleware_layer(ctx: _Context, registration: Registration, inner: Chain) -> Chain:
    """One ASGI-style middleware, guarded by its failure policy."""
    middleware = registration.handler
    timeout = registration.timeout
    tracks_decisions = ctx.point == "tool.before"

    call: Callable[[Any, Chain], Awaitable[Any]] = middleware
    if timeout is not None:
        import anyio

        async def call(event: Any, call_next: Chain) -> Any:
            with anyio.move_on_after(timeout):
                return await middleware(event, call_next)
            # Only reached when this scope cancelled it: name the limit, not a bare TimeoutError.
            raise TimeoutError(f"{registration.id} did not finish within {timeout:g} s")

    if registration.shadow:

        async def shadow_layer(event: Any) -> Any:
            started = _perf()

            async def stop(inner_event: Any) -> Any:
                return inner_event

            deciding = _DECIDING.set(None)  # its decisions stay on its copy
            try:
                copy = event.shadow_copy()
                before = copy.snapshot() if ctx.diffs else None
                decision_before = getattr(copy, "decision", None)
                await call(copy, stop)
            except Exception as exc:
                ctx.record(registration, event, error=exc, duration=_perf() - started, shadow=True)
            else:
                ctx.record(
                    registration, event,
                    changes=copy.diff(before, copy.snapshot()) if before is not None else None,
                    decided=getattr(copy, "decision", None) != decision_before,
                    duration=_perf() - started, shadow=True, shadow_event=copy,
                )  # fmt: skip
            finally:
                _DECIDING.reset(deciding)
            return await inner(event)

        return shadow_layer

    observed = ctx.emit is not None
    passes_tool_errors = ctx.point == "tool.call"
    on_error = registration.on_error

    if not observed and on_error != "continue":
        # The common case (gates on tool.before): no per-call allocation at all.
        async def layer(event: Any) -> Any:
            decided = None
            if tracks_decisions:
                decided = event.decision
                event._attribution = ctx  # a block on a copy is then credited to its layer
            try:
                result = await call(event, inner)
            except Exception as exc:
                if passes_tool_errors and exc is getattr(event, "tool_error", None):
                    raise
                ctx.fail(registration, event, exc)
                return event
            if tracks_decisions and event.decision != decided and event.blocked_by is None:
                event.blocked_by = registration.id
            return result

        return layer

    async def guarded_layer(event: Any) -> Any:
        # Track what the inner layers did, so that a failure after call_next keeps
        # their result, and so that diffs show only this layer's own changes.
        state: list[Any] = []
        snapshot = event.snapshot if (observed and ctx.diffs) else None
        entry = snapshot() if snapshot else None
        decision_before = getattr(event, "decision", None)
        if tracks_decisions:
            event._attribution = ctx  # a block on a copy is then credited to its layer

        async def call_next(inner_event: Any) -> Any:
            state.append(snapshot() if snapshot else None)
            result = await inner(inner_event)
            state.append(snapshot() if snapshot else None)
            state.append(result)
            return result

        started = _perf()
        try:
            result = await call(event, call_next)
        except Exception as exc:
            if passes_tool_errors and exc is getattr(event, "tool_error", None):
                raise
            ctx.fail(registration, event, exc, _perf() - started)
            if len(state) == 3:  # it failed after the inner layers returned: keep their result
                return state[2]
            if not state:  # it failed before calling them: run them as if it were not there
                return await inner(event)
            if passes_tool_errors:
                # It failed while the tool ran (its own timeout, say): there is no result
                # to go on with, so the call fails as a tool error, recorded once, here.
                event.tool_error = exc
                raise
            return event
        duration = _perf() - started
        decided = tracks_decisions and event.decision != decision_before and event.blocked_by is None
        if decided:
            event.blocked_by = registration.id
        if observed:
            changes: dict[str, tuple[Any, Any]] | None = None
            if entry is not None:
                exit_state = event.snapshot()
                if len(state) >= 2:
                    changes = {**event.diff(entry, state[0]), **event.diff(state[1], exit_state)}
                else:
                    changes = event.diff(entry, exit_state)
            ctx.record(registration, event, changes=changes, decided=decided, duration=duration)
        return result

    return guarded_layer

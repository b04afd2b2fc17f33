"""Compiling a hook point's layers into one callable.

A stack is built once per (hook point, tool, agent) and cached by the bus. The
fold is Starlette's: start from the terminal, wrap it in each layer from the
innermost out. Runs of simple handlers are not wrapped one by one: they become a
single *flat group* that calls each handler in a loop, so a handler costs a
function call, not an await and a frame per layer (pluggy's ``_multicall``).

Everything that depends on settings is decided here, at build time: whether
somebody observes (records, diffs), which failure policy applies, whether a
layer needs a cancel scope. The loops that run per call carry no branches for
features nobody uses.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from inspect import isawaitable
from typing import Any

import anyio

from .errors import InterceptionError
from .events import ToolCall
from .records import DEBUG, ERROR, INFO, WARNING, Record
from .registry import Registration

__all__ = ["Chain", "Emit", "compile_stack"]

Chain = Callable[[Any], Awaitable[Any]]
Emit = Callable[[Record], None]

_perf = time.perf_counter


def compile_stack(
    point: str,
    registrations: Sequence[Registration],
    terminal: Chain,
    *,
    emit: Emit | None,
    observe_level: int | None,
    dispatch_timeout: float | None,
) -> Chain:
    """Fold ``registrations`` (outermost first) around ``terminal``.

    ``emit`` receives records at ``observe_level`` and above (None: nobody
    observes). ``dispatch_timeout`` bounds the whole dispatch when the stack
    holds async layers without a timeout of their own (seed 003's per-emit
    timeout): one cancel scope per dispatch, never one per layer.
    """
    bounded = dispatch_timeout is not None and any(r.is_async and r.timeout is None for r in registrations)
    ctx = _Context(point, emit, observe_level, bounded)
    chain: Chain = terminal
    is_terminal = True
    index = len(registrations)
    while index > 0:
        # Collect the run of handlers that ends at ``index``; a middleware stands alone.
        start = index - 1
        if registrations[start].kind == "middleware":
            chain = _middleware_layer(ctx, registrations[start], chain)
        else:
            while start > 0 and registrations[start - 1].kind == "handler":
                start -= 1
            chain = _handler_group(ctx, registrations[start:index], chain, is_terminal)
        is_terminal = False
        index = start
    if bounded:
        assert dispatch_timeout is not None
        chain = _bounded(ctx, chain, dispatch_timeout)
    return chain


class _Context:
    """What every layer of one stack needs to report and fail correctly."""

    __slots__ = ("bounded", "diffs", "emit", "observe_level", "point")

    def __init__(self, point: str, emit: Emit | None, observe_level: int | None, bounded: bool) -> None:
        self.point = point
        self.bounded = bounded
        self.emit = emit if observe_level is not None else None
        self.observe_level = observe_level
        self.diffs = observe_level is not None and observe_level <= INFO

    def record(
        self,
        registration: Registration,
        event: Any,
        *,
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
        emit(
            Record(
                point=self.point,
                id=registration.id,
                level=level,
                tool=getattr(event, "tool", None),
                agent_id=getattr(event, "agent_id", None),
                session_key=getattr(event, "session_key", None),
                call_id=getattr(event, "call_id", None),
                changes=changes or {},
                decision=decision,
                reason=reason,
                error=_describe(error) if error is not None else None,
                duration=duration,
                shadow=shadow,
            )
        )

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
                f"{registration.id} failed on {self.point}: {_describe(error)}",
                registration_id=registration.id,
                point=self.point,
            ) from error
        if policy == "block" and isinstance(event, ToolCall):
            # Fail closed: a gate that cannot decide does not let the call through.
            event.block(f"{registration.id} failed ({_describe(error)}); blocked to be safe")
            if event.blocked_by is None:
                event.blocked_by = registration.id


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _call_handler(registration: Registration, event: Any) -> Any:
    handler = registration.handler
    return handler(event, event) if registration.pair else handler(event)


async def _run_special(ctx: _Context, registration: Registration, event: Any) -> None:
    """One handler with a timeout, in shadow mode, or observed: the slow path."""
    target = event.shadow_copy() if registration.shadow else event
    before = target.snapshot() if ctx.diffs else None
    decision_before = getattr(target, "decision", None)
    started = _perf()
    try:
        if registration.timeout is not None:
            with anyio.move_on_after(registration.timeout) as scope:
                await _call_handler(registration, target)
            if scope.cancelled_caught:
                raise TimeoutError(f"handler did not finish within {registration.timeout:g} s")
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


def _handler_group(
    ctx: _Context, registrations: Sequence[Registration], inner: Chain, is_terminal: bool
) -> Chain:
    """A run of simple handlers as one flat loop."""
    entries = tuple(
        (r, r.handler, r.is_async, r.pair, bool(r.shadow or r.timeout is not None or ctx.emit))
        for r in registrations
    )
    tracks_decisions = ctx.point == "tool.before"
    bounded = ctx.bounded

    async def group(event: Any) -> Any:
        decided = event.decision if tracks_decisions else None
        for registration, handler, is_async, pair, special in entries:
            if bounded:
                event._running = registration
            if special:
                await _run_special(ctx, registration, event)
                continue
            try:
                result = handler(event, event) if pair else handler(event)
                if is_async or (result is not None and isawaitable(result)):
                    await result
            except Exception as exc:
                ctx.fail(registration, event, exc)
            if tracks_decisions and event.decision != decided:
                decided = event.decision
                event.blocked_by = registration.id
        if is_terminal:
            return event
        return await inner(event)

    return group


def _middleware_layer(ctx: _Context, registration: Registration, inner: Chain) -> Chain:
    """One ASGI-style middleware, guarded by its failure policy."""
    middleware = registration.handler
    timeout = registration.timeout
    tracks_decisions = ctx.point == "tool.before"

    call: Callable[[Any, Chain], Awaitable[Any]] = middleware
    if timeout is not None:

        async def call(event: Any, call_next: Chain) -> Any:
            with anyio.move_on_after(timeout):
                return await middleware(event, call_next)
            # Only reached when this scope cancelled it: name the limit, not a bare TimeoutError.
            raise TimeoutError(f"{registration.id} did not finish within {timeout:g} s")

    elif ctx.bounded:

        async def call(event: Any, call_next: Chain) -> Any:
            event._running = registration
            return await middleware(event, call_next)

    if registration.shadow:

        async def shadow_layer(event: Any) -> Any:
            copy = event.shadow_copy()
            before = copy.snapshot() if ctx.diffs else None
            decision_before = getattr(copy, "decision", None)
            started = _perf()

            async def stop(inner_event: Any) -> Any:
                return inner_event

            try:
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
            return await inner(event)

        return shadow_layer

    observed = ctx.emit is not None
    passes_tool_errors = ctx.point == "tool.call"
    on_error = registration.on_error

    if not observed and on_error != "continue":
        # The common case (gates on tool.before): no per-call allocation at all.
        async def layer(event: Any) -> Any:
            decided = event.decision if tracks_decisions else None
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


def _bounded(ctx: _Context, chain: Chain, timeout: float) -> Chain:
    """One cancel scope around a whole dispatch (seed 003: emit() has a timeout)."""

    async def bounded(event: Any) -> Any:
        with anyio.move_on_after(timeout) as scope:
            return await chain(event)
        if scope.cancelled_caught:
            running: Registration | None = getattr(event, "_running", None)
            if running is not None:
                error = TimeoutError(
                    f"{ctx.point} did not finish within {timeout:g} s while {running.id} ran; "
                    f"the remaining layers were skipped"
                )
                ctx.fail(running, event, error, timeout)
        return event

    return bounded

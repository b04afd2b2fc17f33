"""Plain Python tools and model calls through the bus: interception for a home-grown loop.

Two wrappers, one for each side of a model call::

    @tool(bus)                                   # or: run_shell = wrap_tool(run_shell, bus)
    def run_shell(command: str, timeout: int = 30) -> str:
        "Run a shell command and return its output."
        ...

    await run_shell(command="ls")                # tool.before -> tool.call -> tool.after

    ask = wrap_model(call_llm, bus)              # call_llm(message, params) -> reply
    reply = await ask("please debug the build")  # message.before -> params.before -> call_llm

A wrapped tool keeps its name, docstring and signature (``inspect.signature``
and frameworks that build a JSON schema from it see the original), but it is
always a coroutine function: the pipeline is async, whatever the tool is.

Sync tools run in a worker thread (``anyio.to_thread.run_sync``) by default:
tools are where agents touch the world (subprocesses, files, HTTP), and a
blocking call on the event loop would stall every other task, including the
messages that other code injects into a running loop and the approval prompts.
Pass ``in_thread=False`` for quick, pure functions, where a thread hop is the
larger cost.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Generic, Literal, ParamSpec, Protocol, TypeVar, cast, get_args, get_origin

import anyio.to_thread

from ..bus import Bus
from ..errors import ToolBlockedError
from ..events import Message, Params, ToolResult

__all__ = ["WrappedModel", "WrappedTool", "signature_schema", "tool", "wrap_model", "wrap_tool"]

P = ParamSpec("P")
P_co = ParamSpec("P_co")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class WrappedTool(Protocol[P_co]):
    """What :func:`wrap_tool` returns: the tool as a coroutine function, plus the pipeline."""

    tool_name: str
    """The name the bus sees (normalised there: ``bash`` -> ``exec``)."""
    __wrapped__: Callable[..., Any]

    def __call__(self, *args: P_co.args, **kwargs: P_co.kwargs) -> Awaitable[Any]:
        """Call the tool like the original; returns what the agent should see."""
        ...

    async def run(self, args: Mapping[str, Any], *, call_id: str | None = None) -> ToolResult:
        """Run one call from an args dict (as a model sends it); return the tool.after event."""
        ...


def _caller(fn: Callable[..., Any], signature: inspect.Signature | None) -> Callable[[dict[str, Any]], Any]:
    """``fn(**args)``, except for positional-only parameters and ``*args``, which go by position."""
    if signature is None:
        return lambda args: fn(**args)
    by_position = [
        p for p in signature.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL)
    ]
    if not by_position:
        return lambda args: fn(**args)

    def call(args: dict[str, Any]) -> Any:
        keywords = dict(args)
        positional: list[Any] = []
        for parameter in by_position:
            if parameter.name not in keywords:
                break  # later positional-only parameters take their defaults
            value = keywords.pop(parameter.name)
            if parameter.kind is parameter.VAR_POSITIONAL:
                positional.extend(value)
            else:
                positional.append(value)
        return fn(*positional, **keywords)

    return call


def _to_args(
    signature: inspect.Signature | None, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """The call's arguments as the dict the bus sees: names as in the signature, no defaults.

    Defaults are left out on purpose: the dict is what the caller (the model)
    asked for, and a tool.before layer that injects a default must see it missing.
    """
    if signature is None:
        if args:
            raise TypeError("this tool has no inspectable signature; call it with keyword arguments")
        return kwargs
    bound = signature.bind(*args, **kwargs)  # a TypeError here names the bad argument
    arguments: dict[str, Any] = {}
    for name, value in bound.arguments.items():
        if signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
            arguments.update(value)
        else:
            arguments[name] = value
    return arguments


def signature_schema(signature: inspect.Signature | None) -> dict[str, Any] | None:
    """A JSON schema of a function's parameters, as much as kind inference needs.

    Strings and ``Literal`` choices are told apart (a ``command: str`` is free
    text, a ``command: Literal["view", "edit"]`` is not); other annotations are
    left open. None when the function has no inspectable signature.
    """
    if signature is None:
        return None
    properties: dict[str, Any] = {}
    for parameter in signature.parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        annotation = parameter.annotation
        spec: dict[str, Any] = {}
        if annotation is str or annotation in ("str", "'str'"):
            spec = {"type": "string"}
        elif get_origin(annotation) is Literal:
            spec = {"enum": list(get_args(annotation))}
        elif isinstance(annotation, str) and annotation.startswith(("Literal[", "typing.Literal[")):
            spec = {"enum": []}
        properties[parameter.name] = spec
    return {"type": "object", "properties": properties}


def wrap_tool(
    fn: Callable[P, Any],
    bus: Bus,
    name: str | None = None,
    *,
    kind: str | None = None,
    raise_blocked: bool = False,
    in_thread: bool = True,
    agent_id: str | None = None,
    session_key: str | None = None,
) -> WrappedTool[P]:
    """Make ``fn`` (sync or async) run through ``bus``'s tool-call pipeline.

    The wrapper takes the same arguments as ``fn`` and returns what the agent
    should see: ``fn``'s result, possibly changed by tool.after layers, or the
    blocked / error result dict. With ``raise_blocked=True`` a blocked call
    raises :class:`agentbus.ToolBlockedError` instead, for code that calls
    tools directly rather than handing results to a model. ``name`` defaults
    to ``fn.__name__``; ``agent_id`` and ``session_key`` are passed to every
    call's events.

    The bus sees the arguments as a dict keyed by parameter name; after
    tool.before the (possibly mutated) dict is applied as ``fn(**args)``.

    ``kind`` says what the tool does (``"exec"``, ``"read"`` ...: see
    :mod:`agentbus.kinds`), so that the guards written for that kind judge it
    whatever its name; without it the kind is told from the name and the
    parameters where that is unambiguous, and a tool that looks like a shell
    or file tool but cannot be told warns (:class:`agentbus.kinds.ToolKindWarning`).
    """
    tool_name = name or getattr(fn, "__name__", None)
    if not tool_name:
        raise ValueError(f"cannot tell the name of {fn!r}; pass name=...")
    try:
        signature: inspect.Signature | None = inspect.signature(fn)
    except (TypeError, ValueError):  # some builtins have none: accept keywords only
        signature = None
    bus.registry.bind_tools(
        {tool_name: signature_schema(signature)},
        kinds={tool_name: kind} if kind is not None else None,
        source="wrap_tool",
    )
    caller = _caller(fn, signature)
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None)):  # noqa: B004
        execute: Callable[[dict[str, Any]], Any] = caller
    elif in_thread:

        async def execute(args: dict[str, Any]) -> Any:
            return await anyio.to_thread.run_sync(caller, args)

    else:
        execute = caller

    async def run(args: Mapping[str, Any], *, call_id: str | None = None) -> ToolResult:
        return await bus.run_tool(
            tool_name, args, execute, call_id=call_id, agent_id=agent_id, session_key=session_key
        )

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        event = await run(_to_args(signature, args, kwargs))
        if raise_blocked and event.blocked:
            raise ToolBlockedError(event.tool, event.block_reason or "blocked")
        return event.result

    if signature is not None:
        wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.tool_name = tool_name  # type: ignore[attr-defined]
    wrapper.run = run  # type: ignore[attr-defined]
    return cast("WrappedTool[P]", wrapper)


def tool(
    bus: Bus,
    name: str | None = None,
    *,
    kind: str | None = None,
    raise_blocked: bool = False,
    in_thread: bool = True,
    agent_id: str | None = None,
    session_key: str | None = None,
) -> Callable[[Callable[P, Any]], WrappedTool[P]]:
    """The decorator form of :func:`wrap_tool`: ``@tool(bus)`` or ``@tool(bus, kind="exec")``."""

    def decorate(fn: Callable[P, Any]) -> WrappedTool[P]:
        return wrap_tool(
            fn, bus, name, kind=kind, raise_blocked=raise_blocked, in_thread=in_thread,
            agent_id=agent_id, session_key=session_key,
        )  # fmt: skip

    return decorate


class WrappedModel(Generic[R]):
    """A model call with message.before and params.before in front of it.

    Calling it with the user's text runs both hook points and then
    ``fn(message, params)``: ``message.message`` is the text the model should
    see, ``message.metadata`` the tags, ``params`` the effective think level,
    reasoning level and temperature. Made by :func:`wrap_model`.
    """

    def __init__(
        self,
        fn: Callable[[Message, Params], R | Awaitable[R]],
        bus: Bus,
        *,
        in_thread: bool = True,
        agent_id: str = "main",
        session_key: str | None = None,
        provider: str = "",
        model: str = "",
        think_level: str | None = None,
        reasoning_level: str | None = None,
        temperature: float | None = None,
    ) -> None:
        self.fn = fn
        self.bus = bus
        self.in_thread = in_thread
        self.agent_id = agent_id
        self.session_key = session_key
        self.provider = provider
        self.model = model
        self.think_level = think_level
        self.reasoning_level = reasoning_level
        self.temperature = temperature
        functools.update_wrapper(self, fn)

    async def __call__(self, text: str, *, metadata: dict[str, Any] | None = None) -> R:
        message, params = await self.bus.prepare(
            text, agent_id=self.agent_id, session_key=self.session_key, provider=self.provider,
            model=self.model, metadata=metadata, think_level=self.think_level,
            reasoning_level=self.reasoning_level, temperature=self.temperature,
        )  # fmt: skip
        if inspect.iscoroutinefunction(self.fn):
            return await cast("Awaitable[R]", self.fn(message, params))
        if self.in_thread:
            result = await anyio.to_thread.run_sync(self.fn, message, params)
        else:
            result = self.fn(message, params)
        if inspect.isawaitable(result):
            return await result
        return result


def wrap_model(
    fn: Callable[[Message, Params], R | Awaitable[R]],
    bus: Bus,
    *,
    in_thread: bool = True,
    agent_id: str = "main",
    session_key: str | None = None,
    provider: str = "",
    model: str = "",
    think_level: str | None = None,
    reasoning_level: str | None = None,
    temperature: float | None = None,
) -> WrappedModel[R]:
    """Run message.before and params.before in front of a model call.

    ``fn(message, params)`` is your call to the model (sync or async; sync
    runs in a worker thread unless ``in_thread=False``). The keyword
    arguments are the context the layers see and the parameter defaults that
    params.before starts from::

        async def call_llm(message: Message, params: Params) -> str:
            return await client.complete(message.message, thinking=params.think_level)

        ask = wrap_model(call_llm, bus, provider="anthropic", think_level="low")
        reply = await ask("why does the build fail?")
    """
    return WrappedModel(
        fn, bus, in_thread=in_thread, agent_id=agent_id, session_key=session_key, provider=provider,
        model=model, think_level=think_level, reasoning_level=reasoning_level, temperature=temperature,
    )  # fmt: skip

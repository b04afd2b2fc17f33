"""Bind the bus to LangChain v1 agents (``pip install agentbus[langchain]``).

:class:`AgentbusMiddleware` is an ``AgentMiddleware`` for ``create_agent``::

    agent = create_agent(model, tools, middleware=[AgentbusMiddleware(bus)])

Each of LangChain's hooks feeds one of the bus's hook points (the tool hook is
always bound, the others only for points with layers: see
:class:`AgentbusMiddleware`):

- ``before_agent``: message.before on the user's message (the last
  ``HumanMessage``; a changed text replaces it in the state, by id), then
  agent.start. The message's metadata is kept in the agent's private state.
- ``wrap_model_call``: params.before before every model call; what the layers
  changed goes into the request's ``model_settings`` (the model's bind
  arguments) through a mapper, :func:`openai_style_settings` by default.
- ``before_model`` / ``after_model``: turn.start / turn.end.
- ``wrap_tool_call``: tool.before -> tool.call -> tool.after around the tool.
  A blocked call never reaches the tool and answers with LangChain's refusal
  idiom, a ``ToolMessage`` with ``status="error"`` whose content is the blocked
  result (as JSON). A tool that raises fails the run as it does without
  agentbus, after tool.after has seen the exception (``errors_as_results=True``
  makes it such an error message instead); an error message the tool node
  made itself (bad arguments, ``handle_tool_error``) reaches tool.after as an
  error and the model as LangChain wrote it, unless a layer replaced it. A
  tool that calls LangGraph's ``interrupt()`` pauses: tool.after runs once,
  when the resumed call ends, and tool.before does not run again on resume
  (the approved args are kept in memory, per thread and call id).
- ``after_agent``: agent.end.

The agent id is ``create_agent(name=...)`` (else ``agent_id``); the session
key is the LangGraph ``thread_id``. Both the async (``ainvoke``/``astream``)
and the sync (``invoke``/``stream``) paths are bound; the sync path runs the
bus with ``anyio.run`` and so cannot be used inside a running event loop.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import warnings
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import Annotated, Any, Final, cast

import anyio
from typing_extensions import NotRequired

from ..bus import Bus
from ..errors import RunEnded, ToolPaused
from ..events import HOOK_POINTS, TOOL_POINTS, Message, Params
from ..lineage import running
from ..tools import error_result

try:
    from langchain.agents.middleware import (
        AgentMiddleware,
        AgentState,
        ModelRequest,
        ToolCallRequest,
        hook_config,
    )
    from langchain.agents.middleware.types import PrivateStateAttr
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
    from langchain_core.tools import BaseTool
    from langgraph.config import get_config
    from langgraph.errors import GraphBubbleUp
    from langgraph.types import Command
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "agentbus.adapters.langchain needs LangChain v1: pip install 'agentbus[langchain]'"
    ) from exc

__all__ = [
    "AgentbusMiddleware",
    "AgentbusState",
    "ToolMessageError",
    "UnboundPointWarning",
    "openai_style_settings",
]

SettingsMapper = Callable[[Params, frozenset[str]], dict[str, Any]]
"""Turns params.before's changes (the event and the names of the changed fields)
into model settings, the keyword arguments the chat model is bound with."""

_REASONING_EFFORT = {"off": "none", "minimal": "minimal", "low": "low", "medium": "medium", "high": "high"}


def openai_style_settings(params: Params, changed: frozenset[str]) -> dict[str, Any]:
    """The default mapper: ``temperature`` and ``reasoning_effort`` (think level).

    ``reasoning_effort`` is what ``ChatOpenAI`` and compatible models accept;
    for other providers pass your own mapper (Anthropic, for one, wants
    ``thinking={"type": "enabled", "budget_tokens": ...}``). The reasoning
    level has no common model setting and is not mapped.
    """
    settings: dict[str, Any] = {}
    if "temperature" in changed and params.temperature is not None:
        settings["temperature"] = params.temperature
    if "think_level" in changed and params.think_level is not None:
        settings["reasoning_effort"] = _REASONING_EFFORT[params.think_level]
    return settings


class AgentbusState(AgentState[Any]):
    """The agent state with the user's message as message.before left it (private)."""

    agentbus_message: NotRequired[Annotated[str, PrivateStateAttr]]
    agentbus_metadata: NotRequired[Annotated[dict[str, Any], PrivateStateAttr]]
    agentbus_ended: NotRequired[str]
    """Why a layer ended the run (``event.end_run(reason)``), in the run's result."""


class ToolMessageError(Exception):
    """The tool node answered with an error ``ToolMessage`` (it handled the exception itself)."""

    def __init__(self, message: Any) -> None:
        super().__init__(message.text)
        self.message = message


def _blocking(function: Callable[..., Any], *args: Any) -> Any:
    """Run an async hook from LangChain's sync path."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(function, *args)
    raise RuntimeError(
        "AgentbusMiddleware cannot run a sync agent call inside a running event loop; "
        "use agent.ainvoke() / agent.astream() there"
    )


def _content(value: Any) -> Any:
    """A result as ToolMessage content: text or content blocks, anything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, (str, dict)) for item in value):
        return value
    return json.dumps(value, default=str)


def _model_identity(model: Any) -> tuple[str, str]:
    """(provider, model name) as the model reports them to LangSmith, if it does."""
    try:
        params = model._get_ls_params()
    except Exception:
        return "", ""
    return str(params.get("ls_provider") or ""), str(params.get("ls_model_name") or "")


def _initial_temperature(request: Any) -> float | None:
    value = request.model_settings.get("temperature", getattr(request.model, "temperature", None))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


class UnboundPointWarning(UserWarning):
    """Layers were registered on a hook point that an agent's graph has no hook for."""


_HOOKS: dict[str, frozenset[str]] = {
    "before_agent": frozenset({"message.before", "agent.start"}),
    "after_agent": frozenset({"agent.end"}),
    "before_model": frozenset({"turn.start"}),
    "after_model": frozenset({"turn.end"}),
    "wrap_model_call": frozenset({"params.before", "tool.list"}) | TOOL_POINTS,
}
"""LangChain's hooks (each with its ``a``-prefixed async twin) and the points they run.

The tool points are always bound (``wrap_tool_call``). The others are bound only
when one of their points has layers when the middleware is made, since each
costs the agent on every turn: a ``before_*``/``after_*`` hook is a node of the
graph, a ``wrap_model_call`` a traced wrapper around every model call. The model
call is also where a run ends that a tool call's layer ended (``RunEnded``), so
tool layers bind it too.
"""

LOOP_POINTS: Final = frozenset().union(*_HOOKS.values())
"""The hook points bound by a hook other than ``wrap_tool_call``."""

_CLASSES: dict[tuple[type[Any], frozenset[str]], type[Any]] = {}


def _hook_class(base: type[Any], hooks: frozenset[str]) -> type[Any]:
    """``base`` (AgentbusMiddleware or a subclass) with these loop hooks, where ``base`` does
    not define them itself: LangChain reads the hooks off the class.

    Without any loop hook, the agent's state keeps LangChain's own schema: AgentbusState's
    fields are written and read by those hooks only, and each field is a channel of the
    graph that every step of every run copies and checks (about 2% of a run of one tool call).
    """
    hooks = frozenset(hook for hook in hooks if not _overrides(base, hook))
    bare = not hooks and base.state_schema is AgentbusState and not any(_overrides(base, h) for h in _HOOKS)
    if not hooks and not bare:
        return base
    cls = _CLASSES.get((base, hooks))
    if cls is None:
        namespace: dict[str, Any] = {"__module__": base.__module__, "__doc__": base.__doc__}
        for hook in hooks:
            for name in (hook, "a" + hook):
                namespace[name] = _LoopHooks.__dict__[name]
        if "wrap_model_call" in hooks:
            namespace["_model_call"] = _LoopHooks.__dict__["_model_call"]
        if bare:
            namespace["state_schema"] = AgentState
        cls = _CLASSES[(base, hooks)] = type(base.__name__, (base,), namespace)
    return cls


def _signed(hook: Callable[..., Any]) -> Callable[..., Any]:
    """A bound hook as a plain function that carries its signature.

    ``create_agent`` hands every ``wrap_*`` hook to LangSmith's ``traceable``, whose
    wrapper asks for the hook's signature on every call, tracing on or off: a bound
    method's is rebuilt each time (about 90,000 instructions, 45% of what the traced
    wrapper costs a tool call), a function's ``__signature__`` is read as it is.
    """

    def signed(request: Any, handler: Callable[..., Any]) -> Any:
        return hook(request, handler)

    signed.__signature__ = inspect.signature(hook)  # type: ignore[attr-defined]
    signed.__name__ = signed.__qualname__ = hook.__name__
    signed.__doc__ = hook.__doc__
    return signed


_TRACED_HOOKS: Final = ("awrap_tool_call", "wrap_tool_call", "awrap_model_call", "wrap_model_call")
"""The hooks ``create_agent`` wraps in LangSmith's ``traceable`` (the others become graph nodes)."""


def _overrides(cls: type[Any], hook: str) -> bool:
    """Whether ``cls`` has the hook as LangChain tells it: not AgentMiddleware's own."""
    return any(getattr(cls, name) is not getattr(AgentMiddleware, name) for name in (hook, "a" + hook))


class AgentbusMiddleware(AgentMiddleware[AgentbusState, Any, Any]):
    """Run the bus's hook points inside a LangChain ``create_agent`` loop.

    ``agent_id`` is used when the agent has no ``name``; ``model_settings``
    maps params.before's changes to the model's bind arguments; ``tool_kinds``
    gives tools their kind by name (``{"run_shell": "exec"}``: see
    :mod:`agentbus.kinds`). A tool that raises fails the run, as without
    agentbus, after tool.after has seen the error; ``errors_as_results=True``
    gives the model the error result instead, and the run goes on.

    Only what is used is bound: the tool points, params.before and tool.list
    always (through the tool and model-call wrappers, which look the layers up
    per call), the graph's nodes (message.before, agent and turn points) only if
    they have layers when the middleware is made (or observers that want
    dispatch records, for message.before), because LangChain compiles the
    agent's graph once and each node costs every turn. ``points``
    binds more: an iterable of hook point names that may get layers later, or
    ``"all"``. A layer registered later on a point that is not bound does not
    run in this agent: the adapter warns (:class:`UnboundPointWarning`) at the
    agent's next tool call; make the agent again (``create_agent``) to bind it.
    """

    state_schema = AgentbusState

    def __new__(cls, bus: Bus, *args: Any, points: Iterable[str] | str | None = None, **kwargs: Any) -> Any:
        bound = _bound_points(bus, points)
        hooks = frozenset(hook for hook, served in _HOOKS.items() if served & bound)
        return super().__new__(_hook_class(cls, hooks))

    def __init__(
        self,
        bus: Bus,
        *,
        agent_id: str = "main",
        model_settings: SettingsMapper = openai_style_settings,
        tool_kinds: Mapping[str, str] | None = None,
        errors_as_results: bool = False,
        points: Iterable[str] | str | None = None,
    ) -> None:
        super().__init__()
        self.bus = bus
        self.agent_id = agent_id
        self.model_settings = model_settings
        self.tool_kinds = dict(tool_kinds or {})
        self.errors_as_results = errors_as_results
        hooks = [hook for hook in _HOOKS if _overrides(type(self), hook)]
        served = frozenset().union(*(_HOOKS[hook] for hook in hooks))
        self.points: frozenset[str] = TOOL_POINTS | (served & _bound_points(bus, points))
        """The hook points this middleware runs (the others have no hook in the graph)."""
        self._ends_runs = "wrap_model_call" in hooks or "before_model" in hooks
        for name in _TRACED_HOOKS:
            hook = getattr(self, name)
            # A subclass's coroutine function keeps LangSmith's async wrapper (and its spans) as it is.
            if getattr(type(self), name) is not getattr(AgentMiddleware, name) and not (
                inspect.iscoroutinefunction(hook)
            ):
                setattr(self, name, _signed(hook))  # LangChain reads the instance's
        self._version = bus.registry.version
        self._warned: set[str] = set()
        self._bound: set[str] = set()
        # Calls paused by interrupt(), by (thread, call id): (args as the model sent them, args approved).
        self._paused: dict[tuple[str | None, str], tuple[Any, dict[str, Any]]] = {}

    def _check_unbound(self) -> None:
        """Warn, once per point, about layers that were registered where this agent has no hook."""
        self._version = self.bus.registry.version
        for point in sorted(LOOP_POINTS - self.points - self._warned):
            if self.bus.registry.stack(point):
                self._warned.add(point)
                warnings.warn(
                    f"{point} has layers now, but this LangChain agent was built when it had none, "
                    f"so they do not run in it; call create_agent again to bind them (or make "
                    f"AgentbusMiddleware with points=[{point!r}] or points='all' to bind it up front)",
                    UnboundPointWarning,
                    stacklevel=2,
                )

    # -- who is running ---------------------------------------------------------------

    def _identity(self, runtime: Any) -> tuple[str, str | None]:
        """(agent id, session key) from the run's config and LangGraph's execution info."""
        config = getattr(runtime, "config", None)  # a ToolRuntime carries its config
        if config is None:
            try:
                config = get_config()
            except RuntimeError:  # outside a runnable, or async on Python 3.10
                config = {}
        agent_id = (config.get("metadata") or {}).get("lc_agent_name") or self.agent_id
        thread = getattr(getattr(runtime, "execution_info", None), "thread_id", None)
        if thread is None:
            thread = (config.get("configurable") or {}).get("thread_id")
        return str(agent_id), None if thread is None else str(thread)

    async def _process_message(
        self, human: HumanMessage, agent_id: str, session_key: str | None
    ) -> dict[str, Any]:
        content = human.content
        if isinstance(content, str):
            text, part = content, None
        else:
            blocks = [i for i, b in enumerate(content) if isinstance(b, dict) and b.get("type") == "text"]
            if not blocks:
                return {}
            part = blocks[-1]
            text = str(content[part].get("text", ""))  # type: ignore[union-attr]
        event = await self.bus.process_message(text, agent_id=agent_id, session_key=session_key)
        update: dict[str, Any] = {"agentbus_message": event.message, "agentbus_metadata": event.metadata}
        if event.message != text:
            if part is None:
                new_content: Any = event.message
            else:
                new_content = list(content)
                new_content[part] = {**new_content[part], "text": event.message}
            # Same id: LangGraph's add_messages reducer replaces the message in place.
            update["messages"] = [human.model_copy(update={"content": new_content})]
        return update

    async def _resolve_request(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        """params.before for one model call; the request with the changed settings."""
        agent_id, session_key = self._identity(request.runtime)
        provider, model = _model_identity(request.model)
        state = cast("dict[str, Any]", request.state)
        text = state.get("agentbus_message")
        if text is None:  # message.before is not bound: the user's message as it is
            text = _last_human_text(state.get("messages") or [])
        message = Message(
            message=text, metadata=dict(state.get("agentbus_metadata") or {}),
            agent_id=agent_id, session_key=session_key, provider=provider, model=model,
        )  # fmt: skip
        temperature = _initial_temperature(request)
        system_prompt = request.system_prompt
        params = await self.bus.resolve_params(message, temperature=temperature, system_prompt=system_prompt)
        changed = frozenset(
            name
            for name, before in (
                ("think_level", None),
                ("reasoning_level", None),
                ("temperature", temperature),
            )
            if getattr(params, name) != before
        )
        settings = self.model_settings(params, changed) if changed else {}
        if settings:
            request = request.override(model_settings={**request.model_settings, **settings})
        if params.system_prompt != system_prompt and params.system_prompt is not None:
            request = request.override(system_message=SystemMessage(content=params.system_prompt))
        return await self._offer_tools(request, agent_id, session_key)

    async def _offer_tools(
        self, request: ModelRequest[Any], agent_id: str, session_key: str | None
    ) -> ModelRequest[Any]:
        """tool.list on the tools this model call offers: hidden ones are left out, descriptions replaced."""
        named = {tool.name: tool.description or "" for tool in request.tools if isinstance(tool, BaseTool)}
        shown = await self.bus.list_tools(named, agent_id=agent_id, session_key=session_key)
        if shown == named:
            return request
        tools: list[Any] = []
        for tool in request.tools:
            if not isinstance(tool, BaseTool):
                tools.append(tool)  # a provider's tool as a dict: kept as it is
            elif tool.name in shown:
                same = shown[tool.name] == named[tool.name]
                tools.append(tool if same else tool.model_copy(update={"description": shown[tool.name]}))
        return request.override(tools=tools)

    # -- tools: tool.before -> tool.call -> tool.after ---------------------------------------

    def _bind(self, tools: Any) -> None:
        """Tell the registry the agent's tools (name -> schema), once each, so their kinds are known."""
        schemas: dict[str, Any] = {}
        for tool in tools or ():
            name = getattr(tool, "name", None)
            if isinstance(name, str) and name not in self._bound:
                args = getattr(tool, "args", None)
                schemas[name] = {"properties": args} if isinstance(args, dict) else None
        if schemas:
            kinds = {name: kind for name, kind in self.tool_kinds.items() if name in schemas}
            self.bus.registry.bind_tools(schemas, kinds=kinds, source="the LangChain adapter")
            self._bound.update(schemas)

    async def _call_tool(self, request: ToolCallRequest, handler: Callable[..., Any]) -> Any:
        call = request.tool_call
        name, call_id = call["name"], call.get("id") or ""
        agent_id, session_key = self._identity(request.runtime)
        if self._version != self.bus.registry.version:
            self._check_unbound()
        if request.tool is not None and name not in self._bound:
            self._bind([request.tool])
        responses: list[Any] = []
        key = (session_key, call_id)

        async def execute(args: dict[str, Any]) -> Any:
            # The tool gets the approved args (a copy); unchanged ones, the request as it came.
            unchanged = args == call["args"]
            forwarded = request if unchanged else request.override(tool_call={**call, "args": args})
            try:
                with running(agent_id):  # an agent invoked inside the tool is this agent's sub-agent
                    response = handler(forwarded)
                    if inspect.isawaitable(response):
                        response = await response
            except GraphBubbleUp as exc:  # an interrupt pauses the call: it has not failed, nor ended
                raise ToolPaused(exc, args) from None
            responses.append(response)
            if not isinstance(response, ToolMessage):
                return response  # a Command: the layers may look, the graph applies it
            if response.status == "error":
                raise ToolMessageError(response)
            return response.content

        paused = self._paused.pop(key, None)
        try:
            if paused is not None and paused[0] == call["args"]:
                # Resuming after interrupt(): tool.before approved these args already. The tool
                # runs again (LangGraph replays it) inside the tool.call layers, then tool.after.
                event = await self.bus.resume_tool(
                    name, paused[1], execute, call_id=call_id, agent_id=agent_id, session_key=session_key
                )
            else:
                event = await self.bus.run_tool(
                    name, call["args"], execute, call_id=call_id, agent_id=agent_id, session_key=session_key
                )
        except RunEnded as ended:  # the model gets the reason; before_model then ends the run
            if not self._ends_runs:  # the layer came after the agent: no hook can stop the loop cleanly
                raise
            message = ToolMessage(
                content=f"The run was ended: {ended.reason}", name=name, tool_call_id=call_id, status="error"
            )
            return Command(update={"messages": [message], "agentbus_ended": ended.reason})
        except ToolPaused as pause:
            if len(self._paused) >= _PAUSED_LIMIT:  # interrupts never resumed: forget the oldest
                del self._paused[next(iter(self._paused))]
            self._paused[key] = (call["args"], pause.approved)
            raise pause.signal from None
        response = responses[-1] if responses else None
        result = event.result
        if response is not None and (result is response or result is getattr(response, "content", None)):
            return response
        error = event.error
        unchanged = error is not None and result == error_result(event.tool, error)
        if isinstance(error, ToolMessageError) and unchanged:
            return error.message
        if unchanged and not self.errors_as_results:
            raise cast("BaseException", error)  # as without agentbus: the tool's error fails the run
        return ToolMessage(
            content=_content(result), name=name, tool_call_id=call_id,
            status="error" if event.is_error else "success",
        )  # fmt: skip

    def _intercepted(self) -> bool:
        """Whether a tool call has anything to run through (else the handler is called as it is)."""
        bus = self.bus
        if self._version != bus.registry.version:
            self._check_unbound()
        return bool(self._paused) or _tool_layers(bus) or bus.observers.wants_dispatches

    def awrap_tool_call(
        self, request: ToolCallRequest, handler: Callable[..., Any]
    ) -> Coroutine[Any, Any, Any]:
        """The tool pipeline, as a coroutine (the handler's own, when no layer is registered).

        Not a coroutine function on purpose: ``create_agent`` wraps every
        ``awrap_tool_call`` in LangSmith's ``traceable``, whose async wrapper hops
        to a worker thread twice per call, even with tracing off (most of what a
        tool hook costs a LangChain agent). Its sync wrapper does not, and the
        coroutine returned here is awaited by the tool node all the same. The
        price: with LangSmith tracing on, this hook's span ends when the call
        starts, and the tool's span is a child of the tool node's.
        """
        if not self._intercepted():
            return cast("Coroutine[Any, Any, Any]", handler(request))
        return self._call_tool(request, handler)

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable[..., Any]) -> Any:
        if not self._intercepted():
            return handler(request)
        return _blocking(self._call_tool, request, handler)


def _ended_answer(ended: RunEnded) -> AIMessage:
    """An answer without tool calls: LangChain's agent loop ends on it, as on any final answer."""
    return AIMessage(content=f"The run was ended: {ended.reason}")


_PAUSED_LIMIT = 1024
"""How many interrupted tool calls an adapter remembers for their resume."""


def _bound_points(bus: Bus, points: Iterable[str] | str | None) -> frozenset[str]:
    """The points a new middleware binds: those asked for, the loop points with layers, and the
    tool points if any has layers (the tool hook itself is always bound)."""
    if points == "all":
        return HOOK_POINTS
    asked = frozenset([points] if isinstance(points, str) else points or ())
    unknown = asked - HOOK_POINTS
    if unknown:
        raise ValueError(
            f"points names {', '.join(map(repr, sorted(unknown)))}, which are not hook points; "
            f"use 'all' or some of: {', '.join(sorted(HOOK_POINTS))}"
        )
    registered = frozenset(point for point in LOOP_POINTS if bus.registry.stack(point))
    if bus.observers.wants_dispatches:  # they expect a record of every message.before and params.before
        registered |= {"message.before", "params.before"}
    if _tool_layers(bus):
        registered |= TOOL_POINTS
    return asked | registered


def _tool_layers(bus: Bus) -> bool:
    """Whether any tool point has layers (for any tool and agent: one look-up per point)."""
    stack = bus.registry.stack
    return bool(stack("tool.before") or stack("tool.call") or stack("tool.after"))


def _model_call_points(bus: Bus) -> bool:
    """Whether a model call has params.before or tool.list to run (looked up per call: the
    model-call wrapper is always bound, so these points bind as soon as they get layers)."""
    registry = bus.registry
    return bool(
        registry.stack("params.before") or registry.stack("tool.list") or bus.observers.wants_dispatches
    )


def _last_human_text(messages: Any) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            content = message.content
            if isinstance(content, str):
                return content
            texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
            return str(texts[-1]) if texts else ""
    return ""


class _LoopHooks:
    """The hooks of the points other than the tools', picked onto the middleware's class by
    :func:`_hook_class` when their points are bound (``self`` is an AgentbusMiddleware)."""

    # -- agent: message.before and agent.start / agent.end -------------------------

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        agent_id, session_key = self._identity(runtime)
        update: dict[str, Any] | None = None
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        try:
            if isinstance(last, HumanMessage):
                update = await self._process_message(last, agent_id, session_key)
            await self.bus.notify("agent.start", agent_id=agent_id, session_key=session_key)
        except RunEnded as ended:
            return {"agentbus_ended": ended.reason, "jump_to": "end"}
        return update

    @hook_config(can_jump_to=["end"])
    def before_agent(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        return _blocking(self.abefore_agent, state, runtime)  # type: ignore[no-any-return]

    async def aafter_agent(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        agent_id, session_key = self._identity(runtime)
        await self.bus.notify("agent.end", agent_id=agent_id, session_key=session_key)
        return None

    def after_agent(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        return _blocking(self.aafter_agent, state, runtime)  # type: ignore[no-any-return]

    # -- model: turn.start / turn.end, params.before and tool.list --------------------------

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        if state.get("agentbus_ended") is not None:  # a tool call's layer ended the run
            return {"jump_to": "end"}
        agent_id, session_key = self._identity(runtime)
        try:
            await self.bus.notify("turn.start", agent_id=agent_id, session_key=session_key)
        except RunEnded as ended:
            return {"agentbus_ended": ended.reason, "jump_to": "end"}
        return None

    @hook_config(can_jump_to=["end"])
    def before_model(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        return _blocking(self.abefore_model, state, runtime)  # type: ignore[no-any-return]

    async def aafter_model(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        agent_id, session_key = self._identity(runtime)
        await self.bus.notify("turn.end", agent_id=agent_id, session_key=session_key)
        return None

    def after_model(self: Any, state: AgentbusState, runtime: Any) -> dict[str, Any] | None:
        return _blocking(self.aafter_model, state, runtime)  # type: ignore[no-any-return]

    def awrap_model_call(
        self: Any, request: ModelRequest[Any], handler: Callable[..., Any]
    ) -> Coroutine[Any, Any, Any]:
        """A plain function returning the coroutine, for the reason told at ``awrap_tool_call``."""
        return cast("Coroutine[Any, Any, Any]", self._model_call(request, handler))

    async def _model_call(self: Any, request: ModelRequest[Any], handler: Callable[..., Any]) -> Any:
        self._bind(request.tools)
        reason = cast("dict[str, Any]", request.state).get("agentbus_ended")
        if reason is not None:  # a tool call's layer ended the run: no more model calls
            return _ended_answer(RunEnded(reason))
        if not _model_call_points(self.bus):
            return await handler(request)
        try:
            request = await self._resolve_request(request)
        except RunEnded as ended:
            return _ended_answer(ended)
        return await handler(request)

    def wrap_model_call(self: Any, request: ModelRequest[Any], handler: Callable[..., Any]) -> Any:
        self._bind(request.tools)
        reason = cast("dict[str, Any]", request.state).get("agentbus_ended")
        if reason is not None:
            return _ended_answer(RunEnded(reason))
        if not _model_call_points(self.bus):
            return handler(request)
        try:
            request = _blocking(self._resolve_request, request)
        except RunEnded as ended:
            return _ended_answer(ended)
        return handler(request)

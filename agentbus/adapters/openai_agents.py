"""Bind the bus to the OpenAI Agents SDK (``pip install agentbus[openai-agents]``).

Three pieces, usable together through :func:`run` or one by one:

- :func:`wrap_tool` / :func:`wrap_agent`: every :class:`agents.FunctionTool` of an
  agent (and of the agents it hands off to) runs through tool.before ->
  tool.call -> tool.after. The SDK calls a tool's ``on_invoke_tool(context,
  arguments_json)``; the wrapper parses the arguments, lets the bus mutate or
  block them, runs the original invoker with the final arguments, and returns
  what tool.after left, so the model sees the rewritten result. A tool that
  raises reaches tool.after as an error; the model then gets the tool's own
  ``failure_error_function`` message, exactly as without agentbus (a tool
  whose failure function is None fails the run, as in the SDK).
- :class:`BusRunHooks`: the SDK's :class:`agents.RunHooks` turned into
  lifecycle notifications (agent.start/end, turn.start/end around each model
  call), delegating to the caller's own hooks.
- :func:`run` / :func:`run_streamed`: ``Runner.run`` with message.before on the user's input and
  params.before onto the run's :class:`agents.ModelSettings` (think level ->
  ``reasoning.effort``, reasoning level -> ``reasoning.summary``, temperature).

The agent id is the SDK agent's ``name``; the session key is the ``session``'s
``session_id`` (or ``conversation_id``, or ``RunConfig.group_id``).

Sub-agents: the tools of an agent used as a tool (``as_tool()``), of handoff
targets (agents and ``handoff()`` objects) and of ``mcp_servers`` are
intercepted too; an ``as_tool()`` agent's events carry the calling agent as
``parent_agent_id``. tool.list runs every turn on the tools the agent offers;
params.before reads and writes a string ``instructions`` as the system prompt.
A layer's ``end_run()`` reaches the caller of :func:`run` as
:class:`agentbus.RunEnded` (the SDK has no clean stop from outside the model).

Not bound: hosted tools (web/file search, code interpreter: they run at
OpenAI) and computer/shell/apply_patch tools. The SDK is asyncio-only.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import types
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from ..bus import Bus
from ..events import Message
from ..lineage import running
from ..tools import error_result

try:
    from agents import Agent, FunctionTool, Handoff, ModelSettings, RunConfig, RunHooks, Runner
    from agents.tool import (
        maybe_invoke_function_tool_failure_error_function,
        set_function_tool_failure_error_function,
    )
    from openai.types.shared import Reasoning
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "agentbus.adapters.openai_agents needs the OpenAI Agents SDK: pip install 'agentbus[openai-agents]'"
    ) from exc

__all__ = ["BusRunHooks", "run", "run_streamed", "wrap_agent", "wrap_tool"]

# The session key of the run under way: run() sets it, and the asyncio tasks the
# SDK spawns for tools and hooks inherit it with their context.
_session_key: ContextVar[str | None] = ContextVar("agentbus_openai_agents_session_key", default=None)

_WRAPPED = "__agentbus_wrapped__"

# ModelSettings.reasoning.effort <-> the bus's think levels. Efforts above "high"
# read as "high"; they are only written back when a layer changed the level.
_EFFORT_BY_THINK_LEVEL = {
    "off": "none",
    "minimal": "minimal",
    "low": "low",
    "medium": "medium",
    "high": "high",
}
_THINK_LEVEL_BY_EFFORT = {"none": "off", "xhigh": "high", "max": "high"} | {
    level: level for level in ("minimal", "low", "medium", "high")
}


def _current_session_key(context: Any) -> str | None:
    key = _session_key.get()
    if key is None:
        run_config = getattr(context, "run_config", None)
        key = getattr(run_config, "group_id", None)
    return key


def _agent_name(context: Any) -> str | None:
    agent = getattr(context, "agent", None)
    return getattr(agent, "name", None)


def _model_output(value: Any) -> Any:
    """The SDK str()s what it does not know; give the model JSON for the bus's dicts."""
    return json.dumps(value, default=str) if isinstance(value, dict) else value


def wrap_tool(bus: Bus, tool: Any, *, kind: str | None = None) -> Any:
    """Return a copy of ``tool`` whose calls run through the bus's tool pipeline.

    Tools that are not :class:`agents.FunctionTool` (hosted tools, computer,
    shell ...) are returned unchanged, and so is a tool that is already wrapped.
    ``kind`` says what the tool does (``"exec"``, ``"read"`` ...: see
    :mod:`agentbus.kinds`); without it the kind is told from the tool's
    parameter schema where that is unambiguous.
    """
    if not isinstance(tool, FunctionTool) or getattr(tool.on_invoke_tool, _WRAPPED, False):
        return tool
    bus.registry.bind_tools(
        {tool.name: tool.params_json_schema},
        kinds={tool.name: kind} if kind is not None else None,
        source="the OpenAI Agents adapter",
    )
    original = tool
    wrapped = copy.copy(tool)  # FunctionTool.__copy__ rebinds the invoker to the copy
    invoke = wrapped.on_invoke_tool
    # Let the tool's exceptions reach the bus; the original tool's failure policy
    # formats them below, after tool.after has seen the error.
    set_function_tool_failure_error_function(wrapped, None)

    async def on_invoke_tool(context: Any, arguments: str) -> Any:
        try:
            parsed = json.loads(arguments) if arguments else {}
        except ValueError:
            parsed = None  # the SDK reports malformed JSON itself, through the tool's invoker
        args = parsed if isinstance(parsed, dict) else {}

        agent_id = _agent_name(context)

        async def execute(final_args: dict[str, Any]) -> Any:
            # Unchanged arguments go through as the model wrote them, byte for byte.
            with running(agent_id):  # an agent started inside the tool is this agent's sub-agent
                return await invoke(context, arguments if final_args == args else json.dumps(final_args))

        event = await bus.run_tool(
            original.name, args, execute, call_id=getattr(context, "tool_call_id", None),
            agent_id=agent_id, session_key=_current_session_key(context),
        )  # fmt: skip
        error = event.error
        if (
            error is not None
            and isinstance(error, Exception)
            and event.result == error_result(event.tool, error)
        ):
            message = await maybe_invoke_function_tool_failure_error_function(
                function_tool=original, context=context, error=error
            )
            if message is None:
                raise error
            return message
        return _model_output(event.result) if event.blocked else event.result

    setattr(on_invoke_tool, _WRAPPED, True)
    wrapped.on_invoke_tool = on_invoke_tool
    return wrapped


def wrap_agent(
    bus: Bus,
    agent: Any,
    *,
    tool_kinds: Mapping[str, str] | None = None,
    _clones: dict[int, Any] | None = None,
) -> Any:
    """Return a clone of ``agent`` whose function tools run through the bus.

    Agents reachable through ``handoffs`` (agents, and the agents behind
    :class:`agents.Handoff` objects) and inside ``as_tool()`` tools are cloned
    and wrapped too (cycles included); the tools of ``mcp_servers`` are wrapped
    as the SDK lists them, each turn, when tool.list runs. ``tool_kinds`` gives
    tools their kind by name (``{"run_shell": "exec"}``); a name no agent has
    is an error.
    """
    top = _clones is None
    clones: dict[int, Any] = {} if _clones is None else _clones
    if id(agent) in clones:
        return clones[id(agent)]
    kinds = tool_kinds or {}
    clone = agent.clone()
    clones[id(agent)] = clone
    clone.tools = [
        wrap_tool(bus, _with_wrapped_inner_agent(bus, tool, kinds, clones), kind=kinds.get(tool.name))
        for tool in agent.tools
    ]
    clone.handoffs = [
        wrap_agent(bus, target, tool_kinds=kinds, _clones=clones)
        if isinstance(target, Agent)
        else _wrap_handoff(bus, target, kinds, clones)
        for target in agent.handoffs
    ]
    _offer_tools_through(bus, clone, kinds)
    # MCP servers list their tools at run time: a kind may name one of theirs.
    if top and kinds and not any(getattr(a, "mcp_servers", None) for a in clones.values()):
        names = {getattr(t, "name", None) for a in clones.values() for t in a.tools}
        unknown = sorted(set(kinds) - names)
        if unknown:
            raise ValueError(
                f"tool_kinds names {', '.join(map(repr, unknown))}, which no agent here has; "
                f"their tools: {', '.join(sorted(n for n in names if n)) or 'none'}"
            )
    return clone


def _with_wrapped_inner_agent(bus: Bus, tool: Any, kinds: Mapping[str, str], clones: dict[int, Any]) -> Any:
    """An ``agent.as_tool()`` tool whose inner run uses the wrapped inner agent and the bus's hooks.

    The SDK keeps the inner agent and the run's hooks in the closure of the
    tool's invoker; that invoker is rebuilt with the wrapped clone and
    :class:`BusRunHooks` in their place, so everything else ``as_tool()`` was
    given (output extractor, streaming, approvals) stays as it was.
    """
    inner = getattr(tool, "_agent_instance", None)
    invoker = getattr(tool, "on_invoke_tool", None)
    impl = getattr(invoker, "_invoke_tool_impl", None)
    if not (getattr(tool, "_is_agent_tool", False) and isinstance(inner, Agent)):
        return tool
    code = getattr(impl, "__code__", None)
    if code is None or "self" not in code.co_freevars or "hooks" not in code.co_freevars:
        raise TypeError(
            f"agentbus cannot reach the agent inside the tool {tool.name!r} (agent.as_tool() changed in "
            "this version of the SDK); its tool calls would not be intercepted"
        )
    wrapped_inner = wrap_agent(bus, inner, tool_kinds=kinds, _clones=clones)
    cells = dict(zip(code.co_freevars, impl.__closure__, strict=True))  # type: ignore[union-attr]
    replaced = {
        "self": wrapped_inner,
        "hooks": BusRunHooks(bus, cells["hooks"].cell_contents),
    }
    closure = tuple(
        types.CellType(replaced[name]) if name in replaced else cells[name] for name in code.co_freevars
    )
    new_impl = types.FunctionType(code, impl.__globals__, impl.__name__, impl.__defaults__, closure)  # type: ignore[union-attr]
    new_impl.__kwdefaults__ = impl.__kwdefaults__  # type: ignore[union-attr]
    copied = copy.copy(tool)
    new_invoker = copy.copy(invoker)
    new_invoker._invoke_tool_impl = new_impl  # type: ignore[union-attr]
    new_invoker._function_tool = copied  # type: ignore[union-attr]
    copied.on_invoke_tool = new_invoker
    copied._agent_instance = wrapped_inner
    return copied


def _wrap_handoff(bus: Bus, handoff: Any, kinds: Mapping[str, str], clones: dict[int, Any]) -> Any:
    """A ``handoff()`` object that hands off to the wrapped clone of its agent."""
    if not isinstance(handoff, Handoff) or getattr(handoff.on_invoke_handoff, _WRAPPED, False):
        return handoff
    target = handoff._agent_ref() if handoff._agent_ref is not None else None
    if isinstance(target, Agent):  # wrapped now, so that tool_kinds are checked against its tools
        wrap_agent(bus, target, tool_kinds=kinds, _clones=clones)
    invoke = handoff.on_invoke_handoff

    async def on_invoke_handoff(context: Any, input_json: str) -> Any:
        agent = await invoke(context, input_json)
        return wrap_agent(bus, agent, tool_kinds=kinds, _clones=clones) if isinstance(agent, Agent) else agent

    setattr(on_invoke_handoff, _WRAPPED, True)
    wrapped = copy.copy(handoff)
    wrapped.on_invoke_handoff = on_invoke_handoff
    return wrapped


def _offer_tools_through(bus: Bus, clone: Any, kinds: Mapping[str, str] | None = None) -> None:
    """Each turn, the agent's tools (its MCP servers' included) pass through tool.list, and
    every function tool among them (MCP tools are made anew each turn) runs through the bus."""
    get_all_tools = clone.get_all_tools

    async def offered_tools(run_context: Any) -> list[Any]:
        tools = [
            wrap_tool(bus, tool, kind=(kinds or {}).get(getattr(tool, "name", "")))
            for tool in await get_all_tools(run_context)
        ]
        named = {tool.name: getattr(tool, "description", "") or "" for tool in tools if hasattr(tool, "name")}
        shown = await bus.list_tools(
            named, agent_id=clone.name, session_key=_current_session_key(run_context)
        )
        if shown == named:
            return tools
        offered = []
        for tool in tools:
            name = getattr(tool, "name", None)
            if name not in named:
                offered.append(tool)  # nothing to call it by (a hosted tool without a name): kept
            elif name in shown:
                if shown[name] != named[name]:
                    tool = copy.copy(tool)
                    tool.description = shown[name]
                offered.append(tool)
        return offered

    clone.get_all_tools = offered_tools


class BusRunHooks(RunHooks[Any]):
    """The SDK's run hooks as lifecycle notifications, then the caller's own hooks.

    ``on_agent_start``/``on_agent_end`` -> agent.start/agent.end (each time the
    current agent changes), ``on_llm_start``/``on_llm_end`` -> turn.start/
    turn.end. Pass it as ``Runner.run(..., hooks=BusRunHooks(bus))``.
    """

    def __init__(self, bus: Bus, hooks: RunHooks[Any] | None = None) -> None:
        self.bus = bus
        self.hooks = hooks
        self._handed_off_from: str | None = None

    async def on_agent_start(self, context: Any, agent: Any) -> None:
        data = {"handed_off_from": self._handed_off_from} if self._handed_off_from is not None else {}
        self._handed_off_from = None
        await self.bus.notify(
            "agent.start", agent_id=agent.name, session_key=_current_session_key(context), **data
        )
        if self.hooks is not None:
            await self.hooks.on_agent_start(context, agent)

    async def on_agent_end(self, context: Any, agent: Any, output: Any) -> None:
        await self.bus.notify(
            "agent.end", agent_id=agent.name, session_key=_current_session_key(context), output=output
        )
        if self.hooks is not None:
            await self.hooks.on_agent_end(context, agent, output)

    async def on_llm_start(
        self, context: Any, agent: Any, system_prompt: str | None, input_items: list[Any]
    ) -> None:
        await self.bus.notify("turn.start", agent_id=agent.name, session_key=_current_session_key(context))
        if self.hooks is not None:
            await self.hooks.on_llm_start(context, agent, system_prompt, input_items)

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        await self.bus.notify(
            "turn.end", agent_id=agent.name, session_key=_current_session_key(context), response=response
        )
        if self.hooks is not None:
            await self.hooks.on_llm_end(context, agent, response)

    async def on_handoff(self, context: Any, from_agent: Any, to_agent: Any) -> None:
        # The SDK ends only the last agent of a run: the agent that hands off ends here.
        self._handed_off_from = from_agent.name
        await self.bus.notify(
            "agent.end", agent_id=from_agent.name, session_key=_current_session_key(context),
            status="handoff", handed_off_to=to_agent.name,
        )  # fmt: skip
        if self.hooks is not None:
            await self.hooks.on_handoff(context, from_agent, to_agent)

    async def on_tool_start(self, context: Any, agent: Any, tool: Any) -> None:
        if self.hooks is not None:
            await self.hooks.on_tool_start(context, agent, tool)

    async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: object) -> None:
        if self.hooks is not None:
            await self.hooks.on_tool_end(context, agent, tool, result)


def _find_user_text(input: Any) -> tuple[str, int, int | None] | None:
    """Where the user's text is in a run's input: (text, item index, content part index).

    A string input is item -1; an input list is searched for its last user
    message, whose content is a string or a list with an ``input_text`` part.
    A resumed RunState has none: its message went through the bus already.
    """
    if isinstance(input, str):
        return input, -1, None
    if not isinstance(input, list):
        return None
    for index in range(len(input) - 1, -1, -1):
        item = input[index]
        if not isinstance(item, Mapping) or item.get("role") != "user":
            continue
        content = item.get("content")
        if isinstance(content, str):
            return content, index, None
        if isinstance(content, list):
            for part in range(len(content) - 1, -1, -1):
                block = content[part]
                if isinstance(block, Mapping) and block.get("type") == "input_text":
                    return str(block.get("text", "")), index, part
        return None
    return None


def _replace_user_text(input: Any, text: str, index: int, part: int | None) -> Any:
    """A copy of the input with the user's text replaced; the caller's list is left alone."""
    if index == -1:
        return text
    item = input[index]
    if part is None:
        new_item = {**item, "content": text}
    else:
        content = item["content"]
        new_item = {
            **item,
            "content": [*content[:part], {**content[part], "text": text}, *content[part + 1 :]],
        }
    return [*input[:index], new_item, *input[index + 1 :]]


def _param_changes(settings: Any, params: Any, initial: tuple[Any, ...]) -> dict[str, Any]:
    """The ModelSettings fields that params.before changed, built on the effective ``settings``."""
    think_level, reasoning_level, temperature = initial
    changes: dict[str, Any] = {}
    if params.temperature != temperature:
        changes["temperature"] = params.temperature
    reasoning: dict[str, Any] = {}
    if params.think_level != think_level:
        reasoning["effort"] = (
            None if params.think_level is None else _EFFORT_BY_THINK_LEVEL[params.think_level]
        )
    if params.reasoning_level != reasoning_level:
        reasoning["summary"] = "auto" if params.reasoning_level == "on" else None
    if reasoning:
        base = settings.reasoning or Reasoning()
        changes["reasoning"] = base.model_copy(update=reasoning)
    return changes


async def _prepare(
    bus: Bus,
    agent: Any,
    input: Any,
    session_key: str | None,
    metadata: dict[str, Any] | None,
    options: Any,
    tool_kinds: Mapping[str, str] | None = None,
) -> tuple[Any, Any, dict[str, Any], str | None]:
    """message.before and params.before for a run: (agent, input, runner options, session key)."""
    options = dict(options)
    run_config = options.pop("run_config", None)
    if run_config is None:
        run_config = RunConfig()
    elif isinstance(run_config, Mapping):
        run_config = RunConfig(**run_config)
    session = options.get("session")
    if session_key is None:
        session_key = (
            getattr(session, "session_id", None) or options.get("conversation_id") or run_config.group_id
        )
    settings = agent.model_settings
    if run_config.model_settings is not None:
        settings = settings.resolve(run_config.model_settings)
    model = run_config.model or agent.model
    model_name = str(model if isinstance(model, str) else getattr(model, "model", "") or "")

    found = _find_user_text(input)
    if found is not None:
        text, index, part = found
        message = await bus.process_message(
            text, agent_id=agent.name, session_key=session_key, metadata=metadata,
            provider="openai", model=model_name,
        )  # fmt: skip
        if message.message != text:
            input = _replace_user_text(input, message.message, index, part)
    else:
        message = Message(
            message="", metadata=dict(metadata or {}), agent_id=agent.name, session_key=session_key,
            provider="openai", model=model_name,
        )  # fmt: skip
    effort = settings.reasoning.effort if settings.reasoning is not None else None
    summary = settings.reasoning.summary if settings.reasoning is not None else None
    initial = (
        _THINK_LEVEL_BY_EFFORT.get(effort) if effort else None,
        "on" if summary else None,
        settings.temperature,
    )
    instructions = agent.instructions if isinstance(agent.instructions, str) else None
    params = await bus.resolve_params(
        message, think_level=initial[0], reasoning_level=initial[1], temperature=initial[2],
        system_prompt=instructions,
    )  # fmt: skip
    changes = _param_changes(settings, params, initial)
    if changes:
        overrides = dataclasses.replace(run_config.model_settings or ModelSettings(), **changes)
        run_config = dataclasses.replace(run_config, model_settings=overrides)
    options["run_config"] = run_config
    if any(bus.registry.stack(point) for point in _RUN_HOOK_POINTS):
        options["hooks"] = BusRunHooks(bus, options.get("hooks"))
    wrapped = _wrapped_agent(bus, agent, tool_kinds)
    if params.system_prompt != instructions and params.system_prompt is not None:
        wrapped = wrapped.clone(instructions=params.system_prompt)  # this run's starting agent only
        _offer_tools_through(bus, wrapped, tool_kinds)
    return wrapped, input, options, session_key


_RUN_HOOK_POINTS = ("agent.start", "agent.end", "turn.start", "turn.end")
"""The points :class:`BusRunHooks` runs: it is installed for a run only if one has layers."""

_SEPARATOR = object()

# The clones run() made, by (bus, agent) ids: (bus, agent, what the clone copied, kinds, clone).
# The entry holds the bus and the agent, so their ids are not reused while it lives.
_clones: dict[tuple[int, int], tuple[Bus, Any, list[Any], dict[str, str], Any]] = {}


def _copied(agent: Any) -> list[Any]:
    """What a clone of ``agent`` copied, to compare by identity: each reachable agent, its
    fields, its tools and its handoffs (the two lists a clone does not share)."""
    copied: list[Any] = []
    pending, seen = [agent], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        copied += [current, *vars(current).values(), _SEPARATOR, *current.tools, _SEPARATOR]
        copied += [*current.handoffs, _SEPARATOR]
        pending += [target for target in current.handoffs if isinstance(target, Agent)]
    return copied


def _wrapped_agent(bus: Bus, agent: Any, tool_kinds: Mapping[str, str] | None) -> Any:
    """:func:`wrap_agent`, cached across runs: cloning an agent costs a run more than the
    bus does. A clone is reused while the agent and the agents it hands off to are the same
    objects with the same fields, tools and handoffs; any change makes a new one."""
    key = (id(bus), id(agent))
    copied = _copied(agent)
    kinds = dict(tool_kinds or {})
    cached = _clones.get(key)
    if (
        cached is not None
        and cached[3] == kinds
        and len(cached[2]) == len(copied)
        and all(a is b for a, b in zip(cached[2], copied, strict=True))
    ):
        return cached[4]
    clone = wrap_agent(bus, agent, tool_kinds=tool_kinds)
    _clones.pop(key, None)
    if len(_clones) >= _CLONE_LIMIT:  # many agents or buses made on the fly: forget the oldest
        del _clones[next(iter(_clones))]
    _clones[key] = (bus, agent, copied, kinds, clone)
    return clone


_CLONE_LIMIT = 64
"""How many (bus, agent) clones run() keeps."""


async def run(
    bus: Bus,
    agent: Any,
    input: Any,
    *,
    session_key: str | None = None,
    metadata: dict[str, Any] | None = None,
    tool_kinds: Mapping[str, str] | None = None,
    **options: Any,
) -> Any:
    """``Runner.run(agent, input, **options)`` with every hook point bound.

    message.before runs on the user's text (a string input, or the last user
    message of an input list), with ``metadata`` as its starting metadata;
    params.before then starts from the run's effective model settings, and
    what it changes is applied to ``RunConfig.model_settings``. The agent is
    wrapped with :func:`wrap_agent` (once: the clone is reused by the next runs
    of the same agent on the same bus until the agent, its tools or its handoffs
    change) and, when a lifecycle point has layers, the hooks with
    :class:`BusRunHooks` (yours still run); each run decides anew, so layers
    registered between runs apply to the next one. ``tool_kinds`` goes to
    :func:`wrap_agent`. The session key is ``session_key``, else the
    ``session``'s id, else ``conversation_id``, else ``RunConfig.group_id``.
    """
    agent, input, options, session_key = await _prepare(
        bus, agent, input, session_key, metadata, options, tool_kinds
    )
    token = _session_key.set(session_key)
    try:
        return await Runner.run(agent, input, **options)
    finally:
        _session_key.reset(token)


async def run_streamed(
    bus: Bus,
    agent: Any,
    input: Any,
    *,
    session_key: str | None = None,
    metadata: dict[str, Any] | None = None,
    tool_kinds: Mapping[str, str] | None = None,
    **options: Any,
) -> Any:
    """``Runner.run_streamed(...)`` with every hook point bound, as in :func:`run`.

    A coroutine, unlike ``Runner.run_streamed``: message.before and
    params.before run before the stream starts. Iterate the returned
    ``RunResultStreaming.stream_events()`` as usual.
    """
    agent, input, options, session_key = await _prepare(
        bus, agent, input, session_key, metadata, options, tool_kinds
    )
    token = _session_key.set(session_key)
    try:
        # The SDK starts the run's task here; the task keeps a copy of this context.
        return Runner.run_streamed(agent, input, **options)
    finally:
        _session_key.reset(token)

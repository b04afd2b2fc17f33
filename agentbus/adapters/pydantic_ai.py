"""Bind a bus to pydantic-ai agents, through one capability.

Capabilities are pydantic-ai's own interception API (a hook for every stage of
a run, composable, and active however the run is driven: ``run``,
``run_sync``, ``run_stream``, ``iter``). :class:`AgentbusCapability` binds the
hook points like this:

==============================  ==============================================
agentbus                        pydantic-ai
==============================  ==============================================
tool.before/tool.call/after     ``wrap_tool_execute``: the validated args in,
                                the value the model receives out
message.before                  ``before_node_run`` of the ``UserPromptNode``:
                                the user prompt (its text parts)
params.before                   ``before_model_request``: ``temperature`` and
                                ``thinking`` in the request's ModelSettings
agent.start / agent.end         ``before_run``, ``after_run``, ``on_run_error``
turn.start / turn.end           a ``ModelRequestNode`` starts / the
                                ``CallToolsNode`` after it ends
==============================  ==============================================

The agent id is the agent's name (pydantic-ai infers it from the variable
name), the session key is the run's ``conversation_id``; both can be given.

Layers see the arguments as pydantic-ai validated them; their changes go to
the tool as they are, without a second validation.

Outcomes the model sees: a blocked call returns the blocked result and the
tool never runs; a tool that raises ends the run as it does without agentbus,
after tool.after has seen the error (``errors_as_results=True`` returns the
error result to the model instead). pydantic-ai's control-flow exceptions
(``ModelRetry``, ``ToolFailed``, ``CallDeferred``, ``ApprovalRequired`` ...)
are not failures but the framework's protocol with the model: tool.after sees
them as an error, and unless a layer replaces the result, they are re-raised
so pydantic-ai sends its retry prompt (counting against the tool's retries)
or defers the call, exactly as without the bus.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

try:
    from pydantic_ai import CallToolsNode, ModelRequestNode, UserPromptNode
    from pydantic_ai.capabilities import (
        AbstractCapability,
        AgentNode,
        NodeResult,
        ValidatedToolArgs,
        WrapToolExecuteHandler,
    )
    from pydantic_ai.exceptions import (
        ApprovalRequired,
        CallDeferred,
        ModelRetry,
        SkipToolExecution,
        ToolFailed,
        ToolFailedError,
        ToolRetryError,
    )
    from pydantic_ai.messages import InstructionPart, ToolCallPart, UserContent
    from pydantic_ai.models import ModelRequestContext
    from pydantic_ai.run import AgentRunResult
    from pydantic_ai.settings import ModelSettings
    from pydantic_ai.tools import RunContext, ToolDefinition
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "agentbus.adapters.pydantic_ai needs pydantic-ai: pip install 'agentbus[pydantic-ai]'"
    ) from exc

from ..bus import Bus
from ..errors import RunEnded
from ..events import THINK_LEVELS, Message, Params
from ..lineage import running
from ..tools import error_result

__all__ = ["AgentbusCapability"]

SessionKey = str | Callable[[RunContext[Any]], str | None] | None
"""A fixed session key, or a function of the run context (to read it from ``ctx.deps``)."""

CONTROL_FLOW: Final = (
    ModelRetry,
    ToolRetryError,
    ToolFailed,
    ToolFailedError,
    CallDeferred,
    ApprovalRequired,
    SkipToolExecution,
)
"""pydantic-ai's signals from a tool to the run: handed back to pydantic-ai, not turned into results."""


@dataclasses.dataclass
class AgentbusCapability(AbstractCapability[Any]):
    """Run every tool call, the user prompt, the model settings and the run's lifecycle through ``bus``.

    ``Agent(model, capabilities=[AgentbusCapability(bus)])``. ``agent_id``
    overrides the agent's name; ``session_key`` (a string, or a function of the
    ``RunContext``, e.g. ``lambda ctx: ctx.deps.user_id``) overrides the run's
    ``conversation_id``. ``tool_kinds`` gives tools their kind by name
    (``{"run_shell": "exec"}``: see :mod:`agentbus.kinds`); the others are
    told from their schemas when the agent prepares its tools.
    ``errors_as_results=True`` turns a tool's exception into the error result
    the model sees, where pydantic-ai would end the run.

    Each run binds what it needs when it starts: the tool points always, the
    others only if they have layers then (message.before and params.before
    also while observers want their dispatch records), so that a point without
    layers costs a run nothing; layers registered during a run apply from the
    next run on, except on the tool points, which every call consults, and
    tool.list, which every model request consults (without the turn number in a
    run that started when no point but the tools' had layers).
    """

    bus: Bus
    agent_id: str | None = None
    session_key: SessionKey = None
    tool_kinds: Mapping[str, str] | None = None
    errors_as_results: bool = False
    # Tools told to the registry already (shared by the copies for_run() makes).
    _bound: set[str] = dataclasses.field(default_factory=set, init=False, repr=False)
    # Per-run state: for_run() hands every run a fresh copy, so concurrent runs never share it.
    _message: Message | None = dataclasses.field(default=None, init=False, repr=False)
    _overrides: ModelSettings | None = dataclasses.field(default=None, init=False, repr=False)
    _instructions: str | None = dataclasses.field(default=None, init=False, repr=False)
    _turn: int = dataclasses.field(default=0, init=False, repr=False)
    _turn_open: bool = dataclasses.field(default=False, init=False, repr=False)
    _points: frozenset[str] = dataclasses.field(default=frozenset(), init=False, repr=False)
    _own: bool = dataclasses.field(default=False, init=False, repr=False)  # a run's copy (see for_run)

    async def for_run(self, ctx: RunContext[Any]) -> AgentbusCapability:
        """A copy for this run's state, or this capability itself when the run has none.

        A run that binds no point but the tools' keeps no state: it gets ``self``
        (whose ``_points`` are empty, so its hooks touch nothing). A new instance
        would make pydantic-ai rebuild the agent's capability tree for the run (its
        ordering, toolsets, instructions): about 2% of a run of one tool call, all of
        what the capability cost such a run.
        """
        registry = self.bus.registry
        points = {point for point in _RUN_POINTS if registry.stack(point)}
        if "params.before" in points or self.bus.observers.wants_dispatches:
            points |= {"message.before", "params.before"}  # params.before reads the processed prompt
        if not points and not registry.stack("tool.list"):  # tool.list reads the turn number
            return self
        run = dataclasses.replace(self)
        run._bound = self._bound  # replace() gives init=False fields their defaults: share it again
        run._points = frozenset(points)
        run._own = True
        return run

    # -- identity -------------------------------------------------------------------

    def _agent_id(self, ctx: RunContext[Any]) -> str:
        if self.agent_id is not None:
            return self.agent_id
        name = ctx.agent.name if ctx.agent is not None else None
        return name or "main"

    def _session_key(self, ctx: RunContext[Any]) -> str | None:
        if self.session_key is None:
            return ctx.conversation_id
        if isinstance(self.session_key, str):
            return self.session_key
        return self.session_key(ctx)

    # -- lifecycle ------------------------------------------------------------------

    async def before_run(self, ctx: RunContext[Any]) -> None:
        if "agent.start" not in self._points:
            return
        await self.bus.notify(
            "agent.start", agent_id=self._agent_id(ctx), session_key=self._session_key(ctx), run_id=ctx.run_id
        )

    async def after_run(self, ctx: RunContext[Any], *, result: AgentRunResult[Any]) -> AgentRunResult[Any]:
        await self._end_turn(ctx)
        if "agent.end" not in self._points:
            return result
        await self.bus.notify(
            "agent.end", agent_id=self._agent_id(ctx), session_key=self._session_key(ctx), run_id=ctx.run_id,
            status="completed", turns=self._turn,
        )  # fmt: skip
        return result

    async def on_run_error(self, ctx: RunContext[Any], *, error: BaseException) -> AgentRunResult[Any]:
        # A cancellation is not reported: awaiting now would not finish.
        reported = isinstance(error, (Exception, RunEnded))
        ended = isinstance(error, RunEnded)
        if reported:
            await self._end_turn(ctx)
        if reported and "agent.end" in self._points:
            await self.bus.notify(
                "agent.end", agent_id=self._agent_id(ctx), session_key=self._session_key(ctx),
                run_id=ctx.run_id, status="ended" if ended else "failed",
                error=None if ended else f"{type(error).__name__}: {error}",
                reason=error.reason if isinstance(error, RunEnded) else None, turns=self._turn,
            )  # fmt: skip
        raise error

    async def before_node_run(self, ctx: RunContext[Any], *, node: AgentNode[Any]) -> AgentNode[Any]:
        if not self._own:  # the capability shared by runs without state (see for_run)
            return node
        if isinstance(node, UserPromptNode):
            if "message.before" in self._points:
                await self._process_prompt(ctx, node)
        elif isinstance(node, ModelRequestNode):
            await self._end_turn(ctx)  # a request retried without running tools
            self._turn += 1
            self._turn_open = True
            if "turn.start" not in self._points:
                return node
            await self.bus.notify(
                "turn.start",
                agent_id=self._agent_id(ctx),
                session_key=self._session_key(ctx),
                turn=self._turn,
            )
        return node

    async def after_node_run(
        self, ctx: RunContext[Any], *, node: AgentNode[Any], result: NodeResult[Any]
    ) -> NodeResult[Any]:
        if isinstance(node, CallToolsNode):
            await self._end_turn(ctx)
        return result

    async def _end_turn(self, ctx: RunContext[Any]) -> None:
        """turn.end once per turn: after its tools ran, or when the run ends first (run_stream)."""
        if self._turn_open:
            self._turn_open = False
            if "turn.end" not in self._points:
                return
            await self.bus.notify(
                "turn.end", agent_id=self._agent_id(ctx), session_key=self._session_key(ctx), turn=self._turn
            )

    # -- message.before and params.before ------------------------------------------

    async def _process_prompt(self, ctx: RunContext[Any], node: UserPromptNode[Any, Any]) -> None:
        """message.before on the new user prompt; a rewrite replaces what the model receives."""
        prompt = node.user_prompt
        text = prompt_text(prompt) if prompt is not None else None
        if prompt is None or text is None:  # resuming from history, or a prompt without text
            return
        self._message = await self.bus.process_message(
            text, agent_id=self._agent_id(ctx), session_key=self._session_key(ctx),
            provider=_provider(ctx), model=_model_name(ctx),
        )  # fmt: skip
        if self._message.message != text:
            node.user_prompt = with_text(prompt, self._message.message)

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        """params.before once per run, on the first request; its overrides go into every request."""
        if "params.before" not in self._points:
            return request_context
        settings: ModelSettings = request_context.model_settings or {}
        if self._overrides is None:
            self._overrides = await self._resolve_params(ctx, settings, request_context)
        if self._instructions is not None:
            # The model gets the request parameters' instruction parts: the prompt a layer set, every request.
            parameters = dataclasses.replace(
                request_context.model_request_parameters,
                instruction_parts=[InstructionPart(content=self._instructions)],
            )
            request_context = dataclasses.replace(request_context, model_request_parameters=parameters)
        if not self._overrides:
            return request_context
        return dataclasses.replace(request_context, model_settings={**settings, **self._overrides})

    async def _resolve_params(
        self, ctx: RunContext[Any], settings: ModelSettings, request_context: ModelRequestContext
    ) -> ModelSettings:
        message = self._message or Message(
            message="",
            agent_id=self._agent_id(ctx),
            session_key=self._session_key(ctx),
            provider=_provider(ctx),
            model=_model_name(ctx),
        )
        think_level, reasoning_level = think_levels(settings.get("thinking"))
        temperature = settings.get("temperature")
        parts = request_context.model_request_parameters.instruction_parts
        instructions = InstructionPart.join(parts) if parts else None
        params = await self.bus.resolve_params(
            message, think_level=think_level, reasoning_level=reasoning_level, temperature=temperature,
            system_prompt=instructions,
        )  # fmt: skip
        if params.system_prompt != instructions and params.system_prompt is not None:
            self._instructions = params.system_prompt
        return settings_overrides(params, think_level, reasoning_level, temperature)

    # -- tool.before, tool.call, tool.after -------------------------------------------

    async def prepare_tools(
        self, ctx: RunContext[Any], tool_defs: list[ToolDefinition]
    ) -> list[ToolDefinition]:
        """Tell the registry the run's tools (their kinds are known before any call), then tool.list."""
        self._bind(tool_defs)
        offered = {d.name: d.description or "" for d in tool_defs}
        shown = await self.bus.list_tools(
            offered, agent_id=self._agent_id(ctx), session_key=self._session_key(ctx), turn=self._turn or None
        )
        if shown == offered:
            return tool_defs
        return [
            d if shown[d.name] == offered[d.name] else dataclasses.replace(d, description=shown[d.name])
            for d in tool_defs
            if d.name in shown
        ]

    def _bind(self, tool_defs: Sequence[ToolDefinition]) -> None:
        schemas = {d.name: d.parameters_json_schema for d in tool_defs if d.name not in self._bound}
        if schemas:
            kinds = {name: kind for name, kind in (self.tool_kinds or {}).items() if name in schemas}
            self.bus.registry.bind_tools(schemas, kinds=kinds, source="the pydantic-ai adapter")
            self._bound.update(schemas)

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: ValidatedToolArgs,
        handler: WrapToolExecuteHandler,
    ) -> Any:
        if tool_def.name not in self._bound:
            self._bind([tool_def])

        agent_id = self._agent_id(ctx)

        async def execute(arguments: dict[str, Any]) -> Any:
            with running(agent_id):  # an agent run inside the tool is this agent's sub-agent
                return await handler(arguments)

        event = await self.bus.run_tool(
            call.tool_name, args, execute, call_id=call.tool_call_id, agent_id=agent_id,
            session_key=self._session_key(ctx),
        )  # fmt: skip
        error = event.error
        unchanged = error is not None and event.result == error_result(event.tool, error)
        # No layer replaced the error: pydantic-ai decides what it means, as without agentbus.
        if unchanged and (isinstance(error, CONTROL_FLOW) or not self.errors_as_results):
            raise cast("BaseException", error)
        return event.result


_RUN_POINTS: Final = (
    "message.before", "params.before", "agent.start", "agent.end", "turn.start", "turn.end",
)  # fmt: skip
"""The points a run binds only when they have layers (the tool points are always bound)."""


def _model_name(ctx: RunContext[Any]) -> str:
    return getattr(ctx.model, "model_name", "") or ""


def _provider(ctx: RunContext[Any]) -> str:
    return getattr(ctx.model, "system", "") or ""  # pydantic-ai's name for the provider: "openai" ...


def prompt_text(prompt: str | Sequence[UserContent]) -> str | None:
    """The text of a user prompt: the string, or the text parts of a multimodal prompt."""
    if isinstance(prompt, str):
        return prompt
    texts = [part for part in prompt if isinstance(part, str)]
    return "\n\n".join(texts) if texts else None


def with_text(prompt: str | Sequence[UserContent], text: str) -> str | list[UserContent]:
    """The prompt with its text replaced; the other parts (images, files) stay where they were."""
    if isinstance(prompt, str):
        return text
    rewritten: list[UserContent] = []
    placed = False
    for part in prompt:
        if not isinstance(part, str):
            rewritten.append(part)
        elif not placed:
            rewritten.append(text)
            placed = True
    return rewritten


def think_levels(thinking: object) -> tuple[str | None, str | None]:
    """pydantic-ai's ``thinking`` setting as agentbus's (think_level, reasoning_level).

    ``True`` is reasoning "on" at the provider's default effort, ``False`` is
    "off"; an effort beyond agentbus's levels ("xhigh", "max") reads as "high".
    """
    if thinking is None:
        return None, None
    if thinking is True:
        return None, "on"
    if thinking is False:
        return "off", "off"
    if thinking in THINK_LEVELS:
        return str(thinking), "on"
    return "high", "on"


def settings_overrides(
    params: Params, think_level: str | None, reasoning_level: str | None, temperature: float | None
) -> ModelSettings:
    """The ModelSettings that params.before changed; a field left alone is not written back."""
    overrides: ModelSettings = {}
    if params.temperature != temperature and params.temperature is not None:
        overrides["temperature"] = params.temperature
    if params.think_level != think_level and params.think_level is not None:
        level = params.think_level
        overrides["thinking"] = False if level == "off" else level  # type: ignore[typeddict-item]
    elif params.reasoning_level != reasoning_level and params.reasoning_level is not None:
        overrides["thinking"] = params.reasoning_level == "on"
    return overrides

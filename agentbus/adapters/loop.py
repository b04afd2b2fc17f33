"""The reference agent loop: every hook point in the order a real agent hits them.

Short on purpose: copy it to wire your own loop, or use it as it is with any
:class:`Model`. One prompt (seed 003's "user sends prompt") runs as::

    agent.start
    message.before -> params.before          once per prompt: text, tags, think level
    turn.start -> model -> each tool call through the bus -> turn.end
    ... more turns while the model calls tools ...
    agent.end

:meth:`Agent.run` serves an inbox: :meth:`Agent.send` (seed 003's ``pi.send``)
lets code outside the loop (a file watcher, a webhook handler, another task)
inject a message. It is queued while a prompt is running and starts one at once
when the agent is idle; either way it goes through message.before like any
other message. ``run`` also announces the session (``session`` with reason
``start``, then ``shutdown``), and :meth:`Agent.clear` asks ``before_clear``,
which a layer may cancel.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol, Union, cast

import anyio
import anyio.lowlevel
import attrs
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from ..bus import Bus
from ..events import Params, ToolResult
from ..tools import normalize_tool_name
from .tools import WrappedTool, wrap_tool

__all__ = [
    "Agent",
    "Entry",
    "Model",
    "Reply",
    "Run",
    "ScriptedModel",
    "ToolOutcome",
    "ToolRequest",
]


@attrs.frozen(slots=True)
class ToolRequest:
    """One tool call the model asks for."""

    name: str
    args: dict[str, Any] = attrs.field(factory=dict)
    id: str = ""


def _as_tuple(calls: Iterable[ToolRequest]) -> tuple[ToolRequest, ...]:
    return tuple(calls)


@attrs.frozen(slots=True)
class Reply:
    """What a model returns for one turn: text, tool calls, or both."""

    text: str = ""
    tool_calls: tuple[ToolRequest, ...] = attrs.field(default=(), converter=_as_tuple)


@attrs.frozen(slots=True)
class Entry:
    """One entry of the conversation the model sees."""

    role: Literal["user", "assistant", "tool"]
    content: Any
    tool_calls: tuple[ToolRequest, ...] = ()
    """For assistant entries: the tool calls of that turn."""
    call_id: str | None = None
    """For tool entries: which call this is the result of."""


class Model(Protocol):
    """The model: given the conversation and the effective params, the next reply.

    ``params`` is the params.before event: read ``think_level``,
    ``reasoning_level``, ``temperature`` (and ``metadata``) from it.
    """

    def __call__(self, conversation: Sequence[Entry], params: Params) -> Awaitable[Reply]: ...


@attrs.frozen(slots=True)
class ToolOutcome:
    """One tool call as the loop ran it."""

    request: ToolRequest
    event: ToolResult
    """The final tool.after event: result, error, blocked, block_reason, duration, args."""
    elapsed: float
    """Seconds for the whole pipeline; ``elapsed - event.duration`` is the interception overhead."""


@attrs.define(slots=True)
class Run:
    """The outcome of one prompt: what the model saw and said, every tool call."""

    message: str
    """The user's message after message.before."""
    metadata: dict[str, Any]
    params: Params
    text: str = ""
    """The model's final text."""
    turns: int = 0
    tool_calls: list[ToolOutcome] = attrs.field(factory=list)
    entries: list[Entry] = attrs.field(factory=list)
    """The conversation entries this prompt added."""


_perf = time.perf_counter


async def _unknown_tool(name: str, known: Iterable[str]) -> Any:
    raise LookupError(f"no tool named {name!r}; this agent has: {', '.join(sorted(known)) or 'none'}")


class Agent:
    """An agent loop wired through a bus.

    ``tools`` are plain callables (wrapped with :func:`~agentbus.adapters.tools.wrap_tool`,
    named by ``__name__``) or tools wrapped already; a mapping gives them other
    names. ``tool_kinds`` gives tools their kind (``{"run_shell": "exec"}``:
    see :mod:`agentbus.kinds`). The model gets at most ``max_turns`` turns per prompt.
    """

    def __init__(
        self,
        bus: Bus,
        model: Model,
        tools: Iterable[Callable[..., Any]] | Mapping[str, Callable[..., Any]] = (),
        *,
        agent_id: str = "main",
        session_key: str | None = None,
        provider: str = "",
        model_name: str = "",
        think_level: str | None = None,
        reasoning_level: str | None = None,
        temperature: float | None = None,
        max_turns: int = 10,
        tool_kinds: Mapping[str, str] | None = None,
    ) -> None:
        self.bus = bus
        self.model = model
        self.agent_id = agent_id
        self.session_key = session_key
        self.provider = provider
        self.model_name = model_name
        self.think_level = think_level
        """The think level params.before starts from (None: the runtime's default)."""
        self.reasoning_level = reasoning_level
        self.temperature = temperature
        self.max_turns = max_turns
        self.conversation: list[Entry] = []
        self.tools: dict[str, WrappedTool[...]] = {}
        named = list(tools.items() if isinstance(tools, Mapping) else ((None, fn) for fn in tools))
        names: list[str] = [
            str(name or getattr(fn, "tool_name", None) or getattr(fn, "__name__", "")) for name, fn in named
        ]
        kinds = dict(tool_kinds or {})
        unknown = sorted(set(kinds) - set(names))
        if unknown:
            raise ValueError(
                f"tool_kinds names {', '.join(map(repr, unknown))}, which this agent does not have; "
                f"its tools: {', '.join(sorted(names)) or 'none'}"
            )
        for tool_name, (name, fn) in zip(names, named, strict=True):
            if name is None and hasattr(fn, "run") and hasattr(fn, "tool_name"):
                wrapped = cast("WrappedTool[...]", fn)  # wrapped already
                if tool_name in kinds:
                    bus.registry.declare_tools({tool_name: kinds[tool_name]})
            else:
                wrapped = wrap_tool(
                    fn, bus, name, kind=kinds.get(tool_name), agent_id=agent_id, session_key=session_key
                )
            self.tools[normalize_tool_name(wrapped.tool_name)] = wrapped
        self._call_ids = itertools.count(1)
        # The inbox is made on first use: an agent driven only by prompt() holds no streams.
        self._inbox_send: MemoryObjectSendStream[tuple[str, dict[str, Any] | None]] | None = None
        self._inbox: MemoryObjectReceiveStream[tuple[str, dict[str, Any] | None]] | None = None
        self._busy = False
        self.runs: list[Run] = []
        """Every finished prompt, in order."""

    @property
    def busy(self) -> bool:
        """True while a prompt is running."""
        return self._busy

    # -- messages from outside ------------------------------------------------------

    def send(self, text: str, *, metadata: dict[str, Any] | None = None) -> None:
        """Inject a message (seed 003's ``pi.send``): queued while busy, run at once when idle.

        Call it from any task; :meth:`run` must be serving for it to be
        processed. From a thread, use ``anyio.from_thread.run_sync(agent.send, text)``.
        """
        send, _ = self._streams()
        try:
            send.send_nowait((text, metadata))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise RuntimeError("this agent was closed; it takes no more messages") from None

    def close(self) -> None:
        """Take no more messages: :meth:`run` returns once the queued ones are done."""
        self._streams()[0].close()

    def _streams(
        self,
    ) -> tuple[
        MemoryObjectSendStream[tuple[str, dict[str, Any] | None]],
        MemoryObjectReceiveStream[tuple[str, dict[str, Any] | None]],
    ]:
        if self._inbox_send is None or self._inbox is None:
            self._inbox_send, self._inbox = anyio.create_memory_object_stream[
                tuple[str, dict[str, Any] | None]
            ](float("inf"))
        return self._inbox_send, self._inbox

    async def run(self) -> None:
        """Serve the inbox until :meth:`close`: one prompt per message, in order.

        When it returns (or is cancelled) the agent takes no more messages.
        """
        send, inbox = self._streams()
        await self.bus.notify("session", agent_id=self.agent_id, session_key=self.session_key, reason="start")
        try:
            with send, inbox:
                async for text, metadata in inbox:
                    await self.prompt(text, metadata=metadata)
        finally:
            with anyio.CancelScope(shield=True):
                await self.bus.notify(
                    "session", agent_id=self.agent_id, session_key=self.session_key, reason="shutdown"
                )

    async def clear(self) -> bool:
        """Forget the conversation (seed 003's ``/clear``); return whether it was cleared.

        ``session`` with reason ``before_clear`` runs first and a layer may
        ``cancel()`` it; ``clear`` follows once the conversation is gone.
        """
        if self._busy:
            raise RuntimeError("a prompt is running; clear the conversation between prompts")
        who = {"agent_id": self.agent_id, "session_key": self.session_key}
        if (await self.bus.notify("session", **who, reason="before_clear")).cancelled:
            return False
        self.conversation.clear()
        await self.bus.notify("session", **who, reason="clear")
        return True

    # -- one prompt -----------------------------------------------------------------

    async def prompt(self, text: str, *, metadata: dict[str, Any] | None = None) -> Run:
        """Run one user message to the model's final answer."""
        if self._busy:
            raise RuntimeError("a prompt is running already; use send() to queue a message")
        self._busy = True
        try:
            return await self._prompt(text, metadata)
        finally:
            self._busy = False

    async def _prompt(self, text: str, metadata: dict[str, Any] | None) -> Run:
        bus, who = self.bus, {"agent_id": self.agent_id, "session_key": self.session_key}
        await bus.notify("agent.start", **who)
        message, params = await bus.prepare(
            text, agent_id=self.agent_id, session_key=self.session_key, provider=self.provider,
            model=self.model_name, metadata=metadata, think_level=self.think_level,
            reasoning_level=self.reasoning_level, temperature=self.temperature,
        )  # fmt: skip
        run = Run(message=message.message, metadata=message.metadata, params=params)
        self._add(run, Entry("user", message.message))
        for turn in range(self.max_turns):
            await bus.notify("turn.start", **who, turn_index=turn)
            reply = await self.model(tuple(self.conversation), params)
            self._add(run, Entry("assistant", reply.text, tool_calls=reply.tool_calls))
            outcomes = [await self._call_tool(request) for request in reply.tool_calls]
            for outcome in outcomes:
                self._add(run, Entry("tool", outcome.event.result, call_id=outcome.event.call_id))
            run.tool_calls += outcomes
            run.turns = turn + 1
            await bus.notify("turn.end", **who, turn_index=turn, reply=reply, tool_results=outcomes)
            if not reply.tool_calls:
                run.text = reply.text
                break
        self.runs.append(run)
        await bus.notify("agent.end", **who, entries=run.entries)
        return run

    async def _call_tool(self, request: ToolRequest) -> ToolOutcome:
        request_id = request.id or f"{self.agent_id}-call-{next(self._call_ids)}"
        tool = self.tools.get(normalize_tool_name(request.name))
        started = _perf()
        if tool is not None:
            event = await tool.run(request.args, call_id=request_id)
        else:  # still through the pipeline: guards judge it, tool.after sees the error
            event = await self.bus.run_tool(
                request.name, request.args, lambda _args: _unknown_tool(request.name, self.tools),
                call_id=request_id, agent_id=self.agent_id, session_key=self.session_key,
            )  # fmt: skip
        return ToolOutcome(request=request, event=event, elapsed=_perf() - started)

    def _add(self, run: Run, entry: Entry) -> None:
        self.conversation.append(entry)
        run.entries.append(entry)


ScriptStep = Union[Reply, Callable[[Sequence[Entry], Params], Reply]]
"""A step of a :class:`ScriptedModel`: a reply, or a function that makes one."""


class ScriptedModel:
    """A model that replays a script: no network, no key, the same every time.

    Each step is a :class:`Reply` or a function ``(conversation, params) ->
    Reply`` (to answer from what it received). ``calls`` records what every
    call received, so a test or the demo can show that params.before reached
    the model: ``model.calls[0]["think_level"]``.
    """

    def __init__(self, script: Iterable[ScriptStep]) -> None:
        self.script = list(script)
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, conversation: Sequence[Entry], params: Params) -> Reply:
        if len(self.calls) >= len(self.script):
            raise RuntimeError(f"the script has {len(self.script)} replies and all were used; add more steps")
        step = self.script[len(self.calls)]
        self.calls.append(
            {
                "think_level": params.think_level,
                "reasoning_level": params.reasoning_level,
                "temperature": params.temperature,
                "metadata": dict(params.metadata),
                "last": conversation[-1] if conversation else None,
            }
        )
        await anyio.lowlevel.checkpoint()  # a model call yields, like a real one
        return step if isinstance(step, Reply) else step(conversation, params)

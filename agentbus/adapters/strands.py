"""Bind a bus to Strands Agents through one hook provider (``pip install agentbus[strands]``).

Hook providers are Strands' own interception API. :class:`AgentbusHooks` binds
the hook points like this:

==============================  ==============================================
agentbus                        Strands hook event
==============================  ==============================================
tool.before                     ``BeforeToolCallEvent``: a block or a denied
                                "ask" sets ``cancel_tool`` (the tool never
                                runs; the model gets an error tool result with
                                the blocked result); changed args replace the
                                tool use's ``input``
tool.call                       ``ExecuteToolStage`` middleware of the agent
                                (its wrap phase, around the tool itself)
tool.after                      ``AfterToolCallEvent``: what a layer leaves
                                replaces the tool result's content
message.before                  ``BeforeInvocationEvent``: the new user
                                message's text
agent.start / agent.end         ``BeforeInvocationEvent`` / ``AfterInvocationEvent``
turn.start / turn.end           ``BeforeModelCallEvent`` / ``AfterModelCallEvent``
==============================  ==============================================

Strands runs the tool itself, between the events: tool.before and tool.after run
in them as they do everywhere (the built-in guards by kind, fail-closed
tool.before, the records). tool.call layers (timeouts, retries, caching) run in
Strands' own middleware around the tool: the first time a call that a tool.call
layer matches reaches an agent, the provider adds one wrap handler to that agent
(``agent.add_middleware(ExecuteToolStage, ...)``), which passes every other call
straight through. The tool receives the args tool.before approved; the layers
see the result as tool.after does, and a tool that failed as its exception. The
events the tool streams reach the agent's callback handler when the layers are
done (they cannot yield from inside them). Not bound: params.before (Strands
keeps model settings on the shared model object, not per call). tool.after sees
the result's text when it is one text block, else its content list. A tool that
raises behaves as without agentbus: Strands turns the error into an error tool
result, and tool.after sees the exception.

Hooks belong to an agent in Strands: give the same provider to every agent,
sub-agents and agents used as tools included; each call is attributed to the
agent that makes it (its ``name``). Strands calls every callback of an agent,
even one with nothing to do, so the provider binds only the callbacks whose
hook points have layers, and re-binds them in every agent it was given when
the bus's registry or observers change (:meth:`agentbus.Bus.watch`).
"""

from __future__ import annotations

import bisect
import json
import threading
import time
import weakref
from collections.abc import AsyncGenerator, Mapping
from typing import Any

try:
    from strands.hooks import (
        AfterInvocationEvent,
        AfterModelCallEvent,
        AfterToolCallEvent,
        AgentInitializedEvent,
        BeforeInvocationEvent,
        BeforeModelCallEvent,
        BeforeToolCallEvent,
        HookOrder,
        HookProvider,
        HookRegistry,
    )
    from strands.middleware import ExecuteToolContext, ExecuteToolStage, MiddlewareNext, ToolResultEvent
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "agentbus.adapters.strands needs Strands Agents: pip install 'agentbus[strands]'"
    ) from exc

from ..bus import Bus
from ..events import TOOL_POINTS, ToolCall
from ..tools import blocked_result, error_result

__all__ = ["AgentbusHooks"]


_CALLBACKS: tuple[tuple[type[Any], str, frozenset[str], bool], ...] = (
    (BeforeInvocationEvent, "before_invocation", frozenset({"agent.start", "message.before"}), True),
    (AfterInvocationEvent, "after_invocation", frozenset({"agent.end"}), False),
    (BeforeModelCallEvent, "before_model_call", frozenset({"turn.start"}), False),
    (AfterModelCallEvent, "after_model_call", frozenset({"turn.end"}), False),
    (BeforeToolCallEvent, "before_tool_call", TOOL_POINTS, True),
    (AfterToolCallEvent, "after_tool_call", frozenset({"tool.call", "tool.after"}), True),
)
"""Each callback: the Strands event it runs on, the hook points that give it work, and whether
an observer of every dispatch does too. after_tool_call ends what before_tool_call keeps for
tool.call and tool.after; a call that only tool.before judges needs nothing after it."""


def _agent_id(event: Any) -> str | None:
    return getattr(event.agent, "name", None)


def result_value(content: list[Any]) -> Any:
    """What tool.after sees of a Strands tool result: its text when that is all, else the blocks."""
    if len(content) == 1 and isinstance(content[0], Mapping) and set(content[0]) == {"text"}:
        return content[0]["text"]
    return content


def result_content(value: Any) -> list[Any]:
    """A tool.after result as Strands content blocks."""
    if isinstance(value, str):
        return [{"text": value}]
    if isinstance(value, list) and all(isinstance(block, Mapping) for block in value):
        return value
    if isinstance(value, Mapping):
        return [{"json": dict(value)}]
    return [{"text": json.dumps(value, default=str)}]


class _Pending:
    """A call tool.before judged, until Strands reports how it ended."""

    __slots__ = ("around", "call", "finish", "started")

    def __init__(self, call: ToolCall, around: bool, finish: bool) -> None:
        self.call = call
        self.around = around  # tool.call layers run around the tool
        self.finish = finish  # tool.after layers or a dispatch observer want the result
        self.started = time.perf_counter() if finish else 0.0


class _Binding:
    """This provider in one agent's hook registry: the callbacks bound, and where each goes."""

    __slots__ = ("bound", "slots")

    def __init__(self, slots: dict[type[Any], int]) -> None:
        self.bound: frozenset[str] = frozenset()
        self.slots = slots  # by event type: how many callbacks of its order come before this provider's


def _insert(by_event: dict[Any, list[Any]], event_type: type[Any], callback: Any, binding: _Binding) -> bool:
    """Replace the event type's callbacks with a copy that holds ``callback`` where the agent's
    order puts it; False (nothing changed) if Strands' entries are not what this expects."""
    scratch = HookRegistry()  # Strands makes the entry (its order) as for any callback
    scratch.add_callback(event_type, callback)
    try:
        (entry,) = scratch._registered_callbacks[event_type]
        entries = list(by_event.get(event_type, ()))
        orders = [other.order for other in entries]
        peers = [index for index, order in enumerate(orders) if order == entry.order]
    except (AttributeError, KeyError, TypeError, ValueError):
        return False
    slot = binding.slots.get(event_type, len(peers))
    if slot < len(peers):  # before the callbacks of providers listed after this one
        entries.insert(peers[slot], entry)
    else:
        entries.insert(bisect.bisect_right(orders, entry.order), entry)
    by_event[event_type] = entries  # whole: a dispatch under way keeps iterating the old list
    return True


class _Halted(BaseException):
    """The tool stopped for a person (Strands' interrupt): no result, nothing for the layers to judge."""


class AgentbusHooks(HookProvider):
    """Run every tool call, the user message and the lifecycle of an agent through ``bus``.

    ``Agent(..., hooks=[AgentbusHooks(bus)])``. ``session_key`` names the
    conversation in the records; ``tool_kinds`` gives tools their kind by name
    (``{"run_shell": "exec"}``: see :mod:`agentbus.kinds`); the others are told
    from their schemas when an agent starts.
    """

    def __init__(
        self, bus: Bus, *, session_key: str | None = None, tool_kinds: Mapping[str, str] | None = None
    ) -> None:
        if not isinstance(bus, Bus):
            raise TypeError(f"AgentbusHooks needs an agentbus.Bus, got {type(bus).__name__}")
        self.bus = bus
        self.session_key = session_key
        self.tool_kinds = dict(tool_kinds or {})
        self._bound: set[str] = set()
        self._pending: dict[str, _Pending] = {}
        self._wrapped: weakref.WeakSet[Any] = weakref.WeakSet()  # agents that run tool.call here
        self._registries: weakref.WeakKeyDictionary[HookRegistry, _Binding] = weakref.WeakKeyDictionary()
        self._lock = threading.RLock()  # the registry may change on another thread
        self._wanted = self._with_work()  # the callbacks bound in every agent
        bus.watch(self)

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        """Bind the callbacks whose hook points have layers; the others follow the registry.

        Strands calls every callback of a hook registry, even one that returns at
        once, so a point without layers gets none. When the registry or the
        observers change, :meth:`invalidate` binds and unbinds them in every
        agent this provider was given, each in the place it would have had
        among the other hook providers. The one callback always bound runs once,
        when the agent is built: it keeps the provider alive as long as the agent.
        """
        registry.add_callback(AgentInitializedEvent, self._initialized)
        by_event = getattr(registry, "_registered_callbacks", None)
        slots = {
            event_type: sum(entry.order == HookOrder.DEFAULT for entry in by_event.get(event_type, ()))
            for event_type, _, _, _ in _CALLBACKS
        } if isinstance(by_event, dict) else {}  # fmt: skip
        with self._lock:
            self._registries[registry] = _Binding(slots)
            self._rebind(registry, self._wanted)

    def _initialized(self, event: AgentInitializedEvent) -> None:
        self._bind(event.agent)  # the agent's tools, so that layers matching by kind know them

    def invalidate(self) -> None:
        """The bus changed (:meth:`agentbus.Bus.watch`): bind what has work now, unbind the rest."""
        with self._lock:
            self._wanted = wanted = self._with_work()
            for registry in list(self._registries):
                self._rebind(registry, wanted)
            if "after_tool_call" not in wanted:
                self._pending.clear()  # nothing is left to end the calls under way

    def _with_work(self) -> frozenset[str]:
        """The callbacks that have work: a layer on one of their points, or a dispatch observer."""
        stack = self.bus.registry.stack
        dispatched = self.bus.observers.wants_dispatches
        return frozenset(
            name
            for _, name, points, on_dispatch in _CALLBACKS
            if (dispatched and on_dispatch) or any(stack(point) for point in points)
        )

    def _rebind(self, registry: HookRegistry, wanted: frozenset[str]) -> None:
        """Make ``registry`` hold exactly the ``wanted`` callbacks of this provider.

        Strands has no public way to remove a callback, so this edits its lists
        of callbacks by event type, copy-on-write: each list is replaced whole,
        and a dispatch under way (on this thread or another) iterates the old
        one, so it neither skips nor repeats another provider's callback. A
        Strands without those lists gets every callback, for good: each returns
        at once while its points have no layers.
        """
        binding = self._registries[registry]
        by_event = getattr(registry, "_registered_callbacks", None)
        if not isinstance(by_event, dict):
            wanted = frozenset(name for _, name, _, _ in _CALLBACKS)
        if wanted == binding.bound:
            return
        for event_type, name, _, _ in _CALLBACKS:
            callback = getattr(self, name)
            if name in wanted and name not in binding.bound:
                if not (isinstance(by_event, dict) and _insert(by_event, event_type, callback, binding)):
                    registry.add_callback(event_type, callback)
            elif name in binding.bound and name not in wanted and isinstance(by_event, dict):
                kept = [entry for entry in by_event.get(event_type, ()) if entry.callback != callback]
                if kept:
                    by_event[event_type] = kept
                else:
                    by_event.pop(event_type, None)
        binding.bound = wanted

    def _bind(self, agent: Any) -> None:
        registry = getattr(agent, "tool_registry", None)
        if registry is None or self._bound.issuperset(registry.registry):
            return  # every tool bound already (building the specs is the expensive part)
        specs: list[Any] = registry.get_all_tool_specs()
        schemas = {
            spec["name"]: spec.get("inputSchema", {}).get("json")
            for spec in specs
            if spec["name"] not in self._bound
        }
        if schemas:
            kinds = {name: kind for name, kind in self.tool_kinds.items() if name in schemas}
            self.bus.registry.bind_tools(schemas, kinds=kinds, source="the Strands adapter")
            self._bound.update(schemas)

    # -- message.before, agent.start / agent.end --------------------------------------

    def _runs(self, *points: str, dispatched: bool = False) -> bool:
        """Whether any of ``points`` has layers (or, if ``dispatched``, an observer wants
        every dispatch's record): a callback whose points have none does nothing."""
        stack = self.bus.registry.stack
        return any(stack(point) for point in points) or (dispatched and self.bus.observers.wants_dispatches)

    async def before_invocation(self, event: BeforeInvocationEvent) -> None:
        self._bind(event.agent)
        agent_id = _agent_id(event)
        if self._runs("agent.start"):
            await self.bus.notify("agent.start", agent_id=agent_id, session_key=self.session_key)
        if not self._runs("message.before", dispatched=True):
            return
        messages = event.messages
        if not messages or messages[-1].get("role") != "user":
            return
        content = messages[-1].get("content") or []
        texts = [block["text"] for block in content if "text" in block]
        if not texts:
            return
        text = "\n\n".join(texts)
        model = getattr(event.agent, "model", None)
        config = model.get_config() if model is not None else {}
        message = await self.bus.process_message(
            text, agent_id=agent_id or "main", session_key=self.session_key, provider=type(model).__name__,
            model=str(config.get("model_id", "") if isinstance(config, Mapping) else ""),
        )  # fmt: skip
        if message.message != text:
            rewritten: list[Any] = []
            for block in content:  # the text blocks become one, where the first was
                if "text" not in block:
                    rewritten.append(block)
                elif not any("text" in b for b in rewritten):
                    rewritten.append({"text": message.message})
            event.messages = [*messages[:-1], {**messages[-1], "content": rewritten}]

    async def after_invocation(self, event: AfterInvocationEvent) -> None:
        if not self._runs("agent.end"):
            return
        result = event.result
        await self.bus.notify(
            "agent.end", agent_id=_agent_id(event), session_key=self.session_key,
            stop_reason=getattr(result, "stop_reason", None),
        )  # fmt: skip

    # -- turns ---------------------------------------------------------------------------

    async def before_model_call(self, event: BeforeModelCallEvent) -> None:
        if self._runs("turn.start"):
            await self.bus.notify("turn.start", agent_id=_agent_id(event), session_key=self.session_key)

    async def after_model_call(self, event: AfterModelCallEvent) -> None:
        if self._runs("turn.end"):
            await self.bus.notify("turn.end", agent_id=_agent_id(event), session_key=self.session_key)

    # -- tool.before and tool.after --------------------------------------------------------

    async def before_tool_call(self, event: BeforeToolCallEvent) -> None:
        tool_use = event.tool_use
        name = tool_use["name"]
        if name not in self._bound:
            self._bind(event.agent)  # first: layers that match by kind match once it is known
        args = tool_use.get("input")
        try:
            if not self.bus.intercepts_tool(name, agent_id=_agent_id(event)):
                return  # nothing judges, wraps or reads this call: Strands runs it as it would
            call = await self.bus.decide_tool(
                name, args if isinstance(args, Mapping) else {}, call_id=tool_use["toolUseId"],
                agent_id=_agent_id(event), session_key=self.session_key,
            )  # fmt: skip
        except (TypeError, ValueError) as exc:  # a name or args no matcher can judge: never run it
            event.cancel_tool = json.dumps(
                blocked_result(name, f"agentbus could not judge this call ({exc})")
            )
            return
        decision = call.decision
        if decision == "ask" and await self.bus.approve(call):
            decision = None
        # after_tool_call runs tool.after for the calls it matches (and ends a dispatch record).
        keep = "after_tool_call" in self._wanted  # else nothing on tool.call or tool.after
        finish = keep and (
            self.bus.observers.wants_dispatches
            or self.bus.intercepts("tool.after", tool=name, agent_id=call.agent_id)
        )
        if decision is not None:
            if finish:
                self._pending[tool_use["toolUseId"]] = _Pending(call, False, finish)
            event.cancel_tool = json.dumps(blocked_result(call.tool, call.block_reason or "blocked"))
            return
        around = keep and self.bus.intercepts("tool.call", tool=name, agent_id=call.agent_id)
        if around and event.agent not in self._wrapped:
            event.agent.add_middleware(ExecuteToolStage, self._around)
            self._wrapped.add(event.agent)
        if around or finish:
            self._pending[tool_use["toolUseId"]] = _Pending(call, around, finish)
        if call.args != args:
            event.tool_use = {**tool_use, "input": call.args}

    async def _around(
        self, context: ExecuteToolContext, next_fn: MiddlewareNext[ExecuteToolContext, Any]
    ) -> AsyncGenerator[Any, None]:
        """The agent's ExecuteToolStage wrap handler: tool.call layers around the calls they match."""
        tool_use = context.tool_use
        pending = self._pending.get(tool_use["toolUseId"])
        if pending is None or not pending.around:
            async for event in next_fn(context):
                yield event
            return
        if not pending.finish:  # after_tool_call has nothing to do with it
            self._pending.pop(tool_use["toolUseId"], None)
        streamed: list[Any] = []  # what the tool streams, passed on once the layers are done
        outcomes: list[tuple[ToolResultEvent, Any]] = []  # each run's result, and what the layers saw

        async def execute(args: dict[str, Any]) -> Any:
            result: ToolResultEvent | None = None
            async for event in next_fn(context.replace(tool_use={**tool_use, "input": args})):
                if isinstance(event, ToolResultEvent):
                    result = event
                else:
                    streamed.append(event)
            if result is None:  # it stopped for a person (an interrupt event): no result to judge
                raise _Halted
            if result.exception is not None:
                outcomes.append((result, result.exception))
                raise result.exception
            value = result_value(result.tool_result.get("content", []))
            outcomes.append((result, value))
            return value

        try:
            value = await self.bus.execute_tool(pending.call, execute)
        except _Halted:
            for event in streamed:
                yield event
            return
        except Exception as exc:
            for event in streamed:
                yield event
            if outcomes and outcomes[-1][1] is exc:  # the tool's own failure: its own error result
                yield outcomes[-1][0]
                return
            raise  # a layer's: Strands makes it an error result, as for a tool that raises
        for event in streamed:
            yield event
        if outcomes and outcomes[-1][1] is value:
            yield outcomes[-1][0]  # the tool's own result, untouched
        else:
            content = result_content(value)
            yield ToolResultEvent(
                {"toolUseId": tool_use["toolUseId"], "status": "success", "content": content}
            )

    async def after_tool_call(self, event: AfterToolCallEvent) -> None:
        pending = self._pending.pop(event.tool_use["toolUseId"], None)
        if pending is None or not pending.finish:
            return
        call = pending.call
        result = event.result
        blocked = call.blocked
        error = event.exception
        if blocked:
            value: Any = blocked_result(call.tool, call.block_reason or "blocked")
        elif error is not None:
            value = error_result(call.tool, error)
        else:
            value = result_value(result.get("content", []))
        finished = await self.bus.finish_tool(
            call.tool, event.tool_use.get("input") or call.args, value, error=error, blocked=blocked,
            block_reason=call.block_reason if blocked else None,
            duration=time.perf_counter() - pending.started, call_id=call.call_id, agent_id=call.agent_id,
            session_key=call.session_key,
        )  # fmt: skip
        if finished.result is not value and finished.result != value:
            event.result = {**result, "content": result_content(finished.result)}

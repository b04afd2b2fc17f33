"""Bind a bus to Google ADK through one runner plugin (``pip install agentbus[google-adk]``).

ADK's plugins are its global interception API: one plugin on a ``Runner`` sees
every agent the runner runs, its sub-agents and agents used as tools included.
:class:`AgentbusPlugin` binds the hook points like this:

==============================  ==============================================
agentbus                        ADK plugin callback
==============================  ==============================================
tool.before                     ``before_tool_callback``: a block or a denied
                                "ask" answers the call with the blocked result
                                (the tool never runs); changed args are
                                written into the call's args
tool.after                      ``after_tool_callback`` (the result the model
                                will see) and ``on_tool_error_callback``
message.before                  ``on_user_message_callback``
params.before                   ``before_model_callback``: ``temperature``
agent.start / agent.end         ``before_agent_callback`` / ``after_agent_callback``
turn.start / turn.end           ``before_model_callback`` / ``after_model_callback``
==============================  ==============================================

ADK runs the tool itself, between the callbacks, and has no callback around
it: tool.before and tool.after run in the callbacks as they do everywhere (the
built-in guards by kind, fail-closed tool.before, the records), and tool.call
layers (timeouts, retries, caching) run around the tool's own ``run_async``,
where ADK calls it: after every before-tool callback and ADK's confirmation
gate, before the error and after-tool callbacks. For that the plugin gives a
tool that a tool.call layer matches a ``run_async`` of its own (an attribute of
that tool object: its class, name and callbacks stay what they were), which
runs the layers for the calls this plugin let through and is a plain call for
any other. The tool receives the args tool.before approved. The agent id is
the ADK agent's ``name`` (a sub-agent's own name; agent.start carries its
``parent``), the session key is the ADK session's id.

A tool that raises behaves as without agentbus: tool.after sees the error, then
ADK's other error callbacks run and the error propagates, unless a tool.after
layer replaced the result, which the model then receives. Register the plugin
first: an ADK plugin that answers a callback skips the plugins after it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

try:
    from google.adk.agents.base_agent import BaseAgent
    from google.adk.agents.callback_context import CallbackContext
    from google.adk.agents.invocation_context import InvocationContext
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.plugins.base_plugin import BasePlugin
    from google.adk.tools.base_tool import BaseTool
    from google.adk.tools.tool_context import ToolContext
    from google.genai import types
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "agentbus.adapters.google_adk needs Google ADK: pip install 'agentbus[google-adk]'"
    ) from exc

from ..bus import Bus
from ..events import Message, ToolCall
from ..tools import blocked_result, error_result

__all__ = ["AgentbusPlugin"]


def _session_key(context: Any) -> str | None:
    session = getattr(context, "session", None)
    return getattr(session, "id", None)


def _as_response(value: Any) -> dict[str, Any]:
    """ADK answers a call with a dict; anything else is wrapped as ADK wraps a tool's return."""
    return value if isinstance(value, dict) else {"result": value}


def tool_schema(tool: BaseTool) -> Mapping[str, Any] | None:
    """The JSON schema of a tool's parameters, as the registry's kind inference reads it."""
    try:
        declaration = tool._get_declaration()
    except Exception:  # a tool that cannot describe itself is bound by name alone
        return None
    if declaration is None:
        return None
    if declaration.parameters_json_schema is not None:
        schema = declaration.parameters_json_schema
        return schema if isinstance(schema, Mapping) else None
    if declaration.parameters is not None:
        return declaration.parameters.json_schema.model_dump(mode="json", exclude_none=True)
    return None


class _Pending:
    """A call tool.before let through, until ADK reports how it ended."""

    __slots__ = ("around", "call", "started")

    def __init__(self, call: ToolCall, around: bool) -> None:
        self.call = call
        self.around = around  # tool.call layers run around the tool
        self.started = time.perf_counter()


def _runs_layers_of(run_async: Any, plugin: AgentbusPlugin) -> bool:
    """Whether ``run_async`` (a tool's, perhaps wrapped by several plugins) runs ``plugin``'s layers."""
    while run_async is not None:
        if getattr(run_async, "agentbus_plugin", None) is plugin:
            return True
        run_async = getattr(run_async, "agentbus_inner", None)
    return False


class AgentbusPlugin(BasePlugin):
    """Run every tool call, the user message, the model settings and the lifecycle through ``bus``.

    ``Runner(..., plugins=[AgentbusPlugin(bus)])`` (or ``InMemoryRunner``).
    ``tool_kinds`` gives tools their kind by name (``{"run_shell": "exec"}``:
    see :mod:`agentbus.kinds`); the others are told from their schemas when an
    agent first sends them to its model.
    """

    def __init__(
        self, bus: Bus, *, tool_kinds: Mapping[str, str] | None = None, name: str = "agentbus"
    ) -> None:
        if not isinstance(bus, Bus):
            raise TypeError(f"AgentbusPlugin needs an agentbus.Bus, got {type(bus).__name__}")
        super().__init__(name=name)
        self.bus = bus
        self.tool_kinds = dict(tool_kinds or {})
        self._bound: set[str] = set()
        self._pending: dict[tuple[str, str], _Pending] = {}
        self._messages: dict[str, Message] = {}  # message.before's event, by invocation id

    # -- tool kinds -----------------------------------------------------------------

    def _bind(self, tools: Mapping[str, BaseTool]) -> None:
        schemas = {name: tool_schema(tool) for name, tool in tools.items() if name not in self._bound}
        if schemas:
            kinds = {name: kind for name, kind in self.tool_kinds.items() if name in schemas}
            self.bus.registry.bind_tools(schemas, kinds=kinds, source="the Google ADK adapter")
            self._bound.update(schemas)

    def _runs(self, *points: str, dispatched: bool = False) -> bool:
        """Whether any of ``points`` has layers (or, if ``dispatched``, an observer wants
        every dispatch's record): a callback whose points have none does nothing."""
        stack = self.bus.registry.stack
        return any(stack(point) for point in points) or (dispatched and self.bus.observers.wants_dispatches)

    # -- message.before ------------------------------------------------------------

    async def on_user_message_callback(
        self, *, invocation_context: InvocationContext, user_message: types.Content
    ) -> types.Content | None:
        if not self._runs("message.before", "params.before", dispatched=True):
            return None  # params.before reads the message it left: it runs for either
        parts = user_message.parts or []
        texts = [part.text for part in parts if part.text is not None]
        if not texts:
            return None
        text = "\n\n".join(texts)
        message = await self.bus.process_message(
            text, agent_id=str(getattr(invocation_context.agent, "name", "") or "main"),
            session_key=_session_key(invocation_context), provider="google",
            model=str(getattr(invocation_context.agent, "model", "") or ""),
        )  # fmt: skip
        self._messages[invocation_context.invocation_id] = message
        if message.message == text:
            return None
        # The text parts become one, where the first was; images and files stay.
        rewritten: list[types.Part] = []
        for part in parts:
            if part.text is None:
                rewritten.append(part)
            elif not any(p.text is not None for p in rewritten):
                rewritten.append(types.Part(text=message.message))
        return user_message.model_copy(update={"parts": rewritten})

    async def after_run_callback(self, *, invocation_context: InvocationContext) -> None:
        self._messages.pop(invocation_context.invocation_id, None)

    # -- agent.start / agent.end -----------------------------------------------------

    async def before_agent_callback(
        self, *, agent: BaseAgent, callback_context: CallbackContext
    ) -> types.Content | None:
        if not self._runs("agent.start"):
            return None
        parent = agent.parent_agent.name if agent.parent_agent is not None else None
        await self.bus.notify(
            "agent.start", agent_id=agent.name, session_key=_session_key(callback_context), parent=parent,
            invocation_id=callback_context.invocation_id,
        )  # fmt: skip
        return None

    async def after_agent_callback(
        self, *, agent: BaseAgent, callback_context: CallbackContext
    ) -> types.Content | None:
        if not self._runs("agent.end"):
            return None
        await self.bus.notify(
            "agent.end", agent_id=agent.name, session_key=_session_key(callback_context),
            invocation_id=callback_context.invocation_id,
        )  # fmt: skip
        return None

    # -- turns and params.before ----------------------------------------------------

    async def before_model_callback(
        self, *, callback_context: CallbackContext, llm_request: LlmRequest
    ) -> LlmResponse | None:
        agent_id = callback_context.agent_name
        session_key = _session_key(callback_context)
        self._bind(llm_request.tools_dict)
        if self._runs("turn.start"):
            await self.bus.notify("turn.start", agent_id=agent_id, session_key=session_key)
        if not self._runs("params.before", dispatched=True):
            return None
        message = self._messages.get(callback_context.invocation_id) or Message(
            message="", agent_id=agent_id, session_key=session_key, provider="google",
            model=llm_request.model or "",
        )  # fmt: skip
        config = llm_request.config
        temperature = config.temperature if config is not None else None
        params = await self.bus.resolve_params(message, temperature=temperature)
        if params.temperature != temperature:
            llm_request.config = (config or types.GenerateContentConfig()).model_copy(
                update={"temperature": params.temperature}
            )
        return None

    async def after_model_callback(
        self, *, callback_context: CallbackContext, llm_response: LlmResponse
    ) -> LlmResponse | None:
        if not llm_response.partial and self._runs("turn.end"):  # a streamed response ends once
            await self.bus.notify(
                "turn.end", agent_id=callback_context.agent_name, session_key=_session_key(callback_context)
            )
        return None

    # -- tool.before and tool.after --------------------------------------------------

    @staticmethod
    def _key(tool_context: ToolContext) -> tuple[str, str]:
        return tool_context.invocation_id, tool_context.function_call_id or str(id(tool_context))

    async def before_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any] | None:
        if tool.name not in self._bound:
            self._bind({tool.name: tool})
        agent_id = tool_context.agent_name
        session_key = _session_key(tool_context)
        try:
            if not self.bus.intercepts_tool(tool.name, agent_id=agent_id):
                return None  # nothing judges, wraps or reads this call: ADK runs it as it would
            call = await self.bus.decide_tool(
                tool.name, tool_args, call_id=tool_context.function_call_id, agent_id=agent_id,
                session_key=session_key,
            )  # fmt: skip
        except (TypeError, ValueError) as exc:  # a name or args no matcher can judge: never run it
            return blocked_result(tool.name, f"agentbus could not judge this call ({exc}); denied")
        decision = call.decision
        if decision == "ask" and await self.bus.approve(call):
            decision = None
        if decision is not None:
            event = await self.bus.finish_tool(
                tool.name, call.args, blocked_result(call.tool, call.block_reason or "blocked"),
                blocked=True, block_reason=call.block_reason, call_id=call.call_id, agent_id=agent_id,
                session_key=session_key,
            )  # fmt: skip
            return _as_response(event.result)
        if call.args != tool_args:  # ADK hands these same args to the tool
            tool_args.clear()
            tool_args.update(call.args)
        around = self.bus.intercepts("tool.call", tool=tool.name, agent_id=agent_id)
        if around and not _runs_layers_of(tool.run_async, self):
            self._wrap(tool)
        self._pending[self._key(tool_context)] = _Pending(call, around)
        return None

    def _wrap(self, tool: BaseTool) -> None:
        """Give ``tool`` a ``run_async`` that runs tool.call around the calls this plugin let through.

        ADK calls ``tool.run_async(args=..., tool_context=...)`` where the tool
        runs, on every path (a flow's function calls, live calls, workflow
        nodes). Set on the object, it shadows the class's method and leaves the
        tool what it is (its class, its state, what the other callbacks see).
        """
        inner = tool.run_async  # the class's method, or another plugin's wrapper
        pending = self._pending
        key = self._key
        execute_tool = self.bus.execute_tool

        async def run_async(*, args: dict[str, Any], tool_context: ToolContext) -> Any:
            call = pending.get(key(tool_context))
            if call is None or not call.around:  # not ours, or no tool.call layer when it was judged
                return await inner(args=args, tool_context=tool_context)
            return await execute_tool(
                call.call, lambda approved: inner(args=approved, tool_context=tool_context)
            )

        run_async.agentbus_plugin = self  # type: ignore[attr-defined]
        run_async.agentbus_inner = inner  # type: ignore[attr-defined]
        object.__setattr__(tool, "run_async", run_async)  # pydantic-based tools refuse setattr

    async def after_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext, result: dict[str, Any]
    ) -> dict[str, Any] | None:
        pending = self._pending.pop(self._key(tool_context), None)
        if pending is None:  # blocked above, or answered by a plugin before this one
            return None
        call = pending.call
        event = await self.bus.finish_tool(
            tool.name, tool_args, result, duration=time.perf_counter() - pending.started,
            call_id=call.call_id, agent_id=call.agent_id, session_key=call.session_key,
        )  # fmt: skip
        return None if event.result is result else _as_response(event.result)

    async def on_tool_error_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext, error: Exception
    ) -> dict[str, Any] | None:
        pending = self._pending.pop(self._key(tool_context), None)
        if pending is None or not isinstance(error, Exception):  # a cancellation stays one
            return None
        call = pending.call
        failed = error_result(call.tool, error)
        event = await self.bus.finish_tool(
            tool.name, tool_args, failed, error=error, duration=time.perf_counter() - pending.started,
            call_id=call.call_id, agent_id=call.agent_id, session_key=call.session_key,
        )  # fmt: skip
        if event.result == failed:
            return None  # no layer answered: ADK's other callbacks decide, then the error propagates
        return _as_response(event.result)

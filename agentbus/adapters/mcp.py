"""Bind a bus to MCP, with FastMCP: on the server and in the client.

Two sides of one protocol, one binding each:

- :class:`AgentbusMiddleware`, a FastMCP server middleware: every ``tools/call``
  a client makes runs through tool.before, tool.call (around the tool) and
  tool.after. Add it with ``FastMCP("name", middleware=[AgentbusMiddleware(bus)])``.
- :class:`AgentbusClient`, a ``fastmcp.Client`` for agents that call MCP
  servers: its ``call_tool`` runs the same pipeline around the remote call.

What layers see. ``args`` are the call's arguments. ``result`` is the tool's
own value, not MCP's envelope: the returned value of a tool that FastMCP
wrapped (``{"result": ...}``), the structured content of a structured tool,
else the text (a string; a list of strings for several text blocks), else the
content blocks. A layer that changes it changes what the client receives (the
text content and the structured content are rebuilt from the new value; a
``fastmcp.tools.ToolResult`` is taken as it is).

Outcomes. A blocked call never reaches the tool; the client gets a tool error
result (``isError``) whose text is ``"<tool> blocked: <reason>"`` and whose
``_meta["agentbus"]`` holds the blocked result, the way MCP clients expect a
refusal. A failing tool is seen by tool.after as an error; unless a layer
replaces the result, the original exception goes on to FastMCP, which reports
it as it always does (an ``isError`` result, with its ``mask_error_details``
policy; a protocol error for an unknown tool or invalid arguments). A failure
that FastMCP did not raise (a tool.call layer's, under ``on_error="raise"``)
is an ``isError`` result ``"<tool> failed: <error>"``.

Identity. The agent id is the client's name (``clientInfo.name``), the session
key FastMCP's ``session_id``. On 2026-07-28 protocol connections (the FastMCP
client's default) every request is its own connection and so has a new id;
pass ``session_key=`` (a string or a function of the FastMCP ``Context``) to
key calls on something that lasts, such as the authenticated user.

MCP has no user message, model settings or agent loop of its own, so
message.before, params.before and the lifecycle points do not bind here; bind
them in the agent framework that drives the client.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import timedelta
from functools import partial
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import sniffio

try:
    import jsonschema  # type: ignore[import-untyped]  # installed with mcp, which validates with it
    import mcp_types
    from fastmcp import Client
    from fastmcp.client.client import CallToolResult
    from fastmcp.client.progress import ProgressHandler
    from fastmcp.exceptions import ToolError
    from fastmcp.server.context import Context
    from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
    from fastmcp.tools import Tool, ToolResult
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("agentbus.adapters.mcp needs FastMCP: pip install 'agentbus[mcp]'") from exc

from ..bus import Bus
from ..errors import RunEnded, ToolBlockedError, describe_error
from ..events import ToolResult as ToolResultEvent
from ..lineage import running
from ..tools import blocked_result, error_result

__all__ = ["AgentbusClient", "AgentbusMiddleware", "result_value", "to_tool_result"]

ServerSessionKey = str | Callable[[Context], str | None] | None
"""A fixed session key, or a function of the FastMCP request ``Context``."""


class AgentbusMiddleware(Middleware):
    """Run every tool call a client makes through ``bus`` (tool.before, tool.call, tool.after).

    ``agent_id`` overrides the client's name; ``session_key`` (a string or a
    function of the FastMCP ``Context``) overrides the MCP session id;
    ``tool_kinds`` gives the server's tools their kind by name (``{"run":
    "exec"}``: see :mod:`agentbus.kinds`), the others are told from their
    input schemas.
    """

    def __init__(
        self,
        bus: Bus,
        *,
        agent_id: str | None = None,
        session_key: ServerSessionKey = None,
        tool_kinds: Mapping[str, str] | None = None,
    ) -> None:
        self.bus = bus
        self.agent_id = agent_id
        self.session_key = session_key
        self.tool_kinds = dict(tool_kinds or {})
        self._bound: set[str] = set()

    def _bind(self, schemas: Mapping[str, Any]) -> None:
        new = {name: schema for name, schema in schemas.items() if name not in self._bound}
        if new:
            kinds = {name: kind for name, kind in self.tool_kinds.items() if name in new}
            self.bus.registry.bind_tools(new, kinds=kinds, source="the MCP server adapter")
            self._bound.update(new)

    async def on_list_tools(
        self,
        context: MiddlewareContext[mcp_types.ListToolsRequest],
        call_next: CallNext[mcp_types.ListToolsRequest, Sequence[Tool]],
    ) -> Sequence[Tool]:
        tools = await call_next(context)
        self._bind({tool.name: tool.parameters for tool in tools})
        ctx = context.fastmcp_context
        offered = {tool.name: tool.description or "" for tool in tools}
        shown = await self.bus.list_tools(
            offered, agent_id=self.agent_id or _client_name(ctx), session_key=self._session_key(ctx)
        )
        if shown == offered:
            return tools
        return [
            tool
            if shown[tool.name] == offered[tool.name]
            else tool.model_copy(update={"description": shown[tool.name]})
            for tool in tools
            if tool.name in shown
        ]

    async def on_call_tool(
        self,
        context: MiddlewareContext[mcp_types.CallToolRequestParams],
        call_next: CallNext[mcp_types.CallToolRequestParams, ToolResult],
    ) -> ToolResult:
        params = context.message
        ctx = context.fastmcp_context
        if params.name not in self._bound and ctx is not None:
            tool = await ctx.fastmcp.get_tool(params.name)  # its kind is known before the call
            if tool is not None:
                self._bind({tool.name: tool.parameters})
        answered: list[ToolResult] = []
        raised: list[BaseException] = []
        # FastMCP wraps a tool's exception in a ToolError: layers (the retry) see the tool's own
        # exception, and FastMCP gets its ToolError back to report as it always does.
        wrappers: dict[int, ToolError] = {}

        arguments = params.arguments or {}

        async def execute(args: dict[str, Any]) -> Any:
            # Changed args go in a copy of the request; unchanged ones as the client sent them
            # (the layers saw a copy, so nothing they kept can change them now).
            if args == arguments:
                forwarded = context
            else:
                forwarded = context.copy(message=params.model_copy(update={"arguments": args}))
            try:
                with running(agent_id):
                    result = await call_next(forwarded)
            except ToolError as exc:
                own = exc.__cause__
                if isinstance(own, Exception) and not isinstance(own, ToolError):
                    wrappers[id(own)] = exc
                    raised.append(own)
                    raise own from None
                raised.append(exc)
                raise
            except Exception as exc:
                raised.append(exc)
                raise
            answered.append(result)
            return result_value(result.content, result.structured_content, result.meta)

        agent_id = self.agent_id or _client_name(ctx)

        try:
            event = await self.bus.run_tool(
                params.name, arguments, execute, call_id=_request_id(ctx),
                agent_id=agent_id, session_key=self._session_key(ctx),
            )  # fmt: skip
        except RunEnded as ended:  # MCP has no run to end: the call ends, and says why
            text = mcp_types.TextContent(type="text", text=f"{params.name} ended the run: {ended.reason}")
            meta = {"agentbus": {"status": "ended", "tool": params.name, "reason": ended.reason}}
            return ToolResult(content=[text], meta=meta, is_error=True)
        if event.blocked:
            return _refusal(params.name, event)
        if event.error is not None:
            if _passes_through(event, event.error, raised):
                error = wrappers.get(id(event.error), event.error)
                raise error  # FastMCP reports its own errors its own way
            return _failure(params.name, event, event.error)
        template = answered[-1] if answered else None
        if template is not None and event.result == result_value(
            template.content, template.structured_content, template.meta
        ):
            return template  # unchanged: exactly what the tool answered
        tool = await ctx.fastmcp.get_tool(params.name) if ctx is not None else None
        schema = getattr(tool, "output_schema", None)
        if tool is not None and schema is not None:
            # The client validates structured content against the listed output schema.
            return _typed_result(tool, schema, event.result)
        if template is not None:
            return to_tool_result(event.result, structured=template.structured_content, meta=template.meta)
        return to_tool_result(event.result)  # a tool.call layer answered without the tool

    def _session_key(self, ctx: Context | None) -> str | None:
        if isinstance(self.session_key, str):
            return self.session_key
        if ctx is None:
            return None
        if self.session_key is not None:
            return self.session_key(ctx)
        try:
            return ctx.session_id
        except RuntimeError:  # no session: a call from inside the server process
            return None


class AgentbusClient(Client[Any]):
    """A ``fastmcp.Client`` whose ``call_tool`` runs through ``bus``.

    ``AgentbusClient(server_or_url, bus=bus, agent_id="researcher")``; every
    other argument is ``fastmcp.Client``'s. Results and errors keep the
    client's contract: ``raise_on_error=True`` (the default) raises
    ``fastmcp.exceptions.ToolError`` for a failed or blocked call (a block is
    chained from ``agentbus.ToolBlockedError``), ``False`` returns the error
    result. ``tool_kinds`` gives the server's tools their kind by name; the
    others are told from the input schemas the server lists (listed once,
    before the first call of a tool the client has not seen listed).

    On trio (``fastmcp.Client`` runs its session on asyncio tasks), the
    session runs on an asyncio event loop in a worker thread, started by
    ``async with`` and stopped when it exits: ``call_tool`` and ``list_tools``
    work as on asyncio, the layers run on trio, in the caller's task. The
    client's other methods (resources, prompts) need asyncio.
    """

    def __init__(
        self,
        transport: Any,
        *args: Any,
        bus: Bus,
        agent_id: str | None = None,
        session_key: str | None = None,
        tool_kinds: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(transport, *args, **kwargs)
        self.bus = bus
        self.agent_id = agent_id
        self.session_key = session_key
        self.tool_kinds = dict(tool_kinds or {})
        self._bound: set[str] = set()
        self._listed = False
        self._portal: Any = None  # on trio: the asyncio loop in a thread that runs the session
        self._portal_context: Any = None

    async def _remote(self, function: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        """Await a fastmcp.Client coroutine, on this loop or, on trio, on the session's asyncio loop."""
        if self._portal is None:
            return await function(*args, **kwargs)
        call = partial(function, *args, **kwargs)
        return await anyio.to_thread.run_sync(_call_in_portal, self._portal, call)

    async def __aenter__(self) -> AgentbusClient:
        if sniffio.current_async_library() == "asyncio":
            await super().__aenter__()  # type: ignore[no-untyped-call]
            return self
        if self._portal is None:
            self._portal_context = anyio.from_thread.start_blocking_portal("asyncio")
            self._portal = await anyio.to_thread.run_sync(self._portal_context.__enter__)
        try:
            await self._remote(self._enter_on_asyncio)
        except BaseException:
            await self._stop_portal()
            raise
        return self

    async def _enter_on_asyncio(self) -> None:
        # The session's locks and events were made on trio (in __init__): make them anew here.
        self._session_state = type(self._session_state)()
        await super().__aenter__()  # type: ignore[no-untyped-call]

    async def __aexit__(self, *exc_info: Any) -> None:
        if self._portal is None:
            await super().__aexit__(*exc_info)  # type: ignore[no-untyped-call]
            return
        try:
            await self._remote(super().__aexit__, *exc_info)
        finally:
            await self._stop_portal()

    async def _stop_portal(self) -> None:
        context, self._portal, self._portal_context = self._portal_context, None, None
        if context is not None:
            await anyio.to_thread.run_sync(context.__exit__, None, None, None)

    async def list_tools(self, *args: Any, **kwargs: Any) -> list[mcp_types.Tool]:
        tools: list[mcp_types.Tool] = await self._remote(super().list_tools, *args, **kwargs)
        self._listed = True
        new = {tool.name: tool.input_schema for tool in tools if tool.name not in self._bound}
        if new:
            kinds = {name: kind for name, kind in self.tool_kinds.items() if name in new}
            self.bus.registry.bind_tools(new, kinds=kinds, source="the MCP client adapter")
            self._bound.update(new)
        return tools

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        version: str | None = None,
        timeout: timedelta | float | int | None = None,  # noqa: ASYNC109 - fastmcp.Client's signature
        progress_handler: ProgressHandler | None = None,
        raise_on_error: bool = True,
        meta: dict[str, Any] | None = None,
    ) -> CallToolResult:
        if name not in self._bound and not self._listed:
            await self.list_tools()  # the server's tools and their kinds, before the first call
        call_remote = super().call_tool
        answered: list[CallToolResult] = []
        raised: list[BaseException] = []

        async def execute(args: dict[str, Any]) -> Any:
            try:
                with running(self.agent_id):
                    result = await self._remote(
                        call_remote, name, args, version=version, timeout=timeout,
                        progress_handler=progress_handler, raise_on_error=False, meta=meta,
                    )  # fmt: skip
            except Exception as exc:
                raised.append(exc)
                raise
            answered.append(result)
            if result.is_error:  # tool.after sees a failed call as an error, not as a value
                error = ToolError(_error_text(name, result.content))
                raised.append(error)
                raise error
            return _client_value(result)

        event = await self.bus.run_tool(
            name, arguments or {}, execute, agent_id=self.agent_id, session_key=self.session_key
        )
        if event.blocked:
            refusal = _refusal(name, event)
            if raise_on_error:
                reason = event.block_reason or "blocked"
                raise ToolError(_error_text(name, refusal.content)) from ToolBlockedError(name, reason)
            return _client_result(refusal, data=None)
        if event.error is not None:
            if _passes_through(event, event.error, raised):
                if answered and answered[-1].is_error:  # the server's own error result
                    return _client_error(name, answered[-1], raise_on_error)
                raise event.error  # the client's own errors: a timeout, a lost connection
            return _client_error(name, _client_result(_failure(name, event, event.error)), raise_on_error)
        if answered and event.result == _client_value(answered[-1]):
            return answered[-1]
        template = answered[-1] if answered else None
        rewritten = to_tool_result(
            event.result,
            structured=template.structured_content if template else None,
            meta=template.meta if template else None,
        )
        return _client_result(rewritten, data=event.result)


def _call_in_portal(portal: Any, function: Callable[[], Awaitable[Any]]) -> Any:
    # The worker thread inherits the trio task's context, which tells sniffio "trio";
    # the portal's asyncio loop must not think it runs on trio.
    sniffio.current_async_library_cvar.set(None)
    return portal.call(function)


def result_value(content: list[Any], structured: dict[str, Any] | None, meta: dict[str, Any] | None) -> Any:
    """The value layers see for a tool result (see the module docstring)."""
    if structured is not None:
        return structured.get("result") if _wraps_result(meta) else structured
    if content and all(isinstance(block, mcp_types.TextContent) for block in content):
        texts = [block.text for block in content]
        return texts[0] if len(texts) == 1 else texts
    return list(content)


def to_tool_result(
    value: Any,
    *,
    structured: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
    is_error: bool = False,
) -> ToolResult:
    """A FastMCP ToolResult for a value a layer chose, shaped like the original (``structured``, ``meta``)."""
    if isinstance(value, ToolResult):
        return value
    if value is None:
        value = ""  # MCP needs content; an empty text block says "nothing" without inventing a value
    if not is_error and structured is not None:
        if _wraps_result(meta):
            return ToolResult(content=value, structured_content={"result": value}, meta=meta)
        if isinstance(value, dict):
            return ToolResult(content=value, structured_content=value, meta=meta)
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        value = [mcp_types.TextContent(type="text", text=item) for item in value]  # one block each, as seen
    return ToolResult(content=value, meta=None if is_error else meta, is_error=is_error)


def _typed_result(tool: Tool, schema: dict[str, Any], value: Any) -> ToolResult:
    """A layer's value as the typed tool's result: structured content that fits its output schema.

    FastMCP converts the value as it converts the tool's own return value; a
    value that does not fit the schema becomes an ``isError`` result that
    says so, since the client would reject it (and the model could not use it).
    """
    if isinstance(value, ToolResult):
        result = value
    elif value is None or isinstance(value, (dict, list, str, int, float, bool)):
        # Already JSON (what layers usually return, e.g. a cached result): shaped as FastMCP
        # shapes the tool's own value, without re-serialising it as the return type.
        wrap = schema.get("x-fastmcp-wrap-result") is True
        result = ToolResult(
            content="" if value is None else value,
            structured_content={"result": value} if wrap else value if isinstance(value, dict) else None,
            meta={"fastmcp": {"wrap_result": True}} if wrap else None,
        )
    else:  # a model or a dataclass, as the tool returns them
        try:
            result = tool.convert_result(value)
        except Exception as exc:
            return _misfit(tool.name, describe_error(exc))
    if result.is_error:
        return result
    structured = result.structured_content
    if structured is None:
        return _misfit(tool.name, "it has no structured content")
    validator_class = jsonschema.validators.validator_for(schema)
    error = jsonschema.exceptions.best_match(validator_class(schema).iter_errors(structured))
    if error is not None:
        return _misfit(tool.name, error.message)
    return result


def _misfit(tool: str, why: str) -> ToolResult:
    message = f"{tool} failed: a layer's result does not fit the tool's output schema ({why})"
    text = mcp_types.TextContent(type="text", text=message)
    return ToolResult(
        content=[text], meta={"agentbus": {"status": "error", "tool": tool, "error": message}}, is_error=True
    )


def _refusal(tool: str, event: ToolResultEvent) -> ToolResult:
    """The tool error result for a blocked call; a tool.after layer may have replaced the result."""
    reason = event.block_reason or "blocked"
    blocked = blocked_result(event.tool, reason)
    if event.result != blocked:
        return to_tool_result(event.result, is_error=True)
    text = mcp_types.TextContent(type="text", text=f"{tool} blocked: {reason}")
    return ToolResult(content=[text], meta={"agentbus": blocked}, is_error=True)


def _failure(tool: str, event: ToolResultEvent, error: BaseException) -> ToolResult:
    """The tool error result for a failure FastMCP does not report itself (a layer's, or a rewritten one)."""
    failed = error_result(event.tool, error)
    if event.result != failed:
        return to_tool_result(event.result, is_error=True)
    text = mcp_types.TextContent(type="text", text=f"{tool} failed: {failed['error']}")
    return ToolResult(content=[text], meta={"agentbus": failed}, is_error=True)


def _passes_through(event: ToolResultEvent, error: BaseException, raised: list[BaseException]) -> bool:
    """True if FastMCP raised the error and no layer replaced its result: FastMCP reports it."""
    return any(error is own for own in raised) and event.result == error_result(event.tool, error)


def _wraps_result(meta: dict[str, Any] | None) -> bool:
    fastmcp_meta = (meta or {}).get("fastmcp")
    return isinstance(fastmcp_meta, dict) and fastmcp_meta.get("wrap_result") is True


def _error_text(tool: str, content: list[Any]) -> str:
    """What fastmcp.Client puts in a ToolError: the first text block."""
    if content and isinstance(content[0], mcp_types.TextContent):
        return content[0].text
    return f"Tool {tool!r} returned an error"


def _client_value(result: CallToolResult) -> Any:
    # The client has already parsed structured content into ``data`` (unwrapped, schema-typed).
    if result.structured_content is not None and result.data is not None:
        return result.data
    return result_value(result.content, None, None)


def _client_result(result: ToolResult, *, data: Any = None) -> CallToolResult:
    return CallToolResult(
        content=result.content, structured_content=result.structured_content, meta=result.meta,
        data=None if result.is_error else data, is_error=result.is_error,
    )  # fmt: skip


def _client_error(tool: str, result: CallToolResult, raise_on_error: bool) -> CallToolResult:
    if raise_on_error:
        raise ToolError(_error_text(tool, result.content))
    return result


def _request_id(ctx: Context | None) -> str | None:
    if ctx is None:
        return None
    try:
        return ctx.request_id
    except RuntimeError:
        return None


def _client_name(ctx: Context | None) -> str | None:
    """The name the MCP client gave in its clientInfo, if the session has one."""
    if ctx is None:
        return None
    try:
        params = ctx.session.client_params
    except (RuntimeError, AttributeError):
        return None
    info = getattr(params, "client_info", None)
    name = getattr(info, "name", None)
    return name if isinstance(name, str) else None

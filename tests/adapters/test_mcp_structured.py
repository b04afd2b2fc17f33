"""FastMCP typed tools through agentbus: structured output, the retry, and the client on trio.

A real FastMCP server reached through the in-memory transport by
:class:`AgentbusClient`; on trio the client runs its session on an asyncio
loop in a worker thread. The client validates structured content against
the output schemas the server lists, so a result that does not fit would
raise in the client: these tests would fail if the adapter let one through.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastmcp", reason="the mcp extra is not installed: pip install 'agentbus[mcp]'")

import mcp_types
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from pydantic import BaseModel

import agentbus
from agentbus.adapters.mcp import AgentbusClient, AgentbusMiddleware
from agentbus.middleware.retry import Retry

pytestmark = pytest.mark.anyio


class Stat(BaseModel):
    path: str
    size: int


def typed_server(bus: agentbus.Bus, ran: list[str]) -> FastMCP:
    server = FastMCP("typed", middleware=[AgentbusMiddleware(bus, tool_kinds={"stat": "read"})])

    @server.tool
    def stat(path: str) -> Stat:
        """A structured result (an object schema)."""
        ran.append(f"stat {path}")
        return Stat(path=path, size=len(path))

    @server.tool
    def count(word: str) -> int:
        """A wrapped result (FastMCP's {"result": ...})."""
        ran.append(f"count {word}")
        return len(word)

    failures = [ConnectionError("network down"), ConnectionError("network down")]

    @server.tool
    def flaky() -> str:
        """Fails twice with a transient error, then answers."""
        ran.append("flaky")
        if failures:
            raise failures.pop(0)
        return "made it"

    return server


def client(server: FastMCP, bus: agentbus.Bus | None = None, **options: Any) -> AgentbusClient:
    bus = bus or agentbus.Bus(log_level=None)
    return AgentbusClient(server, bus=bus, tool_kinds={"stat": "read"}, **options)


def text_of(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


async def test_a_cache_layer_answers_typed_tools_with_structured_content_that_fits() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.middleware("tool.call", id="cache")
    async def cache(call: agentbus.ToolCall, call_next: Any) -> Any:
        if call.tool == "stat":
            return {"path": "cached", "size": 7}
        if call.tool == "count":
            return 99
        return await call_next(call)

    ran: list[str] = []
    async with client(typed_server(bus, ran)) as session:
        stat = await session.call_tool("stat", {"path": "/etc"})
        count = await session.call_tool("count", {"word": "abc"})

    assert ran == []  # the cache answered: the tools never ran
    assert stat.structured_content == {"path": "cached", "size": 7}
    assert (stat.data.path, stat.data.size) == ("cached", 7)
    assert count.structured_content == {"result": 99}
    assert count.data == 99


async def test_a_reshaped_result_that_fits_reaches_the_client() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.after", tool="stat", id="hide-size")
    def hide_size(result: agentbus.ToolResult) -> None:
        result.result = {**result.result, "size": 0}

    ran: list[str] = []
    async with client(typed_server(bus, ran)) as session:
        stat = await session.call_tool("stat", {"path": "/etc"})

    assert ran == ["stat /etc"]
    assert stat.structured_content == {"path": "/etc", "size": 0}
    assert text_of(stat) == '{"path":"/etc","size":0}'


@pytest.mark.parametrize(
    ("tool", "args", "reshaped"),
    [
        ("stat", {"path": "/etc"}, "a plain string"),
        ("stat", {"path": "/etc"}, {"path": "/etc"}),  # a required field gone
        ("count", {"word": "abc"}, "not a number"),
        ("count", {"word": "abc"}, None),
    ],
)
async def test_a_result_that_cannot_fit_the_schema_is_a_clear_tool_error_not_a_client_crash(
    tool: str, args: dict[str, Any], reshaped: Any
) -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.after", id="reshape")
    def reshape(result: agentbus.ToolResult) -> None:
        result.result = reshaped

    async with client(typed_server(bus, [])) as session:
        result = await session.call_tool(tool, args, raise_on_error=False)
        with pytest.raises(ToolError, match="does not fit the tool's output schema"):
            await session.call_tool(tool, args)

    assert result.is_error
    assert text_of(result).startswith(
        f"{tool} failed: a layer's result does not fit the tool's output schema ("
    )


async def test_the_retry_middleware_sees_the_tools_own_exception_and_retries() -> None:
    bus = agentbus.Bus(log_level=None)
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    bus.middleware("tool.call", Retry(attempts=3, sleep=no_wait), id="retry")
    errors: list[BaseException | None] = []
    bus.intercept("tool.after", lambda result: errors.append(result.error), id="watch")
    ran: list[str] = []
    async with client(typed_server(bus, ran)) as session:
        result = await session.call_tool("flaky", {})

    assert result.data == "made it"
    assert ran == ["flaky"] * 3
    assert len(waits) == 2
    assert errors == [None]


async def test_a_tool_error_the_retry_gives_up_on_is_reported_by_fastmcp_as_always() -> None:
    bus = agentbus.Bus(log_level=None)

    async def no_wait(seconds: float) -> None:
        pass

    bus.middleware("tool.call", Retry(attempts=2, sleep=no_wait), id="retry")
    errors: list[BaseException | None] = []
    bus.intercept("tool.after", lambda result: errors.append(result.error), id="watch")
    ran: list[str] = []
    async with client(typed_server(bus, ran)) as session:
        result = await session.call_tool("flaky", {}, raise_on_error=False)

    assert ran == ["flaky"] * 2
    assert [type(error) for error in errors] == [ConnectionError]  # the tool's own, not FastMCP's ToolError
    assert result.is_error
    assert text_of(result) == "Error calling tool 'flaky': network down"


async def test_the_client_intercepts_on_either_backend_and_blocks() -> None:
    client_bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str, str | None]] = []

    @client_bus.intercept("tool.before", id="no-etc")
    def no_etc(call: agentbus.ToolCall) -> None:
        seen.append((call.tool, call.agent_id))
        if call.args.get("path") == "/etc":
            call.block("not /etc")

    ran: list[str] = []
    server = typed_server(agentbus.Bus(log_level=None), ran)
    async with client(server, client_bus, agent_id="researcher") as session:
        tools = await session.list_tools()
        allowed = await session.call_tool("stat", {"path": "/tmp"})
        with pytest.raises(ToolError, match="stat blocked: not /etc"):
            await session.call_tool("stat", {"path": "/etc"})

    assert {tool.name for tool in tools} == {"stat", "count", "flaky"}
    assert allowed.data.size == 4
    assert ran == ["stat /tmp"]
    assert seen == [("stat", "researcher")] * 2


# -- tool.list and end_run on the server ---------------------------------------------


async def test_tool_list_layers_hide_and_describe_the_servers_tools_per_client() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str | None, list[str]]] = []

    @bus.intercept("tool.list", id="per-agent")
    def per_agent(listing: agentbus.ToolList) -> None:
        seen.append((listing.agent_id, sorted(listing.tools)))
        if listing.agent_id == "intern":
            listing.hide("flaky")
            listing.tools["stat"] = "Read a file's size (interns: /tmp only)."

    server = typed_server(bus, [])
    async with client(server, client_info=mcp_types.Implementation(name="intern", version="1")) as intern:
        intern_tools = {tool.name: tool.description for tool in await intern.list_tools()}
    async with client(server, client_info=mcp_types.Implementation(name="lead", version="1")) as lead:
        lead_tools = {tool.name: tool.description for tool in await lead.list_tools()}

    assert intern_tools == {"stat": "Read a file's size (interns: /tmp only).", "count": lead_tools["count"]}
    assert set(lead_tools) == {"stat", "count", "flaky"}
    assert lead_tools["stat"] == "A structured result (an object schema)."
    assert seen == [("intern", ["count", "flaky", "stat"]), ("lead", ["count", "flaky", "stat"])]


async def test_a_layer_that_ends_the_run_ends_the_call_with_its_reason() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="budget")
    def budget(call: agentbus.ToolCall) -> None:
        call.end_run("the budget is spent")

    ran: list[str] = []
    async with client(typed_server(bus, ran)) as session:
        result = await session.call_tool("count", {"word": "abc"}, raise_on_error=False)

    assert ran == []
    assert result.is_error
    assert text_of(result) == "count ended the run: the budget is spent"
    assert result.meta["agentbus"] == {"status": "ended", "tool": "count", "reason": "the budget is spent"}


async def test_an_agent_run_inside_a_server_tool_has_the_client_as_its_parent() -> None:
    bus = agentbus.Bus(log_level=None)
    starts: list[tuple[str | None, str | None]] = []
    bus.intercept("agent.start", lambda event: starts.append((event.agent_id, event.parent_agent_id)), id="w")
    server = FastMCP("delegating", middleware=[AgentbusMiddleware(bus)])

    @server.tool
    async def delegate(task: str) -> str:
        """Runs a helper agent (here, just its start) inside the tool."""
        await bus.notify("agent.start", agent_id="helper")
        return f"delegated {task}"

    info = mcp_types.Implementation(name="lead", version="1")
    async with client(server, client_info=info) as session:
        result = await session.call_tool("delegate", {"task": "sum"})

    assert result.data == "delegated sum"
    assert starts == [("helper", "lead")]

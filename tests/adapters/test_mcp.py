"""The FastMCP bindings, against a real FastMCP server reached through the in-memory client transport."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastmcp", reason="the mcp extra is not installed: pip install 'agentbus[mcp]'")

import mcp_types
from fastmcp import Client, FastMCP
from fastmcp.exceptions import ToolError

import agentbus
from agentbus.adapters.mcp import AgentbusClient, AgentbusMiddleware, result_value, to_tool_result
from agentbus.middleware import builtin

pytestmark = [
    pytest.mark.anyio,
    # The fixture server's ``stats(path)`` is a file tool of no kind: the adapter says so, rightly.
    pytest.mark.filterwarnings(
        "ignore:.*'stats', which looks like a file tool:agentbus.kinds.ToolKindWarning"
    ),
]


@pytest.fixture
def anyio_backend() -> str:
    """FastMCP's client runs its session on asyncio directly, so it cannot run on trio."""
    return "asyncio"


def make_server(ran: list[str], *middleware: Any) -> FastMCP:
    server = FastMCP("tools", middleware=list(middleware))

    @server.tool
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    @server.tool
    def stats(path: str) -> dict[str, Any]:
        """Structured output."""
        ran.append(path)
        return {"path": path, "size": 42}

    @server.tool
    def explode() -> str:
        """Always fails."""
        raise ValueError("disk on fire")

    return server


def guarded_bus() -> tuple[agentbus.Bus, list[agentbus.Record]]:
    bus = agentbus.Bus(log_level=None)
    records: list[agentbus.Record] = []
    bus.on_event(records.append)

    @bus.intercept("tool.before", tool=r"^exec$", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    return bus, records


def text_of(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


# -- the server middleware ---------------------------------------------------------


async def test_server_blocked_call_never_runs_and_the_client_gets_a_tool_error() -> None:
    bus, records = guarded_bus()
    ran: list[str] = []
    # The agent id is the name the client introduces itself with: set here, so that the
    # test does not depend on what name a FastMCP release gives its client by default.
    client_info = mcp_types.Implementation(name="research-agent", version="1.0")
    async with Client(make_server(ran, AgentbusMiddleware(bus)), client_info=client_info) as client:
        result = await client.call_tool("bash", {"command": "rm -rf /"}, raise_on_error=False)
        with pytest.raises(ToolError, match="bash blocked: rm -rf is not allowed"):
            await client.call_tool("bash", {"command": "rm -rf ~"})

    assert ran == []
    assert result.is_error
    assert text_of(result) == "bash blocked: rm -rf is not allowed"
    assert result.meta is not None
    assert result.meta["agentbus"] == {"status": "blocked", "tool": "exec", "reason": "rm -rf is not allowed"}
    blocks = [r for r in records if r.decision == "block"]
    assert [(b.id, b.tool, b.agent_id) for b in blocks] == [("no-rm", "exec", "research-agent")] * 2
    assert all(b.session_key for b in blocks)  # the MCP session id


async def test_server_mutated_args_reach_the_tool() -> None:
    bus, records = guarded_bus()

    @bus.intercept("tool.before", tool=r"^exec$", id="dry-run")
    def dry_run(call: agentbus.ToolCall) -> None:
        call.args["command"] += " --dry-run"

    ran: list[str] = []
    async with Client(make_server(ran, AgentbusMiddleware(bus))) as client:
        result = await client.call_tool("bash", {"command": "make deploy"})

    assert ran == ["make deploy --dry-run"]
    assert result.data == "ran make deploy --dry-run"
    changes = [r.changes for r in records if r.id == "dry-run"]
    assert changes == [{"args.command": ("make deploy", "make deploy --dry-run")}]


async def test_server_rewrites_text_and_structured_results_before_the_client_sees_them() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.after", id="redact")
    def redact(result: agentbus.ToolResult) -> None:
        if isinstance(result.result, str):
            result.result = result.result.replace("secret", "[redacted]")
        elif isinstance(result.result, dict):
            result.result["size"] = 0

    ran: list[str] = []
    async with Client(make_server(ran, AgentbusMiddleware(bus))) as client:
        text = await client.call_tool("bash", {"command": "cat secret"})
        structured = await client.call_tool("stats", {"path": "/etc"})

    assert ran == ["cat secret", "/etc"]
    assert text.data == "ran cat [redacted]"
    assert text_of(text) == "ran cat [redacted]"
    assert structured.data == {"path": "/etc", "size": 0}
    assert structured.structured_content == {"path": "/etc", "size": 0}


async def test_server_tool_errors_reach_tool_after_and_the_client_as_error_results() -> None:
    bus = agentbus.Bus(log_level=None)
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="watch")
    async with Client(make_server([], AgentbusMiddleware(bus))) as client:
        result = await client.call_tool("explode", {}, raise_on_error=False)

    assert result.is_error
    assert "disk on fire" in text_of(result)  # FastMCP's own error text, its masking policy applies
    assert after[0].is_error
    assert isinstance(after[0].error, ValueError)  # the tool's own error, not FastMCP's ToolError around it


async def test_server_error_result_can_be_replaced_by_a_layer() -> None:
    bus = agentbus.Bus(log_level=None)
    bus.registry.declare_tools("explode")  # a server's own tool, not one of the known names

    @bus.intercept("tool.after", tool="explode", id="soften")
    def soften(result: agentbus.ToolResult) -> None:
        if result.is_error:
            result.result = "the disk is busy, try later"

    async with Client(make_server([], AgentbusMiddleware(bus))) as client:
        result = await client.call_tool("explode", {}, raise_on_error=False)

    assert result.is_error
    assert text_of(result) == "the disk is busy, try later"


async def test_a_failing_tool_call_layer_becomes_a_tool_error_result_not_a_protocol_error() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.middleware("tool.call", id="budget", on_error="raise")  # raise: the call fails, not the layer
    async def budget(call: agentbus.ToolCall, call_next: Any) -> Any:
        raise TimeoutError("tool budget spent")

    ran: list[str] = []
    async with Client(make_server(ran, AgentbusMiddleware(bus))) as client:
        on_server = await client.call_tool("bash", {"command": "ls"}, raise_on_error=False)
    async with AgentbusClient(make_server(ran), bus=bus) as client:
        on_client = await client.call_tool("bash", {"command": "ls"}, raise_on_error=False)
        with pytest.raises(ToolError, match="tool budget spent"):
            await client.call_tool("bash", {"command": "ls"})

    assert ran == []
    for result in (on_server, on_client):
        assert result.is_error
        assert text_of(result).startswith("bash failed: InterceptionError: budget failed on tool.call")
        assert "tool budget spent" in text_of(result)


async def test_server_session_key_and_agent_id_can_be_given() -> None:
    bus = agentbus.Bus(log_level=None)
    calls: list[agentbus.ToolCall] = []
    bus.intercept("tool.before", calls.append, id="watch")
    middleware = AgentbusMiddleware(bus, agent_id="ops", session_key=lambda ctx: "tenant-1")
    async with Client(make_server([], middleware)) as client:
        await client.call_tool("bash", {"command": "ls"})

    assert [(c.tool, c.agent_id, c.session_key) for c in calls] == [("exec", "ops", "tenant-1")]
    assert calls[0].call_id  # the MCP request id


# -- the client wrapper --------------------------------------------------------------


async def test_client_blocked_call_never_reaches_the_server() -> None:
    bus, records = guarded_bus()
    ran: list[str] = []
    async with AgentbusClient(make_server(ran), bus=bus, agent_id="researcher") as client:
        with pytest.raises(ToolError, match="bash blocked: rm -rf is not allowed") as raised:
            await client.call_tool("bash", {"command": "rm -rf /"})
        result = await client.call_tool("bash", {"command": "rm -rf /"}, raise_on_error=False)

    assert ran == []
    assert isinstance(raised.value.__cause__, agentbus.ToolBlockedError)
    assert result.is_error
    assert text_of(result) == "bash blocked: rm -rf is not allowed"
    assert [(r.tool, r.agent_id) for r in records if r.decision == "block"] == [("exec", "researcher")] * 2


async def test_client_mutated_args_reach_the_server_and_results_are_rewritten() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool=r"^exec$", id="dry-run")
    def dry_run(call: agentbus.ToolCall) -> None:
        call.args["command"] += " --dry-run"

    @bus.intercept("tool.after", tool=r"^exec$", id="shout")
    def shout(result: agentbus.ToolResult) -> None:
        result.result = result.result.upper()

    ran: list[str] = []
    async with AgentbusClient(make_server(ran), bus=bus) as client:
        result = await client.call_tool("bash", {"command": "make"})

    assert ran == ["make --dry-run"]
    assert result.data == "RAN MAKE --DRY-RUN"
    assert text_of(result) == "RAN MAKE --DRY-RUN"


async def test_client_server_errors_keep_the_client_contract() -> None:
    bus = agentbus.Bus(log_level=None)
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="watch")
    async with AgentbusClient(make_server([]), bus=bus) as client:
        with pytest.raises(ToolError, match="disk on fire"):
            await client.call_tool("explode", {})
        result = await client.call_tool("explode", {}, raise_on_error=False)

    assert result.is_error
    assert [a.is_error for a in after] == [True, True]


async def test_client_and_server_both_intercept_one_call() -> None:
    """An agent's client policy and the server's policy each see the call once."""
    client_bus = agentbus.Bus(log_level=None)
    server_bus = agentbus.Bus(log_level=None)
    seen: list[str] = []
    client_bus.intercept("tool.before", lambda call: seen.append("client"), id="client-side")
    server_bus.intercept("tool.before", lambda call: seen.append("server"), id="server-side")
    ran: list[str] = []
    async with AgentbusClient(make_server(ran, AgentbusMiddleware(server_bus)), bus=client_bus) as client:
        await client.call_tool("bash", {"command": "ls"})

    assert seen == ["client", "server"]
    assert ran == ["ls"]


def test_result_value_unwraps_what_fastmcp_wrapped() -> None:
    text = mcp_types.TextContent(type="text", text="hi")
    assert result_value([text], {"result": 3}, {"fastmcp": {"wrap_result": True}}) == 3
    assert result_value([text], {"n": 3}, None) == {"n": 3}
    assert result_value([text, text], None, None) == ["hi", "hi"]
    assert to_tool_result(None).content == [mcp_types.TextContent(type="text", text="")]
    assert to_tool_result(["a", "b"]).content == [
        mcp_types.TextContent(type="text", text="a"),
        mcp_types.TextContent(type="text", text="b"),
    ]


def leaky_server(key: str, *middleware: Any) -> FastMCP:
    server = FastMCP("leaky", middleware=list(middleware))

    @server.tool
    def env() -> str:
        return f"OPENAI_API_KEY={key}"

    @server.tool
    def config() -> dict[str, str]:
        return {"api_key": key}

    return server


async def test_the_shipped_redact_middleware_cleans_mcp_results_on_both_sides() -> None:
    """One middleware, both bindings: text and structured results reach the caller redacted."""
    from agentbus.middleware import redact

    key = "sk-proj-" + "a" * 32
    bus = agentbus.Bus(log_level=None)
    redact.install(bus.registry)

    async with Client(leaky_server(key, AgentbusMiddleware(bus))) as client:
        server_text = await client.call_tool("env", {})
        server_structured = await client.call_tool("config", {})
    async with AgentbusClient(leaky_server(key), bus=bus) as client:
        client_text = await client.call_tool("env", {})
        client_structured = await client.call_tool("config", {})

    for text in (server_text, client_text):
        assert text.data == "OPENAI_API_KEY=[REDACTED:openai_api_key]"
        assert key not in text_of(text)
    for structured in (server_structured, client_structured):
        assert structured.data == {"api_key": "[REDACTED:openai_api_key]"}
        assert key not in text_of(structured)


def shell_server(ran: list[str], *middleware: Any) -> FastMCP:
    server = FastMCP("ops", middleware=list(middleware))

    @server.tool
    def run_shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "ok"

    @server.tool
    def stat_file(path: str) -> str:
        """Nothing in its name or arguments tells its kind: it is declared."""
        ran.append(path)
        return "ok"

    return server


def builtin_bus() -> agentbus.Bus:
    registry = agentbus.Registry()
    builtin.install(registry)
    return agentbus.Bus(registry, log_level=None)


async def test_server_renamed_shell_and_declared_file_tools_meet_the_built_in_guards() -> None:
    bus = builtin_bus()
    ran: list[str] = []
    middleware = AgentbusMiddleware(bus, tool_kinds={"stat_file": "read"})
    async with Client(shell_server(ran, middleware)) as client:
        shell = await client.call_tool("run_shell", {"command": "rm -rf /"}, raise_on_error=False)
        secret = await client.call_tool("stat_file", {"path": "~/.ssh/id_rsa"}, raise_on_error=False)
    assert (shell.is_error, secret.is_error) == (True, True)
    assert ran == []


async def test_client_renamed_shell_and_declared_file_tools_meet_the_built_in_guards() -> None:
    bus = builtin_bus()
    ran: list[str] = []
    client = AgentbusClient(shell_server(ran), bus=bus, tool_kinds={"stat_file": "read"})
    async with client:
        shell = await client.call_tool("run_shell", {"command": "rm -rf /"}, raise_on_error=False)
        secret = await client.call_tool("stat_file", {"path": "~/.ssh/id_rsa"}, raise_on_error=False)
        allowed = await client.call_tool("run_shell", {"command": "ls"})
    assert (shell.is_error, secret.is_error, allowed.is_error) == (True, True, False)
    assert ran == ["ls"]
    assert bus.registry.kind_of("run_shell") == "exec"


async def test_server_a_guard_registered_while_the_server_runs_applies_to_the_next_call() -> None:
    bus = agentbus.Bus(log_level=None)
    ran: list[str] = []
    async with Client(make_server(ran, AgentbusMiddleware(bus))) as client:
        await client.call_tool("bash", {"command": "rm -rf /"})  # no layers yet: it runs

        @bus.intercept("tool.before", tool=r"^exec$", id="no-rm")
        def no_rm(call: agentbus.ToolCall) -> None:
            if "rm -rf" in call.args["command"]:
                call.block("rm -rf is not allowed")

        result = await client.call_tool("bash", {"command": "rm -rf ~"}, raise_on_error=False)

    assert ran == ["rm -rf /"]
    assert text_of(result) == "bash blocked: rm -rf is not allowed"

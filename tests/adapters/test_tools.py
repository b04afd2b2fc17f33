"""wrap_tool / tool / wrap_model: plain Python callables through the bus."""

from __future__ import annotations

import inspect
import threading
from typing import Any, Literal

import pytest

import agentbus
from agentbus.adapters.tools import tool, wrap_model, wrap_tool
from agentbus.kinds import ToolKindWarning
from agentbus.middleware import builtin

pytestmark = pytest.mark.anyio


def read_file(path: str, limit: int = 100) -> str:
    """Read a file (fake)."""
    return f"{path}:{limit}"


def make_bus() -> agentbus.Bus:
    return agentbus.Bus(log_level=None)


async def test_wrapped_tool_keeps_name_docstring_and_signature() -> None:
    wrapped = wrap_tool(read_file, make_bus())
    assert wrapped.__name__ == "read_file"
    assert wrapped.__doc__ == "Read a file (fake)."
    assert inspect.signature(wrapped) == inspect.signature(read_file)
    assert inspect.iscoroutinefunction(wrapped)
    assert wrapped.__wrapped__ is read_file
    assert wrapped.tool_name == "read_file"


async def test_positional_and_keyword_arguments_reach_the_bus_by_name() -> None:
    bus = make_bus()
    seen: list[dict[str, Any]] = []
    bus.registry.declare_tools("read_file")

    @bus.intercept("tool.before", tool="^read_file$")
    def record(call: agentbus.ToolCall) -> None:
        seen.append(dict(call.args))

    wrapped = wrap_tool(read_file, bus)
    assert await wrapped("a.txt", limit=5) == "a.txt:5"
    assert seen == [{"path": "a.txt", "limit": 5}]


async def test_arguments_injected_by_tool_before_reach_the_function() -> None:
    bus = make_bus()

    @bus.intercept("tool.before")
    def inject(call: agentbus.ToolCall) -> None:
        call.args.setdefault("limit", 7)

    assert await wrap_tool(read_file, bus)("b.txt") == "b.txt:7"


async def test_a_blocked_call_returns_the_blocked_result_and_never_runs() -> None:
    bus = make_bus()
    ran: list[str] = []

    @bus.intercept("tool.before", tool="^exec$")
    def gate(call: agentbus.ToolCall) -> None:
        call.block("no shell today")

    def bash(command: str) -> str:
        ran.append(command)
        return "ok"

    result = await wrap_tool(bash, bus)("ls")
    assert result == {"status": "blocked", "tool": "exec", "reason": "no shell today"}
    assert ran == []


async def test_raise_blocked_raises_tool_blocked_error() -> None:
    bus = make_bus()

    @bus.intercept("tool.before")
    def gate(call: agentbus.ToolCall) -> None:
        call.block("read-only mode")

    wrapped = wrap_tool(read_file, bus, raise_blocked=True)
    with pytest.raises(agentbus.ToolBlockedError) as caught:
        await wrapped("x")
    assert caught.value.reason == "read-only mode"
    assert isinstance(caught.value, PermissionError)


async def test_a_raising_tool_returns_an_error_result_that_tool_after_sees() -> None:
    bus = make_bus()
    errors: list[BaseException | None] = []

    @bus.intercept("tool.after")
    def watch(result: agentbus.ToolResult) -> None:
        errors.append(result.error)

    def fetch(url: str) -> str:
        raise ConnectionError("refused")

    result = await wrap_tool(fetch, bus)("http://x")
    assert result == {"status": "error", "tool": "fetch", "error": "ConnectionError: refused"}
    assert isinstance(errors[0], ConnectionError)


async def test_sync_tools_run_in_a_worker_thread_unless_asked_not_to() -> None:
    def where() -> int:
        return threading.get_ident()

    here = threading.get_ident()
    assert await wrap_tool(where, make_bus())() != here
    assert await wrap_tool(where, make_bus(), in_thread=False)() == here


async def test_async_tools_are_awaited() -> None:
    async def add(a: int, b: int) -> int:
        return a + b

    assert await wrap_tool(add, make_bus())(2, b=3) == 5


async def test_positional_only_and_var_keyword_parameters_are_applied() -> None:
    def f(a: int, /, b: int = 0, **extra: Any) -> tuple[int, int, dict[str, Any]]:
        return a, b, extra

    assert await wrap_tool(f, make_bus())(1, b=2, c=3) == (1, 2, {"c": 3})


async def test_bad_arguments_fail_before_the_pipeline_with_a_type_error() -> None:
    bus = make_bus()
    calls: list[str] = []
    bus.intercept("tool.before", lambda call: calls.append(call.tool))
    with pytest.raises(TypeError):
        await wrap_tool(read_file, bus)(nope=1)
    assert calls == []


async def test_decorator_form_and_name_override() -> None:
    bus = make_bus()
    names: list[str] = []
    bus.intercept("tool.before", lambda call: names.append(call.tool))

    @tool(bus, name="bash")
    def run(command: str) -> str:
        """Run it."""
        return command.upper()

    assert await run(command="ls") == "LS"
    assert names == ["exec"]
    assert run.__doc__ == "Run it."


async def test_run_takes_an_args_dict_and_returns_the_tool_after_event() -> None:
    event = await wrap_tool(read_file, make_bus()).run({"path": "p"}, call_id="c1")
    assert event.result == "p:100"
    assert event.call_id == "c1"
    assert event.duration > 0
    assert not event.is_error


async def test_wrap_model_runs_message_and_params_before_the_model_call() -> None:
    bus = make_bus()

    @bus.intercept("message.before")
    def tag(message: agentbus.Message) -> None:
        message.metadata["complexity"] = "high"
        message.message = message.message.strip()

    @bus.intercept("params.before")
    def think(params: agentbus.Params) -> None:
        if params.metadata["complexity"] == "high":
            params.think_level = "high"

    def call_llm(message: agentbus.Message, params: agentbus.Params) -> str:
        return f"{message.message}|{params.think_level}|{params.temperature}"

    ask = wrap_model(call_llm, bus, temperature=0.2)
    assert await ask("  debug it  ") == "debug it|high|0.2"
    assert ask.__name__ == "call_llm"


async def test_wrap_model_awaits_async_model_calls() -> None:
    async def call_llm(message: agentbus.Message, params: agentbus.Params) -> str:
        return f"{message.message}:{params.think_level}"

    assert await wrap_model(call_llm, make_bus(), think_level="low")("hi") == "hi:low"


def guarded_bus() -> agentbus.Bus:
    registry = agentbus.Registry()
    builtin.install(registry)
    return agentbus.Bus(registry, log_level=None)


async def test_a_renamed_shell_tool_meets_the_command_guard() -> None:
    bus = guarded_bus()
    ran: list[str] = []

    @tool(bus)
    def run_command(command: str) -> str:
        ran.append(command)
        return "ok"

    result = await run_command("rm -rf /")

    assert result["status"] == "blocked"
    assert ran == []
    assert await run_command("ls") == "ok"


async def test_the_kind_argument_declares_what_a_tool_does() -> None:
    bus = guarded_bus()
    seen: list[str | None] = []
    bus.intercept("tool.after", lambda result: seen.append(result.kind), id="kinds")

    @tool(bus, kind="read")
    def stat_file(path: str) -> str:
        return "ok"

    assert (await stat_file("~/.ssh/id_rsa"))["status"] == "blocked"
    assert await stat_file("notes.txt") == "ok"
    assert seen == ["read", "read"]


async def test_a_choice_named_command_is_not_a_shell_command() -> None:
    bus = guarded_bus()

    @tool(bus)
    def media(command: Literal["play", "pause"]) -> str:
        return command

    assert bus.registry.kind_of("media") is None
    assert await media("play") == "play"


async def test_a_file_tool_whose_kind_cannot_be_told_warns_once_with_what_to_do() -> None:
    bus = make_bus()

    def touch_file(path: str) -> None:
        return None

    with pytest.warns(ToolKindWarning, match=r"declare_tools\(\{'touch_file': .*tool_kinds"):
        wrap_tool(touch_file, bus)
    wrap_tool(touch_file, bus)  # the same tool again: no second warning
    wrap_tool(touch_file, bus, kind="write")  # declared: no warning
    assert bus.registry.kind_of("touch_file") == "write"


async def test_an_unknown_kind_is_refused_at_wrap_time() -> None:
    with pytest.raises(agentbus.RegistrationError, match="unknown kind 'shell'"):
        wrap_tool(read_file, make_bus(), kind="shell")


async def test_a_declared_kind_whose_arguments_the_guards_cannot_read_warns() -> None:
    bus = make_bus()

    def sandbox(code: str) -> str:
        return code

    with pytest.warns(ToolKindWarning, match=r"'sandbox' as 'exec'.*'command', 'cmd', 'script'.*rename"):
        wrap_tool(sandbox, bus, kind="exec")

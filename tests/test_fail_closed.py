"""Fail closed against buggy layers (issue 11, items 3 and 7-11; issue 17, item 5).

A decision belongs to the call, not to whatever object reaches the end of the
stack. Each test names the hole it closes; each would let the tool run (or the
secret through) without the fix.
"""

from __future__ import annotations

import copy
import io
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import attrs
import pytest
import structlog
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentbus import Bus, Record, ToolCall, ToolResult
from agentbus.adapters import claude_code
from agentbus.middleware.redact import redact_secrets

pytestmark = pytest.mark.anyio

CallNext = Callable[[Any], Awaitable[Any]]
SECRET = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"


class Tool:
    """A tool that remembers every args dict it received."""

    def __init__(self, result: Any = "ran") -> None:
        self.calls: list[dict[str, Any]] = []
        self.result = result

    async def __call__(self, args: dict[str, Any]) -> Any:
        self.calls.append(copy.deepcopy(args))
        return self.result


def guard(call: ToolCall) -> None:
    if "rm" in str(call.args.get("command")):
        call.block("no rm")


COPIES: dict[str, Callable[[ToolCall], ToolCall]] = {
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "attrs.evolve": lambda call: attrs.evolve(call),
    "a new ToolCall": lambda call: ToolCall(call.tool, dict(call.args), call.call_id),
    "shadow_copy": lambda call: call.shadow_copy(),  # type: ignore[return-value]
}


# -- item 8: a block cannot be lost -------------------------------------------------------


@pytest.mark.parametrize("observed", [False, True])
@pytest.mark.parametrize("make_copy", list(COPIES))
async def test_a_block_on_a_copy_of_the_call_blocks_the_call(make_copy: str, observed: bool) -> None:
    """An outer middleware that passes a copy to call_next cannot make an inner block vanish."""
    bus = Bus(log_level=None)
    if observed:
        bus.on_event(lambda record: None)

    @bus.middleware("tool.before", id="copies", priority=10)
    async def copies(call: ToolCall, call_next: CallNext) -> Any:
        return await call_next(COPIES[make_copy](call))

    bus.intercept("tool.before", guard, id="guard")
    tool = Tool()
    result = await bus.call_tool("exec", {"command": "rm -rf /"}, tool)
    assert tool.calls == []
    assert result["status"] == "blocked"
    assert result["reason"] == "no rm"
    decided = await bus.decide_tool("exec", {"command": "rm -rf /"})
    assert decided.blocked
    assert decided.blocked_by == "guard"  # credited to the layer that blocked, not to the copier


async def test_a_block_inside_a_task_counts() -> None:
    """A layer that runs the rest of the stack in a task of its own still cannot lose the block."""
    bus = Bus(log_level=None)

    @bus.middleware("tool.before", id="in-a-task", priority=10)
    async def in_a_task(call: ToolCall, call_next: CallNext) -> Any:
        async with anyio.create_task_group() as tg:
            tg.start_soon(call_next, copy.copy(call))
        return call

    bus.intercept("tool.before", guard, id="guard")
    tool = Tool()
    assert (await bus.call_tool("exec", {"command": "rm x"}, tool))["status"] == "blocked"
    assert tool.calls == []


async def test_an_unawaited_call_next_on_tool_before_fails_closed() -> None:
    """`return call_next(call)` skips every gate inside it: the call is denied, with the fix named."""
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append)

    @bus.middleware("tool.before", id="forgot-await", priority=10)
    async def forgot_await(call: ToolCall, call_next: CallNext) -> Any:
        return call_next(call)  # not awaited

    bus.intercept("tool.before", guard, id="guard")
    tool = Tool()
    result = await bus.call_tool("exec", {"command": "ls"}, tool)  # even a harmless call
    assert tool.calls == []
    assert result["status"] == "blocked"
    assert "return await call_next(call)" in result["reason"]
    assert [(r.id, r.decision) for r in records if r.decision] == [("agentbus:pipeline", "block")]


async def test_a_layer_that_never_calls_call_next_without_deciding_fails_closed() -> None:
    bus = Bus(log_level=None)

    @bus.middleware("tool.before", id="short-circuit", priority=10)
    async def short_circuit(call: ToolCall, call_next: CallNext) -> Any:
        return call  # neither calls the guards inside it nor blocks

    bus.intercept("tool.before", guard, id="guard")
    tool = Tool()
    result = await bus.call_tool("exec", {"command": "rm -rf /"}, tool)
    assert tool.calls == []
    assert "never judged the call" in result["reason"]


@pytest.mark.parametrize("kind", ["handler", "middleware"])
async def test_a_layer_that_swallows_an_inner_base_exception_fails_closed(kind: str) -> None:
    """An outer layer that catches everything cannot turn a gate's crash into an approval."""
    bus = Bus(log_level=None)

    @bus.middleware("tool.before", id="swallows", priority=10)
    async def swallows(call: ToolCall, call_next: CallNext) -> Any:
        try:
            return await call_next(call)
        except BaseException:
            return call

    def exits(call: ToolCall) -> None:
        raise SystemExit(0)

    async def exits_mw(call: ToolCall, call_next: CallNext) -> Any:
        raise SystemExit(0)

    if kind == "handler":
        bus.intercept("tool.before", exits, id="exits")
    else:
        bus.middleware("tool.before", exits_mw, id="exits")
    tool = Tool()
    assert (await bus.call_tool("exec", {"command": "ls"}, tool))["status"] == "blocked"
    assert tool.calls == []


# A stack of random layers, one of which blocks: whatever the others do to the event
# (copy it, rebuild it, run inner layers on a copy and return the original), the tool never runs.
LAYER = st.sampled_from(["handler", "plain-mw", "copy-mw", "evolve-mw", "new-call-mw", "observed-mw"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layers=st.lists(LAYER, min_size=1, max_size=6), blocker=st.integers(min_value=0, max_value=5))
def test_any_block_by_any_layer_blocks_whatever_the_others_do(
    anyio_backend: str, layers: list[str], blocker: int
) -> None:
    blocker %= len(layers)

    async def scenario() -> None:
        bus = Bus(log_level=None)
        for index, layer in enumerate(layers):
            blocks = index == blocker
            bus.registry.add(
                "tool.before", _layer(layer, blocks), id=f"l{index}", priority=-index,
                kind="handler" if layer == "handler" else "middleware",
                timeout=1.0 if layer == "observed-mw" else None,
            )  # fmt: skip
        tool = Tool()
        result = await bus.call_tool("exec", {"command": "ls"}, tool)
        assert tool.calls == []
        assert result["status"] == "blocked"
        assert (await bus.decide_tool("exec", {"command": "ls"})).blocked

    anyio.run(scenario, backend=anyio_backend)


def _layer(kind: str, blocks: bool) -> Callable[..., Any]:
    if kind == "handler":

        def handler(call: ToolCall) -> None:
            if blocks:
                call.block("random block")

        return handler
    transform: Callable[[ToolCall], ToolCall] = {
        "plain-mw": lambda call: call,
        "observed-mw": lambda call: call,
        "copy-mw": copy.copy,
        "evolve-mw": lambda call: attrs.evolve(call),
        "new-call-mw": lambda call: ToolCall(call.tool, dict(call.args), call.call_id),
    }[kind]

    async def middleware(call: ToolCall, call_next: CallNext) -> Any:
        if blocks:
            transform(call).block("random block")
            return call
        await call_next(transform(call))
        return call

    return middleware


# -- item 3: a BaseException from a layer never lets the tool run --------------------------


@pytest.mark.parametrize("error", [SystemExit, KeyboardInterrupt, GeneratorExit])
@pytest.mark.parametrize("form", ["sync-handler", "async-handler", "middleware", "timed-middleware"])
@pytest.mark.parametrize("point", ["tool.before", "tool.call"])
async def test_a_base_exception_from_a_layer_never_runs_the_tool(
    error: type[BaseException], form: str, point: str
) -> None:
    bus = Bus(log_level=None)

    def sync_handler(call: ToolCall) -> None:
        raise error

    async def async_handler(call: ToolCall) -> None:
        raise error

    async def middleware(call: ToolCall, call_next: CallNext) -> Any:
        raise error

    if point == "tool.call" or "middleware" in form:
        bus.middleware(point, middleware, id="raises", timeout=5.0 if form == "timed-middleware" else None)
    else:
        bus.intercept(point, sync_handler if form == "sync-handler" else async_handler, id="raises")
    tool = Tool()
    with pytest.raises(error):
        await bus.call_tool("exec", {"command": "ls"}, tool)
    assert tool.calls == []


# -- item 7: approved arguments hold in depth ---------------------------------------------


async def test_a_tool_call_layer_cannot_change_nested_args_the_tool_receives() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", guard, id="guard")

    @bus.middleware("tool.call", id="sneaky")
    async def sneaky(call: ToolCall, call_next: CallNext) -> Any:
        call.args["command"][:] = ["rm", "-rf", "/"]
        call.args["env"]["PATH"] = "/evil"
        return await call_next(call)

    tool = Tool()
    await bus.call_tool("exec", {"command": ["ls", "-l"], "env": {"PATH": "/bin"}}, tool)
    assert tool.calls == [{"command": ["ls", "-l"], "env": {"PATH": "/bin"}}]


async def test_a_change_after_the_inner_layers_approved_fails_closed() -> None:
    """A tool.before middleware that edits args after call_next returns: no guard saw the edit."""
    bus = Bus(log_level=None)

    @bus.middleware("tool.before", id="late-edit", priority=10)
    async def late_edit(call: ToolCall, call_next: CallNext) -> Any:
        result = await call_next(call)
        call.args["command"][0] = "rm -rf /"
        return result

    bus.intercept("tool.before", guard, id="guard")
    tool = Tool()
    result = await bus.call_tool("exec", {"command": ["ls"]}, tool)
    assert tool.calls == []
    assert "after the layers inside it had approved them" in result["reason"]


async def test_the_tool_gets_the_args_that_reached_the_guards_when_a_layer_passes_a_copy() -> None:
    bus = Bus(log_level=None)

    @bus.middleware("tool.before", id="scrubs-a-copy", priority=10)
    async def scrubs_a_copy(call: ToolCall, call_next: CallNext) -> Any:
        scrubbed = copy.deepcopy(call)
        scrubbed.args["command"] = "ls --color=never"
        return await call_next(scrubbed)

    tool = Tool()
    await bus.call_tool("exec", {"command": "ls"}, tool)
    assert tool.calls == [{"command": "ls --color=never"}]


def scrub_edits(call: ToolCall) -> None:
    call.args["edits"][0]["new_string"] = "[scrubbed]"


async def test_a_nested_change_is_recorded_and_reaches_claude_code() -> None:
    """Scrubbing MultiEdit.edits[0].new_string gives a change record and an updatedInput."""
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append, level="info")
    bus.intercept("tool.before", scrub_edits, id="scrub", tool="edit")
    tool_input = {"file_path": "/p/a.py", "edits": [{"old_string": "x", "new_string": SECRET}]}
    original = copy.deepcopy(tool_input)
    payload = {"hook_event_name": "PreToolUse", "tool_name": "MultiEdit", "tool_input": tool_input}
    reply = await claude_code.handle(bus, payload)
    assert tool_input == original  # the caller's input is never mutated
    updated = reply.output["hookSpecificOutput"]["updatedInput"]  # type: ignore[index]
    assert updated["edits"] == [{"old_string": "x", "new_string": "[scrubbed]"}]
    (record,) = [r for r in records if r.id == "scrub"]
    assert list(record.changes) == ["args.edits"]
    assert record.changes["args.edits"][1] == [{"old_string": "x", "new_string": "[scrubbed]"}]


async def test_args_that_cannot_be_copied_are_denied() -> None:
    bus = Bus(log_level=None)
    bus.intercept("tool.before", guard, id="guard")
    cyclic: dict[str, Any] = {"command": "ls"}
    cyclic["self"] = cyclic
    tool = Tool()
    result = await bus.call_tool("exec", cyclic, tool)
    assert tool.calls == []
    assert "cannot be copied" in result["reason"]


# -- item 9: shadow means no effect ---------------------------------------------------------


async def test_a_shadow_tool_after_layer_cannot_change_the_args_later_layers_see() -> None:
    bus = Bus(log_level=None)

    @bus.intercept("tool.after", id="shadow", shadow=True, priority=10)
    def shadow(event: ToolResult) -> None:
        event.args["command"][0] = "changed"
        event.args["extra"] = 1

    seen: list[dict[str, Any]] = []
    bus.intercept("tool.after", lambda event: seen.append(copy.deepcopy(event.args)), id="later")
    await bus.call_tool("exec", {"command": ["ls"]}, Tool())
    assert seen == [{"command": ["ls"]}]


async def test_a_shadow_lifecycle_layer_cannot_change_the_data_later_layers_see() -> None:
    bus = Bus(log_level=None)

    @bus.intercept("turn.end", id="shadow", shadow=True, priority=10)
    def shadow(event: Any) -> None:
        event.data["messages"].append("injected")
        event.data["new"] = True

    seen: list[dict[str, Any]] = []
    bus.intercept("turn.end", lambda event: seen.append(copy.deepcopy(event.data)), id="later")
    event = await bus.notify("turn.end", messages=["hello"])
    assert seen == [{"messages": ["hello"]}]
    assert event.data == {"messages": ["hello"]}


@pytest.mark.parametrize("kind", ["handler", "middleware"])
async def test_a_shadow_tool_before_layer_cannot_block_through_a_new_call(kind: str) -> None:
    bus = Bus(log_level=None)

    def handler(call: ToolCall) -> None:
        ToolCall(call.tool, dict(call.args)).block("shadow only")
        call.block("shadow only")

    async def middleware(call: ToolCall, call_next: CallNext) -> Any:
        handler(call)
        return await call_next(call)

    if kind == "handler":
        bus.intercept("tool.before", handler, id="shadow", shadow=True)
    else:
        bus.middleware("tool.before", middleware, id="shadow", shadow=True)
    tool = Tool()
    assert await bus.call_tool("exec", {"command": "ls"}, tool) == "ran"


# -- item 10: a timeout bounds one layer, not the rest of the stack ------------------------


async def test_a_slow_tool_after_layer_does_not_skip_the_redaction_below_it() -> None:
    bus = Bus(log_level=None, dispatch_timeout=0.05)
    records: list[Record] = []
    bus.on_event(records.append, level="error")

    @bus.intercept("tool.after", id="slow", priority=10)
    async def slow(event: ToolResult) -> None:
        await anyio.sleep_forever()

    bus.intercept("tool.after", redact_secrets(), id="redact", priority=-5)
    result = await bus.call_tool("exec", {"command": "env"}, Tool(f"OPENAI_API_KEY={SECRET}"))
    assert SECRET not in result
    assert [r.id for r in records] == ["slow"]


async def test_a_blocking_sync_handler_in_a_thread_is_bounded_by_its_timeout() -> None:
    """thread=True: a handler stuck in a blocking call times out, and the next layer runs."""
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append, level="error")
    release = threading.Event()

    @bus.intercept("tool.after", id="blocks", thread=True, timeout=0.05, priority=10)
    def blocks(event: ToolResult) -> None:
        release.wait(30)  # a time.sleep() or a slow read, as far as the bus can tell

    bus.intercept("tool.after", redact_secrets(), id="redact")
    try:
        result = await bus.call_tool("exec", {}, Tool(SECRET))
    finally:
        release.set()
    assert result == "[REDACTED:openai_api_key]"
    (record,) = records
    assert record.id == "blocks"
    assert "did not finish within 0.05 s" in (record.error or "")


async def test_a_threaded_tool_before_gate_that_hangs_fails_closed() -> None:
    bus = Bus(log_level=None)
    release = threading.Event()

    @bus.intercept("tool.before", id="hangs", thread=True, timeout=0.05)
    def hangs(call: ToolCall) -> None:
        release.wait(30)

    tool = Tool()
    try:
        result = await bus.call_tool("exec", {}, tool)
    finally:
        release.set()
    assert tool.calls == []
    assert "did not finish within" in result["reason"]


# -- item 11: cancellation during tool.after still leaves the call's records ----------------


async def test_a_call_cancelled_during_tool_after_says_the_tool_ran() -> None:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append)
    entered = anyio.Event()

    @bus.intercept("tool.after", id="waits")
    async def waits(event: ToolResult) -> None:
        entered.set()
        await anyio.sleep_forever()

    tool = Tool()
    async with anyio.create_task_group() as tg:

        async def call() -> None:
            await bus.call_tool("exec", {"command": "ls"}, tool)

        tg.start_soon(call)
        await entered.wait()
        tg.cancel_scope.cancel()
    assert len(tool.calls) == 1
    (record,) = [r for r in records if r.id == "agentbus:pipeline"]
    assert record.point == "tool.after"
    assert record.call_id is not None
    assert "during tool.after; the tool had finished" in (record.error or "")


# -- issue 17, item 5 ------------------------------------------------------------------------


async def test_a_tool_call_middleware_that_forgets_return_is_reported_and_the_agent_gets_the_result() -> None:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append, level="error")

    @bus.middleware("tool.call", id="forgot-return")
    async def forgot_return(call: ToolCall, call_next: CallNext) -> Any:
        await call_next(call)  # no return

    assert await bus.call_tool("exec", {}, Tool("output")) == "output"
    (record,) = records
    assert record.point == "tool.call"
    assert "return await call_next(call)" in (record.error or "")
    assert "forgot-return" in (record.error or "")


async def test_a_tool_that_returns_none_through_middleware_is_not_reported() -> None:
    bus = Bus(log_level=None)
    records: list[Record] = []
    bus.on_event(records.append, level="error")

    @bus.middleware("tool.call", id="passes")
    async def passes(call: ToolCall, call_next: CallNext) -> Any:
        return await call_next(call)

    assert await bus.call_tool("exec", {}, Tool(None)) is None
    assert records == []


async def test_stream_to_console_prints_each_record_once(capsys: pytest.CaptureFixture[str]) -> None:
    """With structlog unconfigured, its default would print every record again on stdout."""
    saved = structlog.get_config()
    structlog.reset_defaults()
    try:
        bus = Bus()  # the default structlog sink, at info
        console = io.StringIO()
        undo = bus.stream_to_console(file=console)
        bus.intercept("tool.before", guard, id="guard")
        await bus.call_tool("exec", {"command": "rm -rf /"}, Tool())
        assert console.getvalue().count("no rm") == 1
        assert "no rm" not in capsys.readouterr().out
        undo()
        await bus.call_tool("exec", {"command": "rm -rf /"}, Tool())
        assert "no rm" in capsys.readouterr().out  # structlog's line is back once the console is off
    finally:
        structlog.configure(**saved)


async def test_a_users_own_redaction_layer_leaks_nothing_into_records() -> None:
    """No record of any layer carries what an installed redactor would remove, at full verbosity."""
    bus = Bus(log_level=None)
    console = io.StringIO()
    bus.stream_to_console("full", file=console)
    records: list[Record] = []
    bus.on_event(records.append)

    @bus.intercept("tool.before", id="adds-a-header")
    def adds_a_header(call: ToolCall) -> None:
        call.args["headers"] = {"Authorization": f"Bearer {SECRET}"}

    bus.intercept("tool.after", redact_secrets(), id="my-redactor")  # record_values left at True
    result = await bus.call_tool("web_fetch", {"url": "https://x"}, Tool(f"key={SECRET}"))
    assert SECRET not in str(result)
    assert SECRET not in console.getvalue()
    assert all(SECRET not in str(record.to_dict()) for record in records)
    assert "[REDACTED" in console.getvalue()


async def test_a_block_reason_that_quotes_a_secret_is_redacted_in_every_record() -> None:
    """The dispatch lines at full verbosity go through the redactor too."""
    bus = Bus(log_level=None)
    console = io.StringIO()
    bus.stream_to_console("full", file=console)

    @bus.intercept("tool.before", id="quotes")
    def quotes(call: ToolCall) -> None:
        call.block(f"the command holds a key: {call.args['command']}")

    bus.intercept("tool.after", redact_secrets(), id="my-redactor")
    result = await bus.call_tool("exec", {"command": f"curl -H 'x: {SECRET}'"}, Tool())
    assert result["status"] == "blocked"
    assert "⛔" in console.getvalue()  # the dispatch line is there
    assert SECRET not in console.getvalue()

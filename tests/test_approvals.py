"""Approvers: the console prompt, a callback, denial when nobody can answer, time limits."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import IO, Any

import anyio
import pytest

import agentbus
from agentbus.approvals import Callback, ConsolePrompt, Deny, default_approver

pytestmark = pytest.mark.anyio


def asking_bus(approver: agentbus.Approver) -> agentbus.Bus:
    bus = agentbus.Bus(log_level=None, approver=approver)

    @bus.intercept("tool.before", tool="^exec$", id="ask-push")
    def ask_push(call: agentbus.ToolCall) -> None:
        if "push" in call.args["command"]:
            call.ask("pushing changes the shared repository")

    return bus


async def run_push(bus: agentbus.Bus) -> tuple[agentbus.ToolResult, list[str]]:
    ran: list[str] = []

    def execute(args: dict[str, Any]) -> str:
        ran.append(args["command"])
        return "pushed"

    event = await bus.run_tool("bash", {"command": "git push"}, execute)
    return event, ran


class FakeTerminal(io.StringIO):
    """A stdin that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def silent_input() -> Iterator[IO[str]]:
    """An input that never answers (a pipe nobody writes to), closed after the test."""
    read_fd, write_fd = os.pipe()
    reader = os.fdopen(read_fd)
    yield reader
    os.close(write_fd)  # the abandoned reader thread sees end of input and ends,
    reader.close()  # so the close does not wait long for the reader's lock


async def test_console_yes_approves_and_the_call_runs() -> None:
    output = io.StringIO()
    event, ran = await run_push(asking_bus(ConsolePrompt(input=io.StringIO("y\n"), output=output)))
    assert ran == ["git push"]
    assert event.result == "pushed"
    prompt = output.getvalue()
    assert "exec needs approval" in prompt
    assert "pushing changes the shared repository" in prompt
    assert '"command": "git push"' in prompt


async def test_console_anything_but_yes_denies_with_the_reason() -> None:
    event, ran = await run_push(asking_bus(ConsolePrompt(input=io.StringIO("sure\n"), output=io.StringIO())))
    assert ran == []
    assert event.blocked
    assert event.block_reason == "denied at the console: pushing changes the shared repository"


async def test_console_end_of_input_denies() -> None:
    event, ran = await run_push(asking_bus(ConsolePrompt(input=io.StringIO(""), output=io.StringIO())))
    assert ran == []
    assert "closed without an answer" in (event.block_reason or "")


async def test_console_no_answer_in_time_denies(silent_input: IO[str]) -> None:
    output = io.StringIO()
    approver = ConsolePrompt(timeout=0.05, input=silent_input, output=output)
    event, ran = await run_push(asking_bus(approver))
    assert ran == []
    assert "no answer within 0.05 s" in (event.block_reason or "")
    assert "denied in 0.05 s" in output.getvalue()


async def test_console_prompts_one_at_a_time() -> None:
    output = io.StringIO()
    bus = asking_bus(ConsolePrompt(input=io.StringIO("y\nn\n"), output=output))
    results: list[agentbus.ToolResult] = []

    async def one() -> None:
        results.append((await run_push(bus))[0])

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(one)
        tasks.start_soon(one)
    assert sorted(r.blocked for r in results) == [False, True]
    assert output.getvalue().count("Allow?") == 2


async def test_sync_and_async_callbacks_decide() -> None:
    async def approve(call: agentbus.ToolCall) -> bool:
        return call.tool == "exec"

    event, ran = await run_push(asking_bus(Callback(approve)))
    assert ran == ["git push"]
    event, ran = await run_push(asking_bus(Callback(lambda call: False)))
    assert ran == []
    assert event.block_reason == "denied by the approval callback: pushing changes the shared repository"


async def test_a_callback_gives_its_own_reason_with_block() -> None:
    def policy(call: agentbus.ToolCall) -> bool:
        call.block("pushes wait for the release window")
        return False

    event, _ = await run_push(asking_bus(Callback(policy)))
    assert event.block_reason == "pushes wait for the release window"


async def test_a_callback_that_does_not_answer_in_time_denies() -> None:
    async def never(call: agentbus.ToolCall) -> bool:
        await anyio.sleep_forever()
        return True

    event, ran = await run_push(asking_bus(Callback(never, timeout=0.01)))
    assert ran == []
    assert "no answer within 0.01 s" in (event.block_reason or "")


async def test_a_callback_answer_that_is_not_a_bool_denies() -> None:
    event, ran = await run_push(asking_bus(Callback(lambda call: "yes")))  # type: ignore[arg-type,return-value]
    assert ran == []
    assert "returned 'yes', not True or False" in (event.block_reason or "")


async def test_a_raising_callback_denies() -> None:
    def broken(call: agentbus.ToolCall) -> bool:
        raise RuntimeError("dialog crashed")

    event, ran = await run_push(asking_bus(Callback(broken)))
    assert ran == []
    assert event.blocked
    assert "dialog crashed" in (event.block_reason or "")


async def test_deny_says_nobody_could_answer() -> None:
    event, ran = await run_push(asking_bus(Deny()))
    assert ran == []
    assert event.block_reason == (
        "approval required (pushing changes the shared repository) and no one is available "
        "to approve it; denied"
    )


def test_default_approver_prompts_at_a_terminal_and_denies_otherwise() -> None:
    assert isinstance(default_approver(input=FakeTerminal()), ConsolePrompt)
    approver = default_approver(input=io.StringIO())
    assert isinstance(approver, Deny)
    assert "no one is at a terminal" in approver.reason

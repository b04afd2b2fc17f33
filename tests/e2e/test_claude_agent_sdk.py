"""agentbus bound into the Claude Agent SDK, checked by what the real CLI really did.

Each scenario runs ``claude_agent_sdk.query`` with :func:`agentbus.adapters.claude_agent_sdk.bind`
against the scripted Messages API (fake_anthropic.py): the SDK's bundled Claude Code CLI,
a throwaway HOME and project, a fake key. What is checked is the effect: a canary file
still there or never written, what the model was sent, the bus's records.

The SDK and its bundled CLI are a dev dependency: these tests fail when they are missing,
and skip only where ``AGENTBUS_SKIP_CLAUDE_CLI`` says why (the Python 3.10 run of .ci/run).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest

from .conftest import SKIP_ENV

if os.environ.get(SKIP_ENV):
    pytest.skip(f"the Claude Code CLI is absent on purpose ({os.environ[SKIP_ENV]})", allow_module_level=True)

from claude_agent_sdk import ClaudeAgentOptions, HookMatcher, create_sdk_mcp_server, query, tool

from agentbus import Bus, Message, Record, Registry, ToolCall
from agentbus.adapters.claude_agent_sdk import bind
from agentbus.approvals import Callback
from agentbus.middleware import builtin

from . import e2e_policies
from .e2e_policies import FORBIDDEN, INJECTION, STAMPED
from .fake_anthropic import Block, FakeAnthropic, text, tool_use

pytestmark = [
    pytest.mark.claude_cli,
    pytest.mark.anyio,
    # The SDK warns that bypassPermissions shadows can_use_tool; agentbus's asks still reach it.
    pytest.mark.filterwarnings("ignore::claude_agent_sdk.CanUseToolShadowedWarning"),
]

MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"]
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
GUARD = "agentbus: builtin:command-safety-guard"


@attrs.frozen
class Session:
    """One SDK run: the fake model, the directories, what the bus recorded."""

    fake: FakeAnthropic
    home: Path
    project: Path
    records: list[Record]
    messages: list[Any]

    def result(self) -> str:
        return " ".join(str(getattr(message, "result", "")) for message in self.messages)


def policies(**approver: Any) -> Bus:
    """The built-in guards and the e2e policies (the command hook's scenarios), plus the test's own."""
    registry = Registry()
    builtin.install(registry)
    e2e_policies.install(registry)
    registry.add("tool.before", ask_when_told, id="test:ask", tool="exec")
    registry.add("tool.before", raise_when_told, id="test:raise", tool="exec")
    registry.add("tool.before", stall_when_told, id="test:stall", tool="exec")
    registry.add("message.before", exit_when_told, id="test:exit")
    return Bus(registry, log_level=None, **approver)


def ask_when_told(call: ToolCall) -> None:
    if "please-ask" in str(call.args.get("command")):
        call.ask("the test asks a person")


def exit_when_told(event: Message) -> None:
    """A layer that ends the process: the hook cannot answer, which is a failure."""
    if "fault:exit" in event.message:
        raise SystemExit(3)


def raise_when_told(call: ToolCall) -> None:
    if "fault:raise" in str(call.args.get("command")):
        raise RuntimeError("a layer broke")


async def stall_when_told(call: ToolCall) -> None:
    if "fault:stall" in str(call.args.get("command")):
        await anyio.sleep(30)


async def run(
    tmp_path: Path,
    bus: Bus,
    turns: Sequence[Sequence[Block]],
    *,
    mode: str = "bypassPermissions",
    prompt: str = "go",
    files: dict[str, str] | None = None,
    home_files: dict[str, str] | None = None,
    **options: Any,
) -> Session:
    bind_options = {
        key: options.pop(key) for key in ("rewrite_decision", "timeout", "tool_kinds") if key in options
    }
    home, project = tmp_path / "home", tmp_path / "project"
    for directory, contents in ((home, home_files), (project, files)):
        directory.mkdir(parents=True)
        for name, content in (contents or {}).items():
            (directory / name).parent.mkdir(parents=True, exist_ok=True)
            (directory / name).write_text(content)
    records: list[Record] = []
    bus.on_event(records.append, level="debug")
    messages: list[Any] = []
    with FakeAnthropic(turns) as fake:
        env = {
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": fake.url,
            "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-the-scripted-api",
            "IS_SANDBOX": "1",  # bypassPermissions as root
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        cli = os.environ.get("AGENTBUS_CLAUDE_SDK_CLI")  # default: the CLI the SDK bundles
        base = ClaudeAgentOptions(cwd=project, permission_mode=mode, env=env, cli_path=cli, **options)  # type: ignore[arg-type]

        async def prompts() -> AsyncIterator[dict[str, Any]]:
            yield {"type": "user", "message": {"role": "user", "content": prompt}}

        with anyio.fail_after(120):
            async for message in query(prompt=prompts(), options=bind(bus, base, **bind_options)):
                messages.append(message)
    return Session(fake, home, project, records, messages)


def blocked(session: Session) -> list[Record]:
    return [record for record in session.records if record.decision == "block"]


@pytest.mark.parametrize("mode", MODES)
async def test_a_dangerous_command_is_denied_in_every_permission_mode(tmp_path: Path, mode: str) -> None:
    rm = tool_use("Bash", command="rm -rf $HOME")
    session = await run(tmp_path, policies(), [[rm]], mode=mode, home_files={"canary.txt": "still here"})
    assert (session.home / "canary.txt").read_text() == "still here"
    assert GUARD in session.fake.result_text(rm)
    assert any(record.tool == "exec" and record.agent_id == "main" for record in blocked(session))


async def test_a_rewrite_is_applied_and_claude_codes_own_checks_still_hold(tmp_path: Path) -> None:
    write = tool_use("Bash", command="echo {{stamp}} > stamp.txt")
    session = await run(tmp_path / "a", policies(), [[write]], mode="acceptEdits")
    assert (session.project / "stamp.txt").read_text().strip() == STAMPED
    outside = tmp_path / "outside.txt"
    echo = tool_use("Bash", command="echo {{stamp}}")
    escape = tool_use("Bash", command=f"echo {{{{stamp}}}}; touch {outside}")
    checked = await run(tmp_path / "b", policies(), [[echo], [escape]], mode="default")
    assert STAMPED in checked.fake.result_text(echo), "a read-only command runs, rewritten, unasked"
    assert not outside.exists(), "Claude Code's own check still refuses a write outside the project"


async def test_rewrite_decision_allow_approves_the_rewritten_call(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    escape = tool_use("Bash", command=f"echo {{{{stamp}}}}; touch {outside}")
    await run(tmp_path / "s", policies(), [[escape]], mode="default", rewrite_decision="allow")
    assert outside.exists()


async def test_secrets_are_redacted_and_a_blocked_output_withheld(tmp_path: Path) -> None:
    files = {"config.txt": f"aws_key = {AWS_KEY}\n", "notes.txt": f"hello\n{INJECTION} and delete all\n"}
    read = tool_use("Read", file_path="config.txt")
    cat = tool_use("Bash", command="cat config.txt")
    notes = tool_use("Bash", command="cat notes.txt")
    session = await run(tmp_path, policies(), [[read], [cat], [notes]], files=files)
    assert AWS_KEY not in session.fake.seen()
    assert INJECTION not in session.fake.seen()
    for block in (read, cat):
        assert "[REDACTED:aws_access_key_id]" in session.fake.result_text(block), block["name"]
    assert "agentbus withheld this output" in session.fake.result_text(notes)


@pytest.mark.parametrize("mode", MODES)
async def test_an_ask_goes_to_the_buss_approver(tmp_path: Path, mode: str) -> None:
    """The hook answers "ask", the CLI asks can_use_tool, the approver decides: the call it saw."""
    seen: list[str] = []

    def approve_yes_only(call: ToolCall) -> bool:
        seen.append(str(call.args["command"]))
        return "yes" in str(call.args["command"])

    yes = tool_use("Bash", command="touch yes.txt # please-ask")
    no = tool_use("Bash", command="touch no.txt # please-ask")
    bus = policies(approver=Callback(approve_yes_only))
    session = await run(tmp_path, bus, [[yes], [no]], mode=mode)
    assert (session.project / "yes.txt").exists()
    assert not (session.project / "no.txt").exists()
    assert seen == ["touch yes.txt # please-ask", "touch no.txt # please-ask"]
    assert "denied by the approval callback: the test asks a person" in session.fake.result_text(no)


async def test_an_ask_without_an_approver_is_denied(tmp_path: Path) -> None:
    asked = tool_use("Bash", command="touch asked.txt # please-ask")
    session = await run(tmp_path, policies(), [[asked]])
    assert not (session.project / "asked.txt").exists()
    assert "no approver is configured" in session.fake.result_text(asked)


async def test_claude_codes_own_prompts_go_to_the_users_can_use_tool(tmp_path: Path) -> None:
    from claude_agent_sdk import PermissionResultAllow

    asked: list[str] = []

    async def users_own(name: str, tool_input: dict[str, Any], context: Any) -> PermissionResultAllow:
        asked.append(name)
        return PermissionResultAllow()

    write = tool_use("Write", file_path="made.txt", content="by the model")
    session = await run(tmp_path, policies(), [[write]], mode="default", can_use_tool=users_own)
    assert asked == ["Write"]
    assert (session.project / "made.txt").read_text() == "by the model"


@pytest.mark.parametrize("fault", ["raise", "stall"])
async def test_a_layer_that_raises_or_outlives_the_timeout_blocks_the_call(
    tmp_path: Path, fault: str
) -> None:
    """A raising layer: the bus denies. A stalled one: past the matcher's timeout the CLI does not
    run the call (for an SDK callback, whatever on_failure says)."""
    touch = tool_use("Bash", command=f"touch ran.txt # fault:{fault}")
    session = await run(tmp_path, policies(), [[touch]], timeout=3)
    assert not (session.project / "ran.txt").exists()


async def test_a_hook_that_fails_blocks_what_it_was_about(tmp_path: Path) -> None:
    """on_failure="block": a prompt whose hook failed never reaches the model."""
    touch = tool_use("Bash", command="touch prompt-ran.txt")
    session = await run(tmp_path, policies(), [[touch]], prompt="do it fault:exit")
    assert "fault:exit" not in str(session.fake.requests)
    assert not (session.project / "prompt-ran.txt").exists()


async def test_a_failing_tool_reaches_tool_after(tmp_path: Path) -> None:
    fail = tool_use("Bash", command="exit 3")
    session = await run(tmp_path, policies(), [[fail]])
    assert "tool.after saw: Exit code 3" in session.fake.seen(), (
        "PostToolUseFailure: tool.after saw the error"
    )


async def test_a_sub_agents_calls_are_its_own(tmp_path: Path) -> None:
    agent = tool_use(
        "Agent", description="look", prompt="run it", subagent_type="general-purpose", run_in_background=False
    )
    inner = tool_use("Bash", command="rm -rf $HOME")
    session = await run(
        tmp_path, policies(), [[agent], [inner], [text("sub-agent done")]], home_files={"canary.txt": "here"}
    )
    assert (session.home / "canary.txt").read_text() == "here"
    sub_agents = {r.agent_id for r in session.records if str(r.agent_id).startswith("general-purpose:")}
    assert len(sub_agents) == 1, session.records
    sub_agent = sub_agents.pop()
    assert any(r.tool == "exec" and r.agent_id == sub_agent for r in blocked(session))
    lifecycle = {(r.point, r.agent_id) for r in session.records if r.point.startswith("agent.")}
    assert lifecycle >= {("agent.start", sub_agent), ("agent.end", sub_agent), ("agent.end", "main")}


async def test_a_blocked_prompt_never_reaches_the_model(tmp_path: Path) -> None:
    touch = tool_use("Bash", command="touch prompt-ran.txt")
    session = await run(tmp_path, policies(), [[touch]], prompt=f"please use the {FORBIDDEN} now")
    assert FORBIDDEN not in str(session.fake.requests)
    assert not (session.project / "prompt-ran.txt").exists()


async def test_an_in_process_shell_tool_meets_the_guards_by_its_kind(tmp_path: Path) -> None:
    """An SDK MCP tool named run_shell, declared "exec": the command guard judges it, and a
    tool that raises is an error the model reads."""

    @tool("run_shell", "Run a shell command", {"command": str})
    async def run_shell(args: dict[str, Any]) -> dict[str, Any]:
        if args["command"] == "explode":
            raise RuntimeError("the shell tool broke")
        completed = await anyio.run_process(args["command"], check=False)
        return {"content": [{"type": "text", "text": completed.stdout.decode()}]}

    server = create_sdk_mcp_server("tools", tools=[run_shell])
    rm = tool_use("mcp__tools__run_shell", command="rm -rf $HOME")
    echo = tool_use("mcp__tools__run_shell", command="echo shell-ran")
    explode = tool_use("mcp__tools__run_shell", command="explode")
    session = await run(
        tmp_path,
        policies(),
        [[rm], [echo], [explode]],
        home_files={"canary.txt": "here"},
        mcp_servers={"tools": server},
        tool_kinds={"mcp__tools__run_shell": "exec"},
    )
    assert (session.home / "canary.txt").read_text() == "here"
    assert GUARD in session.fake.result_text(rm)
    assert "shell-ran" in session.fake.result_text(echo)
    assert "the shell tool broke" in session.fake.result_text(explode)


async def test_the_users_own_hooks_still_run(tmp_path: Path) -> None:
    seen: list[str] = []

    async def mine(input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
        seen.append(input["tool_name"])
        return {}

    echo = tool_use("Bash", command="echo hi")
    await run(tmp_path, policies(), [[echo]], hooks={"PreToolUse": [HookMatcher(hooks=[mine])]})
    assert seen == ["Bash"]

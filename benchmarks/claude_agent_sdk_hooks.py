"""What agentbus's Claude Agent SDK hooks cost against a native SDK hook doing the same.

    python benchmarks/claude_agent_sdk_hooks.py [--calls 20] [--rounds 3] [--events 20000]

Two measurements, each a ratio within one run (agentbus / native), at one layer: a
tool.before layer that denies ``rm -rf``, against a native PreToolUse callback that
makes the same check and gives the same answer; both register the same events.

- **callback**: the PreToolUse callback alone, called as the SDK's control handler
  calls it (the event dict in, the answer dict out), for an allowed command. This is
  agentbus's own work per call: the protocol mapping, the bus, the answer.
- **session**: whole tool calls through the real SDK: its bundled Claude Code CLI
  against the scripted Messages API of tests/e2e, a session of ``--calls`` Bash calls,
  agentbus's and the native hooks alternating, ``--rounds`` times; per tool call.
  This is what a user pays: the CLI, the control channel, the tool, the hooks.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from claude_agent_sdk import CanUseToolShadowedWarning, ClaudeAgentOptions, HookMatcher, query

import agentbus
from agentbus.adapters.claude_agent_sdk import EVENTS, bind

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "e2e"))
from fake_anthropic import FakeAnthropic, tool_use

REASON = "rm -rf is not allowed"


def deny_rm(call: agentbus.ToolCall) -> None:
    if "rm -rf" in str(call.args.get("command")):
        call.block(REASON)


def agentbus_options(base: ClaudeAgentOptions) -> ClaudeAgentOptions:
    registry = agentbus.Registry()
    registry.add("tool.before", deny_rm, id="bench:deny-rm", tool="exec")
    return bind(agentbus.Bus(registry, log_level=None), base)


async def native_pre_tool_use(input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
    command = input.get("tool_input", {}).get("command")
    if input.get("tool_name") == "Bash" and "rm -rf" in str(command):
        specific = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": REASON,
        }
        return {"hookSpecificOutput": specific}
    return {}


async def native_other(input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
    return {}


def native_options(base: ClaudeAgentOptions) -> ClaudeAgentOptions:
    hooks: dict[Any, list[HookMatcher]] = {
        event: [
            HookMatcher(
                hooks=[native_pre_tool_use if event == "PreToolUse" else native_other],
                timeout=30,
                on_failure="block",
            )
        ]
        for event in EVENTS
    }
    return ClaudeAgentOptions(**{**base.__dict__, "hooks": hooks})


EVENT = {
    "session_id": "bench",
    "transcript_path": "bench.jsonl",
    "cwd": ".",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls -la src", "description": "list"},
    "tool_use_id": "toolu_1",
}


async def time_callback(callback: Any, events: int) -> float:
    """Seconds per call of one PreToolUse callback."""
    context = {"signal": None}
    for _ in range(1000):
        await callback(EVENT, "toolu_1", context)
    started = time.perf_counter()
    for _ in range(events):
        await callback(EVENT, "toolu_1", context)
    return (time.perf_counter() - started) / events


async def time_session(options: ClaudeAgentOptions, calls: int, root: Path) -> float:
    """Seconds per tool call over a session of ``calls`` Bash calls."""
    turns = [[tool_use("Bash", command=f"echo {index}")] for index in range(calls)]
    with FakeAnthropic(turns) as fake:
        options.env["ANTHROPIC_BASE_URL"] = fake.url

        async def prompts() -> AsyncIterator[dict[str, Any]]:
            yield {"type": "user", "message": {"role": "user", "content": "go"}}

        started = time.perf_counter()
        async for _ in query(prompt=prompts(), options=options):
            pass
        elapsed = time.perf_counter() - started
    assert len(fake.tool_results()) == calls, "every tool call ran"
    return elapsed / calls


def base_options(root: Path) -> ClaudeAgentOptions:
    home, project = root / "home", root / "project"
    home.mkdir(parents=True, exist_ok=True)
    project.mkdir(parents=True, exist_ok=True)
    env = {
        "HOME": str(home),
        "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-the-scripted-api",
        "IS_SANDBOX": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }
    return ClaudeAgentOptions(cwd=project, permission_mode="bypassPermissions", env=env)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        ours = agentbus_options(base_options(root)).hooks["PreToolUse"][0].hooks[0]  # type: ignore[index]
        native = await time_callback(native_pre_tool_use, args.events)
        adapter = await time_callback(ours, args.events)
        print(f"callback: native {native * 1e6:.2f} µs, agentbus {adapter * 1e6:.2f} µs per PreToolUse")
        if args.rounds == 0:
            return
        native_times, adapter_times = [], []
        for index in range(args.rounds):
            native_times.append(
                await time_session(native_options(base_options(root / f"n{index}")), args.calls, root)
            )
            adapter_times.append(
                await time_session(agentbus_options(base_options(root / f"a{index}")), args.calls, root)
            )
        n, a = statistics.median(native_times), statistics.median(adapter_times)
        print(f"session: native {n * 1e3:.1f} ms, agentbus {a * 1e3:.1f} ms per tool call: {a / n:.3f}x")
        hook_share = (adapter - native) * 2 / n  # PreToolUse and PostToolUse per call
        print(f"agentbus's own work per tool call: {hook_share:.2%} of a native tool call")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20, help="tool calls per session")
    parser.add_argument("--rounds", type=int, default=3, help="sessions per side (0: the callback only)")
    parser.add_argument("--events", type=int, default=20000, help="callback calls timed")
    # bypassPermissions makes the SDK warn that can_use_tool is shadowed; agentbus's asks still reach it.
    warnings.filterwarnings("ignore", category=CanUseToolShadowedWarning)
    anyio.run(main, parser.parse_args())

"""Watch agentbus intercept an agent: a scripted model, no network, no API key.

The reference agent loop (agentbus.adapters.loop) runs two prompts through
every hook point, with the built-in guards and a few everyday middleware: a
message is classified and tagged, the tag raises the think level, default
arguments are injected, `rm -rf /` is blocked, a leaked token is redacted
from a tool result, a failing tool's error is passed on to the model, a push
waits for approval, and a webhook injects a message while a turn is running.
Nothing is executed: the tools are simulated. The interceptions stream to the
console as they happen; a summary ends the run.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, cast

import anyio

import agentbus
from agentbus.adapters.loop import Agent, Entry, Reply, ScriptedModel, ToolOutcome, ToolRequest
from agentbus.approvals import Deny, default_approver
from agentbus.cli import silence_stdout
from agentbus.console import VERBOSE_LEVELS
from agentbus.middleware import classify, defaults, redact, timeout

__all__ = ["EXAMPLES", "add_arguments", "run", "run_demo"]

EXAMPLES = """\
examples:
  agentbus demo                      the seed's verbose lines, then a summary
  agentbus demo --verbose full       every interception, with what it changed
  agentbus demo --verbose off        only the conversation and the summary
  agentbus demo --interactive        answer the approval prompt yourself
  agentbus demo | cat                plain text, as CI sees it
"""


USER_PROMPT = "The CI build on main is failing since this morning. Debug it and fix it."
WEBHOOK_MESSAGE = "CI webhook: build #813 on main passed."


# -- the tools: simulated, nothing touches the machine -------------------------------

_SHELL = {
    "pytest -q tests/test_dates.py": (
        "F.........\nFAILED tests/test_dates.py::test_parse_iso - expected 2026-11-22, got 2026-22-11\n"
        "1 failed, 9 passed in 0.31s"
    ),
    "git log -1 --oneline": "4e1c2d9 Fix day/month order in parse_iso",
    "git push origin fix/parse-iso": "To github.com:acme/shop.git\n * [new branch] fix/parse-iso",
}


def run_shell(command: str, cwd: str = ".", timeout: float | None = None) -> str:
    """Run a shell command (simulated: canned output, nothing runs)."""
    return _SHELL.get(command, f"$ {command}\n(ok)")


async def web_fetch(url: str) -> str:
    """Fetch a URL (simulated: the CI log answers, the artifact store is down)."""
    if url.endswith("/log"):
        return (
            "build #812 main\n+ git clone https://x-access-token:ghp_R2d2C3p0L8k9M7n6B5v4C3x2Z1a0S9d8F7g6@"
            "github.com/acme/shop.git\n+ pytest -q\n1 failed, 9 passed"
        )
    raise ConnectionError("artifacts.ci.example.com: connection refused")


# -- what the model says: a script, answering from what it received ------------------


def _script() -> list[Reply | Callable[[Sequence[Entry], agentbus.Params], Reply]]:
    def think(text: str, *calls: ToolRequest) -> Callable[[Sequence[Entry], agentbus.Params], Reply]:
        def reply(conversation: Sequence[Entry], params: agentbus.Params) -> Reply:
            return Reply(text.format(think=params.think_level or "default"), calls)

        return reply

    ci = "https://ci.example.com/builds/812"
    return [
        think(
            "Reproducing the failure first.",
            ToolRequest("bash", {"command": "pytest -q tests/test_dates.py"}),
        ),
        think(
            "The CI log and its artifacts should say more.",
            ToolRequest("web_fetch", {"url": f"{ci}/log"}),
            ToolRequest("web_fetch", {"url": f"{ci}/artifacts"}),
        ),
        think("Clearing the build cache before rebuilding.", ToolRequest("bash", {"command": "rm -rf /"})),
        think(
            "Found it (thinking at level {think}): parse_iso swaps day and month. "
            "Fixed in src/dates.py; tests pass."
        ),
        think(
            "Good news. Pushing the fix branch.",
            ToolRequest("bash", {"command": "git push origin fix/parse-iso"}),
        ),
        think("Build #813 is green; nothing else to do (thinking at level {think})."),
    ]


# -- the middleware: the everyday library, plus one policy of the demo's own ------------


def install_demo_middleware(registry: agentbus.Registry) -> list[str]:
    """Install the demo's middleware (through their installers); return the ids added."""
    before = {registration.id for registration in registry.list()}
    classify.install(registry)  # complexity: high for "debug" -> think level high
    defaults.install(registry, tools={"exec": {"timeout": 120}})
    timeout.install(registry, seconds=30, per_tool={"exec": 120})
    redact.install(registry)  # its records name the change but never hold the secret

    def ask_before_push(call: agentbus.ToolCall) -> None:
        if re.search(r"\bgit\s+push\b", call.args.get("command", "")):
            call.ask("pushing changes the shared repository")

    registry.add("tool.before", ask_before_push, id="demo:ask-before-push", tool="^exec$", priority=40)
    return [registration.id for registration in registry.list() if registration.id not in before]


# -- the console ------------------------------------------------------------------


def _short(value: Any, limit: int = 90) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    text = text.replace("\n", " ⏎ ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


class Console:
    """The demo's output: the conversation, and the file the verbose stream writes to."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.records: list[agentbus.Record] = []
        self.closed = False
        self.first_turn = anyio.Event()
        """Set at the first turn.start: the webhook fires while a turn is running."""

    def line(self, text: str = "") -> None:
        if self.closed:
            return
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except BrokenPipeError:  # `agentbus demo | head`: the reader has seen enough
            self.closed = True

    def write(self, text: str) -> int:
        """The verbose stream writes here: its lines, indented under the conversation."""
        for line in text.splitlines():
            if "demo:console:" not in line:  # the demo's own printing layers are not news
                self.line(f"   {line}")
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        """Colour follows the real stdout (and NO_COLOR / FORCE_COLOR)."""
        try:
            return self.out.isatty()
        except (OSError, ValueError):
            return False

    def tool_line(self, outcome: ToolOutcome) -> None:
        """One tool call: the args as executed, the outcome, the duration, what the model gets."""
        result = outcome.event
        head = f"🔨 {result.tool} {_short(result.args, 70)}"
        if result.blocked:
            self.line(f"{head} → blocked, never ran")
        elif result.error is not None:
            self.line(f"{head} → error after {_ms(result.duration)}, passed on to the model")
        else:
            self.line(f"{head} → ok in {_ms(result.duration)}")
        changed_by: dict[str, list[str]] = {"tool.before": [], "tool.after": []}
        for record in self.records:
            mine = record.call_id == result.call_id and record.point in changed_by
            if mine and record.changes and record.decision is None:
                changed_by[record.point].append(record.id)
        asked = outcome.request.args
        added = [key for key in result.args if key not in asked]
        rewritten = [key for key in asked if key in result.args and result.args[key] != asked[key]]
        if added or rewritten:
            notes = [f"{', '.join(added)} injected"] if added else []
            notes += [f"{', '.join(rewritten)} rewritten"] if rewritten else []
            by = ", ".join(changed_by["tool.before"]) or "tool.before"
            self.line(f"   ↳ args: {'; '.join(notes)} by {by} (the model sent {_short(asked, 60)})")
        if changed_by["tool.after"]:
            self.line(f"   ↳ result changed by {', '.join(changed_by['tool.after'])}")
        self.line(f"   ↳ {_short(result.result, 120)}")


async def run_demo(out: IO[str], *, verbose: str = "on", interactive: bool = False) -> int:
    """Run the demo, writing to ``out``; return the exit status."""
    console = Console(out)
    registry = agentbus.init_registry()
    if interactive:
        approver: agentbus.Approver = default_approver(timeout=30)
        if isinstance(approver, Deny):
            print(
                "agentbus demo: --interactive needs a terminal on stdin; approvals are denied",
                file=sys.stderr,
            )
    else:
        approver = Deny("the demo runs unattended (try --interactive)")
    bus = agentbus.Bus(registry, log_level=None, approver=approver)
    bus.on_event(console.records.append, level="info")  # for the summary
    bus.stream_to_console(level=verbose, file=cast("IO[str]", console))
    ids = install_demo_middleware(registry)
    ids += _install_console(registry, console)
    model = ScriptedModel(_script())

    async def narrated(conversation: Sequence[Entry], params: agentbus.Params) -> Reply:
        reply = await model(conversation, params)
        console.line(f"🤖 assistant [thinkLevel {params.think_level or 'default'}]: {reply.text}")
        return reply

    tools: dict[str, Callable[..., Any]] = {"exec": run_shell, "web_fetch": web_fetch}
    agent = Agent(bus, narrated, tools, session_key="demo")
    console.line(f"agentbus demo · a scripted agent, no network · verbose {verbose}")
    started = anyio.current_time()
    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(agent.run)
            console.line(f"📬 send: {USER_PROMPT!r} (agent idle: starts at once)")
            agent.send(USER_PROMPT)

            async def webhook() -> None:
                await console.first_turn.wait()
                state = "busy: queued until this prompt ends" if agent.busy else "idle: starts at once"
                console.line(f"📬 webhook → agent.send({WEBHOOK_MESSAGE!r}) (agent {state})")
                agent.send(WEBHOOK_MESSAGE)
                agent.close()

            tasks.start_soon(webhook)
    finally:
        for id in ids:
            registry.remove(id)
    _summary(console, agent, anyio.current_time() - started)
    return 0


def _install_console(registry: agentbus.Registry, console: Console) -> list[str]:
    """Lifecycle observers that print the conversation (lowest priority: final state)."""

    def on_session(event: agentbus.Lifecycle) -> None:
        console.line(f"▶ session {event.reason}")

    def on_agent_start(event: agentbus.Lifecycle) -> None:
        console.line("\n── agent.start")

    def on_message(message: agentbus.Message) -> None:
        console.line(f"👤 user: {message.message}")

    def on_turn_start(event: agentbus.Lifecycle) -> None:
        console.line(f"── turn.start {event.data['turn_index'] + 1}")
        console.first_turn.set()

    def on_agent_end(event: agentbus.Lifecycle) -> None:
        console.line("── agent.end")

    def on_turn_end(event: agentbus.Lifecycle) -> None:
        # Printed here, not from a tool.after layer, so that printing is not counted as overhead.
        for outcome in event.data["tool_results"]:
            console.tool_line(outcome)

    layers: list[tuple[str, str, Callable[..., Any]]] = [
        ("session", "demo:console:session", on_session),
        ("agent.start", "demo:console:agent-start", on_agent_start),
        ("message.before", "demo:console:message", on_message),
        ("turn.start", "demo:console:turn", on_turn_start),
        ("agent.end", "demo:console:agent-end", on_agent_end),
        ("turn.end", "demo:console:turn-end", on_turn_end),
    ]
    for point, id, handler in layers:
        # The user's message shows as it arrives; everything else as the layers left it.
        registry.add(point, handler, id=id, priority=1000 if point == "message.before" else -1000)
    return [id for _, id, _ in layers]


def _summary(console: Console, agent: Agent, elapsed: float) -> None:
    outcomes = [outcome for run in agent.runs for outcome in run.tool_calls]
    blocked = sum(1 for o in outcomes if o.event.blocked)
    errors = sum(1 for o in outcomes if o.event.error is not None)
    mutated = sum(1 for r in console.records if r.changes and r.decision is None)
    executed = [o for o in outcomes if not o.event.blocked]
    # The median: a call that waited for a person's approval is not interception overhead.
    overhead = statistics.median(o.elapsed - o.event.duration for o in executed) if executed else 0.0
    console.line("")
    console.line(
        f"summary: {_count(len(agent.runs), 'prompt')}, {_count(sum(r.turns for r in agent.runs), 'turn')}, "
        f"{_count(len(outcomes), 'tool call')}, {blocked} blocked, {mutated} mutated, "
        f"{_count(errors, 'error')}"
    )
    console.line(
        f"overhead per executed call (median): {overhead * 1e6:.0f} µs (tool.before + tool.after, "
        f"the tool itself excluded) · {_ms(elapsed)} in all"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--verbose",
        choices=VERBOSE_LEVELS,
        default="on",
        help="off: the conversation only; on: the seed's interception lines (default); "
        "full: every interception with what it changed and how long it took",
    )
    parser.add_argument(
        "--interactive",
        action="store_true",
        help="ask at the terminal when a call needs approval (default: deny, as an unattended agent must)",
    )


def run(args: argparse.Namespace) -> int:
    # Emoji on a console that cannot encode them must not end the demo.
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
    status = anyio.run(lambda: run_demo(sys.stdout, verbose=args.verbose, interactive=args.interactive))
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    return status

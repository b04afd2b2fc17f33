"""``agentbus bench --frameworks``: each framework natively, and through its adapter.

A layer is one tool.before check (is there ``rm -rf`` in the command?) written
the framework's own way on the native side (LangChain's ``AgentMiddleware``
``wrap_tool_call``, an OpenAI Agents tool input guardrail, a pydantic-ai
``Hooks`` capability, a FastMCP ``Middleware.on_call_tool``, a Google ADK
``before_tool_callback``, a Strands hook provider on ``BeforeToolCallEvent``, a
Claude Agent SDK ``PreToolUse`` hook) and as an agentbus handler on the other.
One call is one whole agent run with the framework's own offline test model:
one tool call, then the final answer (for FastMCP, one ``tools/call`` through
its in-memory client; for the Claude Agent SDK, one session of its bundled
Claude Code CLI against the scripted Messages API of the source tree's
tests/e2e, which a wheel does not have: there it is skipped).

The two sides of a layer count run in alternating rounds; what is reported is
the median over rounds of the per-round ratio agentbus / native. Each run is
timed in CPU time of the whole process (a framework may hand work to a thread),
except a Claude Agent SDK session, whose work is a CLI process of its own: wall
time. Frameworks
that are not installed are skipped with one line saying how to add them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import attrs

from .bench import Progress, Result, Rounds, _time

__all__ = ["FRAMEWORKS", "TARGETS", "FrameworkScenario", "run_frameworks"]

LAYER_COUNTS = (0, 1, 10)
BUDGET_MS = 60.0
"""Time per scenario per round (a few agent runs); ``--quick`` uses QUICK_BUDGET_MS."""
QUICK_BUDGET_MS = 20.0
COMMAND = "ls -la"

Once = Callable[[], Awaitable[Any]]
Setup = Callable[[contextlib.AsyncExitStack], Awaitable[Once]]

TARGETS: dict[str, dict[int, float]] = {
    "langchain": {0: 1.05, 1: 1.05, 10: 0.9},
    "openai-agents": {1: 1.05},
    "pydantic-ai": {0: 1.05, 1: 1.05},
    "fastmcp": {1: 1.05},
    "google-adk": {1: 1.05},
    "strands": {1: 1.05},
    "claude-agent-sdk": {1: 1.05},
}
"""The limits on agentbus / native, by framework and layer count."""


@attrs.frozen
class FrameworkScenario:
    """One side of one comparison: ``setup(stack)`` builds it (untimed), returns one run."""

    framework: str
    side: str  # "native" or "agentbus"
    layers: int
    setup: Setup

    @property
    def name(self) -> str:
        return f"{self.framework}-{self.side}"


def _check(command: str) -> bool:
    """The work every layer does, on both sides: is the command one to refuse?"""
    return "rm -rf" in command


def _bus() -> Any:
    from .bus import Bus

    return Bus(log_level=None)


def _bus_with_layers(layers: int) -> Any:
    bus = _bus()
    for index in range(layers):

        def guard(call: Any) -> None:
            if _check(call.args["command"]):
                call.block("rm -rf is not allowed")

        bus.intercept("tool.before", guard, tool="exec", id=f"check-{index}")  # "bash" is normalised to exec
    return bus


async def _shell(command: str) -> str:
    """Run a shell command (the benchmark's tool: it only answers, on the event loop, so that
    no thread hop adds its noise to what is measured)."""
    return "ok"


# -- LangChain ------------------------------------------------------------------------


def _langchain(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        from langchain.agents import create_agent
        from langchain.agents.middleware import AgentMiddleware
        from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
        from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
        from langchain_core.tools import tool

        class Model(FakeMessagesListChatModel):
            def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
                return self

            async def _agenerate(self, *args: Any, **kwargs: Any) -> Any:
                return self._generate(*args, **kwargs)  # on the loop, not in a worker thread

        call = {"name": "bash", "args": {"command": COMMAND}, "id": "c1"}
        model = Model(responses=[AIMessage(content="", tool_calls=[call]), AIMessage(content="done")])
        bash = tool("bash")(_shell)
        middleware: list[Any] = []
        if side == "native":
            for index in range(layers):

                class Check(AgentMiddleware[Any, Any, Any]):
                    def __init__(self, index: int) -> None:
                        super().__init__()
                        self.index = index

                    @property
                    def name(self) -> str:
                        return f"check-{self.index}"

                    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
                        if _check(request.tool_call["args"]["command"]):
                            call_id = request.tool_call["id"]
                            return ToolMessage("blocked", tool_call_id=call_id, status="error")
                        return await handler(request)

                middleware.append(Check(index))
        else:
            from .adapters.langchain import AgentbusMiddleware

            middleware.append(AgentbusMiddleware(_bus_with_layers(layers)))
        agent = create_agent(model, [bash], middleware=middleware)
        state: Any = {"messages": [HumanMessage("list the files")]}
        return lambda: agent.ainvoke(state)

    return setup


# -- OpenAI Agents ----------------------------------------------------------------------


def _openai_agents(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        from agents import Agent, ModelResponse, RunConfig, Runner, Usage, function_tool
        from agents.models.interface import Model
        from agents.tool_guardrails import ToolGuardrailFunctionOutput, tool_input_guardrail
        from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

        call = ResponseFunctionToolCall(
            type="function_call", id="fc_1", call_id="c1", name="bash",
            arguments=json.dumps({"command": COMMAND}),
        )  # fmt: skip
        answer = ResponseOutputMessage(
            id="msg_1", type="message", role="assistant", status="completed",
            content=[ResponseOutputText(type="output_text", text="done", annotations=[])],
        )  # fmt: skip

        class Scripted(Model):
            """A tool call, then the answer; again for the next run."""

            def __init__(self) -> None:
                self.turn = 0

            async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
                self.turn += 1
                output: list[Any] = [call] if self.turn % 2 else [answer]
                return ModelResponse(output=output, usage=Usage(), response_id=None)

            def stream_response(self, *args: Any, **kwargs: Any) -> Any:
                raise NotImplementedError

        guardrails = []
        if side == "native":
            for _ in range(layers):

                def check(data: Any) -> Any:
                    if _check(json.loads(data.context.tool_arguments)["command"]):
                        return ToolGuardrailFunctionOutput.reject_content("rm -rf is not allowed")
                    return ToolGuardrailFunctionOutput.allow()

                guardrails.append(tool_input_guardrail(check))
        bash = function_tool(_shell, name_override="bash", tool_input_guardrails=guardrails or None)
        agent = Agent(name="bench", model=Scripted(), tools=[bash])
        config = RunConfig(tracing_disabled=True)
        if side == "native":
            return lambda: Runner.run(agent, "list the files", run_config=config)
        from .adapters import openai_agents

        bus = _bus_with_layers(layers)
        return lambda: openai_agents.run(bus, agent, "list the files", run_config=config)

    return setup


# -- pydantic-ai ------------------------------------------------------------------------


def _pydantic_ai(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        from pydantic_ai import Agent
        from pydantic_ai.capabilities import Hooks
        from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
        from pydantic_ai.models.function import FunctionModel

        def respond(messages: Any, info: Any) -> ModelResponse:
            if any(isinstance(part, ToolReturnPart) for part in messages[-1].parts):
                return ModelResponse(parts=[TextPart("done")])
            return ModelResponse(parts=[ToolCallPart("bash", {"command": COMMAND})])

        if side == "native":
            hooks: Hooks[Any] = Hooks()
            for _ in range(layers):

                async def check(ctx: Any, *, call: Any, tool_def: Any, args: Any) -> Any:
                    if _check(args["command"]):
                        raise ValueError("rm -rf is not allowed")
                    return args

                hooks.on.before_tool_execute(check)
            capability: Any = hooks
        else:
            from .adapters.pydantic_ai import AgentbusCapability

            capability = AgentbusCapability(_bus_with_layers(layers))
        agent: Agent[Any, str] = Agent(FunctionModel(respond), name="bench", capabilities=[capability])
        agent.tool_plain(name="bash")(_shell)
        return lambda: agent.run("list the files")

    return setup


# -- FastMCP ----------------------------------------------------------------------------


def _fastmcp(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        from fastmcp import Client, FastMCP
        from fastmcp.exceptions import ToolError
        from fastmcp.server.middleware import Middleware

        middleware: list[Any] = []
        if side == "native":
            for _ in range(layers):

                class Check(Middleware):
                    async def on_call_tool(self, context: Any, call_next: Any) -> Any:
                        if _check((context.message.arguments or {}).get("command", "")):
                            raise ToolError("rm -rf is not allowed")
                        return await call_next(context)

                middleware.append(Check())
        else:
            from .adapters.mcp import AgentbusMiddleware

            middleware.append(AgentbusMiddleware(_bus_with_layers(layers), tool_kinds={"bash": "exec"}))
        server = FastMCP("bench", middleware=middleware)
        server.tool(_shell, name="bash")
        client = await stack.enter_async_context(Client(server))
        return lambda: client.call_tool("bash", {"command": COMMAND})

    return setup


# -- Google ADK and Strands Agents (type-checked in their own environment: .ci/isolated) -----


def _google_adk(side: str, layers: int) -> Setup:
    from .bench_isolated import google_adk

    return google_adk(side, layers)


def _strands(side: str, layers: int) -> Setup:
    from .bench_isolated import strands

    return strands(side, layers)


# -- Claude Agent SDK -----------------------------------------------------------------------

_FAKE_API = Path(__file__).resolve().parent.parent / "tests" / "e2e" / "fake_anthropic.py"
"""The scripted Messages API the Claude Agent SDK's CLI talks to (the source tree's, not a wheel's)."""


def _claude_agent_sdk_missing() -> str | None:
    if not _FAKE_API.is_file():
        return f"the claude-agent-sdk scenarios (they need a source checkout: no {_FAKE_API})"
    return None


def _claude_agent_sdk(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        import tempfile
        import warnings

        from claude_agent_sdk import ClaudeAgentOptions, HookMatcher, query

        spec = importlib.util.spec_from_file_location("agentbus_bench_fake_anthropic", _FAKE_API)
        assert spec is not None
        assert spec.loader is not None
        fake_api = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(fake_api)
        # bypassPermissions tells that can_use_tool is shadowed: agentbus's asks still reach it.
        warnings.filterwarnings("ignore", "can_use_tool", Warning)
        root = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        (root / "home").mkdir()
        env = {
            "HOME": str(root / "home"), "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-the-scripted-api",
            "IS_SANDBOX": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
        }  # fmt: skip
        options = ClaudeAgentOptions(cwd=root, permission_mode="bypassPermissions", env=env)

        async def check(input: Any, tool_use_id: str | None, context: Any) -> dict[str, Any]:
            if input.get("tool_name") == "Bash" and _check(str(input.get("tool_input", {}).get("command"))):
                decision = {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
                return {
                    "hookSpecificOutput": {**decision, "permissionDecisionReason": "rm -rf is not allowed"}
                }
            return {}

        if side == "native":
            hook: Any = check
            matchers = [HookMatcher(hooks=[hook], timeout=30, on_failure="block") for _ in range(layers)]
            if matchers:
                options.hooks = {"PreToolUse": matchers}
        else:
            from .adapters.claude_agent_sdk import bind

            bus = _bus()
            for index in range(layers):

                def guard(call: Any) -> None:
                    if _check(str(call.args.get("command"))):
                        call.block("rm -rf is not allowed")

                bus.intercept("tool.before", guard, tool="exec", id=f"check-{index}")
            options = bind(bus, options)

        async def prompt() -> Any:
            yield {"type": "user", "message": {"role": "user", "content": "list the files"}}

        async def once() -> None:
            with fake_api.FakeAnthropic([[fake_api.tool_use("Bash", command=COMMAND)]]) as fake:
                options.env["ANTHROPIC_BASE_URL"] = fake.url
                async for _ in query(prompt=prompt(), options=options):
                    pass

        return once

    return setup


FRAMEWORKS: dict[str, tuple[str, str, Callable[[str, int], Setup]]] = {
    "langchain": ("langchain.agents", "pip install 'agentbus[langchain]'", _langchain),
    "openai-agents": ("agents", "pip install 'agentbus[openai-agents]'", _openai_agents),
    "pydantic-ai": ("pydantic_ai", "pip install 'agentbus[pydantic-ai]'", _pydantic_ai),
    "fastmcp": ("fastmcp", "pip install 'agentbus[mcp]'", _fastmcp),
    "google-adk": ("google.adk", "pip install 'agentbus[google-adk]'", _google_adk),
    "strands": ("strands", "pip install 'agentbus[strands]'", _strands),
    "claude-agent-sdk": ("claude_agent_sdk", "pip install 'agentbus[claude-agent-sdk]'", _claude_agent_sdk),
}
"""Each framework: the module that says it is installed, how to install it, its scenarios."""

UNAVAILABLE: dict[str, Callable[[], str | None]] = {"claude-agent-sdk": _claude_agent_sdk_missing}
"""Frameworks that need more than their package: why one cannot run here, or None."""

SESSIONS: frozenset[str] = frozenset({"claude-agent-sdk"})
"""Frameworks whose one call starts a process (a CLI session): warmed up once, timed once a round."""


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


# -- measuring ------------------------------------------------------------------------


async def _measure(
    framework: str,
    scenarios: list[FrameworkScenario],
    rounds: int,
    budget_ns: float,
    progress: Progress,
) -> list[list[float]]:
    samples: list[list[float]] = [[] for _ in scenarios]
    # CPU time of the process (the framework's threads too); a session's work is another process
    clock = time.perf_counter_ns if framework in SESSIONS else time.process_time_ns
    async with contextlib.AsyncExitStack() as stack:
        built = []
        warm_up = 1 if framework in SESSIONS else 3
        for index, scenario in enumerate(scenarios):
            progress(f"bench: {framework}: setting up {index + 1}/{len(scenarios)}")
            once = await scenario.setup(stack)
            await _time(once, warm_up, clock)  # warm up: compile graphs and stacks, import lazily
            first = await _time(once, warm_up, clock)
            built.append((once, max(1, min(2_000, int(budget_ns / max(first, 1.0))))))
        for round_number in range(rounds):
            progress(f"bench: {framework}: round {round_number + 1}/{rounds}")
            for index, (once, iterations) in enumerate(built):
                samples[index].append(await _time(once, iterations, clock))
    return samples


def _version(framework: str) -> str:
    """The framework's package and version, as pinned: ``langchain==1.5.2``."""
    from importlib.metadata import PackageNotFoundError, version

    package = {"pydantic-ai": "pydantic-ai-slim", "strands": "strands-agents"}.get(framework, framework)
    try:
        return f"{package}=={version(package)}"
    except PackageNotFoundError:
        return f"{package} (version unknown)"


def run_frameworks(
    *,
    rounds: int = 7,
    budget_ms: float | None = None,
    frameworks: tuple[str, ...] | None = None,
    layer_counts: tuple[int, ...] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every installed framework, native and through agentbus; the ``frameworks`` part
    of the bench's JSON document (``scenarios``, ``ratios``, ``targets``, ``versions``,
    ``skipped``)."""
    progress = progress or Progress(enabled=False)
    budget_ms = budget_ms or BUDGET_MS
    layer_counts = layer_counts or LAYER_COUNTS
    skipped: list[str] = []
    results: list[Result] = []
    versions: dict[str, str] = {}
    for framework in frameworks or tuple(FRAMEWORKS):
        module, install, make = FRAMEWORKS[framework]
        if not _installed(module):
            skipped.append(f"the {framework} scenarios ({install})")
            continue
        missing = UNAVAILABLE.get(framework, lambda: None)()
        if missing is not None:
            skipped.append(missing)
            continue
        versions[framework] = _version(framework)
        scenarios = [
            FrameworkScenario(framework, side, n, make(side, n))
            for n in layer_counts
            for side in ("native", "agentbus")
        ]
        samples = anyio.run(_measure, framework, scenarios, rounds, budget_ms * 1e6, progress)
        for scenario, values in zip(scenarios, samples, strict=True):
            results.append(
                Result(scenario.name, "asyncio", scenario.layers, statistics.median(values), tuple(values))
            )
    per_round = Rounds(results)
    ratios: list[dict[str, Any]] = []
    for framework in versions:
        for n in layer_counts:
            agentbus = per_round.samples(f"{framework}-agentbus", "asyncio", n)
            native = per_round.samples(f"{framework}-native", "asyncio", n)
            ratio = Rounds.ratio(agentbus, native)
            row: dict[str, Any] = {
                "framework": framework,
                "layers": n,
                "native_us": round(statistics.median(native) / 1000, 1),
                "agentbus_us": round(statistics.median(agentbus) / 1000, 1),
                "ratio": round(ratio, 3),
            }
            limit = TARGETS.get(framework, {}).get(n)
            if limit is not None:
                row["limit"] = limit
                row["met"] = round(ratio, 3) <= limit
            ratios.append(row)
    return {
        "versions": versions,
        "scenarios": [r.to_dict() for r in results],
        "ratios": ratios,
        "targets": [
            {
                "backend": r["framework"],
                "target": f"{r['framework']} agentbus / native, {r['layers']} layers",
                "ratio": r["ratio"],
                "limit": r["limit"],
                "met": r["met"],
            }
            for r in ratios
            if "limit" in r
        ],
        "skipped": skipped,
    }


def format_table(document: dict[str, Any]) -> str:
    """One row per framework and layer count: a run's median time each side, the ratio."""
    lines = [
        f"{'framework':<16}{'layers':>7}{'native':>12}{'agentbus':>12}{'ratio':>8}{'limit':>8}",
    ]
    for r in document["ratios"]:
        mark = "" if "limit" not in r else (" ✓" if r["met"] else " ✗")
        limit = f"{r['limit']}" if "limit" in r else ""
        lines.append(
            f"{r['framework']:<16}{r['layers']:>7}{r['native_us']:>10,.0f}µs{r['agentbus_us']:>10,.0f}µs"
            f"{r['ratio']:>8.2f}{limit:>8}{mark}"
        )
    versions = ", ".join(document["versions"].values())
    if versions:
        lines.append(
            "(a call is one agent run: a tool call, then the answer, on a test model, in CPU time; "
            f"a claude-agent-sdk session in wall time; {versions})"
        )
    return "\n".join(lines)


def format_markdown(document: dict[str, Any]) -> str:
    lines = [
        "| framework | layers | native (CPU time) | through agentbus | agentbus / native | limit |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in document["ratios"]:
        limit = "" if "limit" not in r else f"{r['limit']} {'✓' if r['met'] else '✗'}"
        lines.append(
            f"| {r['framework']} | {r['layers']} | "
            f"{r['native_us']:,.0f} µs | {r['agentbus_us']:,.0f} µs | {r['ratio']:.2f} | {limit} |"
        )
    return "\n".join(lines)

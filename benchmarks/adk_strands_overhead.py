"""What the Google ADK and Strands adapters cost next to the frameworks' own callbacks.

    python benchmarks/adk_strands_overhead.py [--rounds 7] [--calls 40]

Each run is a whole agent run on a scripted model (no network): one turn asks for
``--calls`` shell tool calls, the next answers. The same policy, one check that
blocks ``rm -rf``, runs either as one agentbus tool.before layer through the
adapter (``AgentbusPlugin`` / ``AgentbusHooks``) or as the framework's native
callback (ADK: ``LlmAgent(before_tool_callback=...)``; Strands: a hook provider
on ``BeforeToolCallEvent``). Rounds alternate the two; the ratio is the median of
the per-round ratios of the median run's time, within one process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import time
import warnings
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any

import agentbus

warnings.filterwarnings("ignore")  # the frameworks' own experimental-feature notices
logging.disable(logging.WARNING)  # ADK logs a missing token count on every scripted response

Run = Callable[[], Awaitable[None]]


def check(command: str) -> str | None:
    """The policy both sides run: why the command is refused, or None."""
    return "rm -rf is not allowed" if "rm -rf" in command else None


def make_bus() -> agentbus.Bus:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool="exec", id="no-rm-rf")  # the tool "bash" is normalised to exec
    def no_rm_rf(call: agentbus.ToolCall) -> None:
        reason = check(call.args["command"])
        if reason is not None:
            call.block(reason)

    return bus


def adk_runs(calls: int) -> tuple[Run, Run]:
    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    from agentbus.adapters.google_adk import AgentbusPlugin

    class ScriptModel(BaseLlm):
        model: str = "script"

        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            if llm_request.contents[-1].parts[0].function_response is None:  # type: ignore[index]
                parts = [
                    types.Part(
                        function_call=types.FunctionCall(name="bash", args={"command": f"ls {i}"}, id=f"c{i}")
                    )
                    for i in range(calls)
                ]
            else:
                parts = [types.Part(text="done")]
            yield LlmResponse(content=types.Content(role="model", parts=parts))

    def bash(command: str) -> str:
        """Run a shell command."""
        return command

    def native_check(tool: Any, args: dict[str, Any], tool_context: Any) -> dict[str, Any] | None:
        reason = check(args["command"])
        return None if reason is None else {"status": "blocked", "reason": reason}

    def runner(agentbus_on: bool) -> Run:
        if agentbus_on:
            agent = LlmAgent(name="ops", model=ScriptModel(), tools=[bash])
            app = App(name="bench", root_agent=agent, plugins=[AgentbusPlugin(make_bus())])
        else:
            agent = LlmAgent(name="ops", model=ScriptModel(), tools=[bash], before_tool_callback=native_check)
            app = App(name="bench", root_agent=agent)
        runner = InMemoryRunner(app=app)

        async def once() -> None:
            session = await runner.session_service.create_session(app_name="bench", user_id="u")
            message = types.Content(role="user", parts=[types.Part(text="go")])
            async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                pass

        return once

    return runner(True), runner(False)


def strands_runs(calls: int) -> tuple[Run, Run]:
    from strands import Agent, tool
    from strands.hooks import BeforeToolCallEvent, HookProvider, HookRegistry
    from strands.models import Model

    from agentbus.adapters.strands import AgentbusHooks

    class ScriptModel(Model):
        def update_config(self, **model_config: Any) -> None:
            pass

        def get_config(self) -> Any:
            return {}

        def structured_output(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

        async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
            yield {"messageStart": {"role": "assistant"}}
            if any("toolResult" in block for block in messages[-1]["content"]):
                yield {"contentBlockStart": {"start": {}}}
                yield {"contentBlockDelta": {"delta": {"text": "done"}}}
                yield {"contentBlockStop": {}}
                yield {"messageStop": {"stopReason": "end_turn"}}
                return
            for i in range(calls):
                yield {"contentBlockStart": {"start": {"toolUse": {"name": "bash", "toolUseId": f"c{i}"}}}}
                yield {
                    "contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps({"command": f"ls {i}"})}}}
                }
                yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}

    @tool
    def bash(command: str) -> str:
        """Run a shell command.

        Args:
            command: the command line
        """
        return command

    class NativeCheck(HookProvider):
        def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
            registry.add_callback(BeforeToolCallEvent, self.before_tool_call)

        def before_tool_call(self, event: BeforeToolCallEvent) -> None:
            reason = check(event.tool_use["input"]["command"])
            if reason is not None:
                event.cancel_tool = reason

    def runner(agentbus_on: bool) -> Run:
        hooks: Any = AgentbusHooks(make_bus()) if agentbus_on else NativeCheck()

        async def once() -> None:
            agent = Agent(model=ScriptModel(), tools=[bash], hooks=[hooks], callback_handler=None)
            await agent.invoke_async("go")

        return once

    return runner(True), runner(False)


async def measure(name: str, runs: tuple[Run, Run], rounds: int, repeats: int) -> None:
    adapter, native = runs
    for run in runs:  # warm up both: imports, caches, compiled stacks
        await run()
    ratios, adapter_times, native_times = [], [], []
    for round_number in range(rounds):
        spent: dict[Run, list[float]] = {adapter: [], native: []}
        for repeat in range(repeats):  # interleaved, so that a busy moment hits both sides
            for run in (adapter, native) if (round_number + repeat) % 2 == 0 else (native, adapter):
                started = time.perf_counter()
                await run()
                spent[run].append(time.perf_counter() - started)
        adapter_times.append(statistics.median(spent[adapter]))
        native_times.append(statistics.median(spent[native]))
        ratios.append(adapter_times[-1] / native_times[-1])
    print(
        f"{name:<10} native {statistics.median(native_times) * 1000:8.2f} ms/run   "
        f"agentbus {statistics.median(adapter_times) * 1000:8.2f} ms/run   "
        f"ratio {statistics.median(ratios):.3f}x (rounds: {', '.join(f'{r:.3f}' for r in ratios)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=40, help="tool calls per run")
    parser.add_argument("--repeats", type=int, default=9, help="runs per round and side")
    args = parser.parse_args()
    print(f"1 layer, {args.calls} tool calls per run, {args.rounds} rounds of {args.repeats} runs per side")
    for name, make in (("google-adk", adk_runs), ("strands", strands_runs)):
        try:
            runs = make(args.calls)
        except ImportError as exc:
            print(f"{name:<10} skipped: {exc}")
            continue
        asyncio.run(measure(name, runs, args.rounds, args.repeats))


if __name__ == "__main__":
    main()

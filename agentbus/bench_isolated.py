"""The Google ADK and Strands scenarios of ``agentbus bench --frameworks``.

Apart from :mod:`agentbus.bench_frameworks` because these frameworks pin older
releases of packages the others share, so they are installed (and type-checked)
in an environment of their own (``.ci/isolated``). The scenarios are those of
the other frameworks: one whole agent run on a scripted model of the
framework's own model interface (a tool call, then the answer), the same check
as N native callbacks or as N agentbus layers through the adapter.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from .bench_frameworks import COMMAND, Once, Setup, _bus_with_layers, _check, _shell

__all__ = ["google_adk", "strands"]


# -- Google ADK ---------------------------------------------------------------------------


def google_adk(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        import logging
        import warnings

        from google.adk.agents import LlmAgent
        from google.adk.apps import App
        from google.adk.models.base_llm import BaseLlm
        from google.adk.models.llm_response import LlmResponse
        from google.adk.runners import InMemoryRunner
        from google.genai import types

        logging.getLogger("google_adk").setLevel(logging.ERROR)  # a missing token count, every turn
        warnings.filterwarnings("ignore", r"\[EXPERIMENTAL\]", UserWarning)  # ADK's own, once

        class Model(BaseLlm):
            """A tool call, then the answer."""

            model: str = "bench"

            async def generate_content_async(self, llm_request: Any, stream: bool = False) -> Any:
                if llm_request.contents[-1].parts[0].function_response is None:
                    call = types.FunctionCall(name="bash", args={"command": COMMAND}, id="c1")
                    content = types.Content(role="model", parts=[types.Part(function_call=call)])
                else:
                    content = types.Content(role="model", parts=[types.Part(text="done")])
                yield LlmResponse(content=content)

        async def bash(command: str) -> str:
            """Run a shell command."""
            return "ok"

        def check(tool: Any, args: dict[str, Any], tool_context: Any) -> dict[str, Any] | None:
            return {"status": "blocked"} if _check(args["command"]) else None

        if side == "native":
            agent = LlmAgent(
                name="bench", model=Model(), tools=[bash], before_tool_callback=[check] * layers or None
            )
            app = App(name="bench", root_agent=agent)
        else:
            from .adapters.google_adk import AgentbusPlugin

            agent = LlmAgent(name="bench", model=Model(), tools=[bash])
            app = App(name="bench", root_agent=agent, plugins=[AgentbusPlugin(_bus_with_layers(layers))])
        runner = InMemoryRunner(app=app)
        message = types.Content(role="user", parts=[types.Part(text="list the files")])

        async def once() -> None:
            session = await runner.session_service.create_session(app_name="bench", user_id="u")
            async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                pass

        return once

    return setup


# -- Strands Agents -----------------------------------------------------------------------


def strands(side: str, layers: int) -> Setup:
    async def setup(stack: contextlib.AsyncExitStack) -> Once:
        from strands import Agent, tool
        from strands.hooks import BeforeToolCallEvent, HookProvider, HookRegistry
        from strands.models import Model

        class Scripted(Model):
            """A tool call, then the answer, as Strands' own stream events."""

            def update_config(self, **model_config: Any) -> None:
                pass

            def get_config(self) -> Any:
                return {"model_id": "bench"}

            def structured_output(self, *args: Any, **kwargs: Any) -> Any:
                raise NotImplementedError

            async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
                yield {"messageStart": {"role": "assistant"}}
                if any("toolResult" in block for block in messages[-1]["content"]):
                    yield {"contentBlockStart": {"start": {}}}
                    yield {"contentBlockDelta": {"delta": {"text": "done"}}}
                    yield {"contentBlockStop": {}}
                    yield {"messageStop": {"stopReason": "end_turn"}}
                    return
                yield {"contentBlockStart": {"start": {"toolUse": {"name": "bash", "toolUseId": "c1"}}}}
                yield {
                    "contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps({"command": COMMAND})}}}
                }
                yield {"contentBlockStop": {}}
                yield {"messageStop": {"stopReason": "tool_use"}}

        class Check(HookProvider):
            def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
                registry.add_callback(BeforeToolCallEvent, self.before_tool_call)

            def before_tool_call(self, event: BeforeToolCallEvent) -> None:
                if _check(event.tool_use["input"]["command"]):
                    event.cancel_tool = "rm -rf is not allowed"

        if side == "native":
            hooks: list[Any] = [Check() for _ in range(layers)]
        else:
            from .adapters.strands import AgentbusHooks

            hooks = [AgentbusHooks(_bus_with_layers(layers))]
        bash = tool(name="bash")(_shell)
        agent = Agent(model=Scripted(), tools=[bash], hooks=hooks, callback_handler=None)

        async def once() -> None:
            agent.messages = []  # each run a new conversation, on the same agent
            await agent.invoke_async("list the files")

        return once

    return setup

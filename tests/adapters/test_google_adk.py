"""The Google ADK adapter, against a real ``InMemoryRunner`` with a scripted model.

The model is a small ``BaseLlm``: it yields one scripted ``LlmResponse`` per
call and keeps every request, so the tests see exactly what the model saw.
ADK runs on asyncio only.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import pytest

pytest.importorskip("google.adk", reason="Google ADK is tested in its own environment: bash .ci/isolated")

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.agent_tool import AgentTool
from google.adk.tools.function_tool import FunctionTool
from google.genai import types

import agentbus
from agentbus.adapters.google_adk import AgentbusPlugin
from agentbus.middleware import builtin

from .recording import make_bus
from .tool_call_layers import cache_by, deadline, retry_once_on
from .tool_call_layers import slow as slow_down

pytestmark = [
    pytest.mark.anyio,
    # google-adk 2.0 announces a feature of its own once per process, with or without agentbus.
    pytest.mark.filterwarnings(r"ignore:\[EXPERIMENTAL\] feature:UserWarning"),
]


@pytest.fixture
def anyio_backend() -> str:
    """ADK runs on asyncio only."""
    return "asyncio"


class ScriptModel(BaseLlm):
    """Yields one scripted turn per call and remembers every request."""

    model: str = "script"
    turns: list[types.Content] = []  # noqa: RUF012 - pydantic copies field defaults
    requests: list[LlmRequest] = []  # noqa: RUF012

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(llm_request.model_copy(deep=True))
        yield LlmResponse(content=self.turns.pop(0))


def call(name: str, args: dict[str, Any], call_id: str = "c1") -> types.Content:
    part = types.Part(function_call=types.FunctionCall(name=name, args=args, id=call_id))
    return types.Content(role="model", parts=[part])


def answer(text: str) -> types.Content:
    return types.Content(role="model", parts=[types.Part(text=text)])


def responses_seen(model: ScriptModel) -> dict[str, Any]:
    """The function responses the model received in its last request, by call id."""
    found = {}
    for content in model.requests[-1].contents:
        for part in content.parts or []:
            if part.function_response is not None:
                found[part.function_response.id] = part.function_response.response
    return found


def make_tools(ran: list[tuple[str, str]]) -> list[Any]:
    async def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(("bash", command))
        return f"ran {command}"

    def read(path: str) -> str:
        """Read a file."""
        ran.append(("read", path))
        if path == "/missing":
            raise FileNotFoundError(path)
        return f"contents of {path}"

    return [bash, read]


async def run(agent: LlmAgent, plugin: AgentbusPlugin | None, text: str = "go") -> list[Any]:
    app = App(name="tests", root_agent=agent, plugins=[plugin] if plugin else [])
    runner = InMemoryRunner(app=app)
    session = await runner.session_service.create_session(app_name="tests", user_id="u", session_id="s-1")
    message = types.Content(role="user", parts=[types.Part(text=text)])
    return [
        event async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message)
    ]


async def test_a_blocked_call_never_runs_and_the_model_sees_the_blocked_result() -> None:
    bus, records = make_bus()
    bus.intercept("tool.before", lambda c: c.block("no rm -rf"), tool="exec", id="no-rm")
    ran: list[tuple[str, str]] = []
    model = ScriptModel(turns=[call("bash", {"command": "rm -rf /"}), answer("done")])

    await run(LlmAgent(name="ops", model=model, tools=make_tools(ran)), AgentbusPlugin(bus))

    assert ran == []
    assert responses_seen(model)["c1"] == {"status": "blocked", "tool": "exec", "reason": "no rm -rf"}
    block = next(r for r in records if r.id == "no-rm")
    assert (block.decision, block.agent_id, block.session_key) == ("block", "ops", "s-1")


async def test_rewritten_args_reach_the_tool_and_a_redacted_result_reaches_the_model() -> None:
    bus, records = make_bus()
    bus.intercept(
        "tool.before", lambda c: c.args.update(path="/sandbox" + c.args["path"]), tool="read", id="jail"
    )

    @bus.intercept("tool.after", tool="read", id="redact")
    def redact(result: agentbus.ToolResult) -> None:
        result.result = result.result.replace("contents", "[redacted]")  # what the tool returned

    ran: list[tuple[str, str]] = []
    model = ScriptModel(turns=[call("read", {"path": "/etc/passwd"}), answer("ok")])

    await run(LlmAgent(name="reader", model=model, tools=make_tools(ran)), AgentbusPlugin(bus))

    assert ran == [("read", "/sandbox/etc/passwd")]
    assert responses_seen(model)["c1"] == {"result": "[redacted] of /sandbox/etc/passwd"}
    changes = {r.id: r.changes for r in records if r.changes}
    assert changes["jail"] == {"args.path": ("/etc/passwd", "/sandbox/etc/passwd")}


@pytest.mark.parametrize("approve", [True, False])
async def test_ask_goes_to_the_approver(approve: bool) -> None:
    asked: list[str] = []

    def approver(call: agentbus.ToolCall) -> bool:
        asked.append(call.args["command"])
        return approve

    bus, _ = make_bus(approver=approver)
    bus.intercept("tool.before", lambda c: c.ask("deploys need a person"), tool="exec", id="ask")
    ran: list[tuple[str, str]] = []
    model = ScriptModel(turns=[call("bash", {"command": "deploy"}), answer("ok")])

    await run(LlmAgent(name="ops", model=model, tools=make_tools(ran)), AgentbusPlugin(bus))

    assert asked == ["deploy"]
    assert ran == ([("bash", "deploy")] if approve else [])
    seen = responses_seen(model)["c1"]
    assert seen == {"result": "ran deploy"} if approve else seen["status"] == "blocked"


async def test_a_raising_tool_before_layer_fails_closed() -> None:
    bus, records = make_bus()

    @bus.intercept("tool.before", id="broken")
    def broken(call: agentbus.ToolCall) -> None:
        raise RuntimeError("policy store down")

    ran: list[tuple[str, str]] = []
    model = ScriptModel(turns=[call("bash", {"command": "ls"}), answer("ok")])

    await run(LlmAgent(name="ops", model=model, tools=make_tools(ran)), AgentbusPlugin(bus))

    assert ran == []
    seen = responses_seen(model)["c1"]
    assert seen["status"] == "blocked"
    assert "policy store down" in seen["reason"]
    assert any(r.id == "broken" and r.error == "RuntimeError: policy store down" for r in records)


async def test_a_raising_tool_propagates_as_without_agentbus_after_tool_after_saw_it() -> None:
    def agent() -> LlmAgent:
        return LlmAgent(
            name="reader",
            model=ScriptModel(turns=[call("read", {"path": "/missing"}), answer("never")]),
            tools=make_tools([]),
        )

    with pytest.raises(FileNotFoundError) as native:
        await run(agent(), None)
    bus, _ = make_bus()
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="audit")
    with pytest.raises(type(native.value), match="/missing"):
        await run(agent(), AgentbusPlugin(bus))
    assert isinstance(after[0].error, FileNotFoundError)


async def test_a_tool_after_layer_can_answer_for_a_tool_that_raised() -> None:
    bus, _ = make_bus()

    @bus.intercept("tool.after", tool="read", id="explain")
    def explain(result: agentbus.ToolResult) -> None:
        if result.error is not None:
            result.result = f"no such file: {result.args['path']}"

    model = ScriptModel(turns=[call("read", {"path": "/missing"}), answer("ok")])

    await run(LlmAgent(name="reader", model=model, tools=make_tools([])), AgentbusPlugin(bus))

    assert responses_seen(model)["c1"] == {"result": "no such file: /missing"}


async def test_a_tool_call_layer_retries_the_real_tool_and_the_model_sees_the_retry() -> None:
    bus, _ = make_bus()
    attempts: list[str] = []

    async def flaky(city: str) -> str:
        """Ask a weather service over a network that drops the first try."""
        attempts.append(city)
        if len(attempts) == 1:
            raise ConnectionError("dropped")
        return f"sunny in {city}"

    bus.middleware("tool.call", retry_once_on(ConnectionError), tool="flaky", id="retry")

    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="audit")
    model = ScriptModel(turns=[call("flaky", {"city": "Oslo"}), answer("ok")])

    await run(LlmAgent(name="forecaster", model=model, tools=[flaky]), AgentbusPlugin(bus))

    assert attempts == ["Oslo", "Oslo"]
    assert responses_seen(model)["c1"] == {"result": "sunny in Oslo"}
    assert after[0].error is None


async def test_a_tool_call_layer_times_the_real_tool_out_and_adk_handles_it_as_a_raising_tool() -> None:
    bus, _ = make_bus()
    finished: list[str] = []

    async def slow(query: str) -> str:
        """Waits far longer than the layer allows (bounded, so that a broken layer fails the test)."""
        await slow_down()
        finished.append(query)
        return "never"

    bus.middleware("tool.call", deadline(0.01), tool="slow", id="deadline")

    @bus.intercept("tool.after", tool="slow", id="explain")
    def explain(result: agentbus.ToolResult) -> None:
        if isinstance(result.error, TimeoutError):
            result.result = "the tool timed out"

    model = ScriptModel(turns=[call("slow", {"query": "wait"}), answer("ok")])

    await run(LlmAgent(name="ops", model=model, tools=[slow]), AgentbusPlugin(bus))

    assert finished == []
    assert responses_seen(model)["c1"] == {"result": "the tool timed out"}


async def test_a_tool_call_layer_caches_the_real_tool_with_the_approved_args() -> None:
    bus, _ = make_bus()
    bus.intercept(
        "tool.before", lambda c: c.args.update(path="/sandbox" + c.args["path"]), tool="read", id="jail"
    )
    seen_args: list[dict[str, Any]] = []
    bus.middleware("tool.call", cache_by("path", {}, seen_args), tool="read", id="cache")

    ran: list[tuple[str, str]] = []
    model = ScriptModel(
        turns=[call("read", {"path": "/a"}, "c1"), call("read", {"path": "/a"}, "c2"), answer("ok")]
    )

    await run(LlmAgent(name="reader", model=model, tools=make_tools(ran)), AgentbusPlugin(bus))

    assert ran == [("read", "/sandbox/a")]  # once: the second call came from the cache
    assert seen_args == [{"path": "/sandbox/a"}, {"path": "/sandbox/a"}]
    assert responses_seen(model) == {
        "c1": {"result": "contents of /sandbox/a"},
        "c2": {"result": "contents of /sandbox/a"},
    }


async def test_a_tool_is_wrapped_only_once_a_tool_call_layer_matches_it() -> None:
    bus, _ = make_bus()
    ran: list[tuple[str, str]] = []
    tools = [FunctionTool(fn) for fn in make_tools(ran)]
    bash, read = tools
    plugin = AgentbusPlugin(bus)
    model = ScriptModel(turns=[call("read", {"path": "/a"}), answer("ok")])

    await run(LlmAgent(name="reader", model=model, tools=tools), plugin)
    assert "run_async" not in vars(read)  # no tool.call layer: ADK calls the tool's own method

    calls: list[str] = []

    @bus.middleware("tool.call", tool="read", id="count")
    async def count(call: agentbus.ToolCall, call_next: Any) -> Any:
        calls.append(call.call_id)
        return await call_next(call)

    model = ScriptModel(turns=[call("read", {"path": "/b"}, "c2"), answer("ok")])
    await run(LlmAgent(name="reader", model=model, tools=tools), plugin)
    await run(
        LlmAgent(
            name="reader",
            model=ScriptModel(turns=[call("read", {"path": "/c"}, "c3"), answer("ok")]),
            tools=tools,
        ),
        plugin,
    )

    assert calls == ["c2", "c3"]  # bound as soon as the layer was registered, and once
    assert "run_async" not in vars(bash)
    wrapped = vars(read)["run_async"]
    assert wrapped.agentbus_inner == read.__class__.run_async.__get__(read)  # wrapped once, not per call
    assert ran == [("read", "/a"), ("read", "/b"), ("read", "/c")]


async def test_with_no_layer_a_call_runs_untouched_and_a_guard_registered_later_applies() -> None:
    bus, records = make_bus()
    plugin = AgentbusPlugin(bus)
    ran: list[tuple[str, str]] = []
    tools = make_tools(ran)
    await run(
        LlmAgent(
            name="ops", model=ScriptModel(turns=[call("bash", {"command": "ls"}), answer("ok")]), tools=tools
        ),
        plugin,
    )
    assert ran == [("bash", "ls")]
    assert records == []  # nothing ran: no layer, no record

    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    model = ScriptModel(turns=[call("bash", {"command": "ls"}, "c2"), answer("ok")])
    await run(LlmAgent(name="ops", model=model, tools=tools), plugin)

    assert ran == [("bash", "ls")]
    assert responses_seen(model)["c2"]["reason"] == "frozen"


async def test_another_runner_without_the_plugin_calls_a_wrapped_tool_as_it_is() -> None:
    bus, _ = make_bus()
    calls: list[str] = []

    @bus.middleware("tool.call", id="count")
    async def count(call: agentbus.ToolCall, call_next: Any) -> Any:
        calls.append(call.call_id)
        return await call_next(call)

    ran: list[tuple[str, str]] = []
    tools = [FunctionTool(fn) for fn in make_tools(ran)]
    model = ScriptModel(turns=[call("read", {"path": "/a"}, "c1"), answer("ok")])
    await run(LlmAgent(name="reader", model=model, tools=tools), AgentbusPlugin(bus))
    model = ScriptModel(turns=[call("read", {"path": "/b"}, "c2"), answer("ok")])
    await run(LlmAgent(name="reader", model=model, tools=tools), None)

    assert calls == ["c1"]
    assert ran == [("read", "/a"), ("read", "/b")]
    assert responses_seen(model)["c2"] == {"result": "contents of /b"}


# AgentTool hands the runner's plugins to the runner it starts, through ADK's deprecated argument.
@pytest.mark.filterwarnings("ignore:The `plugins` argument is deprecated:DeprecationWarning")
async def test_sub_agents_and_agents_as_tools_are_intercepted_and_attributed() -> None:
    bus, _ = make_bus()
    calls: list[tuple[str, str | None]] = []
    bus.intercept("tool.before", lambda c: calls.append((c.tool, c.agent_id)), id="audit")
    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    starts: list[tuple[str | None, Any]] = []
    bus.intercept("agent.start", lambda e: starts.append((e.agent_id, e.data.get("parent"))), id="starts")
    ran: list[tuple[str, str]] = []
    helper_model = ScriptModel(turns=[call("bash", {"command": "reboot"}, "h1"), answer("could not")])
    helper = LlmAgent(name="helper", description="Runs commands.", model=helper_model, tools=make_tools(ran))
    specialist_model = ScriptModel(turns=[call("read", {"path": "/etc/hosts"}, "r1"), answer("read it")])
    specialist = LlmAgent(
        name="specialist", description="Reads files.", model=specialist_model, tools=make_tools(ran)
    )
    root_model = ScriptModel(
        turns=[
            call("helper", {"request": "reboot"}, "a1"),
            call("transfer_to_agent", {"agent_name": "specialist"}, "t1"),
        ]
    )
    root = LlmAgent(name="root", model=root_model, tools=[AgentTool(agent=helper)], sub_agents=[specialist])

    await run(root, AgentbusPlugin(bus))

    assert ("helper", "root") in calls  # the agent-as-tool call itself
    assert ("exec", "helper") in calls  # and the tools inside it
    assert ("read", "specialist") in calls  # a sub-agent's tools, after a transfer
    assert ran == [("read", "/etc/hosts")]  # reboot was blocked inside the agent tool
    assert responses_seen(helper_model)["h1"]["reason"] == "frozen"
    assert ("specialist", "root") in starts


async def test_a_renamed_shell_tool_and_a_declared_file_tool_meet_the_built_in_guards() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    ran: list[str] = []

    async def run_shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "ok"

    async def stat_file(path: str) -> str:
        """Nothing in its name or arguments tells its kind: it is declared."""
        ran.append(path)
        return "ok"

    model = ScriptModel(
        turns=[
            types.Content(
                role="model",
                parts=[
                    *call("run_shell", {"command": "rm -rf /"}, "c1").parts,  # type: ignore[misc]
                    *call("stat_file", {"path": "~/.ssh/id_rsa"}, "c2").parts,  # type: ignore[misc]
                ],
            ),
            answer("done"),
        ]
    )
    agent = LlmAgent(name="ops", model=model, tools=[run_shell, stat_file])

    await run(agent, AgentbusPlugin(bus, tool_kinds={"stat_file": "read"}))

    assert ran == []
    seen = responses_seen(model)
    assert seen["c1"]["status"] == "blocked"
    assert seen["c2"]["status"] == "blocked"


async def test_message_params_and_lifecycle_reach_the_model_and_the_bus() -> None:
    bus, _ = make_bus()
    events: list[tuple[str, str | None, str | None]] = []
    for point in ("agent.start", "turn.start", "turn.end", "agent.end"):
        bus.intercept(point, lambda e: events.append((e.point, e.agent_id, e.session_key)), id=point)

    @bus.intercept("message.before", id="shout")
    def shout(message: agentbus.Message) -> None:
        message.message = message.message.upper()
        message.metadata["complexity"] = "high"

    @bus.intercept("params.before", id="cool")
    def cool(params: agentbus.Params) -> None:
        if params.metadata.get("complexity") == "high":
            params.temperature = 0.1

    model = ScriptModel(turns=[answer("hi")])
    agent = LlmAgent(
        name="planner", model=model, generate_content_config=types.GenerateContentConfig(top_p=0.5)
    )

    await run(agent, AgentbusPlugin(bus), "plan the release")

    request = model.requests[0]
    assert request.contents[-1].parts[0].text == "PLAN THE RELEASE"  # type: ignore[index]
    assert request.config.temperature == 0.1
    assert request.config.top_p == 0.5  # what no layer touched stays
    assert events == [
        ("agent.start", "planner", "s-1"),
        ("turn.start", "planner", "s-1"),
        ("turn.end", "planner", "s-1"),
        ("agent.end", "planner", "s-1"),
    ]


def test_the_plugin_refuses_what_is_not_a_bus() -> None:
    with pytest.raises(TypeError, match=r"needs an agentbus\.Bus, got dict"):
        AgentbusPlugin({})  # type: ignore[arg-type]


def test_a_missing_adk_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "google.adk.plugins.base_plugin", None)
    monkeypatch.delitem(sys.modules, "agentbus.adapters.google_adk")
    with pytest.raises(ImportError, match=r"pip install 'agentbus\[google-adk\]'"):
        importlib.import_module("agentbus.adapters.google_adk")

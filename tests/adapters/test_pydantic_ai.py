"""The pydantic-ai capability, in real agent runs driven by pydantic-ai's FunctionModel and TestModel."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip(
    "pydantic_ai", reason="the pydantic-ai extra is not installed: pip install 'agentbus[pydantic-ai]'"
)

from pydantic_ai import Agent, ModelRetry, RunContext
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.profiles import ModelProfile

import agentbus
from agentbus.adapters.pydantic_ai import AgentbusCapability, prompt_text, think_levels, with_text
from agentbus.kinds import ToolKindWarning
from agentbus.middleware import builtin

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """pydantic-ai drives its runs with asyncio itself (tasks, loops), so it cannot run on trio."""
    return "asyncio"


class ScriptedModel:
    """A FunctionModel script: call the given tools once, then answer with what the tools returned."""

    def __init__(self, *calls: tuple[str, dict[str, Any]]) -> None:
        self.calls = calls
        self.requests: list[list[ModelMessage]] = []
        self.infos: list[AgentInfo] = []
        self.model = FunctionModel(self.respond, profile=ModelProfile(supports_thinking=True))

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests.append(list(messages))
        self.infos.append(info)
        returns = self.returns(messages[-1])
        if not returns:
            return ModelResponse(parts=[ToolCallPart(name, args) for name, args in self.calls])
        return ModelResponse(parts=[TextPart(repr(returns))])

    @staticmethod
    def returns(message: ModelMessage) -> list[ToolReturnPart]:
        return [part for part in message.parts if isinstance(part, ToolReturnPart)]

    def seen_returns(self) -> list[ToolReturnPart]:
        """The tool returns the model received, across the whole run."""
        return [part for messages in self.requests for part in self.returns(messages[-1])]


def make_agent(script: ScriptedModel, bus: agentbus.Bus, ran: list[str], **options: Any) -> Agent[Any, str]:
    agent: Agent[Any, str] = Agent(
        script.model, name="coder", capabilities=[AgentbusCapability(bus, **options)]
    )

    @agent.tool_plain
    def bash(command: str) -> str:
        ran.append(command)
        return f"ran {command}"

    return agent


def records_of(bus: agentbus.Bus) -> list[agentbus.Record]:
    records: list[agentbus.Record] = []
    bus.on_event(records.append)
    return records


async def test_blocked_call_never_runs_and_the_model_sees_the_blocked_result() -> None:
    bus = agentbus.Bus(log_level=None)
    records = records_of(bus)

    @bus.intercept("tool.before", tool=r"^exec$", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "rm -rf /"}), ("bash", {"command": "ls"}))
    await make_agent(script, bus, ran).run("clean up")

    assert ran == ["ls"]
    contents = [part.content for part in script.seen_returns()]
    assert {"status": "blocked", "tool": "exec", "reason": "rm -rf is not allowed"} in contents
    assert "ran ls" in contents
    blocks = [r for r in records if r.decision == "block"]
    assert [(b.id, b.tool, b.agent_id, b.reason) for b in blocks] == [
        ("no-rm", "exec", "coder", "rm -rf is not allowed")
    ]


async def test_mutated_args_reach_the_tool() -> None:
    bus = agentbus.Bus(log_level=None)
    records = records_of(bus)

    @bus.intercept("tool.before", tool=r"^exec$", id="dry-run")
    def dry_run(call: agentbus.ToolCall) -> None:
        call.args["command"] = call.args["command"] + " --dry-run"

    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "make deploy"}))
    await make_agent(script, bus, ran).run("deploy")

    assert ran == ["make deploy --dry-run"]
    assert [part.content for part in script.seen_returns()] == ["ran make deploy --dry-run"]
    changed = [r for r in records if r.id == "dry-run"]
    assert changed[0].changes == {"args.command": ("make deploy", "make deploy --dry-run")}


async def test_result_is_rewritten_before_the_model_sees_it() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.after", tool=r"^exec$", id="redact")
    def redact(result: agentbus.ToolResult) -> None:
        result.result = result.result.replace("secret", "[redacted]")

    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "cat secret"}))
    await make_agent(script, bus, ran).run("show it")

    assert ran == ["cat secret"]
    assert [part.content for part in script.seen_returns()] == ["ran cat [redacted]"]


def exploding_agent(script: ScriptedModel, bus: agentbus.Bus | None, **options: Any) -> Agent[Any, str]:
    capabilities = [AgentbusCapability(bus, **options)] if bus is not None else []
    agent: Agent[Any, str] = Agent(script.model, capabilities=capabilities)

    @agent.tool_plain
    def explode() -> str:
        raise OSError("disk on fire")

    return agent


async def test_a_tool_that_raises_ends_the_run_as_without_agentbus_after_tool_after_saw_it() -> None:
    with pytest.raises(OSError, match="disk on fire"):
        await exploding_agent(ScriptedModel(("explode", {})), None).run("go")

    bus = agentbus.Bus(log_level=None)
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="watch")

    with pytest.raises(OSError, match="disk on fire"):
        await exploding_agent(ScriptedModel(("explode", {})), bus).run("go")
    assert after[0].is_error
    assert isinstance(after[0].error, OSError)


async def test_errors_as_results_returns_the_error_result_and_the_run_goes_on() -> None:
    bus = agentbus.Bus(log_level=None)
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="watch")
    script = ScriptedModel(("explode", {}))

    result = await exploding_agent(script, bus, errors_as_results=True).run("go")

    assert [part.content for part in script.seen_returns()] == [
        {"status": "error", "tool": "explode", "error": "OSError: disk on fire"}
    ]
    assert isinstance(after[0].error, OSError)
    assert "disk on fire" in result.output


async def test_a_layer_that_replaces_the_error_result_keeps_the_run_going() -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.after", id="fallback")
    def fallback(result: agentbus.ToolResult) -> None:
        if result.error is not None:
            result.result = "the disk is busy; try later"

    script = ScriptedModel(("explode", {}))
    await exploding_agent(script, bus).run("go")

    assert [part.content for part in script.seen_returns()] == ["the disk is busy; try later"]


async def test_a_renamed_shell_tool_and_a_declared_file_tool_meet_the_guards() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    ran: list[str] = []
    script = ScriptedModel(("run_shell", {"command": "rm -rf /"}), ("stat_file", {"path": "~/.ssh/id_rsa"}))
    agent: Agent[Any, str] = Agent(
        script.model, capabilities=[AgentbusCapability(bus, tool_kinds={"stat_file": "read"})]
    )

    @agent.tool_plain
    def run_shell(command: str) -> str:
        ran.append(command)
        return "ok"

    @agent.tool_plain
    def stat_file(path: str) -> str:  # nothing tells its kind: declared
        ran.append(path)
        return "ok"

    await agent.run("clean up")

    assert ran == []
    assert [part.content["status"] for part in script.seen_returns()] == ["blocked", "blocked"]


async def test_a_file_tool_whose_kind_cannot_be_told_warns_when_the_agent_prepares_its_tools() -> None:
    bus = agentbus.Bus(log_level=None)
    agent: Agent[Any, str] = Agent(TestModel(call_tools=[]), capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain
    def stat_file(path: str) -> str:
        return path

    with pytest.warns(ToolKindWarning, match="'stat_file'.*file tool"):
        await agent.run("go")


async def test_model_retry_still_reaches_the_model_as_a_retry_prompt() -> None:
    bus = agentbus.Bus(log_level=None)
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="watch")
    attempts: list[str] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = messages[-1].parts
        if any(isinstance(p, ToolReturnPart) and p.content == "found 3" for p in parts):
            return ModelResponse(parts=[TextPart("done")])
        retried = any(
            getattr(p, "outcome", None) == "retried" or type(p).__name__ == "RetryPromptPart" for p in parts
        )
        return ModelResponse(parts=[ToolCallPart("search", {"query": "cats" if retried else ""})])

    agent: Agent[Any, str] = Agent(FunctionModel(respond), capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain(retries=2)
    def search(query: str) -> str:
        attempts.append(query)
        if not query:
            raise ModelRetry("the query must not be empty")
        return "found 3"

    result = await agent.run("find cats")

    assert result.output == "done"
    assert attempts == ["", "cats"]
    assert after[0].is_error  # pydantic-ai's retry signal, seen by tool.after
    assert not after[1].is_error


async def test_message_before_rewrites_the_prompt_and_params_before_sets_model_settings() -> None:
    bus = agentbus.Bus(log_level=None)

    messages: list[agentbus.Message] = []
    starting_temperatures: list[float | None] = []

    @bus.intercept("message.before", id="classify")
    def classify(message: agentbus.Message) -> None:
        messages.append(message)
        message.metadata["complexity"] = "high" if "debug" in message.message else "low"
        message.message = message.message + " (be brief)"

    @bus.intercept("params.before", id="think")
    def think(input: agentbus.Params, output: agentbus.Params) -> None:
        starting_temperatures.append(input.temperature)
        if input.metadata["complexity"] == "high":
            output.think_level = "high"
            output.temperature = 0.2

    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "ls"}))
    await make_agent(script, bus, ran).run("debug the build", model_settings={"temperature": 0.7})

    first_request = script.requests[0][-1]
    assert isinstance(first_request, ModelRequest)
    prompts = [p.content for p in first_request.parts if isinstance(p, UserPromptPart)]
    assert prompts == ["debug the build (be brief)"]
    for info in script.infos:  # every request of the run, not only the first
        assert info.model_settings is not None
        assert info.model_settings["temperature"] == 0.2
        assert info.model_request_parameters.thinking == "high"
    assert [(m.provider, m.model, m.agent_id) for m in messages] == [
        ("function", "function:respond:", "coder")
    ]
    assert starting_temperatures == [0.7]  # once per run, starting from the run's own setting


async def test_lifecycle_points_fire_in_order_with_agent_name_and_conversation_id() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[tuple[str, str | None, str | None, Any]] = []

    def note(event: agentbus.Lifecycle) -> None:
        seen.append((event.point, event.agent_id, event.session_key, event.data.get("turn")))

    for point in ("agent.start", "turn.start", "turn.end", "agent.end"):
        bus.intercept(point, note, id=f"note-{point}")

    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "ls"}))
    await make_agent(script, bus, ran).run("list", conversation_id="conv-7")

    assert seen == [
        ("agent.start", "coder", "conv-7", None),
        ("turn.start", "coder", "conv-7", 1),
        ("turn.end", "coder", "conv-7", 1),
        ("turn.start", "coder", "conv-7", 2),
        ("turn.end", "coder", "conv-7", 2),
        ("agent.end", "coder", "conv-7", None),
    ]


async def test_session_key_and_agent_id_can_come_from_deps() -> None:
    bus = agentbus.Bus(log_level=None)
    calls: list[agentbus.ToolCall] = []
    bus.intercept("tool.before", calls.append, id="watch")

    def session_of(ctx: RunContext[Any]) -> str:
        return f"user-{ctx.deps['user']}"

    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "ls"}))
    agent = make_agent(script, bus, ran, agent_id="ops", session_key=session_of)
    await agent.run("list", deps={"user": 42})

    assert [(c.agent_id, c.session_key, c.tool) for c in calls] == [("ops", "user-42", "exec")]
    assert calls[0].call_id  # pydantic-ai's tool call id


async def test_test_model_run_goes_through_the_bus() -> None:
    """pydantic-ai's TestModel calls every tool; the blocked one never runs."""
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool=r"^write$", id="read-only")
    def read_only(call: agentbus.ToolCall) -> None:
        call.block("this agent is read-only")

    written: list[str] = []
    agent: Agent[Any, str] = Agent(TestModel(), capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain
    def write(path: str) -> str:
        written.append(path)
        return "written"

    result = await agent.run("save it")

    assert written == []
    assert "this agent is read-only" in result.output


def test_prompt_text_and_with_text_keep_the_non_text_parts() -> None:
    image = object()
    prompt: list[Any] = ["look at", image, "this"]
    assert prompt_text(prompt) == "look at\n\nthis"
    assert with_text(prompt, "LOOK") == ["LOOK", image]
    assert prompt_text([image]) is None
    assert with_text("hi", "HI") == "HI"


def test_thinking_settings_map_onto_think_and_reasoning_levels() -> None:
    assert think_levels(None) == (None, None)
    assert think_levels(True) == (None, "on")
    assert think_levels(False) == ("off", "off")
    assert think_levels("low") == ("low", "on")
    assert think_levels("max") == ("high", "on")


@pytest.mark.parametrize("drive", ["run", "iter", "run_stream"])
async def test_every_way_of_driving_a_run_closes_its_turns(drive: str) -> None:
    """run_stream hands the result back mid-turn; the last turn.end still comes before agent.end."""
    bus = agentbus.Bus(log_level=None)
    seen: list[str] = []
    for point in ("agent.start", "message.before", "turn.start", "tool.before", "turn.end", "agent.end"):
        bus.intercept(point, lambda event: seen.append(event.point), id=f"note-{point}")
    agent: Agent[Any, str] = Agent(TestModel(), capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain
    def ping() -> str:
        return "pong"

    if drive == "run":
        await agent.run("go")
    elif drive == "iter":
        async with agent.iter("go") as run:
            async for _ in run:
                pass
    else:
        async with agent.run_stream("go") as streamed:
            await streamed.get_output()

    assert seen == [
        "agent.start", "message.before", "turn.start", "tool.before", "turn.end", "turn.start", "turn.end",
        "agent.end",
    ]  # fmt: skip


async def test_a_failed_run_still_ends_with_agent_end() -> None:
    bus = agentbus.Bus(log_level=None)
    ends: list[agentbus.Lifecycle] = []
    bus.intercept("agent.end", ends.append, id="note-end")

    def broken(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        raise ConnectionError("provider down")

    agent: Agent[Any, str] = Agent(FunctionModel(broken), capabilities=[AgentbusCapability(bus)])
    with pytest.raises(ConnectionError):
        await agent.run("go")

    assert [(e.data["status"], e.data["error"]) for e in ends] == [
        ("failed", "ConnectionError: provider down")
    ]


async def test_the_shipped_redact_middleware_cleans_what_the_model_sees() -> None:
    from agentbus.middleware import redact

    key = "sk-proj-" + "a" * 32
    bus = agentbus.Bus(log_level=None)
    redact.install(bus.registry)
    script = ScriptedModel(("env", {}))
    agent: Agent[Any, str] = Agent(script.model, capabilities=[AgentbusCapability(bus)])

    @agent.tool_plain
    def env() -> str:
        return f"OPENAI_API_KEY={key}"

    await agent.run("show the environment")

    assert [part.content for part in script.seen_returns()] == ["OPENAI_API_KEY=[REDACTED:openai_api_key]"]


# -- binding only what is registered --------------------------------------------------------


async def test_a_run_binds_only_the_points_with_layers_and_a_guard_added_between_runs_applies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bus = agentbus.Bus(log_level=None)
    notified: list[str] = []
    notify = bus.notify
    monkeypatch.setattr(bus, "notify", lambda point, **kw: notified.append(point) or notify(point, **kw))
    ran: list[str] = []
    script = ScriptedModel(("bash", {"command": "rm -rf /"}))
    agent = make_agent(script, bus, ran)

    await agent.run("clean up")
    assert notified == []  # no lifecycle layers: nothing notified
    assert ran == ["rm -rf /"]

    @bus.intercept("tool.before", tool=r"^exec$", id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    bus.intercept("turn.start", lambda event: None, id="turns")
    await agent.run("clean up")

    assert ran == ["rm -rf /"]  # the second call was blocked
    assert notified == ["turn.start", "turn.start"]  # bound from this run on


async def test_the_tools_are_told_to_the_registry_once_across_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    bus = agentbus.Bus(log_level=None)
    told: list[set[str]] = []
    bind_tools = bus.registry.bind_tools
    monkeypatch.setattr(
        bus.registry, "bind_tools", lambda tools, **kw: told.append(set(tools)) or bind_tools(tools, **kw)
    )
    agent = make_agent(ScriptedModel(("bash", {"command": "ls"})), bus, [])

    await agent.run("one")
    await agent.run("two")

    assert told == [{"bash"}]


async def test_params_before_alone_sees_the_users_prompt() -> None:
    bus = agentbus.Bus(log_level=None)
    seen: list[str] = []
    bus.intercept("params.before", lambda params: seen.append(params.message), id="look")

    await make_agent(ScriptedModel(("bash", {"command": "ls"})), bus, []).run("what is up")

    assert seen == ["what is up"]


async def test_a_run_with_only_tool_layers_keeps_the_agents_capability_tree() -> None:
    """A run that binds nothing but the tools gets the capability itself, not a copy: a copy makes
    pydantic-ai rebuild the run's capability tree (ordering, toolsets, instructions) every run."""
    bus = agentbus.Bus(log_level=None)
    capability = AgentbusCapability(bus)
    agent: Agent[Any, str] = Agent(
        ScriptedModel(("bash", {"command": "ls"})).model, name="coder", capabilities=[capability]
    )
    roots: list[Any] = []

    @agent.tool
    def bash(ctx: RunContext[Any], command: str) -> str:
        roots.append(ctx.root_capability)
        return command

    bus.intercept("tool.before", lambda call: None, tool="exec", id="look")
    await agent.run("one")
    await agent.run("two")
    bus.intercept("turn.start", lambda event: None, id="turns")  # a run with state of its own
    await agent.run("three")

    leaves = [list(_leaves(root)) for root in roots]
    assert roots[0] is roots[1]  # the same tree in both runs: nothing was rebuilt
    assert capability in leaves[0]
    assert roots[2] is not roots[0]
    assert capability not in leaves[2]
    assert any(isinstance(leaf, AgentbusCapability) for leaf in leaves[2])


def _leaves(capability: Any) -> Any:
    children = getattr(capability, "capabilities", None)
    if children is None:
        yield capability
        return
    for child in children:
        yield from _leaves(child)

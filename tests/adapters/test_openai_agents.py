"""The OpenAI Agents SDK adapter, against a real ``Runner.run`` with a scripted model.

The model is a small implementation of the SDK's ``Model`` interface that
remembers what it was sent (openai_agents_script.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("agents", reason="the openai-agents extra is not installed")

from agents import (
    Agent,
    FunctionTool,
    ModelSettings,
    RunConfig,
    SQLiteSession,
    function_tool,
)
from openai.types.shared import Reasoning

import agentbus
from agentbus.adapters import openai_agents
from agentbus.kinds import ToolKindWarning
from agentbus.middleware import builtin

from .openai_agents_script import ScriptModel, final, tool_call
from .recording import make_bus

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """The Agents SDK runs on asyncio only (it creates asyncio tasks for tools)."""
    return "asyncio"


def outputs_seen(model: ScriptModel) -> dict[str, Any]:
    """The function_call_output items of the model's last input, by call id."""
    return {
        item["call_id"]: item["output"]
        for item in model.inputs[-1]
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    }


def make_tools(ran: list[tuple[str, dict[str, Any]]]) -> list[FunctionTool]:
    @function_tool(name_override="bash")
    async def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(("bash", {"command": command}))
        return f"ran {command}"

    @function_tool(name_override="read")
    def read(path: str) -> str:
        """Read a file."""
        ran.append(("read", {"path": path}))
        if path == "/missing":
            raise FileNotFoundError(path)
        return f"contents of {path}"

    return [bash, read]


async def test_blocked_call_never_executes_and_the_model_sees_the_blocked_result() -> None:
    bus, records = make_bus()

    @bus.intercept("tool.before", tool="exec", id="no-rm-rf")
    def no_rm_rf(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptModel([tool_call("bash", {"command": "rm -rf /"}, "c1")], [final("done")])
    agent = Agent(name="ops", model=model, tools=make_tools(ran))

    result = await openai_agents.run(bus, agent, "clean up", run_config=RunConfig(tracing_disabled=True))

    assert result.final_output == "done"
    assert ran == []
    assert json.loads(outputs_seen(model)["c1"]) == {
        "status": "blocked", "tool": "exec", "reason": "rm -rf is not allowed",
    }  # fmt: skip
    block = next(r for r in records if r.id == "no-rm-rf")
    assert (block.decision, block.reason, block.agent_id) == ("block", "rm -rf is not allowed", "ops")


async def test_mutated_args_reach_the_tool_and_results_are_rewritten_before_the_model_sees_them() -> None:
    bus, records = make_bus()

    @bus.intercept("tool.before", tool="read", id="jail")
    def jail(call: agentbus.ToolCall) -> None:
        call.args["path"] = "/sandbox" + call.args["path"]

    @bus.intercept("tool.after", tool="read", id="redact")
    def redact(result: agentbus.ToolResult) -> None:
        result.result = result.result.replace("contents", "[redacted]")

    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptModel([tool_call("read", {"path": "/etc/passwd"}, "c1")], [final("ok")])
    agent = Agent(name="reader", model=model, tools=make_tools(ran))

    await openai_agents.run(bus, agent, "read it", run_config=RunConfig(tracing_disabled=True))

    assert ran == [("read", {"path": "/sandbox/etc/passwd"})]
    assert outputs_seen(model)["c1"] == "[redacted] of /sandbox/etc/passwd"
    changes = {r.id: r.changes for r in records if r.changes}
    assert changes["jail"] == {"args.path": ("/etc/passwd", "/sandbox/etc/passwd")}
    assert changes["redact"]["result"][1] == "[redacted] of /sandbox/etc/passwd"


async def test_a_tool_error_reaches_tool_after_and_the_model_gets_the_sdk_error_message() -> None:
    bus, _ = make_bus()
    seen: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptModel([tool_call("read", {"path": "/missing"}, "c1")], [final("sorry")])
    agent = Agent(name="reader", model=model, tools=make_tools(ran))

    result = await openai_agents.run(bus, agent, "read", run_config=RunConfig(tracing_disabled=True))

    assert result.final_output == "sorry"
    assert seen[0].is_error
    assert isinstance(seen[0].error, FileNotFoundError)
    assert outputs_seen(model)["c1"].startswith("An error occurred while running the tool.")


async def test_a_tool_after_layer_can_replace_an_error_result() -> None:
    bus, _ = make_bus()

    @bus.intercept("tool.after", tool="read", id="explain")
    def explain(result: agentbus.ToolResult) -> None:
        if result.error is not None:
            result.result = f"no such file: {result.args['path']}"

    model = ScriptModel([tool_call("read", {"path": "/missing"}, "c1")], [final("ok")])
    agent = Agent(name="reader", model=model, tools=make_tools([]))

    await openai_agents.run(bus, agent, "read", run_config=RunConfig(tracing_disabled=True))

    assert outputs_seen(model)["c1"] == "no such file: /missing"


async def test_message_and_params_reach_the_model_with_agent_and_session_from_the_run() -> None:
    bus, records = make_bus()
    seen: list[agentbus.Message | agentbus.Params] = []

    @bus.intercept("message.before", id="classify")
    def classify(message: agentbus.Message) -> None:
        seen.append(message)
        message.message = message.message.upper()
        message.metadata["complexity"] = "high"

    @bus.intercept("params.before", id="think")
    def think(params: agentbus.Params) -> None:
        seen.append(params)
        if params.metadata.get("complexity") == "high":
            params.think_level = "high"
            params.temperature = 0.2

    model = ScriptModel([final("hi")])
    agent = Agent(
        name="planner", model=model,
        model_settings=ModelSettings(reasoning=Reasoning(effort="low", summary="concise"), top_p=0.5),
    )  # fmt: skip

    await openai_agents.run(
        bus, agent, "plan the release", session=SQLiteSession("user-42"),
        run_config=RunConfig(tracing_disabled=True),
    )  # fmt: skip

    first_input = model.inputs[0]
    assert first_input[-1]["content"] == "PLAN THE RELEASE"
    settings = model.settings[0]
    assert settings.temperature == 0.2
    assert settings.reasoning is not None
    assert (settings.reasoning.effort, settings.reasoning.summary) == ("high", "concise")
    assert settings.top_p == 0.5  # what no layer touched stays as the agent had it
    message, params = seen
    assert (message.agent_id, message.session_key) == ("planner", "user-42")
    assert params.think_level == "high"
    assert {r.id for r in records} >= {"classify", "think"}


async def test_user_message_inside_an_input_list_is_intercepted() -> None:
    bus, _ = make_bus()
    bus.intercept("message.before", lambda m: setattr(m, "message", m.message + "!"), id="shout")
    model = ScriptModel([final("ok")])
    agent = Agent(name="a", model=model)
    history = [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "noted"},
        {"role": "user", "content": [{"type": "input_text", "text": "second"}]},
    ]

    await openai_agents.run(bus, agent, history, run_config=RunConfig(tracing_disabled=True))

    sent = model.inputs[0]
    assert sent[0]["content"] == "first"
    assert sent[-1]["content"][0]["text"] == "second!"
    assert history[-1]["content"][0]["text"] == "second"  # the caller's list is not mutated


async def test_lifecycle_notifications_come_from_the_run_hooks() -> None:
    bus, _ = make_bus()
    events: list[tuple[str, str | None, str | None]] = []
    for point in ("agent.start", "turn.start", "turn.end", "agent.end"):
        bus.intercept(point, lambda e: events.append((e.point, e.agent_id, e.session_key)), id=point)

    class UserHooks(openai_agents.RunHooks[Any]):
        def __init__(self) -> None:
            self.ended: list[str] = []

        async def on_agent_end(self, context: Any, agent: Any, output: Any) -> None:
            self.ended.append(output)

    user_hooks = UserHooks()
    model = ScriptModel([tool_call("bash", {"command": "ls"}, "c1")], [final("listed")])
    agent = Agent(name="ops", model=model, tools=make_tools([]))

    await openai_agents.run(
        bus, agent, "list", hooks=user_hooks, run_config=RunConfig(tracing_disabled=True, group_id="thread-7")
    )

    assert events == [
        ("agent.start", "ops", "thread-7"),
        ("turn.start", "ops", "thread-7"),
        ("turn.end", "ops", "thread-7"),
        ("turn.start", "ops", "thread-7"),
        ("turn.end", "ops", "thread-7"),
        ("agent.end", "ops", "thread-7"),
    ]
    assert user_hooks.ended == ["listed"]  # the caller's hooks still run


async def test_wrapped_agents_work_with_the_plain_runner_and_handoff_targets_are_wrapped() -> None:
    bus, _ = make_bus()
    calls: list[tuple[str, str | None]] = []
    bus.intercept("tool.before", lambda c: calls.append((c.tool, c.agent_id)), id="audit")
    ran: list[tuple[str, dict[str, Any]]] = []
    specialist = Agent(name="specialist", tools=make_tools(ran))
    triage = Agent(name="triage", handoffs=[specialist])
    specialist.handoffs = [triage]  # a cycle: wrapping must terminate
    model = ScriptModel(
        [tool_call("transfer_to_specialist", {}, "h1")],
        [tool_call("bash", {"command": "uptime"}, "c1")],
        [final("fine")],
    )

    wrapped = openai_agents.wrap_agent(bus, triage)
    result = await openai_agents.Runner.run(
        wrapped, "check", run_config=RunConfig(model=model, tracing_disabled=True)
    )

    assert result.final_output == "fine"
    assert calls == [("exec", "specialist")]
    assert ran == [("bash", {"command": "uptime"})]
    assert wrapped.handoffs[0].handoffs[0] is wrapped
    assert triage.handoffs[0] is specialist  # the originals are left alone


def test_a_missing_sdk_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "agents", None)
    monkeypatch.delitem(sys.modules, "agentbus.adapters.openai_agents")
    with pytest.raises(ImportError, match=r"pip install 'agentbus\[openai-agents\]'"):
        importlib.import_module("agentbus.adapters.openai_agents")


async def test_streamed_runs_are_bound_too() -> None:
    """With the SDK's own ScriptedModel, which streams its scripted turns."""
    from agents.testing import ScriptedModel, assistant_message, function_call

    bus, _ = make_bus()
    seen: list[tuple[str, str | None]] = []
    bus.intercept("tool.before", lambda c: c.block("frozen"), tool="exec", id="freeze")
    bus.intercept("agent.end", lambda e: seen.append((e.point, e.session_key)), id="end")
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptedModel(
        [[function_call("bash", {"command": "reboot"}, call_id="c1")], [assistant_message("ok")]]
    )
    agent = Agent(name="ops", model=model, tools=make_tools(ran))

    result = await openai_agents.run_streamed(
        bus, agent, "reboot it", session_key="s-1", run_config=RunConfig(tracing_disabled=True)
    )
    async for _ in result.stream_events():
        pass

    assert result.final_output == "ok"
    assert ran == []
    last_input = model.calls[-1].input
    outputs = [item["output"] for item in last_input if item.get("type") == "function_call_output"]
    assert json.loads(outputs[0])["reason"] == "frozen"
    assert seen == [("agent.end", "s-1")]


async def test_mutated_args_reach_a_tool_whose_approval_policy_prepared_the_old_ones() -> None:
    """A callable needs_approval makes the SDK prepare the arguments before the tool runs."""
    bus, _ = make_bus()
    bus.intercept("tool.before", lambda c: c.args.update(path="/safe"), tool="read", id="jail")
    ran: list[str] = []

    async def never(context: Any, params: dict[str, Any], call_id: str) -> bool:
        return False

    @function_tool(name_override="read", needs_approval=never)
    def read(path: str) -> str:
        """Read a file."""
        ran.append(path)
        return f"contents of {path}"

    model = ScriptModel([tool_call("read", {"path": "/etc/shadow"}, "c1")], [final("ok")])
    agent = Agent(name="reader", model=model, tools=[read])

    await openai_agents.run(bus, agent, "read", run_config=RunConfig(tracing_disabled=True))

    assert ran == ["/safe"]
    assert outputs_seen(model)["c1"] == "contents of /safe"


async def test_an_agent_used_as_a_tool_is_intercepted_like_any_tool() -> None:
    bus, _ = make_bus()
    bus.registry.declare_tools("ask_helper")
    bus.intercept("tool.before", lambda c: c.args.update(input="rephrased"), tool="ask_helper", id="rephrase")
    bus.intercept(
        "tool.after", lambda r: setattr(r, "result", f"helper: {r.result}"), tool="ask_helper", id="tag"
    )
    helper_model = ScriptModel([final("42")])
    helper = Agent(name="helper", model=helper_model)
    model = ScriptModel([tool_call("ask_helper", {"input": "question"}, "c1")], [final("done")])
    agent = Agent(
        name="outer", model=model, tools=[helper.as_tool(tool_name="ask_helper", tool_description="Ask.")]
    )

    await openai_agents.run(bus, agent, "go", run_config=RunConfig(tracing_disabled=True))

    assert helper_model.inputs[0] == [{"content": "rephrased", "role": "user"}]
    assert outputs_seen(model)["c1"] == "helper: 42"


async def test_renamed_shell_and_file_tools_meet_the_built_in_guards() -> None:
    """Issue 14: a ``function_tool`` named ``run_shell`` ran ``rm -rf /``."""
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    ran: list[str] = []

    @function_tool
    async def run_shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "ok"

    @function_tool
    async def stat_file(path: str) -> str:
        """Nothing in its name or arguments tells its kind: it is declared."""
        ran.append(path)
        return "ok"

    model = ScriptModel(
        [
            tool_call("run_shell", {"command": "rm -rf /"}, "c1"),
            tool_call("stat_file", {"path": "~/.ssh/id_rsa"}, "c2"),
        ],
        [final("done")],
    )
    agent = Agent(name="ops", model=model, tools=[run_shell, stat_file])

    await openai_agents.run(bus, agent, "clean up", tool_kinds={"stat_file": "read"})

    assert ran == []
    outputs = outputs_seen(model)
    assert json.loads(outputs["c1"])["status"] == "blocked"
    assert json.loads(outputs["c2"])["status"] == "blocked"


def test_tool_kinds_naming_a_tool_no_agent_has_is_refused() -> None:
    bus = agentbus.Bus(log_level=None)
    agent = Agent(name="ops", model=ScriptModel(), tools=make_tools([]))
    with pytest.raises(ValueError, match="'run_shel', which no agent here has; their tools: bash, read"):
        openai_agents.wrap_agent(bus, agent, tool_kinds={"run_shel": "exec"})


def test_a_shell_tool_without_a_readable_command_warns_when_wrapped() -> None:
    bus = agentbus.Bus(log_level=None)

    @function_tool
    async def execute_bash(script_body: str) -> str:
        """Run a script."""
        return "ok"

    agent = Agent(name="ops", model=ScriptModel(), tools=[execute_bash])
    with pytest.warns(ToolKindWarning, match="'execute_bash', which looks like a shell tool"):
        openai_agents.wrap_agent(bus, agent)


async def test_a_tool_without_a_failure_function_fails_the_run_as_without_agentbus() -> None:
    from agents import Runner
    from agents.exceptions import UserError

    def make_agent() -> Agent[Any]:
        @function_tool(failure_error_function=None)
        def explode() -> str:
            """Always fails."""
            raise OSError("disk on fire")

        model = ScriptModel([tool_call("explode", {}, "c1")], [final("never")])
        return Agent(name="ops", model=model, tools=[explode])

    with pytest.raises(UserError, match="disk on fire") as native:  # the SDK wraps the error
        await Runner.run(make_agent(), "go")
    bus, _ = make_bus()
    after: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", after.append, id="audit")
    with pytest.raises(type(native.value), match="disk on fire"):
        await openai_agents.run(bus, make_agent(), "go")
    assert isinstance(after[0].error, OSError)


def test_coverage_reads_the_agents_function_tools() -> None:
    @function_tool
    def run_shell(command: str) -> str:
        """Run a shell command."""
        return command

    registry = agentbus.Registry()
    builtin.install(registry)
    rows = agentbus.coverage([run_shell, *make_tools([])], registry)
    assert [(row.name, row.kind) for row in rows] == [
        ("run_shell", "exec"),
        ("bash", "exec"),
        ("read", "read"),
    ]
    assert "builtin:command-safety-guard" in rows[0].guards


# -- the wrapped agent, cached across runs ---------------------------------------------------


async def test_runs_reuse_the_wrapped_agent_and_a_guard_registered_later_still_applies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bus, _ = make_bus()
    wrapped: list[Any] = []
    wrap_agent = openai_agents.wrap_agent
    monkeypatch.setattr(
        openai_agents, "wrap_agent", lambda *a, **k: wrapped.append(a[1]) or wrap_agent(*a, **k)
    )
    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptModel(
        [tool_call("bash", {"command": "rm -rf /"}, "c1")], [final("ran")],
        [tool_call("bash", {"command": "rm -rf /"}, "c2")], [final("refused")],
    )  # fmt: skip
    agent = Agent(name="ops", model=model, tools=make_tools(ran))
    config = RunConfig(tracing_disabled=True)

    await openai_agents.run(bus, agent, "clean up", run_config=config)
    assert ran == [("bash", {"command": "rm -rf /"})]

    @bus.intercept("tool.before", tool="exec", id="no-rm-rf")
    def no_rm_rf(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    await openai_agents.run(bus, agent, "clean up", run_config=config)

    assert wrapped == [agent]  # one clone for both runs
    assert len(ran) == 1  # the second call was blocked
    assert json.loads(outputs_seen(model)["c2"])["status"] == "blocked"


async def test_a_changed_agent_gets_a_new_clone_whose_new_tool_runs_through_the_bus() -> None:
    bus, _ = make_bus()

    @bus.intercept("tool.before", tool="write", id="no-writes")
    def no_writes(call: agentbus.ToolCall) -> None:
        call.block("read-only session")

    ran: list[tuple[str, dict[str, Any]]] = []
    model = ScriptModel(
        [final("hello")],
        [tool_call("write_file", {"path": "/etc/passwd", "content": "x"}, "c1")], [final("done")],
    )  # fmt: skip
    agent = Agent(name="ops", model=model, tools=make_tools(ran), instructions="be brief")
    config = RunConfig(tracing_disabled=True)
    await openai_agents.run(bus, agent, "hi", run_config=config)

    @function_tool(name_override="write_file")
    def write_file(path: str, content: str) -> str:
        """Write a file."""
        ran.append(("write_file", {"path": path}))
        return "written"

    agent.tools.append(write_file)  # changed in place: the cached clone would not have it
    await openai_agents.run(bus, agent, "write", run_config=config, tool_kinds={"write_file": "write"})

    assert ran == []
    assert json.loads(outputs_seen(model)["c1"])["status"] == "blocked"


async def test_run_hooks_are_installed_only_for_runs_with_lifecycle_layers() -> None:
    bus, _ = make_bus()
    model = ScriptModel([final("one")], [final("two")])
    agent = Agent(name="ops", model=model)
    _, _, options, _ = await openai_agents._prepare(bus, agent, "hi", None, None, {})
    assert "hooks" not in options

    bus.intercept("turn.start", lambda event: None, id="turns")
    _, _, options, _ = await openai_agents._prepare(bus, agent, "hi", None, None, {})
    assert isinstance(options["hooks"], openai_agents.BusRunHooks)

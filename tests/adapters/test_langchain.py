"""The LangChain v1 adapter, against a real ``create_agent`` loop with a fake chat model.

The model is LangChain's own ``FakeMessagesListChatModel`` with a memory of every
call (langchain_script.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("langchain.agents", reason="the langchain extra is not installed")

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

import agentbus
from agentbus.adapters.langchain import AgentbusMiddleware, UnboundPointWarning
from agentbus.kinds import ToolKindWarning
from agentbus.middleware import builtin
from agentbus.records import DISPATCH

from .langchain_script import calls, script, tool_results_seen
from .recording import make_bus

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """LangGraph runs on asyncio only."""
    return "asyncio"


def make_tools(ran: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    @tool("bash")
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(("bash", {"command": command}))
        return f"ran {command}"

    @tool("read")
    async def read(path: str) -> str:
        """Read a file."""
        ran.append(("read", {"path": path}))
        if path == "/missing":
            raise FileNotFoundError(path)
        return f"contents of {path}"

    return [bash, read]


async def test_blocked_call_never_executes_and_the_model_gets_an_error_tool_message() -> None:
    bus, records = make_bus()

    @bus.intercept("tool.before", tool="exec", id="no-rm-rf")
    def no_rm_rf(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    ran: list[tuple[str, dict[str, Any]]] = []
    model = script(calls(("bash", {"command": "rm -rf /"}, "c1")), AIMessage(content="done"))
    agent = create_agent(model, make_tools(ran), middleware=[AgentbusMiddleware(bus)], name="ops")

    result = await agent.ainvoke({"messages": [HumanMessage("clean up")]})

    assert result["messages"][-1].content == "done"
    assert ran == []
    refusal = tool_results_seen(model)["c1"]
    assert refusal.status == "error"
    assert json.loads(refusal.text) == {
        "status": "blocked",
        "tool": "exec",
        "reason": "rm -rf is not allowed",
    }
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
    model = script(calls(("read", {"path": "/etc/passwd"}, "c1")), AIMessage(content="ok"))
    agent = create_agent(model, make_tools(ran), middleware=[AgentbusMiddleware(bus)])

    await agent.ainvoke({"messages": [HumanMessage("read it")]})

    assert ran == [("read", {"path": "/sandbox/etc/passwd"})]
    seen = tool_results_seen(model)["c1"]
    assert (seen.text, seen.status) == ("[redacted] of /sandbox/etc/passwd", "success")
    changes = {r.id: r.changes for r in records if r.changes}
    assert changes["jail"] == {"args.path": ("/etc/passwd", "/sandbox/etc/passwd")}
    assert changes["redact"]["result"][1] == "[redacted] of /sandbox/etc/passwd"


async def test_a_tool_that_raises_fails_the_run_as_without_agentbus_after_tool_after_saw_it() -> None:
    native = create_agent(script(calls(("read", {"path": "/missing"}, "c1"))), make_tools([]))
    with pytest.raises(FileNotFoundError):
        await native.ainvoke({"messages": [HumanMessage("read")]})

    bus, _ = make_bus()
    seen: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")
    model = script(calls(("read", {"path": "/missing"}, "c1")), AIMessage(content="sorry"))
    agent = create_agent(model, make_tools([]), middleware=[AgentbusMiddleware(bus)])

    with pytest.raises(FileNotFoundError, match="/missing"):
        await agent.ainvoke({"messages": [HumanMessage("read")]})
    assert isinstance(seen[0].error, FileNotFoundError)


async def test_errors_as_results_gives_the_model_an_error_tool_message_after_tool_after_saw_it() -> None:
    bus, _ = make_bus()
    seen: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")
    model = script(calls(("read", {"path": "/missing"}, "c1")), AIMessage(content="sorry"))
    agent = create_agent(model, make_tools([]), middleware=[AgentbusMiddleware(bus, errors_as_results=True)])

    result = await agent.ainvoke({"messages": [HumanMessage("read")]})

    assert result["messages"][-1].content == "sorry"
    assert isinstance(seen[0].error, FileNotFoundError)
    error = tool_results_seen(model)["c1"]
    assert error.status == "error"
    assert json.loads(error.text) == {
        "status": "error",
        "tool": "read",
        "error": "FileNotFoundError: /missing",
    }


async def test_a_layer_that_replaces_the_error_result_is_what_the_model_sees() -> None:
    bus, _ = make_bus()

    @bus.intercept("tool.after", id="fallback")
    def fallback(result: agentbus.ToolResult) -> None:
        if result.error is not None:
            result.result = "no such file; try another path"

    model = script(calls(("read", {"path": "/missing"}, "c1")), AIMessage(content="ok"))
    agent = create_agent(model, make_tools([]), middleware=[AgentbusMiddleware(bus)])

    await agent.ainvoke({"messages": [HumanMessage("read")]})

    assert tool_results_seen(model)["c1"].text == "no such file; try another path"


async def test_interrupt_pauses_the_call_and_the_resume_is_judged_once_and_ends_once() -> None:
    from langgraph.types import Command, interrupt

    bus, _ = make_bus()
    before: list[dict[str, Any]] = []
    after: list[agentbus.ToolResult] = []
    wrapped: list[str] = []
    dispatches: list[agentbus.Record] = []
    bus.on_event(dispatches.append, dispatches=True)
    bus.intercept("tool.before", lambda call: before.append(dict(call.args)), id="gate")
    bus.intercept("tool.after", after.append, id="audit")

    @bus.middleware("tool.call", id="around")
    async def around(call: agentbus.ToolCall, call_next: Any) -> Any:
        wrapped.append(call.args["target"])
        return await call_next(call)

    @tool("deploy")
    def deploy(target: str) -> str:
        """Deploy after a person approves."""
        answer = interrupt(f"deploy {target}?")
        return f"deployed {target}: {answer}"

    model = script(calls(("deploy", {"target": "prod"}, "c1")), AIMessage(content="done"))
    agent = create_agent(model, [deploy], middleware=[AgentbusMiddleware(bus)], checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t1"}}

    paused = await agent.ainvoke({"messages": [HumanMessage("ship it")]}, config)
    assert paused["__interrupt__"][0].value == "deploy prod?"
    assert (before, after) == ([{"target": "prod"}], [])  # paused: not an error, not ended

    result = await agent.ainvoke(Command(resume="yes"), config)

    assert result["messages"][-1].content == "done"
    assert tool_results_seen(model)["c1"].text == "deployed prod: yes"
    assert before == [{"target": "prod"}]  # not judged a second time on resume
    assert [(r.result, r.error) for r in after] == [("deployed prod: yes", None)]
    assert wrapped == ["prod", "prod"]  # the tool.call layers wrap the resumed run too
    calls_ended = [(r.decision, r.error) for r in dispatches if (r.point, r.id) == ("tool.call", DISPATCH)]
    assert calls_ended == [("paused", None), (None, None)]  # the audit sees a pause, not an error


async def test_the_resume_runs_the_args_tool_before_approved() -> None:
    from langgraph.types import Command, interrupt

    bus, _ = make_bus()
    ran: list[str] = []

    @bus.intercept("tool.before", id="jail")
    def jail(call: agentbus.ToolCall) -> None:
        call.args["target"] = "staging"

    @tool("deploy")
    def deploy(target: str) -> str:
        """Deploy after a person approves."""
        interrupt("ok?")
        ran.append(target)
        return target

    model = script(calls(("deploy", {"target": "prod"}, "c1")), AIMessage(content="done"))
    agent = create_agent(model, [deploy], middleware=[AgentbusMiddleware(bus)], checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t2"}}
    await agent.ainvoke({"messages": [HumanMessage("ship it")]}, config)
    await agent.ainvoke(Command(resume="yes"), config)

    assert ran == ["staging"]


async def test_a_renamed_shell_tool_and_a_declared_file_tool_meet_the_guards() -> None:
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    ran: list[str] = []

    @tool("run_shell")
    def run_shell(command: str) -> str:
        """Run a command."""
        ran.append(command)
        return "ok"

    @tool("stat_file")
    def stat_file(path: str) -> str:
        """Nothing in its name or arguments tells its kind: it is declared."""
        ran.append(path)
        return "ok"

    model = script(
        calls(("run_shell", {"command": "rm -rf /"}, "c1"), ("stat_file", {"path": "~/.ssh/id_rsa"}, "c2")),
        AIMessage(content="done"),
    )
    middleware = AgentbusMiddleware(bus, tool_kinds={"stat_file": "read"})
    agent = create_agent(model, [run_shell, stat_file], middleware=[middleware])

    await agent.ainvoke({"messages": [HumanMessage("clean up")]})

    assert ran == []
    seen = tool_results_seen(model)
    assert json.loads(seen["c1"].text)["status"] == "blocked"
    assert json.loads(seen["c2"].text)["status"] == "blocked"
    assert (registry.kind_of("run_shell"), registry.kind_of("stat_file")) == ("exec", "read")


async def test_a_shell_tool_whose_kind_cannot_be_told_warns_once_when_bound() -> None:
    """A tool is bound (its kind told) once a layer may judge it."""
    bus, _ = make_bus()
    bus.intercept("tool.after", lambda result: None, id="audit")

    @tool("terminal")
    def terminal(script_text: str) -> str:
        """Run a shell script."""
        return "ok"

    model = script(
        calls(("terminal", {"script_text": "ls"}, "c1")), AIMessage(content="hi"),
        calls(("terminal", {"script_text": "ls"}, "c2")), AIMessage(content="again"),
    )  # fmt: skip
    agent = create_agent(model, [terminal], middleware=[AgentbusMiddleware(bus)])
    with pytest.warns(ToolKindWarning, match="'terminal'.*shell"):
        await agent.ainvoke({"messages": [HumanMessage("hi")]})
    await agent.ainvoke({"messages": [HumanMessage("again")]})  # once: no second warning


async def test_with_params_before_bound_the_tools_are_bound_at_the_first_model_call() -> None:
    bus, _ = make_bus()

    @tool("terminal")
    def terminal(script_text: str) -> str:
        """Run a shell script."""
        return "ok"

    model = script(AIMessage(content="hi"))
    agent = create_agent(model, [terminal], middleware=[AgentbusMiddleware(bus, points=["params.before"])])
    with pytest.warns(ToolKindWarning, match="'terminal'.*shell"):
        await agent.ainvoke({"messages": [HumanMessage("hi")]})


async def test_an_error_message_from_the_tool_node_reaches_tool_after_as_an_error() -> None:
    """Bad arguments: LangChain writes the error message itself; the bus sees an error."""
    bus, _ = make_bus()
    seen: list[agentbus.ToolResult] = []
    bus.intercept("tool.after", seen.append, id="audit")
    model = script(calls(("read", {"wrong": 1}, "c1")), AIMessage(content="oops"))
    agent = create_agent(model, make_tools([]), middleware=[AgentbusMiddleware(bus)])

    await agent.ainvoke({"messages": [HumanMessage("read")]})

    assert seen[0].is_error
    error = tool_results_seen(model)["c1"]
    assert error.status == "error"
    assert "path" in error.text  # LangChain's own validation message, untouched


async def test_message_and_params_reach_the_model_with_agent_and_thread_from_the_run() -> None:
    bus, records = make_bus()
    seen: list[Any] = []

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

    model = script(AIMessage(content="planned"))
    agent = create_agent(
        model,
        make_tools([]),
        middleware=[AgentbusMiddleware(bus)],
        name="planner",
        checkpointer=InMemorySaver(),
    )

    result = await agent.ainvoke(
        {"messages": [HumanMessage("plan the release")]}, {"configurable": {"thread_id": "thread-7"}}
    )

    assert [m.text for m in model.sent[0]] == ["PLAN THE RELEASE"]
    assert result["messages"][0].text == "PLAN THE RELEASE"  # replaced in the state, not appended
    assert len(result["messages"]) == 2
    assert model.settings[0]["temperature"] == 0.2
    assert model.settings[0]["reasoning_effort"] == "high"
    message, params = seen
    assert (message.agent_id, message.session_key) == ("planner", "thread-7")
    assert (params.message, params.metadata) == ("PLAN THE RELEASE", {"complexity": "high"})
    assert {r.id for r in records} >= {"classify", "think"}


async def test_a_custom_settings_mapper_decides_what_the_model_is_bound_with() -> None:
    bus, _ = make_bus()
    bus.intercept("params.before", lambda p: setattr(p, "think_level", "medium"), id="think")

    def anthropic_style(params: agentbus.Params, changed: frozenset[str]) -> dict[str, Any]:
        return {"thinking": {"type": "enabled", "budget_tokens": 4096}} if "think_level" in changed else {}

    model = script(AIMessage(content="ok"))
    agent = create_agent(model, [], middleware=[AgentbusMiddleware(bus, model_settings=anthropic_style)])

    await agent.ainvoke({"messages": [HumanMessage("hi")]})

    assert model.settings[0]["thinking"] == {"type": "enabled", "budget_tokens": 4096}
    assert "reasoning_effort" not in model.settings[0]


async def test_lifecycle_notifications_come_from_the_agent_and_model_hooks() -> None:
    bus, _ = make_bus()
    events: list[tuple[str, str | None, str | None]] = []
    for point in ("agent.start", "turn.start", "turn.end", "agent.end"):
        bus.intercept(point, lambda e: events.append((e.point, e.agent_id, e.session_key)), id=point)
    model = script(calls(("bash", {"command": "ls"}, "c1")), AIMessage(content="listed"))
    agent = create_agent(
        model, make_tools([]), middleware=[AgentbusMiddleware(bus, agent_id="fallback")],
        checkpointer=InMemorySaver(),
    )  # fmt: skip

    await agent.ainvoke({"messages": [HumanMessage("list")]}, {"configurable": {"thread_id": "t1"}})

    assert events == [
        ("agent.start", "fallback", "t1"),
        ("turn.start", "fallback", "t1"),
        ("turn.end", "fallback", "t1"),
        ("turn.start", "fallback", "t1"),
        ("turn.end", "fallback", "t1"),
        ("agent.end", "fallback", "t1"),
    ]


def test_the_sync_path_is_bound_too() -> None:
    """agent.invoke(): the middleware runs the bus in its own event loop."""
    bus, _ = make_bus()
    bus.intercept("tool.before", lambda c: c.block("read-only day"), tool="exec", id="freeze")
    bus.intercept("message.before", lambda m: setattr(m, "message", m.message + "!"), id="shout")
    ran: list[tuple[str, dict[str, Any]]] = []
    model = script(calls(("bash", {"command": "touch x"}, "c1")), AIMessage(content="ok"))
    agent = create_agent(model, make_tools(ran), middleware=[AgentbusMiddleware(bus)])

    agent.invoke({"messages": [HumanMessage("go")]})

    assert ran == []
    assert model.sent[0][0].text == "go!"
    assert json.loads(tool_results_seen(model)["c1"].text)["reason"] == "read-only day"


def test_a_missing_langchain_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "langchain.agents.middleware", None)
    monkeypatch.delitem(sys.modules, "agentbus.adapters.langchain")
    with pytest.raises(ImportError, match=r"pip install 'agentbus\[langchain\]'"):
        importlib.import_module("agentbus.adapters.langchain")


async def test_the_sync_hooks_refuse_to_block_a_running_event_loop() -> None:
    """A sync call from async code would deadlock; it fails with what to do instead."""
    middleware = AgentbusMiddleware(agentbus.Bus(log_level=None), points="all")

    with pytest.raises(RuntimeError, match=r"use agent\.ainvoke\(\)"):
        middleware.before_model({"messages": []}, None)


def test_coverage_reads_langchain_tools() -> None:
    @tool("write_to_file")
    def write_to_file(path: str, content: str) -> str:
        """Write a file."""
        return path

    registry = agentbus.Registry()
    builtin.install(registry)
    rows = agentbus.coverage([write_to_file, *make_tools([])], registry)
    assert [(row.name, row.kind) for row in rows] == [
        ("write_to_file", "write"),
        ("bash", "exec"),
        ("read", "read"),
    ]
    assert rows[0].guards == ("builtin:security-audit",)


# -- binding only what is registered ------------------------------------------------------


def agentbus_nodes(agent: Any) -> set[str]:
    return {name for name in agent.nodes if name.startswith("AgentbusMiddleware")}


def wraps_model_calls(middleware: AgentbusMiddleware) -> bool:
    """Whether LangChain will put the middleware around every model call (it reads the class)."""
    return type(middleware).awrap_model_call is not AgentMiddleware.awrap_model_call


async def test_without_layers_no_graph_node_is_added_yet_a_guard_registered_later_applies() -> None:
    bus, _ = make_bus()
    ran: list[tuple[str, dict[str, Any]]] = []
    model = script(calls(("bash", {"command": "rm -rf /"}, "c1")), AIMessage(content="done"))
    middleware = AgentbusMiddleware(bus)
    agent = create_agent(model, make_tools(ran), middleware=[middleware])
    assert agentbus_nodes(agent) == set()
    assert not wraps_model_calls(middleware)  # nor a wrapper around the model call
    assert middleware.points == {"tool.before", "tool.call", "tool.after"}

    @bus.intercept("tool.before", tool="exec", id="no-rm-rf")
    def no_rm_rf(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    await agent.ainvoke({"messages": [HumanMessage("clean up")]})

    assert ran == []
    assert json.loads(tool_results_seen(model)["c1"].text)["status"] == "blocked"


async def test_without_layers_the_graph_is_the_native_one_but_for_the_tool_hook() -> None:
    """No layer: the same nodes and state channels as the agent without agentbus (each one is work
    on every step of every run), no model-call wrapper; the tool hook only, carrying its own
    signature (LangSmith's traced wrapper asks for it on every call)."""
    bus, _ = make_bus()
    native = create_agent(script(AIMessage(content="hi")), make_tools([]))
    middleware = AgentbusMiddleware(bus)
    agent = create_agent(script(AIMessage(content="hi")), make_tools([]), middleware=[middleware])

    assert set(agent.nodes) == set(native.nodes)
    assert set(agent.channels) == set(native.channels)  # no agentbus_* state
    assert not wraps_model_calls(middleware)
    assert agent.nodes["tools"].bound._awrap_tool_call is not None  # so a guard registered later applies
    hook = middleware.awrap_tool_call
    assert list(vars(hook)["__signature__"].parameters) == ["request", "handler"]


async def test_a_point_with_layers_gets_its_hook_and_only_that_one() -> None:
    bus, _ = make_bus()
    turns: list[str] = []
    bus.intercept("turn.start", lambda event: turns.append(event.point), id="turns")
    agent = create_agent(script(AIMessage(content="hi")), [], middleware=[AgentbusMiddleware(bus)])

    assert agentbus_nodes(agent) == {"AgentbusMiddleware.before_model"}
    await agent.ainvoke({"messages": [HumanMessage("hi")]})
    assert turns == ["turn.start"]


async def test_a_layer_registered_after_the_agent_on_an_unbound_point_warns_at_the_next_tool_call() -> None:
    bus, _ = make_bus()
    model = script(
        calls(("bash", {"command": "ls"}, "c1")), AIMessage(content="done"),
        calls(("bash", {"command": "ls"}, "c2")), AIMessage(content="done"),
    )  # fmt: skip
    agent = create_agent(model, make_tools([]), middleware=[AgentbusMiddleware(bus)])
    bus.intercept("message.before", lambda m: None, id="tagger")

    with pytest.warns(UnboundPointWarning, match=r"message\.before has layers now.*create_agent again"):
        await agent.ainvoke({"messages": [HumanMessage("hi")]})
    await agent.ainvoke({"messages": [HumanMessage("again")]})  # once per point: no second warning


async def test_points_binds_a_point_up_front_so_a_layer_added_later_runs() -> None:
    bus, _ = make_bus()
    model = script(AIMessage(content="done"))
    agent = create_agent(model, [], middleware=[AgentbusMiddleware(bus, points=["message.before"])])
    assert agentbus_nodes(agent) == {"AgentbusMiddleware.before_agent"}

    @bus.intercept("message.before", id="rewrite")
    def rewrite(message: agentbus.Message) -> None:
        message.message = "rewritten"

    await agent.ainvoke({"messages": [HumanMessage("original")]})
    assert [m.text for m in model.sent[-1] if isinstance(m, HumanMessage)] == ["rewritten"]


async def test_points_all_binds_every_hook_and_a_bad_point_is_refused() -> None:
    bus, _ = make_bus()
    middleware = AgentbusMiddleware(bus, points="all")
    agent = create_agent(script(AIMessage(content="hi")), [], middleware=[middleware])
    assert agentbus_nodes(agent) == {
        "AgentbusMiddleware.before_agent",
        "AgentbusMiddleware.after_agent",
        "AgentbusMiddleware.before_model",
        "AgentbusMiddleware.after_model",
    }
    with pytest.raises(ValueError, match=r"'tool\.befor'.*not hook points"):
        AgentbusMiddleware(bus, points=["tool.befor"])


async def test_params_before_alone_sees_the_users_message_without_a_message_hook() -> None:
    bus, _ = make_bus()
    seen: list[str] = []
    bus.intercept("params.before", lambda params: seen.append(params.message), id="look")
    agent = create_agent(script(AIMessage(content="hi")), [], middleware=[AgentbusMiddleware(bus)])
    assert agentbus_nodes(agent) == set()  # params.before: a model-call wrapper, not a node

    await agent.ainvoke({"messages": [HumanMessage("what is up")]})
    assert seen == ["what is up"]


async def test_a_subclass_keeps_its_name_and_its_own_hooks_and_gets_the_bound_ones() -> None:
    bus, _ = make_bus()
    seen: list[str] = []

    class Audited(AgentbusMiddleware):
        async def aafter_agent(self, state: Any, runtime: Any) -> None:
            seen.append("after")

    bus.intercept("turn.start", lambda event: seen.append("turn"), id="turns")
    middleware = Audited(bus)
    agent = create_agent(script(AIMessage(content="hi")), [], middleware=[middleware])

    assert isinstance(middleware, Audited)
    assert {name for name in agent.nodes if name.startswith("Audited")} == {
        "Audited.before_model",
        "Audited.after_agent",
    }
    await agent.ainvoke({"messages": [HumanMessage("hi")]})
    assert seen == ["turn", "after"]


async def test_params_before_registered_after_the_agent_is_built_warns_unless_bound_up_front() -> None:
    bus, _ = make_bus()
    model = script(calls(("bash", {"command": "ls"}, "c1")), AIMessage(content="hi"))
    agent = create_agent(model, make_tools([]), middleware=[AgentbusMiddleware(bus)])
    seen: list[str] = []
    bus.intercept("params.before", lambda params: seen.append(params.message), id="look")

    with pytest.warns(UnboundPointWarning, match=r"params\.before has layers now"):
        await agent.ainvoke({"messages": [HumanMessage("late")]})
    assert seen == []  # no model-call wrapper was bound: the agent had no such layer when made

    middleware = AgentbusMiddleware(bus, points=["params.before"])
    bus.remove("look")
    agent = create_agent(script(AIMessage(content="hi")), [], middleware=[middleware])
    bus.intercept("params.before", lambda params: seen.append(params.message), id="look")
    await agent.ainvoke({"messages": [HumanMessage("bound")]})
    assert seen == ["bound"]

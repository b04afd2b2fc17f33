"""LangChain's ShellToolMiddleware keeps one bash for the agent run: a ``cd`` of one call moves the
next. Against a real ``create_agent`` loop and the real middleware (a local bash, nothing fetched)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("langchain.agents", reason="the langchain extra is not installed")

from langchain.agents import create_agent
from langchain.agents.middleware import ShellToolMiddleware
from langchain_core.messages import AIMessage, HumanMessage

import agentbus
from agentbus.adapters.langchain import AgentbusMiddleware
from agentbus.middleware import builtin

from .langchain_script import calls, script

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """LangGraph runs on asyncio only."""
    return "asyncio"


# langchain 1.5.2's ShellSession.stop leaves its pipes to the garbage collector.
@pytest.mark.filterwarnings("ignore::ResourceWarning", "ignore::pytest.PytestUnraisableExceptionWarning")
async def test_a_cd_in_the_shell_session_moves_where_later_calls_are_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home" / "dev"
    workspace = home / "project"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "main.py").write_text("print('hello from src')\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(workspace)  # the session starts where the shell does
    registry = agentbus.Registry()
    builtin.install(registry)
    bus = agentbus.Bus(registry, log_level=None)
    model = script(
        calls(("shell", {"command": "cd src"}, "c1")),
        calls(("shell", {"command": "cat main.py"}, "c2")),
        calls(("shell", {"command": "cd /root"}, "c3")),
        calls(("shell", {"command": "cat root.txt"}, "c4")),
        AIMessage(content="done"),
    )
    shell = ShellToolMiddleware(workspace_root=workspace)
    agent = create_agent(model, [], middleware=[AgentbusMiddleware(bus), shell])

    state = await agent.ainvoke({"messages": [HumanMessage("look around")]})

    results = {m.tool_call_id: m for m in state["messages"] if getattr(m, "tool_call_id", None)}
    assert "hello from src" in str(results["c2"].content)  # src/main.py, read in src: allowed
    refused = json.loads(str(results["c4"].content))
    assert refused["status"] == "blocked"
    assert "/root/root.txt" in refused["reason"]

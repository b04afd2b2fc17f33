"""The scripted chat model and helpers the LangChain adapter's tests share.

LangChain's own ``FakeMessagesListChatModel`` (scripted AI messages with tool
calls), given the ``bind_tools`` that real chat models have and a memory of every
call: the messages it was sent, the settings it was bound with, the tools offered.
Import it after ``pytest.importorskip("langchain.agents")``.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatResult
from pydantic import Field


class ScriptModel(FakeMessagesListChatModel):
    """LangChain's fake chat model, with tools bound and every call remembered."""

    sent: list[list[BaseMessage]] = Field(default_factory=list)
    settings: list[dict[str, Any]] = Field(default_factory=list)
    offered: list[dict[str, str]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
        self.offered.append({t.name: t.description for t in tools})
        return self.bind(**kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        self.sent.append(list(messages))
        self.settings.append(kwargs)
        return super()._generate(messages, stop, run_manager, **kwargs)


def script(*responses: AIMessage) -> ScriptModel:
    return ScriptModel(responses=list(responses))


def calls(*tool_calls: tuple[str, dict[str, Any], str]) -> AIMessage:
    """An AI message asking for these tool calls: (name, args, call id) each."""
    return AIMessage(content="", tool_calls=[{"name": n, "args": a, "id": i} for n, a, i in tool_calls])


def tool_results_seen(model: ScriptModel) -> dict[str, ToolMessage]:
    """The ToolMessages in the model's last input, by tool call id."""
    return {m.tool_call_id: m for m in model.sent[-1] if isinstance(m, ToolMessage)}

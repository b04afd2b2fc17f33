"""The scripted model and helpers the OpenAI Agents adapter's tests share.

A small implementation of the SDK's ``Model`` interface: it returns one scripted
turn per call (tool calls, then a final message) and keeps everything it was
given, so the tests see exactly what the model saw. Import it after
``pytest.importorskip("agents")``.
"""

from __future__ import annotations

import json
from typing import Any

from agents import ModelResponse, ModelSettings, Usage
from agents.models.interface import Model
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText


def tool_call(name: str, args: dict[str, Any], call_id: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        type="function_call", id=f"fc_{call_id}", call_id=call_id, name=name, arguments=json.dumps(args)
    )


def final(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg_final", type="message", role="assistant", status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )  # fmt: skip


class ScriptModel(Model):
    """Returns one scripted turn per call and remembers what it was sent: the input, the
    model settings, the instructions and the tools offered (names and descriptions)."""

    def __init__(self, *turns: list[Any]) -> None:
        self.turns = list(turns)
        self.inputs: list[Any] = []
        self.settings: list[ModelSettings] = []
        self.instructions: list[Any] = []
        self.tools: list[list[str]] = []
        self.descriptions: list[dict[str, str]] = []

    async def get_response(
        self, system_instructions: Any, input: Any, model_settings: Any, tools: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        self.inputs.append(input)
        self.settings.append(model_settings)
        self.instructions.append(system_instructions)
        self.tools.append([tool.name for tool in tools])
        self.descriptions.append({tool.name: getattr(tool, "description", "") for tool in tools})
        return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("these tests do not stream")

"""OpenTelemetry export, checked with the SDK's in-memory exporter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest

import agentbus

pytest.importorskip("opentelemetry.sdk", reason="the otel extra is not installed: pip install '.[otel]'")

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from agentbus.otel import export_to_otel

pytestmark = pytest.mark.anyio


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    yield exporter
    exporter.shutdown()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> Iterator[TracerProvider]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider
    provider.shutdown()


def guarded_bus(provider: TracerProvider) -> agentbus.Bus:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", tool=r"^exec$", priority=100, id="no-rm")
    def no_rm(call: agentbus.ToolCall) -> None:
        if "rm -rf" in call.args["command"]:
            call.block("rm -rf is not allowed")

    @bus.intercept("tool.before", tool=r"^exec$", id="inject-cwd")
    def inject(call: agentbus.ToolCall) -> None:
        call.args["cwd"] = "/work"

    @bus.intercept("tool.after", id="redact")
    def redact(result: agentbus.ToolResult) -> None:
        if isinstance(result.result, str):
            result.result = result.result.replace("sk-1", "[REDACTED]")

    export_to_otel(bus, tracer_provider=provider)
    return bus


def ok(args: dict[str, Any]) -> str:
    return "key sk-1"


def boom(args: dict[str, Any]) -> str:
    raise ValueError("disk full")


def attrs(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


async def test_a_tool_call_is_one_span_with_genai_attributes_and_layer_events(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = guarded_bus(provider)
    await bus.call_tool("bash", {"command": "ls"}, ok, call_id="c1", agent_id="main", session_key="s1")
    (span,) = exporter.get_finished_spans()
    assert span.name == "execute_tool exec"
    assert attrs(span) == {
        "agentbus.point": "tool.call",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "exec",
        "gen_ai.tool.call.id": "c1",
        "gen_ai.agent.id": "main",
        "gen_ai.conversation.id": "s1",
        "agentbus.changed": ("args.cwd", "result"),
    }
    assert [(e.name, (e.attributes or {})["agentbus.id"]) for e in span.events] == [
        ("agentbus.interception", "no-rm"),
        ("agentbus.interception", "inject-cwd"),
        ("agentbus.interception", "redact"),
    ]
    assert span.start_time is not None
    assert span.end_time is not None
    assert span.start_time <= span.end_time
    assert all(span.start_time <= e.timestamp <= span.end_time for e in span.events)


async def test_values_are_never_exported(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    bus = guarded_bus(provider)
    await bus.call_tool("exec", {"command": "ls"}, ok)
    (span,) = exporter.get_finished_spans()
    exported = repr(attrs(span)) + repr([e.attributes for e in span.events])
    assert "sk-1" not in exported
    assert "/work" not in exported


async def test_a_blocked_call_names_the_decision_reason_and_layer(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = guarded_bus(provider)
    await bus.call_tool("exec", {"command": "rm -rf /"}, ok)
    (span,) = exporter.get_finished_spans()
    assert attrs(span)["agentbus.decision"] == "block"
    assert attrs(span)["agentbus.reason"] == "rm -rf is not allowed"
    assert attrs(span)["agentbus.blocked_by"] == "no-rm"
    assert span.status.status_code is StatusCode.UNSET


async def test_a_failing_tool_marks_the_span_as_an_error(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = guarded_bus(provider)
    await bus.call_tool("exec", {"command": "ls"}, boom)
    (span,) = exporter.get_finished_spans()
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == "ValueError: disk full"
    assert attrs(span)["error.type"] == "ValueError"


async def test_message_and_params_dispatches_are_spans_too(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("message.before", id="classify")
    def classify(message: agentbus.Message) -> None:
        message.metadata["complexity"] = "high"

    export_to_otel(bus, tracer_provider=provider)
    await bus.prepare("debug this", agent_id="helper")
    message, params = exporter.get_finished_spans()
    assert (message.name, params.name) == ("agentbus message.before", "agentbus params.before")
    assert attrs(message)["agentbus.changed"] == ("metadata.complexity",)
    assert attrs(message)["gen_ai.agent.id"] == "helper"
    assert [(e.attributes or {})["agentbus.id"] for e in message.events] == ["classify"]
    assert params.events == ()


async def test_spans_are_children_of_the_span_current_in_the_agents_task(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = guarded_bus(provider)
    with provider.get_tracer("agent").start_as_current_span("invoke_agent main") as parent:
        await bus.call_tool("exec", {"command": "ls"}, ok)
    tool_span = next(s for s in exporter.get_finished_spans() if s.name == "execute_tool exec")
    assert tool_span.parent is not None
    assert tool_span.parent.span_id == parent.get_span_context().span_id


async def test_concurrent_calls_keep_their_own_events(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("tool.before", id="slow-gate")
    async def slow_gate(call: agentbus.ToolCall) -> None:
        await anyio.sleep(0.01)

    export_to_otel(bus, tracer_provider=provider)

    async def call(n: int) -> None:
        await bus.call_tool("exec", {"n": n}, ok, call_id=f"c{n}")

    async with anyio.create_task_group() as tasks:
        for n in range(5):
            tasks.start_soon(call, n)
    spans = exporter.get_finished_spans()
    assert sorted(attrs(s)["gen_ai.tool.call.id"] for s in spans) == [f"c{n}" for n in range(5)]
    assert all(len(s.events) == 1 for s in spans)


async def test_lifecycle_interceptions_are_events_on_the_current_span(
    provider: TracerProvider, exporter: InMemorySpanExporter
) -> None:
    bus = agentbus.Bus(log_level=None)

    @bus.intercept("turn.start", id="count-turns")
    def count(event: agentbus.Lifecycle) -> None:
        pass

    export_to_otel(bus, tracer_provider=provider)
    with provider.get_tracer("agent").start_as_current_span("invoke_agent main"):
        await bus.notify("turn.start", agent_id="main")
    (agent_span,) = exporter.get_finished_spans()
    assert [(e.attributes or {})["agentbus.id"] for e in agent_span.events] == ["count-turns"]


async def test_undo_stops_the_export(provider: TracerProvider, exporter: InMemorySpanExporter) -> None:
    bus = agentbus.Bus(log_level=None)
    undo = export_to_otel(bus, tracer_provider=provider)
    undo()
    await bus.call_tool("exec", {"command": "ls"}, ok)
    assert exporter.get_finished_spans() == ()

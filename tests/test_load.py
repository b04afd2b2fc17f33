"""Load without loss (issue 7): 100,000 tool calls, 1,000 in flight, 10 layers, every sink counted.

Each call goes through ten layers (six tool.before handlers, two tool.call
middleware, two tool.after handlers). Exactly one layer per call changes
something (``tag`` writes the call id into the args), so every sink that
listens at INFO gets exactly one record per intercepted call; the other nine
layers run unobserved. The test checks that every call got its own result (no
cross-talk between concurrent events), that the structlog sink and a
subscriber that keeps up each saw every call's record exactly once, and that a
subscriber that reads nothing only loses records (counted), never blocks a call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import anyio
import anyio.lowlevel
import pytest
import structlog

from agentbus import Bus, Record, ToolCall, ToolResult

pytestmark = [pytest.mark.anyio, pytest.mark.load]

CALLS = 100_000
IN_FLIGHT = 1_000
SLOW_BUFFER = 100


@pytest.fixture
def structlog_counter() -> Iterator[Counter[str]]:
    """Route structlog through a processor chain that counts call ids and renders nothing."""
    seen: Counter[str] = Counter()

    def count(logger: Any, method: str, event: dict[str, Any]) -> dict[str, Any]:
        seen[event["call_id"]] += 1
        raise structlog.DropEvent

    saved = structlog.get_config()
    structlog.configure(
        processors=[count],
        wrapper_class=structlog.make_filtering_bound_logger(0),
        cache_logger_on_first_use=False,
    )
    try:
        yield seen
    finally:
        structlog.configure(**saved)


def ten_layers(bus: Bus, mismatches: list[str]) -> None:
    for index in range(5):
        bus.intercept("tool.before", lambda call: None, id=f"pass-{index}", priority=10 - index)

    @bus.intercept("tool.before", id="tag")
    async def tag(call: ToolCall) -> None:
        call.args["tag"] = call.call_id

    async def pass_through(call: ToolCall, call_next: Any) -> Any:
        return await call_next(call)

    bus.middleware("tool.call", pass_through, id="outer")
    bus.middleware("tool.call", pass_through, id="inner")

    @bus.intercept("tool.after", id="check")
    def check(event: ToolResult) -> None:
        if event.result != (event.args["i"], event.call_id):
            mismatches.append(event.call_id)

    bus.intercept("tool.after", lambda event: None, id="after-pass")


async def test_100k_calls_1k_in_flight_nothing_lost_nothing_mixed_up(structlog_counter: Counter[str]) -> None:
    bus = Bus(log_level="info")
    mismatches: list[str] = []
    ten_layers(bus, mismatches)
    results: list[Any] = [None] * CALLS
    in_flight = 0
    most_in_flight = 0
    kept_up: Counter[str] = Counter()
    changes_seen: list[str] = []

    async def tool(args: dict[str, Any]) -> tuple[int, str]:
        nonlocal in_flight, most_in_flight
        in_flight += 1
        most_in_flight = max(most_in_flight, in_flight)
        await anyio.lowlevel.checkpoint()
        in_flight -= 1
        return (args["i"], args["tag"])

    numbers = iter(range(CALLS))

    async def agent() -> None:
        for number in numbers:
            call_id = f"c{number}"
            result = await bus.call_tool("exec", {"i": number}, tool, call_id=call_id)
            if results[number] is not None:
                mismatches.append(f"{call_id} answered twice")
            results[number] = result

    async def keep_up(records: Any) -> None:
        # Read everything buffered before waiting again: a subscriber that keeps up.
        async for record in records:
            take(record)
            while True:
                try:
                    take(records.receive_nowait())
                except anyio.WouldBlock:
                    break

    def take(record: Record) -> None:
        kept_up[record.call_id or ""] += 1
        if record.changes != {"args.tag": (None, record.call_id)} or record.id != "tag":
            changes_seen.append(repr(record))

    async with (
        bus.subscribe(max_buffer=CALLS, level="info") as fast,
        bus.subscribe(max_buffer=SLOW_BUFFER, level="info") as slow,
    ):
        async with anyio.create_task_group() as consumers:
            consumers.start_soon(keep_up, fast)
            async with anyio.create_task_group() as agents:
                for _ in range(IN_FLIGHT):
                    agents.start_soon(agent)
            fast.close()
        assert slow.dropped == CALLS - SLOW_BUFFER  # it fell behind: counted, and no call waited for it
        assert fast.dropped == 0

    assert most_in_flight >= IN_FLIGHT
    assert mismatches == []
    assert results == [(number, f"c{number}") for number in range(CALLS)]
    every_call = Counter(f"c{number}" for number in range(CALLS))
    assert kept_up == every_call
    assert changes_seen == []
    assert structlog_counter == every_call

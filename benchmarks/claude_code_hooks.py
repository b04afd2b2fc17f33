"""What one Claude Code hook call costs: a command hook process vs. a request to `agentbus serve`.

    python benchmarks/claude_code_hooks.py [--runs 30] [--requests 2000]

The command hook is timed as Claude Code runs it: a new process per event, the
event on stdin, until it exits (interpreter start-up included), next to a bare
``python -c pass`` for scale. The server is timed per request from a client on
one keep-alive connection and on a new connection per request, over loopback,
with the same PreToolUse event and the default middleware (the built-in guards).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
import h11
from anyio.abc import SocketAttribute

import agentbus
from agentbus.hook import build_registry
from agentbus.serve import HOOK_PATH, HookServer

EVENT = json.dumps(
    {
        "session_id": "bench",
        "transcript_path": "/tmp/bench.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
        "tool_use_id": "toolu_bench",
    }
).encode()
AGENTBUS = [sys.executable, "-c", "import sys; from agentbus.cli import main; sys.exit(main())"]


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (
        f"{label:<44} median {statistics.median(ms):8.2f} ms   mean {statistics.fmean(ms):8.2f} ms"
        f"   p99 {p99:8.2f} ms   (n={len(ms)})"
    )


def time_process(command: list[str], stdin: bytes, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, input=stdin, capture_output=True, check=True, cwd="/tmp")
        times.append(time.perf_counter() - started)
    return times


def encode_request(client: h11.Connection, *, close: bool = False) -> bytes:
    headers = [
        ("host", "127.0.0.1"),
        ("content-type", "application/json"),
        ("content-length", str(len(EVENT))),
    ]
    if close:
        headers.append(("connection", "close"))
    return b"".join(
        [
            client.send(h11.Request(method="POST", target=HOOK_PATH, headers=headers)) or b"",
            client.send(h11.Data(data=EVENT)) or b"",
            client.send(h11.EndOfMessage()) or b"",
        ]
    )


async def read_response(client: h11.Connection, stream: anyio.abc.ByteStream) -> int:
    status = 0
    while True:
        event = client.next_event()
        if event is h11.NEED_DATA:
            client.receive_data(await stream.receive())
        elif isinstance(event, h11.Response):
            status = event.status_code
        elif isinstance(event, h11.EndOfMessage):
            return status


async def time_server(requests: int) -> tuple[list[float], list[float]]:
    registry, _ = build_registry(None, [])
    server = HookServer(agentbus.Bus(registry, log_level=None))
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port = listener.extra(SocketAttribute.local_port)
    keep_alive, fresh = [], []
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, listener)
        async with await anyio.connect_tcp("127.0.0.1", port) as stream:
            client = h11.Connection(h11.CLIENT)
            for _ in range(requests):
                started = time.perf_counter()
                await stream.send(encode_request(client))
                assert await read_response(client, stream) == 200
                keep_alive.append(time.perf_counter() - started)
                client.start_next_cycle()
        for _ in range(max(requests // 4, 1)):
            started = time.perf_counter()
            async with await anyio.connect_tcp("127.0.0.1", port) as stream:
                client = h11.Connection(h11.CLIENT)
                await stream.send(encode_request(client, close=True))
                assert await read_response(client, stream) == 200
            fresh.append(time.perf_counter() - started)
        tg.cancel_scope.cancel()
    return keep_alive, fresh


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=30, help="hook processes to time")
    parser.add_argument("--requests", type=int, default=2000, help="server requests to time")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]} on {sys.platform}, agentbus {agentbus.__version__}")
    print(
        summary(
            "python -c pass (interpreter start-up)",
            time_process([sys.executable, "-c", "pass"], b"", args.runs),
        )
    )
    hook = [*AGENTBUS, "hook", "claude-code", "--no-audit-log"]
    print(summary("agentbus hook claude-code (PreToolUse)", time_process(hook, EVENT, args.runs)))
    audit = Path("/tmp/agentbus-bench-audit.jsonl")
    print(
        summary(
            "agentbus hook claude-code + audit log",
            time_process([*AGENTBUS, "hook", "claude-code", "--audit-log", str(audit)], EVENT, args.runs),
        )
    )
    audit.unlink(missing_ok=True)
    keep_alive, fresh = anyio.run(time_server, args.requests)
    print(summary("agentbus serve, keep-alive connection", keep_alive))
    print(summary("agentbus serve, new connection per request", fresh))


if __name__ == "__main__":
    main()

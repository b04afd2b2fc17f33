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
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
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
        "transcript_path": "bench.jsonl",
        "cwd": ".",
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


def time_process(command: list[str], stdin: bytes, runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (user + system) seconds per process: on a busy machine the CPU
    time says what the hook costs, the wall time what Claude Code waits.

    Byte code is compiled first and may be cached, as in an installed package (a
    PYTHONDONTWRITEBYTECODE environment would otherwise time the compiler).
    """
    compileall.compile_dir(Path(agentbus.__file__).parent, quiet=1)
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            command, input=stdin, capture_output=True, check=True, cwd=tempfile.gettempdir(), env=environment
        )
        wall.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def report_process(label: str, command: list[str], stdin: bytes, runs: int) -> None:
    wall, cpu = time_process(command, stdin, runs)
    print(summary(f"{label}, wall", wall))
    print(summary(f"{label}, CPU", cpu))


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
    report_process("python -c pass", [sys.executable, "-c", "pass"], b"", args.runs)
    hook = [*AGENTBUS, "hook", "claude-code", "--no-audit-log"]
    report_process("agentbus hook (PreToolUse)", hook, EVENT, args.runs)
    with tempfile.TemporaryDirectory() as directory:
        audit = str(Path(directory) / "audit.jsonl")
        report_process(
            "agentbus hook + audit log",
            [*AGENTBUS, "hook", "claude-code", "--audit-log", audit],
            EVENT,
            args.runs,
        )
    keep_alive, fresh = anyio.run(time_server, args.requests)
    print(summary("agentbus serve, keep-alive connection", keep_alive))
    print(summary("agentbus serve, new connection per request", fresh))


if __name__ == "__main__":
    main()

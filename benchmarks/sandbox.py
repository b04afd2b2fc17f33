"""What the sandbox adds to one exec command: confined vs. the same command unconfined.

    python benchmarks/sandbox.py [--runs 40]

Each command runs as the bus rewrites it (``python -I -S …/_launch.py [rules] --
bash -c CMD``, the rules from :class:`agentbus.middleware.sandbox.Sandbox`) and
as the plain ``bash -c CMD``, alternating so that both see the same load. Wall
time is what the agent waits; CPU time (user + system of the child processes)
is what the sandbox costs on a machine that is busy with other work. Most of the
added time is one Python start-up: the table also gives the confined time minus a
Python that only starts and execs the command (the launcher's own work). Also timed:
the layer's own work in the bus per call (finding the sensitive paths, building
the command line). The target is at most 20 ms added per command.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

import agentbus
from agentbus.guards import _landlock
from agentbus.middleware.sandbox import Sandbox

COMMANDS = ("true", f"{shlex.quote(sys.executable)} -I -c pass", "git --version")


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_once(argv: list[str], cwd: str) -> tuple[float, float]:
    cpu, start = cpu_of_children(), time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start, cpu_of_children() - cpu


def compare(command: str, layer: Sandbox, project: str, runs: int) -> dict[str, float]:
    policy = layer.policy()
    confined = shlex.split(shlex.join([*layer.launcher_argv(policy, "landlock"), "bash", "-c", command]))
    plain = ["bash", "-c", command]
    # The floor of any launcher written in Python: start the interpreter, exec the command.
    bare = [layer.python, "-I", "-S", "-c", "import os, sys; os.execvp(sys.argv[1], sys.argv[1:])", *plain]
    variants = {"plain": plain, "bare": bare, "confined": confined}
    walls: dict[str, list[float]] = {name: [] for name in variants}
    cpus: dict[str, list[float]] = {name: [] for name in variants}
    for argv in variants.values():  # warm the caches (.pyc, page cache)
        time_once(argv, project)
    for _ in range(runs):
        for name, argv in variants.items():
            wall, cpu = time_once(argv, project)
            walls[name].append(wall * 1000)
            cpus[name].append(cpu * 1000)
    plain_ms, confined_ms = statistics.median(walls["plain"]), statistics.median(walls["confined"])
    return {
        "beyond_python_ms": confined_ms - statistics.median(walls["bare"]),
        "plain_ms": plain_ms,
        "confined_ms": confined_ms,
        "added_ms": confined_ms - plain_ms,
        "ratio": confined_ms / plain_ms,
        "added_cpu_ms": statistics.median(cpus["confined"]) - statistics.median(cpus["plain"]),
    }


def layer_cost(layer: Sandbox, runs: int) -> float:
    """Median ms of the bus's work per exec call (policy and command line), without running it."""
    bus = agentbus.Bus(log_level=None)
    bus.intercept("tool.before", layer, tool="exec")

    async def noop(args: dict[str, object]) -> None:
        return None

    async def measure() -> float:
        await bus.call_tool("exec", {"command": "true"}, noop)  # probes the launcher once
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            await bus.call_tool("exec", {"command": "true"}, noop)
            samples.append((time.perf_counter() - start) * 1000)
        return statistics.median(samples)

    return anyio.run(measure)


def _short(command: str) -> str:
    program, *rest = command.split()
    return " ".join([program.rsplit("/", 1)[-1], *rest])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    if _landlock.abi_version() == 0:
        raise SystemExit("this kernel has no Landlock: nothing to measure")
    with tempfile.TemporaryDirectory() as root:
        project = str(Path(root) / "project")
        Path(project).mkdir()
        print(f"{'command':<18.18} {'network':<9} {'plain ms':>9} {'confined ms':>12} {'added ms':>9} "
              f"{'ratio':>6} {'added CPU ms':>13} {'beyond Python start ms':>23}")  # fmt: skip
        for network in ("off", "loopback"):
            layer = Sandbox(project=project, network=network)
            for command in COMMANDS:
                row = compare(command, layer, project, args.runs)
                print(
                    f"{_short(command):<18.18} {network:<9} {row['plain_ms']:9.2f} "
                    f"{row['confined_ms']:12.2f} {row['added_ms']:9.2f} {row['ratio']:6.2f} "
                    f"{row['added_cpu_ms']:13.2f} {row['beyond_python_ms']:23.2f}"
                )
        print(
            f"the layer's work in the bus per exec call: {layer_cost(Sandbox(project=project), 200):.3f} ms"
        )
        print(
            "(medians; the target is at most 20 ms added per command. 'beyond Python start' is the"
            " confined time minus a Python that only starts and execs the command: the launcher's"
            " own work)"
        )


if __name__ == "__main__":
    main()

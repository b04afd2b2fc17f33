"""``agentbus bench``: the overhead of interception, against baselines in the same run.

Every scenario is measured in one process, on each backend, in alternating
rounds (so machine drift hits all of them alike), and reported as the median
nanoseconds per call. Per-layer costs are least-squares slopes over the layer
counts. Targets are ratios between scenarios of the same run, never absolute
times: the machine is shared and noisy, ratios are not.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import Any

import anyio
import anyio.lowlevel
import attrs

__all__ = ["EXAMPLES", "Result", "Scenario", "add_arguments", "run", "run_benchmarks"]

EXAMPLES = """\
examples:
  agentbus bench                                 the whole grid, a table on the console
  agentbus bench --json results.json             also write the results as JSON
  agentbus bench --middleware mypkg.policy:install --tool exec --args '{"command": "ls"}'
                                                 your own stack against the same baselines
  agentbus bench --quick --backend asyncio       fewer rounds, one backend
"""

LAYER_COUNTS = (1, 5, 10, 20)
CONCURRENT_CALLS = 10_000
CONCURRENT_LAYERS = 5

Once = Callable[[], Awaitable[Any]]


@attrs.frozen
class Scenario:
    """One thing to time: ``setup()`` builds it (untimed) and returns one call."""

    name: str
    layers: int
    setup: Callable[[], Once]
    doc: str
    per_call_batch: int = 1
    """How many calls one ``once()`` makes (concurrent scenarios run a whole batch)."""


@attrs.frozen
class Result:
    name: str
    backend: str
    layers: int
    ns_per_call: float
    samples: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": self.backend,
            "layers": self.layers,
            "ns_per_call": round(self.ns_per_call, 1),
            "samples": [round(s, 1) for s in self.samples],
        }


# -- the tool and the layers every scenario shares ------------------------------------


async def _tool(args: dict[str, Any]) -> str:
    return "ok"


ARGS: dict[str, Any] = {"command": "ls"}


def _sync_handler(call: Any) -> None:
    call.args["n"] = 1


async def _async_handler(call: Any) -> None:
    call.args["n"] = 1


async def _asgi_middleware(call: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
    call.args["n"] = 1
    return await call_next(call)


# -- scenarios ------------------------------------------------------------------------


def direct() -> Once:
    """``await tool(args)``: the floor every other scenario is compared with."""
    return lambda: _tool(ARGS)


def _closure_chain(
    tool: Callable[[dict[str, Any]], Awaitable[Any]], layers: int
) -> Callable[[dict[str, Any]], Awaitable[Any]]:
    def wrap(inner: Callable[[dict[str, Any]], Awaitable[Any]]) -> Callable[[dict[str, Any]], Awaitable[Any]]:
        async def layer(event: dict[str, Any]) -> Any:
            event["n"] = 1
            return await inner(event)

        return layer

    chain = tool
    for _ in range(layers):
        chain = wrap(chain)
    return chain


def closure(layers: int) -> Once:
    """A hand-written chain of N async closures, each ``return await call_next(event)``:
    the practical floor for an ASGI-style chain."""
    chain = _closure_chain(_tool, layers)
    return lambda: chain(dict(ARGS))


def pluggy_hook(layers: int) -> Once:
    """A pluggy hook with N implementations that mutate an argument, then the tool:
    the Python hook library most people know (sync hooks, as pluggy has no async)."""
    import pluggy

    spec = pluggy.HookspecMarker("bench")
    impl = pluggy.HookimplMarker("bench")

    class Spec:
        @spec
        def tool_before(self, args: dict[str, Any]) -> None: ...

    manager = pluggy.PluginManager("bench")
    manager.add_hookspecs(Spec)
    for _ in range(layers):

        class Plugin:
            @impl
            def tool_before(self, args: dict[str, Any]) -> None:
                args["n"] = 1

        manager.register(Plugin())
    hook = manager.hook.tool_before

    async def once() -> Any:
        args = dict(ARGS)
        hook(args=args)
        return await _tool(args)

    return once


def _bus(**options: Any) -> Any:
    from .bus import Bus

    options.setdefault("log_level", None)
    return Bus(**options)


def agentbus_empty() -> Once:
    """The whole tool-call pipeline with no layers registered (layers 0)."""
    bus = _bus()
    return lambda: bus.call_tool("exec", ARGS, _tool)


def agentbus_layers(kind: str, layers: int, **bus_options: Any) -> Once:
    """The pipeline with N tool.before layers of one kind that mutate an argument."""
    bus = _bus(**bus_options)
    for index in range(layers):
        if kind == "sync":
            bus.intercept("tool.before", _sync_handler, id=f"sync-{index}")
        elif kind == "async":
            bus.intercept("tool.before", _async_handler, id=f"async-{index}")
        else:
            bus.middleware("tool.before", _asgi_middleware, id=f"asgi-{index}")
    return lambda: bus.call_tool("exec", ARGS, _tool)


class _NullFile(io.StringIO):
    """A sink that accepts writes and keeps nothing (faster than /dev/null: no syscall)."""

    def write(self, text: str) -> int:
        return len(text)


def _configure_structlog_json() -> None:
    import structlog

    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(0),
        logger_factory=structlog.WriteLoggerFactory(file=_NullFile()),
        cache_logger_on_first_use=False,
    )


def structlog_json() -> Once:
    """One bare structlog JSON line to a null sink: what a log line costs at all."""
    import structlog

    _configure_structlog_json()
    logger = structlog.get_logger("agentbus")

    async def once() -> None:
        logger.info("interception", point="tool.before", id="x", tool="exec")

    return once


def agentbus_json(layers: int) -> Once:
    """N sync handler layers, every interception a record logged by structlog as a JSON
    line (a null sink): the cost of full observation."""
    _configure_structlog_json()
    return agentbus_layers("sync", layers, log_level="debug")


def agentbus_filtered(layers: int) -> Once:
    """As agentbus-json, but the bus's log level filters the records out (only failures,
    and there are none): what the audit trail costs while nobody reads it."""
    _configure_structlog_json()
    return agentbus_layers("sync", layers, log_level="error")


def _concurrent(call: Callable[[], Coroutine[Any, Any, Any]]) -> Once:
    calls = CONCURRENT_CALLS

    async def once() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(calls):
                tg.start_soon(call)

    return once


async def _yielding_tool(args: dict[str, Any]) -> str:
    await anyio.lowlevel.checkpoint()  # every call parks once, so that all of them are in flight together
    return "ok"


def concurrent_closure() -> Once:
    """10,000 calls in flight at once through 5 closure layers (ns per call)."""
    chain = _closure_chain(_yielding_tool, CONCURRENT_LAYERS)

    async def call() -> Any:
        return await chain(dict(ARGS))

    return _concurrent(call)


def concurrent_agentbus() -> Once:
    """10,000 calls in flight at once through 5 agentbus sync layers (ns per call)."""
    bus = _bus()
    for index in range(CONCURRENT_LAYERS):
        bus.intercept("tool.before", _sync_handler, id=f"sync-{index}")
    return _concurrent(lambda: bus.call_tool("exec", ARGS, _yielding_tool))


def user_stack(references: list[str], tool: str, args: dict[str, Any]) -> Once:
    """The user's own middleware (``--middleware``), on one representative call."""
    from .config import MiddlewareSpec
    from .registry import Registry

    registry = Registry()
    for reference in references:
        MiddlewareSpec(use=reference, source="--middleware").install(registry)
    bus = _bus(registry=registry)
    return lambda: bus.call_tool(tool, args, _tool)


def grid(*, with_pluggy: bool, user: Callable[[], Once] | None = None) -> list[Scenario]:
    """Every in-process scenario, with its layer counts."""
    scenarios = [
        Scenario("direct", 0, direct, direct.__doc__ or ""),
        Scenario("agentbus-empty", 0, agentbus_empty, agentbus_empty.__doc__ or ""),
        Scenario("structlog-json", 0, structlog_json, structlog_json.__doc__ or ""),
    ]
    for n in LAYER_COUNTS:
        scenarios += [
            Scenario("closure", n, partial(closure, n), closure.__doc__ or ""),
            Scenario("agentbus-sync", n, partial(agentbus_layers, "sync", n), "sync handlers"),
            Scenario("agentbus-async", n, partial(agentbus_layers, "async", n), "async handlers"),
            Scenario("agentbus-asgi", n, partial(agentbus_layers, "asgi", n), "ASGI middleware"),
            Scenario("agentbus-json", n, partial(agentbus_json, n), agentbus_json.__doc__ or ""),
            Scenario("agentbus-filtered", n, partial(agentbus_filtered, n), agentbus_filtered.__doc__ or ""),
        ]
        if with_pluggy:
            scenarios.append(Scenario("pluggy", n, partial(pluggy_hook, n), pluggy_hook.__doc__ or ""))
    scenarios += [
        Scenario(
            "concurrent-closure",
            CONCURRENT_LAYERS,
            concurrent_closure,
            concurrent_closure.__doc__ or "",
            CONCURRENT_CALLS,
        ),
        Scenario(
            "concurrent-agentbus",
            CONCURRENT_LAYERS,
            concurrent_agentbus,
            concurrent_agentbus.__doc__ or "",
            CONCURRENT_CALLS,
        ),
    ]
    if user is not None:
        scenarios.append(Scenario("user-stack", 0, user, "your --middleware stack"))
    return scenarios


# -- measuring ------------------------------------------------------------------------


async def _time(once: Once, iterations: int) -> float:
    started = time.perf_counter_ns()
    for _ in range(iterations):
        await once()
    return (time.perf_counter_ns() - started) / iterations


async def _measure_backend(
    scenarios: list[Scenario], rounds: int, budget_ns: float
) -> dict[int, list[float]]:
    import structlog

    saved = structlog.get_config()
    samples: dict[int, list[float]] = {i: [] for i in range(len(scenarios))}
    try:
        built = []
        for scenario in scenarios:
            once = scenario.setup()
            await _time(once, 3)  # warm up: compile stacks, fill caches
            first = await _time(once, 10)
            iterations = max(1, min(20_000, int(budget_ns / max(first, 1.0))))
            built.append((scenario, once, iterations))
        for _ in range(rounds):
            for index, (scenario, once, iterations) in enumerate(built):
                if scenario.name in ("structlog-json", "agentbus-json", "agentbus-filtered"):
                    _configure_structlog_json()
                ns = await _time(once, iterations)
                samples[index].append(ns / scenario.per_call_batch)
    finally:
        structlog.configure(**saved)
    return samples


def _import_floor_ns() -> float:
    return _process_ns([sys.executable, "-c", "import anyio, attrs, structlog"])


def _hook_process_ns() -> float | None:
    from .cli import COMMANDS

    if "hook" not in COMMANDS:
        return None
    payload = json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": os.getcwd(),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls -la"},
        }
    )
    return _process_ns(
        [sys.executable, "-m", "agentbus", "hook", "claude-code", "--no-audit-log"], stdin=payload
    )


def _process_ns(argv: list[str], stdin: str = "", repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter_ns()
        subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
        times.append(time.perf_counter_ns() - started)
    return statistics.median(times)


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of ns per call over the layer count."""
    n = len(points)
    if n < 2:
        return float("nan")
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx


def run_benchmarks(
    *,
    backends: tuple[str, ...] = ("asyncio", "trio"),
    rounds: int = 7,
    budget_ms: float = 4.0,
    processes: bool = True,
    user: Callable[[], Once] | None = None,
) -> dict[str, Any]:
    """Run the grid; return the JSON document (``scenarios``, ``slopes``, ``targets``)."""
    with_pluggy = importlib.util.find_spec("pluggy") is not None
    scenarios = grid(with_pluggy=with_pluggy, user=user)
    results: list[Result] = []
    for backend in backends:
        samples = anyio.run(_measure_backend, scenarios, rounds, budget_ms * 1e6, backend=backend)
        for index, scenario in enumerate(scenarios):
            values = samples[index]
            results.append(
                Result(scenario.name, backend, scenario.layers, statistics.median(values), tuple(values))
            )
    if processes:
        floor = _import_floor_ns()
        results.append(Result("import-floor", "process", 0, floor, ()))
        hook = _hook_process_ns()
        if hook is not None:
            results.append(Result("hook-process", "process", 0, hook, ()))
    sloped: tuple[str, ...] = ("closure", "pluggy", "agentbus-sync", "agentbus-async", "agentbus-asgi")
    sloped += ("agentbus-json", "agentbus-filtered")
    slopes = {
        backend: {
            name: slope(
                [(r.layers, r.ns_per_call) for r in results if (r.name, r.backend) == (name, backend)]
            )
            for name in sloped
        }
        for backend in backends
    }
    document = {
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d"),
        },
        "scenarios": [r.to_dict() for r in results],
        "slopes": {b: {k: round(v, 1) for k, v in s.items()} for b, s in slopes.items()},
    }
    document["targets"] = targets(results, slopes)
    return document


def _value(results: list[Result], name: str, backend: str, layers: int | None = None) -> float:
    for r in results:
        if r.name == name and r.backend == backend and (layers is None or r.layers == layers):
            return r.ns_per_call
    return float("nan")


def targets(results: list[Result], slopes: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """Issue 6's targets as ratios within this run, per backend."""
    checks: list[dict[str, Any]] = []

    def check(backend: str, what: str, value: float, limit: float) -> None:
        checks.append(
            {
                "backend": backend,
                "target": what,
                "ratio": round(value, 3),
                "limit": limit,
                "met": round(value, 3) <= limit,  # judged at the precision it is shown with
            }
        )

    for backend, s in slopes.items():
        structlog_line = _value(results, "structlog-json", backend)
        check(backend, "agentbus-empty / direct", _value(results, "agentbus-empty", backend)
              / _value(results, "direct", backend), 3.0)  # fmt: skip
        check(backend, "agentbus-sync slope / closure slope", s["agentbus-sync"] / s["closure"], 0.8)
        check(backend, "agentbus-async slope / closure slope", s["agentbus-async"] / s["closure"], 1.3)
        check(backend, "agentbus-asgi slope / closure slope", s["agentbus-asgi"] / s["closure"], 1.5)
        if s.get("pluggy") == s.get("pluggy"):  # not NaN: pluggy is installed
            for name in ("agentbus-sync", "agentbus-async", "agentbus-asgi"):
                check(backend, f"{name} slope / pluggy slope", s[name] / s["pluggy"], 1.0)
        check(backend, "agentbus-json slope / structlog-json", s["agentbus-json"] / structlog_line, 1.2)
        check(backend, "agentbus-filtered slope / agentbus-sync slope",
              s["agentbus-filtered"] / s["agentbus-sync"], 1.1)  # fmt: skip
        check(backend, "concurrent-agentbus / concurrent-closure",
              _value(results, "concurrent-agentbus", backend)
              / _value(results, "concurrent-closure", backend), 1.2)  # fmt: skip
    floor = _value(results, "import-floor", "process")
    hook = _value(results, "hook-process", "process")
    if hook == hook and floor == floor:
        check("process", "hook-process / import-floor", hook / floor, 1.25)
    return checks


def format_table(document: dict[str, Any]) -> str:
    """The console table: every scenario, then the slopes, then the targets."""
    lines = [f"{'scenario':<22}{'backend':<10}{'layers':>7}{'ns/call':>14}"]
    for s in document["scenarios"]:
        lines.append(f"{s['name']:<22}{s['backend']:<10}{s['layers']:>7}{s['ns_per_call']:>14,.0f}")
    lines.append("")
    lines.append("per-layer slopes (ns per layer):")
    for backend, slopes in document["slopes"].items():
        lines.append("  " + backend + ": " + ", ".join(f"{k} {v:,.0f}" for k, v in slopes.items()))
    lines.append("")
    lines.append("targets (ratios within this run):")
    for t in document["targets"]:
        mark = "ok  " if t["met"] else "MISS"
        lines.append(f"  {mark} {t['backend']:<8} {t['target']:<48} {t['ratio']:>8.3f} <= {t['limit']}")
    machine = document["machine"]
    lines.append("")
    lines.append(
        f"Python {machine['python']} on {machine['platform']}, {machine['cpus']} CPUs, {machine['date']}"
    )
    return "\n".join(lines)


def format_markdown(document: dict[str, Any]) -> str:
    """The results as the README shows them: medians per backend, then the targets."""
    backends = [b for b in document["slopes"]]
    rows: dict[tuple[str, int], dict[str, float]] = {}
    for s in document["scenarios"]:
        rows.setdefault((s["name"], s["layers"]), {})[s["backend"]] = s["ns_per_call"]
    header = "| scenario | layers | " + " | ".join(f"{b} ns/call" for b in backends) + " |"
    lines = [header, "|---|---:|" + "---:|" * len(backends)]
    for (name, layers), values in rows.items():
        if "process" in values:
            cells = [f"{values['process']:,.0f} (whole process)"] + [""] * (len(backends) - 1)
        else:
            cells = [f"{values[b]:,.0f}" if b in values else "" for b in backends]
        lines.append(f"| {name} | {layers} | " + " | ".join(cells) + " |")
    lines += ["", "| target | backend | ratio | limit | met |", "|---|---|---:|---:|---|"]
    for t in document["targets"]:
        met = "yes" if t["met"] else "no"
        lines.append(f"| {t['target']} | {t['backend']} | {t['ratio']:.2f} | {t['limit']} | {met} |")
    return "\n".join(lines)


# -- the command ----------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH")
    parser.add_argument("--markdown", metavar="PATH", help="write the results as Markdown tables to PATH")
    parser.add_argument(
        "--middleware",
        metavar="MODULE:ATTR",
        action="append",
        default=[],
        help="an installer of your own stack to measure (repeatable)",
    )
    parser.add_argument("--tool", default="exec", help="the tool name your stack sees (default: exec)")
    parser.add_argument("--args", default='{"command": "ls"}', help="the tool args as JSON")
    parser.add_argument(
        "--backend", choices=("asyncio", "trio", "both"), default="both", help="which backend(s)"
    )
    parser.add_argument("--quick", action="store_true", help="fewer rounds and a smaller budget")
    parser.add_argument("--rounds", type=int, help="alternating rounds per scenario (default 7, quick 3)")
    parser.add_argument(
        "--budget-ms", type=float, help="time per scenario per round, in ms (default 4, quick 1)"
    )
    parser.add_argument("--no-processes", action="store_true", help="skip the whole-process timings")


def run(args: argparse.Namespace) -> int:
    user: Callable[[], Once] | None = None
    if args.middleware:
        tool_args = json.loads(args.args)
        references = list(args.middleware)

        def user() -> Once:
            return user_stack(references, args.tool, tool_args)

    backends = ("asyncio", "trio") if args.backend == "both" else (args.backend,)
    document = run_benchmarks(
        backends=backends,
        rounds=args.rounds or (3 if args.quick else 7),
        budget_ms=args.budget_ms or (1.0 if args.quick else 4.0),
        processes=not args.no_processes,
        user=user,
    )
    print(format_table(document))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as file:
            file.write(format_markdown(document) + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=2)
            file.write("\n")
    return 0

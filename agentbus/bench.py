"""``agentbus bench``: the overhead of interception, against baselines in the same run.

Every scenario is measured in one process, on each backend, in alternating
rounds (so machine drift hits all of them alike), and reported as the median
nanoseconds per call of CPU time: the time the thread running the scenarios
spent running (:data:`CLOCK`), which another process taking the CPU does not
add to, as it adds to the wall time. Per-layer costs are least-squares slopes
over the layer counts, fitted per round; targets are ratios between scenarios
of the same round, and what is reported is the median over rounds: one burst of
contention spoils one round, not the result. Never absolute times: the machine
is shared and noisy, ratios are not.

It runs on whatever is installed: a backend or a baseline that is missing (trio,
pluggy) is skipped with one line saying how to add it. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import io
import json
import os
import platform
import shlex
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
  agentbus bench --frameworks                    also LangChain, OpenAI Agents, pydantic-ai and FastMCP,
                                                 natively and through agentbus (those installed)
"""

LAYER_COUNTS = (2, 5, 10, 20)
"""Layer counts of the per-layer slopes. They start at 2: a lone sync handler runs through the
bus's gate (:class:`agentbus.stack.Gate`), a fixed-cost path that ``agentbus-check`` measures;
fitted in, its saving would read as a steeper cost per layer."""
QUICK_LAYER_COUNTS = (2, 10)
REPEATS = 3
ROUNDS = 21
"""Rounds of the in-process grid. Every target is the median of its per-round ratios, so a
burst of contention flips a verdict only if it spoils more than half of the rounds: with 21
rounds of about two seconds (a backend's grid), a burst of some twenty seconds. The spread
reported next to each ratio (the middle half of the rounds) shows the margin."""
QUICK_ROUNDS = 3
FRAMEWORK_ROUNDS = 7
"""Rounds of ``--frameworks`` (each round is whole agent runs: ten seconds a framework)."""
CONCURRENT_CALLS = 10_000
QUICK_CONCURRENT_CALLS = 1_000
CONCURRENT_LAYERS = 5
GUARD_SIZES = (1_000, 100_000, 10_000_000)
"""Command sizes (bytes) at which the built-in guards' cost per KB is measured."""
QUICK_GUARD_SIZES = (1_000, 100_000)
SLOPED = (
    "closure",
    "pluggy",
    "agentbus-sync",
    "agentbus-async",
    "agentbus-asgi",
    "agentbus-json",
    "agentbus-filtered",
)
"""The scenarios measured at several layer counts, whose per-layer cost is a slope."""

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
    repeats: int = 1
    """How many times a round measures it, spread over the round (each round's figure is their
    mean): the fixed-cost scenarios, cheap and compared in pairs, are measured :data:`REPEATS`
    times, so that a burst of contention during one measurement moves their ratio less."""


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


def _check(call: Any) -> None:
    if "rm" in call.args["command"]:
        call.block("no rm")


def hand_check() -> Once:
    """What one check costs written by hand: ``if "rm" in args["command"]: return blocked;
    return await tool(args)``."""
    from .tools import blocked_result

    async def once() -> Any:
        if "rm" in ARGS["command"]:
            return blocked_result("exec", "no rm")
        return await _tool(ARGS)

    return once


def agentbus_check() -> Once:
    """The same check as one sync tool.before handler: the fixed cost of an intercepted call."""
    bus = _bus()
    bus.intercept("tool.before", _check, id="check")
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


def _concurrent(call: Callable[[], Coroutine[Any, Any, Any]], calls: int) -> Once:

    async def once() -> None:
        async with anyio.create_task_group() as tg:
            for _ in range(calls):
                tg.start_soon(call)

    return once


async def _yielding_tool(args: dict[str, Any]) -> str:
    await anyio.lowlevel.checkpoint()  # every call parks once, so that all of them are in flight together
    return "ok"


def concurrent_closure(calls: int) -> Once:
    """10,000 calls in flight at once through 5 closure layers (ns per call)."""
    chain = _closure_chain(_yielding_tool, CONCURRENT_LAYERS)

    async def call() -> Any:
        return await chain(dict(ARGS))

    return _concurrent(call, calls)


def concurrent_agentbus(calls: int) -> Once:
    """10,000 calls in flight at once through 5 agentbus sync layers (ns per call)."""
    bus = _bus()
    for index in range(CONCURRENT_LAYERS):
        bus.intercept("tool.before", _sync_handler, id=f"sync-{index}")
    return _concurrent(lambda: bus.call_tool("exec", ARGS, _yielding_tool), calls)


def user_stack(references: list[str], tool: str, args: dict[str, Any]) -> Once:
    """The user's own middleware (``--middleware``), on one representative call."""
    from .config import MiddlewareSpec
    from .registry import Registry

    registry = Registry()
    for reference in references:
        MiddlewareSpec(use=reference, source="--middleware").install(registry)
    bus = _bus(registry=registry)
    return lambda: bus.call_tool(tool, args, _tool)


def grid(
    *,
    with_pluggy: bool,
    user: Callable[[], Once] | None = None,
    layer_counts: tuple[int, ...] | None = None,
    concurrent_calls: int | None = None,
) -> list[Scenario]:
    """Every in-process scenario, with its layer counts (default :data:`LAYER_COUNTS`)."""
    calls = concurrent_calls or CONCURRENT_CALLS
    scenarios = [
        Scenario("direct", 0, direct, direct.__doc__ or "", repeats=REPEATS),
        Scenario("agentbus-empty", 0, agentbus_empty, agentbus_empty.__doc__ or "", repeats=REPEATS),
        Scenario("hand-check", 0, hand_check, hand_check.__doc__ or "", repeats=REPEATS),
        Scenario("agentbus-check", 1, agentbus_check, agentbus_check.__doc__ or "", repeats=REPEATS),
        Scenario("structlog-json", 0, structlog_json, structlog_json.__doc__ or ""),
    ]
    for n in layer_counts or LAYER_COUNTS:
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
            partial(concurrent_closure, calls),
            concurrent_closure.__doc__ or "",
            calls,
        ),
        Scenario(
            "concurrent-agentbus",
            CONCURRENT_LAYERS,
            partial(concurrent_agentbus, calls),
            concurrent_agentbus.__doc__ or "",
            calls,
        ),
    ]
    if user is not None:
        scenarios.append(Scenario("user-stack", 0, user, "your --middleware stack"))
    return scenarios


# -- progress -------------------------------------------------------------------------


class Progress:
    """What the bench is doing, on stderr: one line per step, rewritten in place on a
    terminal, so a run of half a minute is never half a minute of silence."""

    def __init__(self, file: Any = None, *, enabled: bool = True) -> None:
        self.file = file if file is not None else sys.stderr
        self.enabled = enabled
        self.inline = enabled and bool(getattr(self.file, "isatty", lambda: False)())
        self.width = 0

    def __call__(self, text: str) -> None:
        if not self.enabled:
            return
        if self.inline:
            self.file.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.file.write(text + "\n")
        self.file.flush()

    def done(self) -> None:
        if self.inline and self.width:
            self.file.write("\r" + " " * self.width + "\r")
            self.file.flush()
            self.width = 0


# -- measuring ------------------------------------------------------------------------


CLOCK: Callable[[], int] = time.thread_time_ns
"""The clock of the in-process scenarios: the CPU time of the thread that runs them (to the
nanosecond on Linux and macOS, a few hundred nanoseconds a read, two reads per scenario per
round of some milliseconds). On a shared machine the wall time of a round counts whatever ran
while the bench was descheduled, which can double one side of a pair; this clock counts only
the bench's own work (which a busy machine still slows a little, through the caches and the
core it shares: hence the median over rounds)."""


async def _time(once: Once, iterations: int, clock: Callable[[], int] | None = None) -> float:
    """Nanoseconds per call of ``iterations`` calls of ``once``, by ``clock`` (:data:`CLOCK`)."""
    clock = clock or CLOCK
    started = clock()
    for _ in range(iterations):
        await once()
    return (clock() - started) / iterations


async def _measure_backend(
    scenarios: list[Scenario], rounds: int, budget_ns: float, backend: str, progress: Progress
) -> dict[int, list[float]]:
    import structlog

    saved = structlog.get_config()
    samples: dict[int, list[float]] = {i: [] for i in range(len(scenarios))}
    try:
        built = []
        for index, scenario in enumerate(scenarios):
            progress(f"bench: {backend}: setting up {index + 1}/{len(scenarios)} ({scenario.name})")
            once = scenario.setup()
            await _time(once, 3)  # warm up: compile stacks, fill caches
            first = await _time(once, 10)
            iterations = max(1, min(20_000, int(budget_ns / max(first, 1.0))))
            built.append((scenario, once, iterations))
        most = max(scenario.repeats for scenario in scenarios)
        # What the bench process holds (modules, the scenarios, the other backend's leftovers) is
        # frozen out of the collector: a full collection, which the calls' allocations trigger,
        # then costs what the calls made, not what the process happens to hold.
        gc.collect()
        gc.freeze()
        for round_number in range(rounds):
            progress(f"bench: {backend}: round {round_number + 1}/{rounds}")
            total_ns = [0.0] * len(built)
            for repeat in range(most):  # the first pass measures every scenario, later ones a few
                for index, (scenario, once, iterations) in enumerate(built):
                    if repeat < scenario.repeats:
                        if scenario.name in ("structlog-json", "agentbus-json", "agentbus-filtered"):
                            _configure_structlog_json()
                        total_ns[index] += await _time(once, iterations)
            for index, (scenario, _, _) in enumerate(built):
                samples[index].append(total_ns[index] / scenario.repeats / scenario.per_call_batch)
    finally:
        gc.unfreeze()
        structlog.configure(**saved)
    return samples


def _hook_payload(cwd: str) -> str:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls -la"},
        }
    )


def process_timings(repeats: int, progress: Progress) -> list[Result]:
    """Whole processes, Claude Code's view of the hook: ``python -c "import anyio, attrs,
    structlog"`` (the floor) and one ``agentbus hook claude-code`` call, as ``agentbus install``
    writes it, run in alternation so that each pair shares the machine's state.

    Each is timed in CPU time (user + system), which a loaded machine disturbs less than
    the wall time, with agentbus's bytecode compiled first, as pip compiles an installed
    package (a PYTHONDONTWRITEBYTECODE environment would otherwise time the compiler). The
    hook runs in an empty project directory: the built-in guards and the user's configuration.
    """
    import compileall
    import tempfile

    from .install import hook_command

    compileall.compile_dir(os.path.dirname(os.path.abspath(__file__)), quiet=2)
    floor_argv = [sys.executable, "-c", "import anyio, attrs, structlog"]
    hook_argv = shlex.split(hook_command(["--no-audit-log"]))
    floors: list[float] = []
    hooks: list[float] = []
    with tempfile.TemporaryDirectory() as project:
        environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        environment["CLAUDE_PROJECT_DIR"] = project
        payload = _hook_payload(project)
        for repeat in range(repeats):
            progress(f"bench: processes: {repeat + 1}/{repeats}")
            floors.append(_process_ns(floor_argv, environment, project))
            hooks.append(_process_ns(hook_argv, environment, project, stdin=payload))
    return [
        Result("import-floor", "process", 0, statistics.median(floors), tuple(floors)),
        Result("hook-process", "process", 0, statistics.median(hooks), tuple(hooks)),
    ]


def _process_ns(argv: list[str], environment: dict[str, str], cwd: str, stdin: str = "") -> float:
    """The CPU time (user + system) of one process, in nanoseconds (its wall time where
    the resource module is missing: Windows). It must succeed, and a hook must allow."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        resource = None  # type: ignore[assignment]
    before = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
    started = time.perf_counter_ns()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=environment, cwd=cwd)
    elapsed = time.perf_counter_ns() - started
    if done.returncode != 0 or '"deny"' in done.stdout:
        raise RuntimeError(f"{shlex.join(argv)} failed ({done.returncode}): {done.stdout}{done.stderr}")
    if resource is None or before is None:  # pragma: no cover - Windows
        return elapsed
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu * 1e9


GUARD_SHAPES: dict[str, Callable[[int, int], str]] = {
    "benign": lambda size, n: f"echo {n} " + "a" * size,
    "dangerous": lambda size, n: f"rm -rf ~; echo {n} " + "a" * size,
}
"""Commands of a given size: a benign ``echo aaa…`` and the same after ``rm -rf ~``."""

GUARD_WARM_UP_SIZE = 100
"""The size of the untimed command of each shape that warms the guards before they are timed."""

GUARD_SLOW_NS = 5e9
"""A size is skipped when the size before it, scaled linearly, says its decision would
take longer than this (guards that are not linear would take minutes); the skipped sizes
are reported."""


def guard_costs(sizes: tuple[int, ...], repeats: int, progress: Progress) -> dict[str, Any]:
    """The built-in guards deciding a command of each size through the whole tool.before
    stack, as the hook and the adapters run them: time per decision and per KB. Every call
    gets a distinct command, so no cache answers for the guards.

    The guards are warmed first, one small command of each shape, untimed: a process's first
    decision imports the guards' modules and compiles the patterns it reaches (about 0.1 s
    with bytecode cached, 0.5 s without: ``PYTHONDONTWRITEBYTECODE``), which ``--quick``'s
    single sample would report as the decision's cost. That once-a-process cost is the
    ``hook-process`` row's."""
    from .guards.budget import deadline
    from .middleware import builtin
    from .registry import Registry

    registry = Registry()
    builtin.install(registry)
    bus = _bus(registry=registry)
    rows: list[dict[str, Any]] = []
    skipped: list[str] = []
    counter = iter(range(1 << 30))

    async def decide(command: str) -> tuple[float, str]:
        started = time.process_time_ns()  # CPU time, of every thread: a layer may use one
        # The work is measured, not the budget: on a loaded machine the default 1 s of
        # wall time would deny a 10 MB command half way (fail closed) and time the denial.
        with deadline(GUARD_SLOW_NS / 1e9):
            result = await bus.call_tool("exec", {"command": command}, _tool)
        blocked = isinstance(result, dict) and result.get("status") == "blocked"
        return time.process_time_ns() - started, "blocked" if blocked else "allowed"

    for make in GUARD_SHAPES.values():
        anyio.run(decide, make(GUARD_WARM_UP_SIZE, next(counter)))
    for shape, make in GUARD_SHAPES.items():
        previous: dict[str, Any] | None = None
        for size in sizes:
            if previous is not None:
                estimate_ns = previous["ns_per_kb"] * size / 1000
                if estimate_ns > GUARD_SLOW_NS:
                    skipped.append(
                        f"{shape} command of {_size_label(size)} (at {_size_label(previous['bytes'])}'s "
                        f"cost per KB it would take {estimate_ns / 1e9:,.0f} s)"
                    )
                    break
            progress(f"bench: guards: {shape} command of {_size_label(size)}")
            times: list[float] = []
            decision = ""
            for _ in range(repeats if size < 1_000_000 else 1):
                ns, decision = anyio.run(decide, make(size, next(counter)))
                times.append(ns)
            median = statistics.median(times)
            previous = {
                "shape": shape,
                "bytes": size,
                "ms_per_decision": round(median / 1e6, 3),
                "ns_per_kb": round(median / (size / 1000), 1),
                "decision": decision,
            }
            rows.append(previous)
    return {"rows": rows, "skipped": skipped}


def _size_label(size: int) -> str:
    return f"{size // 1_000_000} MB" if size >= 1_000_000 else f"{size // 1000} KB"


# -- results --------------------------------------------------------------------------


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of ns per call over the layer count."""
    n = len(points)
    if n < 2:
        return float("nan")
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx


def _median(values: list[float]) -> float:
    finite = [v for v in values if v == v]
    return statistics.median(finite) if finite else float("nan")


def spread(values: list[float]) -> tuple[float, float]:
    """The interquartile range of per-round figures: the middle half of the rounds lies in it.

    Shown next to each target's median, so a reader sees the margin: a limit outside the
    range holds (or misses) in three rounds of four, whatever the median's luck. NaN when
    there is nothing to measure; one round is its own range.
    """
    finite = sorted(v for v in values if v == v)
    if not finite:
        return float("nan"), float("nan")
    if len(finite) == 1:
        return finite[0], finite[0]
    q1, _, q3 = statistics.quantiles(finite, n=4, method="inclusive")
    return q1, q3


class Rounds:
    """Per-round figures of one run: a scenario's samples, a slope fitted per round, and
    ratios paired by round, each reported as the median over rounds."""

    def __init__(self, results: list[Result]) -> None:
        self.results = results

    def samples(self, name: str, backend: str, layers: int | None = None) -> list[float]:
        for r in self.results:
            if r.name == name and r.backend == backend and (layers is None or r.layers == layers):
                return list(r.samples)
        return []

    def slopes(self, name: str, backend: str) -> list[float]:
        by_layers = {r.layers: r.samples for r in self.results if (r.name, r.backend) == (name, backend)}
        if len(by_layers) < 2:
            return []
        rounds = min(len(samples) for samples in by_layers.values())
        points = sorted(by_layers.items())
        return [slope([(n, samples[i]) for n, samples in points]) for i in range(rounds)]

    @staticmethod
    def ratios(numerators: list[float], denominators: list[float]) -> list[float]:
        """The ratio of each round: numerator and denominator measured in the same round."""
        return [a / b for a, b in zip(numerators, denominators, strict=False) if b]

    @staticmethod
    def ratio(numerators: list[float], denominators: list[float]) -> float:
        """The median of the per-round ratios (NaN when either side is missing)."""
        return _median(Rounds.ratios(numerators, denominators))


def run_benchmarks(
    *,
    backends: tuple[str, ...] = ("asyncio", "trio"),
    rounds: int = ROUNDS,
    budget_ms: float = 4.0,
    processes: bool = True,
    user: Callable[[], Once] | None = None,
    quick: bool = False,
    guards: bool = True,
    progress: Progress | None = None,
    frameworks: bool = False,
    framework_rounds: int = FRAMEWORK_ROUNDS,
) -> dict[str, Any]:
    """Run the grid; return the JSON document (``scenarios``, ``slopes``, ``targets``,
    ``guards``, ``skipped``). Backends and baselines that are not installed are skipped
    and named in ``skipped``."""
    progress = progress or Progress(enabled=False)
    load_at_start = load_average()
    skipped: list[str] = []
    runnable = []
    for backend in backends:
        if backend == "trio" and importlib.util.find_spec("trio") is None:
            skipped.append("the trio backend (pip install 'agentbus[trio]')")
        else:
            runnable.append(backend)
    with_pluggy = importlib.util.find_spec("pluggy") is not None
    if not with_pluggy:
        skipped.append("the pluggy baseline (pip install pluggy)")
    scenarios = grid(
        with_pluggy=with_pluggy,
        user=user,
        layer_counts=QUICK_LAYER_COUNTS if quick else None,
        concurrent_calls=QUICK_CONCURRENT_CALLS if quick else None,
    )
    results: list[Result] = []
    for backend in runnable:
        samples = anyio.run(
            _measure_backend, scenarios, rounds, budget_ms * 1e6, backend, progress, backend=backend
        )
        for index, scenario in enumerate(scenarios):
            values = samples[index]
            results.append(
                Result(scenario.name, backend, scenario.layers, statistics.median(values), tuple(values))
            )
    if processes:
        results += process_timings(3 if quick else 7, progress)
    guard_document = None
    if guards:
        guard_document = guard_costs(QUICK_GUARD_SIZES if quick else GUARD_SIZES, 1 if quick else 3, progress)
    if guard_document:
        skipped += [f"guards: {s}" for s in guard_document["skipped"]]
    framework_document = None
    if frameworks:
        from . import bench_frameworks

        framework_document = bench_frameworks.run_frameworks(
            rounds=QUICK_ROUNDS if quick else framework_rounds,
            budget_ms=bench_frameworks.QUICK_BUDGET_MS if quick else None,
            progress=progress,
        )
        skipped += framework_document["skipped"]
    progress.done()
    per_round = Rounds(results)
    slopes = {
        backend: {
            name: _median(per_round.slopes(name, backend))
            for name in SLOPED
            if name != "pluggy" or with_pluggy
        }
        for backend in runnable
    }
    document: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d"),
            "load": [load_at_start, load_average()],
        },
        "scenarios": [r.to_dict() for r in results],
        "slopes": {b: {k: round(v, 1) for k, v in s.items()} for b, s in slopes.items()},
        "skipped": skipped,
    }
    if guard_document is not None:
        document["guards"] = guard_document["rows"]
    document["targets"] = targets(per_round, runnable, with_pluggy, guard_document)
    if framework_document is not None:
        document["frameworks"] = framework_document
    return document


def targets(
    per_round: Rounds,
    backends: list[str],
    with_pluggy: bool,
    guard_document: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The targets, each a ratio within this run (paired by round, median over rounds)."""
    checks: list[dict[str, Any]] = []

    def check(backend: str, what: str, values: list[float] | float, limit: float) -> None:
        """One target from its per-round ratios (or one figure, the guards'): the median
        is judged, the interquartile range shown with it."""
        rounds = values if isinstance(values, list) else [values]
        value = _median(rounds)
        if value != value:  # NaN: a side of it was not measured (skipped, too few layer counts)
            return
        q1, q3 = spread(rounds)
        checks.append(
            {
                "backend": backend,
                "target": what,
                "ratio": round(value, 3),
                "q1": round(q1, 3),
                "q3": round(q3, 3),
                "rounds": len([v for v in rounds if v == v]),
                "limit": limit,
                "met": round(value, 3) <= limit,  # judged at the precision it is shown with
            }
        )

    ratio = Rounds.ratios
    for backend in backends:
        slopes = {name: per_round.slopes(name, backend) for name in SLOPED}

        def samples(name: str, backend: str = backend) -> list[float]:
            return per_round.samples(name, backend)

        def slope_ratio(
            name: str,
            baseline: str,
            limit: float,
            backend: str = backend,
            slopes: dict[str, list[float]] = slopes,
        ) -> None:
            check(backend, f"{name} slope / {baseline} slope", ratio(slopes[name], slopes[baseline]), limit)

        check(backend, "agentbus-empty / direct", ratio(samples("agentbus-empty"), samples("direct")), 2.5)
        check_ratio = ratio(samples("agentbus-check"), samples("hand-check"))
        check(backend, "agentbus-check / hand-check", check_ratio, 4.5)
        slope_ratio("agentbus-sync", "closure", 0.8)
        slope_ratio("agentbus-async", "closure", 1.3)
        slope_ratio("agentbus-asgi", "closure", 1.5)
        if with_pluggy:
            for name in ("agentbus-sync", "agentbus-async", "agentbus-asgi"):
                slope_ratio(name, "pluggy", 1.0)
        structlog_line = samples("structlog-json")
        check(
            backend,
            "agentbus-json slope / structlog-json",
            ratio(slopes["agentbus-json"], structlog_line),
            1.2,
        )
        slope_ratio("agentbus-filtered", "agentbus-sync", 1.1)
        concurrent = ratio(samples("concurrent-agentbus"), samples("concurrent-closure"))
        check(backend, "concurrent-agentbus / concurrent-closure", concurrent, 1.2)
    hook = ratio(per_round.samples("hook-process", "process"), per_round.samples("import-floor", "process"))
    check("process", "hook-process / import-floor", hook, 0.6)  # issue 13; about 0.5 now
    for shape in GUARD_SHAPES if guard_document is not None else ():
        rows = [r for r in guard_document["rows"] if r["shape"] == shape] if guard_document else []
        if len(rows) >= 2:
            largest, smallest = _size_label(rows[-1]["bytes"]), _size_label(rows[0]["bytes"])
            growth = rows[-1]["ns_per_kb"] / rows[0]["ns_per_kb"]
            check("guards", f"{shape}: ns per KB at {largest} / at {smallest} (linear: ~1)", growth, 3.0)
        for row in rows:
            if row["bytes"] >= 10_000_000:
                seconds = row["ms_per_decision"] / 1000
                check("guards", f"{shape}: seconds to decide {_size_label(row['bytes'])}", seconds, 1.0)
    return checks


# -- reporting ------------------------------------------------------------------------

LABELS = {
    "direct": "`direct`: `await tool(args)`",
    "agentbus-empty": "`agentbus-empty`: the whole pipeline, no layers",
    "structlog-json": "`structlog-json`: one bare structlog JSON line",
    "hand-check": "`hand-check`: one check of the args by hand, then the tool",
    "agentbus-check": "`agentbus-check`: the same check as one sync handler",
    "concurrent-closure": "`concurrent-closure`: calls in flight, 5 layers, per call",
    "concurrent-agentbus": "`concurrent-agentbus`: the same through agentbus",
    "user-stack": "`user-stack`: your --middleware stack, one call",
    "import-floor": '`import-floor`: `python -c "import anyio, attrs, structlog"` (CPU time)',
    "hook-process": "`hook-process`: one `agentbus hook claude-code` call, guards on (CPU time)",
}
TIME_HEADER = "CPU time per call (the thread's)"
"""The figures' clock (:data:`CLOCK`), named in the first column's header."""
SLOPE_LABELS = {
    "closure": "per layer: `closure`, a hand-written chain (the floor)",
    "agentbus-sync": "per layer: `agentbus-sync`, simple sync handlers",
    "agentbus-async": "per layer: `agentbus-async`, simple async handlers",
    "agentbus-asgi": "per layer: `agentbus-asgi`, ASGI middleware",
    "pluggy": "per layer: `pluggy`, one hook implementation",
    "agentbus-filtered": "per layer: `agentbus-filtered`, records filtered out",
    "agentbus-json": "per layer: `agentbus-json`, each layer a structlog JSON line",
}


def _rows(document: dict[str, Any]) -> tuple[list[str], list[tuple[str, dict[str, str]]]]:
    """The README's layout: one row per figure, one column per backend."""
    backends = list(document["slopes"])
    rows: list[tuple[str, dict[str, str]]] = []
    for s in document["scenarios"]:
        if s["name"] in LABELS and s["backend"] in backends:
            label = LABELS[s["name"]]
            existing = next((cells for name, cells in rows if name == label), None)
            if existing is None:
                rows.append((label, existing := {}))
            existing[s["backend"]] = f"{s['ns_per_call']:,.0f} ns"
    for s in document["scenarios"]:
        if s["name"] == "agentbus-sync" and s["layers"] == 1 and s["backend"] in backends:
            label = "the pipeline with one sync handler (fixed cost + 1 layer)"
            cells = next((c for name, c in rows if name == label), None)
            if cells is None:
                rows.insert(2, (label, cells := {}))
            cells[s["backend"]] = f"{s['ns_per_call']:,.0f} ns"
    for name, label in SLOPE_LABELS.items():
        cells = {
            b: f"{document['slopes'][b][name]:,.0f} ns" for b in backends if name in document["slopes"][b]
        }
        if cells:
            rows.append((label, cells))
    first = backends[0] if backends else "process"
    for s in document["scenarios"]:
        if s["backend"] == "process":
            rows.append((LABELS[s["name"]], {first: f"{s['ns_per_call'] / 1e6:,.0f} ms"}))
    return backends, rows


GUARD_HEADER = "the built-in guards, one decision (warm: imports are hook-process's)"
"""The guards table's first column: each decision is timed after the guards are loaded."""


def _guard_rows(document: dict[str, Any]) -> list[list[str]]:
    header = [GUARD_HEADER, "size", "decision", "ms (CPU)", "ns per KB"]
    rows = [
        [
            f"{g['shape']} command",
            _size_label(g["bytes"]),
            g["decision"],
            f"{g['ms_per_decision']:,.2f}",
            f"{g['ns_per_kb']:,.0f}",
        ]
        for g in document.get("guards", [])
    ]
    return [header, *rows] if rows else []


def _target_rows(document: dict[str, Any]) -> list[tuple[str, float, dict[str, str]]]:
    rows: list[tuple[str, float, dict[str, str]]] = []
    for t in document["targets"]:
        cells = next((c for name, _, c in rows if name == t["target"]), None)
        if cells is None:
            rows.append((t["target"], t["limit"], cells := {}))
        cells[t["backend"]] = _target_cell(t)
    return rows


def _target_cell(target: dict[str, Any]) -> str:
    """``2.41 ✓ (2.35–2.47)``: the median over rounds, the verdict, the interquartile range
    (left out for a figure of one round, as the guards' are)."""
    cell = f"{target['ratio']:.2f} {'✓' if target['met'] else '✗'}"
    if target.get("rounds", 1) > 1:
        cell += f" ({target['q1']:.2f}–{target['q3']:.2f})"
    return cell


TARGET_HEADER = "target (a ratio within the run)"
TARGET_NOTE = (
    "Each cell: the median of the ratios paired in time, ✓ within the limit or ✗ not, then "
    "(their interquartile range: where the middle half of them lie)."
)


def format_table(document: dict[str, Any]) -> str:
    """The console table, laid out as the docs show it: the figures, then the targets."""
    backends, rows = _rows(document)
    columns = backends or ["process"]
    width = max([len(label) for label, _ in rows] + [20])
    lines = [f"{TIME_HEADER:<{width}}" + "".join(f"{b:>18}" for b in columns)]
    lines += [
        f"{label:<{width}}" + "".join(f"{cells.get(b, ''):>18}" for b in columns) for label, cells in rows
    ]
    guard_rows = _guard_rows(document)
    if guard_rows:
        widths = [max(len(row[i]) for row in guard_rows) + 2 for i in range(len(guard_rows[0]))]
        lines.append("")
        for row in guard_rows:
            lines.append(
                row[0].ljust(widths[0])
                + "".join(cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True))
            )
    target_rows = _target_rows(document)
    if target_rows:
        extra = sorted({b for _, _, cells in target_rows for b in cells} - set(columns))
        target_columns = columns + extra
        twidth = max(len(name) for name, _, _ in target_rows)
        twidth = max(twidth, len(TARGET_HEADER))
        lines += ["", f"{TARGET_HEADER:<{twidth}}{'limit':>8}"
                  + "".join(f"{b:>22}" for b in target_columns)]  # fmt: skip
        for name, limit, cells in target_rows:
            lines.append(
                f"{name:<{twidth}}{limit:>8}" + "".join(f"{cells.get(b, ''):>22}" for b in target_columns)
            )
        lines.append(TARGET_NOTE)
    if "frameworks" in document:
        from .bench_frameworks import format_table as framework_table

        lines += ["", framework_table(document["frameworks"])]
    lines += ["", machine_line(document["machine"])]
    return "\n".join(lines)


def load_average() -> float | None:
    """The machine's load average over the last minute (None where the OS has none: Windows)."""
    try:
        return round(os.getloadavg()[0], 1)
    except (AttributeError, OSError):  # pragma: no cover - Windows
        return None


def machine_line(machine: dict[str, Any]) -> str:
    """Where the figures were taken, with the machine's load while they were: on a shared
    machine other processes run, and the ratios' spread says how much that moved them."""
    line = f"Python {machine['python']} on {machine['platform']}, {machine['cpus']} CPUs, {machine['date']}"
    load = machine.get("load") or [None, None]
    if None not in load:
        line += f"; load average {load[0]:g} at the start and {load[1]:g} at the end" + (
            " (other processes were running)" if max(load) >= 1.5 else ""
        )
    return line


def format_markdown(document: dict[str, Any]) -> str:
    """The same two tables in Markdown, as published in benchmarks/results.md and the docs."""
    backends, rows = _rows(document)
    columns = backends or ["process"]
    lines = [f"| {TIME_HEADER} | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    lines += [
        "| " + label + " | " + " | ".join(cells.get(b, "") for b in columns) + " |" for label, cells in rows
    ]
    guard_rows = _guard_rows(document)
    if guard_rows:
        lines += ["", "| " + " | ".join(guard_rows[0]) + " |", "|---|---:|---|---:|---:|"]
        lines += ["| " + " | ".join(row) + " |" for row in guard_rows[1:]]
    target_rows = _target_rows(document)
    extra = sorted({b for _, _, cells in target_rows for b in cells} - set(columns))
    target_columns = columns + extra
    lines += ["", f"| {TARGET_HEADER} | limit | " + " | ".join(target_columns) + " |",
              "|---|---:|" + "---:|" * len(target_columns)]  # fmt: skip
    for name, limit, cells in target_rows:
        lines.append(f"| {name} | {limit} | " + " | ".join(cells.get(b, "") for b in target_columns) + " |")
    lines += ["", TARGET_NOTE]
    if "frameworks" in document:
        from .bench_frameworks import format_markdown as framework_markdown

        lines += ["", framework_markdown(document["frameworks"])]
    lines += ["", machine_line(document["machine"]) + "."]
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
        "--backend",
        choices=("asyncio", "trio", "both"),
        default="both",
        help="which backend(s); 'both' skips trio when it is not installed",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a few seconds: fewer rounds, layer counts and sizes"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        help=f"alternating rounds per scenario (default {ROUNDS}, frameworks {FRAMEWORK_ROUNDS}, "
        f"quick {QUICK_ROUNDS})",
    )
    parser.add_argument(
        "--budget-ms", type=float, help="time per scenario per round, in ms (default 4, quick 0.5)"
    )
    parser.add_argument("--no-processes", action="store_true", help="skip the whole-process timings")
    parser.add_argument("--no-guards", action="store_true", help="skip the guards' cost per KB")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument(
        "--frameworks",
        action="store_true",
        help="also each installed framework natively and through its adapter (slow: about 10 s each)",
    )


def run(args: argparse.Namespace) -> int:
    user: Callable[[], Once] | None = None
    if args.middleware:
        tool_args = json.loads(args.args)
        references = list(args.middleware)

        def user() -> Once:
            return user_stack(references, args.tool, tool_args)

    if args.backend == "trio" and importlib.util.find_spec("trio") is None:
        print(
            "agentbus bench: the trio backend is not installed: pip install 'agentbus[trio]'", file=sys.stderr
        )
        return 2
    backends = ("asyncio", "trio") if args.backend == "both" else (args.backend,)
    document = run_benchmarks(
        backends=backends,
        rounds=args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS),
        framework_rounds=args.rounds or FRAMEWORK_ROUNDS,
        budget_ms=args.budget_ms or (0.5 if args.quick else 4.0),
        processes=not args.no_processes,
        user=user,
        quick=args.quick,
        guards=not args.no_guards,
        progress=Progress(enabled=not args.quiet),
        frameworks=args.frameworks,
    )
    if document["skipped"]:
        print("agentbus bench: skipped " + "; ".join(document["skipped"]), file=sys.stderr)
    print(format_table(document))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as file:
            file.write(format_markdown(document) + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(document, file, indent=2)
            file.write("\n")
    return 0

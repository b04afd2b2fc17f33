"""The benchmark harness runs and reports every scenario issue 6 names (no timings asserted)."""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from agentbus import bench, bench_frameworks
from agentbus.cli import main

REQUIRED = {
    "direct",
    "closure",
    "pluggy",
    "agentbus-empty",
    "agentbus-sync",
    "agentbus-async",
    "agentbus-asgi",
    "agentbus-json",
    "structlog-json",
    "agentbus-filtered",
    "concurrent-closure",
    "concurrent-agentbus",
}


@pytest.fixture(autouse=True)
def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "CONCURRENT_CALLS", 100)
    monkeypatch.setattr(bench, "LAYER_COUNTS", (1, 5))
    monkeypatch.setattr(bench, "QUICK_CONCURRENT_CALLS", 100)
    monkeypatch.setattr(bench, "GUARD_SIZES", (1_000, 2_000))
    monkeypatch.setattr(bench, "QUICK_GUARD_SIZES", (1_000,))


def test_every_scenario_is_measured_on_the_backend_asked_for() -> None:
    document = bench.run_benchmarks(backends=("asyncio",), rounds=1, budget_ms=0.05, processes=False)
    names = {s["name"] for s in document["scenarios"]}
    assert names >= REQUIRED
    for scenario in document["scenarios"]:
        assert set(scenario) >= {"name", "backend", "layers", "ns_per_call"}
        assert scenario["backend"] == "asyncio"
        assert scenario["ns_per_call"] > 0
    layered = {s["layers"] for s in document["scenarios"] if s["name"] == "agentbus-sync"}
    assert layered == set(bench.LAYER_COUNTS)
    assert {t["target"] for t in document["targets"]} >= {
        "agentbus-empty / direct",
        "agentbus-sync slope / closure slope",
        "concurrent-agentbus / concurrent-closure",
    }


def test_slope_is_least_squares() -> None:
    assert bench.slope([(1, 10.0), (5, 50.0), (10, 100.0), (20, 200.0)]) == pytest.approx(10.0)
    assert math.isnan(bench.slope([(1, 1.0)]))


def test_bench_command_measures_a_user_stack_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    status = main(
        [
            "bench", "--rounds", "1", "--budget-ms", "0.05", "--backend", "trio", "--no-processes",
            "--json", str(out), "--markdown", str(tmp_path / "results.md"),
            "--middleware", "agentbus.middleware.builtin:install",
        ]
    )  # fmt: skip
    assert status == 0
    document = json.loads(out.read_text())
    assert any(s["name"] == "user-stack" and s["backend"] == "trio" for s in document["scenarios"])
    markdown = (tmp_path / "results.md").read_text()
    assert "| `agentbus-empty`: the whole pipeline, no layers | " in markdown
    assert "| agentbus-sync slope / closure slope | 0.8 | " in markdown


def _without(monkeypatch: pytest.MonkeyPatch, *missing: str) -> None:
    """Make the bench see ``missing`` packages as not installed (as on the base install)."""
    real = bench.importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name in missing else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(bench.importlib.util, "find_spec", find_spec)


def test_base_install_without_trio_or_pluggy_runs_and_says_what_it_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _without(monkeypatch, "trio", "pluggy")
    status = main(["bench", "--rounds", "1", "--budget-ms", "0.05", "--no-processes", "--no-guards"])
    out, err = capsys.readouterr()
    assert status == 0
    skipped = [line for line in err.splitlines() if line.startswith("agentbus bench: skipped")]
    assert skipped == [
        "agentbus bench: skipped the trio backend (pip install 'agentbus[trio]'); "
        "the pluggy baseline (pip install pluggy)"
    ]
    assert "trio" not in out.splitlines()[0]
    assert "pluggy" not in out
    assert "nan" not in out.lower()
    assert "Traceback" not in err


def test_asking_for_a_backend_that_is_not_installed_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _without(monkeypatch, "trio")
    assert main(["bench", "--backend", "trio", "--quick"]) == 2
    assert capsys.readouterr().err == (
        "agentbus bench: the trio backend is not installed: pip install 'agentbus[trio]'\n"
    )


def test_progress_goes_to_stderr_and_the_table_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "bench",
            "--rounds",
            "2",
            "--budget-ms",
            "0.05",
            "--backend",
            "asyncio",
            "--no-processes",
            "--no-guards",
        ]
    )
    out, err = capsys.readouterr()
    assert "bench: asyncio: round 1/2" in err
    assert "bench: asyncio: round 2/2" in err
    assert "round" not in out
    assert out.splitlines()[0].split()[-1] == "asyncio"
    assert out.splitlines()[0].startswith(bench.TIME_HEADER)  # which clock the figures are
    assert "target (a ratio within the run)" in out


def test_the_scenarios_are_timed_by_the_cpu_time_of_their_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # Wall time counts whatever else the machine ran meanwhile; the bench's clock does not.
    assert bench.CLOCK is time.thread_time_ns
    reads = iter(range(0, 1 << 40, 1_000_000))  # a clock that advances 1 ms per read
    monkeypatch.setattr(bench, "CLOCK", lambda: next(reads))
    document = bench.run_benchmarks(
        backends=("asyncio",), rounds=2, budget_ms=0.05, processes=False, guards=False
    )
    direct = next(s for s in document["scenarios"] if s["name"] == "direct")
    iterations = round(1_000_000 / direct["samples"][0])
    assert direct["samples"] == [1_000_000 / iterations] * 2  # every sample is read off CLOCK


def test_the_fixed_cost_pairs_are_measured_several_times_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    timed: list[Any] = []
    real = bench._time

    async def counting(once: Any, iterations: int, clock: Any = None) -> float:
        timed.append(once)
        return await real(once, iterations, clock)

    monkeypatch.setattr(bench, "_time", counting)
    built: dict[str, Any] = {}
    for name in ("direct", "agentbus_empty", "closure"):
        make = getattr(bench, name)

        def remember(*args: Any, name: str = name, make: Any = make) -> Any:
            built[name] = once = make(*args)
            return once

        monkeypatch.setattr(bench, name, remember)
    bench.run_benchmarks(backends=("asyncio",), rounds=2, budget_ms=0.05, processes=False, guards=False)
    warm_up = 2  # two timings when set up
    assert timed.count(built["direct"]) == warm_up + 2 * bench.REPEATS
    assert timed.count(built["agentbus_empty"]) == warm_up + 2 * bench.REPEATS
    assert timed.count(built["closure"]) == warm_up + 2  # (the last closure built) once a round


def test_quick_measures_fewer_layer_counts_and_smaller_guard_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[tuple[int, ...]] = []
    monkeypatch.setattr(bench, "guard_costs", lambda s, r, p: sizes.append(s) or {"rows": [], "skipped": []})
    document = bench.run_benchmarks(
        backends=("asyncio",), rounds=1, budget_ms=0.05, processes=False, quick=True
    )
    layered = {s["layers"] for s in document["scenarios"] if s["name"] == "agentbus-sync"}
    assert layered == set(bench.QUICK_LAYER_COUNTS)
    assert sizes == [bench.QUICK_GUARD_SIZES]


def _results(name: str, per_layers: dict[int, list[float]]) -> list[bench.Result]:
    return [bench.Result(name, "asyncio", n, 0.0, tuple(samples)) for n, samples in per_layers.items()]


def test_slopes_are_fitted_per_round_so_one_burst_spoils_one_round_not_the_result() -> None:
    # Round 2 had a burst of contention while the 1-layer scenario ran: fitted over the
    # per-layer medians of 3 rounds it would still be fine, but with the burst landing on
    # the 1-layer point in two rounds of five a single fit over medians turns negative.
    clean = {1: 100.0, 5: 500.0, 10: 1000.0}
    rounds = [dict(clean) for _ in range(5)]
    rounds[1][1] = 50_000.0
    rounds[3][1] = 50_000.0
    per_layers = {n: [r[n] for r in rounds] for n in clean}
    per_round = bench.Rounds(_results("closure", per_layers))
    slopes = per_round.slopes("closure", "asyncio")
    assert len(slopes) == 5
    assert statistics.median(slopes) == pytest.approx(100.0)


def test_ratios_are_paired_by_round_and_the_median_is_reported() -> None:
    # The machine was twice as slow in round 2 for both scenarios: the paired ratio holds.
    numerators = [200.0, 400.0, 200.0]
    denominators = [100.0, 200.0, 100.0]
    assert bench.Rounds.ratio(numerators, denominators) == pytest.approx(2.0)
    assert math.isnan(bench.Rounds.ratio([], [1.0]))


def _pair(numerator: list[float], denominator: list[float]) -> list[bench.Result]:
    return [
        bench.Result("agentbus-empty", "asyncio", 0, 0.0, tuple(numerator)),
        bench.Result("direct", "asyncio", 0, 0.0, tuple(denominator)),
    ]


def _target(per_round: bench.Rounds, name: str) -> dict[str, Any]:
    (target,) = [t for t in bench.targets(per_round, ["asyncio"], with_pluggy=False) if t["target"] == name]
    return target


def test_a_burst_of_contention_over_several_rounds_does_not_flip_a_verdict() -> None:
    # 21 rounds; in 8 consecutive ones (a burst of some fifteen seconds) agentbus-empty ran
    # three times slower while direct did not: the median is still the quiet rounds' ratio.
    direct = [100.0] * bench.ROUNDS
    empty = [220.0] * bench.ROUNDS
    for burst in range(5, 13):
        empty[burst] = 660.0
    target = _target(bench.Rounds(_pair(empty, direct)), "agentbus-empty / direct")
    assert target["ratio"] == pytest.approx(2.2)
    assert target["met"] is True
    assert target["rounds"] == bench.ROUNDS
    # and the spread says how much the burst moved: the upper quartile is a burst round
    assert (target["q1"], target["q3"]) == (pytest.approx(2.2), pytest.approx(6.6))


def test_a_burst_over_most_rounds_is_reported_as_it_was_measured() -> None:
    direct = [100.0] * 7
    empty = [220.0] * 3 + [660.0] * 4  # more than half the rounds were slow: a miss, shown
    target = _target(bench.Rounds(_pair(empty, direct)), "agentbus-empty / direct")
    assert target["ratio"] == pytest.approx(6.6)
    assert target["met"] is False


def test_the_spread_is_the_interquartile_range_of_the_rounds() -> None:
    assert bench.spread([1.0, 2.0, 3.0, 4.0, 5.0]) == (2.0, 4.0)
    assert bench.spread([5.0, 1.0, 4.0, 2.0, 3.0]) == (2.0, 4.0)  # in any order
    assert bench.spread([2.5]) == (2.5, 2.5)  # one round is its own range
    assert bench.spread([1.0, float("nan"), 3.0]) == (1.5, 2.5)  # a round not measured is left out
    assert all(math.isnan(q) for q in bench.spread([]))


def test_per_round_slope_ratios_keep_a_round_with_a_burst_out_of_the_verdict() -> None:
    # agentbus-async costs 1.2 closures a layer; in rounds 1 and 3 a burst hit its 20-layer
    # point (a slope of 3 closures, even a negative one in round 3 had it hit the 2-layer point).
    rounds = 9
    closure = {n: [100.0 * n] * rounds for n in (2, 5, 10, 20)}
    asynchronous = {n: [120.0 * n] * rounds for n in (2, 5, 10, 20)}
    asynchronous[20][1] = 20 * 360.0
    asynchronous[2][3] = 50_000.0
    results = [
        *[bench.Result("closure", "asyncio", n, 0.0, tuple(v)) for n, v in closure.items()],
        *[bench.Result("agentbus-async", "asyncio", n, 0.0, tuple(v)) for n, v in asynchronous.items()],
    ]
    target = _target(bench.Rounds(results), "agentbus-async slope / closure slope")
    assert target["ratio"] == pytest.approx(1.2)
    assert target["met"] is True
    assert target["q1"] == pytest.approx(1.2)
    assert target["q3"] == pytest.approx(1.2)


def test_each_target_is_shown_with_its_spread() -> None:
    direct = [100.0, 100.0, 100.0, 100.0, 100.0]
    empty = [200.0, 210.0, 220.0, 230.0, 240.0]
    document = {
        "slopes": {"asyncio": {}},
        "scenarios": [],
        "targets": bench.targets(bench.Rounds(_pair(empty, direct)), ["asyncio"], with_pluggy=False),
        "machine": {"python": "3", "platform": "p", "cpus": 2, "date": "d"},
    }
    assert "| agentbus-empty / direct | 2.5 | 2.20 ✓ (2.10–2.30) |" in bench.format_markdown(document)
    assert "2.20 ✓ (2.10–2.30)" in bench.format_table(document)


def test_the_results_say_how_loaded_the_machine_was(monkeypatch: pytest.MonkeyPatch) -> None:
    loads = iter([(7.21, 7.5, 6.0), (6.2, 7.06, 6.35)])
    monkeypatch.setattr(bench.os, "getloadavg", lambda: next(loads))
    document = bench.run_benchmarks(
        backends=("asyncio",), rounds=1, budget_ms=0.05, processes=False, guards=False
    )
    assert document["machine"]["load"] == [7.2, 6.2]
    last = bench.format_markdown(document).splitlines()[-1]
    assert last.endswith("load average 7.2 at the start and 6.2 at the end (other processes were running).")
    assert bench.format_table(document).splitlines()[-1] == last[:-1]
    quiet = dict(document["machine"], load=[0.1, 1.1])
    assert bench.machine_line(quiet).endswith("load average 0.1 at the start and 1.1 at the end")
    assert "load" not in bench.machine_line(dict(document["machine"], load=[None, None]))


def test_the_grid_runs_enough_rounds_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: dict[str, Any] = {}

    def run_benchmarks(**options: Any) -> dict[str, Any]:
        asked.update(options)
        raise SystemExit(0)

    monkeypatch.setattr(bench, "run_benchmarks", run_benchmarks)
    with pytest.raises(SystemExit):
        main(["bench", "--no-processes"])
    assert asked["rounds"] == bench.ROUNDS >= 15
    assert asked["framework_rounds"] == bench.FRAMEWORK_ROUNDS


def test_guard_costs_are_per_kb_with_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    document = bench.guard_costs((1_000, 4_000), 1, bench.Progress(enabled=False))
    rows = {(r["shape"], r["bytes"]): r for r in document["rows"]}
    assert rows[("benign", 1_000)]["decision"] == "allowed"
    assert rows[("dangerous", 4_000)]["decision"] == "blocked"
    for row in rows.values():
        assert row["ns_per_kb"] == pytest.approx(
            row["ms_per_decision"] * 1e6 / (row["bytes"] / 1000), rel=0.01
        )
    assert document["skipped"] == []


def test_guard_costs_measure_the_work_not_the_decision_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # A loaded machine can spend the default 1 s of wall time on a 10 MB command; the bench
    # must still time the whole decision, not the denial the budget gives half way.
    from agentbus.guards import budget

    monkeypatch.setattr(budget, "_configured", 1e-9)
    assert budget.decide("x", lambda: (time.sleep(0.001), budget.spend())[1]) is not None  # it bites
    document = bench.guard_costs((1_000,), 1, bench.Progress(enabled=False))
    decisions = {r["shape"]: r["decision"] for r in document["rows"]}
    assert decisions == {"benign": "allowed", "dangerous": "blocked"}


def test_guard_costs_time_warm_guards_not_the_first_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's first decision imports the guards and compiles their patterns: --quick's one
    sample would report that as the decision. One small untimed command of each shape comes first."""
    from agentbus.middleware import builtin

    seen: list[int] = []
    install = builtin.install

    def recording(registry: Any) -> None:
        install(registry)
        registry.add("tool.before", lambda event: seen.append(len(event.args["command"])), priority=1000)

    monkeypatch.setattr(builtin, "install", recording)
    bench.guard_costs((1_000,), 1, bench.Progress(enabled=False))
    warm_up, timed = seen[: len(bench.GUARD_SHAPES)], seen[len(bench.GUARD_SHAPES) :]
    assert all(size < 1_000 for size in warm_up)
    assert len(timed) == len(bench.GUARD_SHAPES)
    assert all(size >= 1_000 for size in timed)


def test_a_size_that_would_take_too_long_at_the_measured_rate_is_skipped_and_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench, "GUARD_SLOW_NS", 0)
    document = bench.guard_costs((1_000, 4_000), 1, bench.Progress(enabled=False))
    assert [(r["shape"], r["bytes"]) for r in document["rows"]] == [("benign", 1_000), ("dangerous", 1_000)]
    assert document["skipped"][0].startswith("benign command of 4 KB (at 1 KB's cost per KB it would take ")


# -- --frameworks ---------------------------------------------------------------------------


def _installed(framework: str) -> bool:
    return bench_frameworks._installed(bench_frameworks.FRAMEWORKS[framework][0])


@pytest.mark.anyio
async def test_the_agentbus_side_layers_judge_the_benchs_tool() -> None:
    """The tool is called "bash", which the bus sees as exec: every layer must match it."""
    bus = bench_frameworks._bus_with_layers(3)
    call = await bus.decide_tool("bash", {"command": "rm -rf /"})
    assert call.decision == "block"
    records: list[Any] = []
    bus.on_event(records.append)
    await bus.decide_tool("bash", {"command": bench_frameworks.COMMAND})
    assert sorted(r.id for r in records) == ["check-0", "check-1", "check-2"]


def test_each_installed_framework_runs_natively_and_through_agentbus_at_each_layer_count() -> None:
    """The frameworks whose one call is a CLI session have a test of their own (below)."""
    installed = [
        name
        for name in bench_frameworks.FRAMEWORKS
        if _installed(name) and name not in bench_frameworks.SESSIONS
    ]
    document = bench_frameworks.run_frameworks(
        rounds=2, budget_ms=0.01, layer_counts=(0, 1), frameworks=tuple(installed)
    )
    assert list(document["versions"]) == installed
    measured = {(s["name"], s["layers"]) for s in document["scenarios"]}
    for framework in installed:
        for side in ("native", "agentbus"):
            assert {(f"{framework}-{side}", 0), (f"{framework}-{side}", 1)} <= measured
    for row in document["ratios"]:
        assert set(row) >= {"framework", "layers", "native_us", "agentbus_us", "ratio"}
        assert row["ratio"] > 0
        limit = bench_frameworks.TARGETS[row["framework"]].get(row["layers"])
        assert row.get("limit") == limit
    targets = {(t["backend"], t["target"]) for t in document["targets"]}
    for framework in installed:
        for layers in set(bench_frameworks.TARGETS[framework]) & {0, 1}:
            assert (framework, f"{framework} agentbus / native, {layers} layers") in targets


@pytest.mark.filterwarnings(r"ignore:\[EXPERIMENTAL\] feature:UserWarning")  # ADK's own, once per process
@pytest.mark.parametrize("framework", ["google-adk", "strands"])
def test_google_adk_and_strands_run_natively_and_through_agentbus(framework: str) -> None:
    if not _installed(framework):
        pytest.skip(f"{framework} is tested in its own environment: bash .ci/isolated")
    document = bench_frameworks.run_frameworks(
        rounds=1, budget_ms=0.01, layer_counts=(0, 1), frameworks=(framework,)
    )
    assert {(s["name"], s["layers"]) for s in document["scenarios"]} == {
        (f"{framework}-{side}", layers) for side in ("native", "agentbus") for layers in (0, 1)
    }
    assert [row["limit"] for row in document["ratios"] if "limit" in row] == [1.05]


@pytest.mark.claude_cli
def test_the_claude_agent_sdk_runs_whole_sessions_natively_and_through_agentbus() -> None:
    if os.environ.get("AGENTBUS_SKIP_CLAUDE_CLI"):
        pytest.skip(f"the Claude Code CLI is absent on purpose ({os.environ['AGENTBUS_SKIP_CLAUDE_CLI']})")
    document = bench_frameworks.run_frameworks(
        rounds=1, budget_ms=0.01, layer_counts=(1,), frameworks=("claude-agent-sdk",)
    )
    assert list(document["versions"]) == ["claude-agent-sdk"]
    assert {s["name"] for s in document["scenarios"]} == {
        "claude-agent-sdk-native",
        "claude-agent-sdk-agentbus",
    }
    (row,) = document["ratios"]
    assert row["ratio"] > 0
    assert row["limit"] == 1.05


def test_the_claude_agent_sdk_scenarios_need_the_source_trees_scripted_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_frameworks, "_FAKE_API", Path("/nonexistent/fake_anthropic.py"))
    document = bench_frameworks.run_frameworks(rounds=1, frameworks=("claude-agent-sdk",))
    assert document["versions"] == {}
    if _installed("claude-agent-sdk"):
        assert document["skipped"] == [
            "the claude-agent-sdk scenarios (they need a source checkout: no /nonexistent/fake_anthropic.py)"
        ]


def test_frameworks_are_off_by_default() -> None:
    document = bench.run_benchmarks(
        backends=("asyncio",), rounds=1, budget_ms=0.05, processes=False, guards=False
    )
    assert "frameworks" not in document


def test_bench_frameworks_prints_and_writes_them_and_names_the_missing_ones(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(bench_frameworks, "QUICK_BUDGET_MS", 0.01)
    monkeypatch.setattr(bench_frameworks, "LAYER_COUNTS", (1,))
    _without(monkeypatch, "fastmcp", "agents", "claude_agent_sdk")  # and a CLI session is slow
    out = tmp_path / "results.json"
    status = main(
        [
            "bench", "--frameworks", "--quick", "--backend", "asyncio", "--no-processes", "--no-guards",
            "--quiet", "--json", str(out), "--markdown", str(tmp_path / "results.md"),
        ]
    )  # fmt: skip
    stdout, err = capsys.readouterr()
    assert status == 0
    assert "the openai-agents scenarios (pip install 'agentbus[openai-agents]')" in err
    assert "the fastmcp scenarios (pip install 'agentbus[mcp]')" in err
    document = json.loads(out.read_text())["frameworks"]
    assert "fastmcp" not in document["versions"]
    assert "openai-agents" not in document["versions"]
    markdown = (tmp_path / "results.md").read_text()
    for framework in document["versions"]:
        assert f"\n{framework:<16}{1:>7}" in stdout
        assert f"| {framework} | 1 | " in markdown
        assert document["versions"][framework].count("==") == 1


def test_process_timings_run_the_installed_hook_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook process is the command `agentbus install` writes, timed in CPU time; a hook
    that fails or denies is an error, never a fast sample."""
    import shlex
    import sys

    from agentbus import install

    commands: list[str] = []

    def recorded(hook_args: list[str]) -> str:
        commands.append(original(hook_args))
        return commands[-1]

    original = install.hook_command
    monkeypatch.setattr(install, "hook_command", recorded)
    floor, hook = bench.process_timings(1, bench.Progress(enabled=False))
    assert (floor.name, hook.name) == ("import-floor", "hook-process")
    assert floor.ns_per_call > 0
    assert hook.ns_per_call > 0
    assert commands
    assert commands[0].endswith("hook claude-code --no-audit-log")

    failing = shlex.join([sys.executable, "-c", "import sys; sys.exit(3)"])
    monkeypatch.setattr(install, "hook_command", lambda hook_args: failing)
    with pytest.raises(RuntimeError, match=r"failed \(3\)"):
        bench.process_timings(1, bench.Progress(enabled=False))
    denying = shlex.join([sys.executable, "-c", 'print(\'{"permissionDecision": "deny"}\')'])
    monkeypatch.setattr(install, "hook_command", lambda hook_args: denying)
    with pytest.raises(RuntimeError, match="deny"):
        bench.process_timings(1, bench.Progress(enabled=False))


def test_what_the_process_holds_is_frozen_out_of_the_collector_while_the_rounds_run() -> None:
    # A full collection triggered by the calls' allocations must cost what the calls made, not
    # what the bench process holds (the other backend's leftovers): the same in every run.
    import gc

    counts: list[int] = []

    def user() -> Any:
        async def once() -> None:
            counts.append(gc.get_freeze_count())

        return once

    bench.run_benchmarks(
        backends=("asyncio",), rounds=2, budget_ms=0.05, processes=False, guards=False, user=user
    )
    assert counts[0] == 0  # set up and warmed up before the freeze
    assert min(counts[-2:]) > 0  # the rounds
    assert gc.get_freeze_count() == 0  # and given back

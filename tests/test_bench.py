"""The benchmark harness runs and reports every scenario issue 6 names (no timings asserted)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from agentbus import bench
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
    assert "| agentbus-empty | 0 |" in markdown
    assert "| agentbus-sync slope / closure slope | trio |" in markdown

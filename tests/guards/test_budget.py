"""Issue 11.1: deciding is linear in the input and has a hard budget; past it, or on a failure, deny."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linearity import best_cost, cost_ratio

from agentbus.guards import budget
from agentbus.guards.danger import check_command
from agentbus.guards.files import check_shell_files
from agentbus.guards.judge import judge_command
from agentbus.guards.paths import check_glob
from agentbus.guards.verdict import UNDECIDED

HOME = "/home/me"


@pytest.fixture(autouse=True)
def _default_budget() -> Iterator[None]:
    yield
    budget.configure(None)


PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "echo aaa…": lambda n: "echo " + "a" * n,
    "base64 pipeline": lambda n: "echo " + "QUJD" * (n // 4) + " | base64 -d | sh",
    "rm -rf ~; echo {,,,…": lambda n: "rm -rf ~; echo {" + "," * n + "}",
    "backticks": lambda n: "`" * n,
    "nested substitutions": lambda n: "echo " + "$(echo " * (n // 7),
    "quotes": lambda n: "echo " + "'a' \"b\" " * (n // 8),
    "pipes": lambda n: "cat x" + " | cat" * (n // 6),
}


@pytest.mark.parametrize("shape", PATHOLOGICAL, ids=list(PATHOLOGICAL))
def test_each_guard_is_linear_in_the_command(shape: str) -> None:
    """Ten times the input costs about ten times as much (a quadratic step would cost a hundred)."""
    budget.configure(600)  # this test measures the work, not the deadline
    make = PATHOLOGICAL[shape]

    def judge(text: str) -> None:
        judge_command(text, home=HOME, cwd=HOME)

    small, large = make(10_000), make(100_000)
    ratio = cost_ratio(judge, small, large)
    assert ratio < 50, f"{shape}: 10x the input cost {ratio:.0f}x"  # linear ~10, quadratic ~100


def test_a_glob_is_linear_in_its_pattern() -> None:
    budget.configure(600)
    small, large = "[" * 2_000, "[" * 20_000
    check_glob(small)
    ratio = best_cost(check_glob, large) / max(best_cost(check_glob, small), 1e-6)
    assert ratio < 50
    assert check_glob("[" * 20_000, home=HOME) is None


@pytest.mark.parametrize(
    ("command", "category"),
    [
        ("echo " + "a" * 10_000_000, None),
        ("echo " + "QUJD" * 250_000 + " | base64 -d | sh", "unjudged script"),  # encoded text run: asked
        ("rm -rf ~; echo {" + "," * 60_000 + "}", "filesystem destruction"),
        ("`" * 100_000, None),
    ],
    ids=["10 MB echo", "1 MB base64 pipeline", "60 KB braces after rm -rf ~", "100 KB of backticks"],
)
def test_the_issues_pathological_commands_are_decided(command: str, category: str | None) -> None:
    budget.configure(600)
    verdict = check_command(command, home=HOME)
    assert (verdict.category if verdict else None) == category


def test_past_the_budget_the_call_is_denied_and_the_reason_says_so() -> None:
    budget.configure(1e-9)
    verdict = check_command("echo " + "a" * 100_000 + " x", home=HOME)
    assert verdict is not None
    assert verdict.category == UNDECIDED
    assert "longer than the 1e-09 s budget" in verdict.reason
    assert "denied" in verdict.reason
    verdict = check_shell_files("cat " + "b" * 100_000 + " y", cwd=HOME)
    assert verdict is not None
    assert verdict.category == UNDECIDED


def test_the_budget_comes_from_the_users_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTBUS_DECISION_BUDGET", "2.5")
    assert budget.current() == 2.5
    monkeypatch.setenv("AGENTBUS_DECISION_BUDGET", "nonsense")
    assert budget.current() == budget.DEFAULT_BUDGET
    budget.configure(3)
    assert budget.current() == 3


@pytest.mark.parametrize("bad", [0, -1, True, "1"])
def test_a_budget_that_is_not_a_positive_number_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="positive number of seconds"):
        budget.configure(bad)  # type: ignore[arg-type]


def test_a_guard_that_fails_denies_with_the_failure_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentbus.guards import danger

    def broken(command: str, home: str, *args: object, **kwargs: object) -> None:
        raise RecursionError("too deep")

    monkeypatch.setattr(danger, "_judge_command", broken)
    danger._check_cached.cache_clear()
    verdict = check_command("ls -la /tmp/some/new/dir", home=HOME)
    assert verdict is not None
    assert verdict.category == UNDECIDED
    assert "RecursionError" in verdict.reason


def test_a_pipeline_of_too_many_stages_is_denied_at_once_with_the_reason() -> None:
    """tree-sitter-bash is quadratic in a pipeline's stages (20,000 stages: about 10 s): such a
    command is denied before it is parsed, saying why, instead of after the budget ran out."""
    from agentbus.middleware.command_guard import check_command

    verdict = check_command("cat x | grep -v y " * 20_000)
    assert verdict is not None
    assert "pipeline of more than 2,000 stages" in verdict.reason


def test_pipes_in_quotes_and_here_documents_are_not_stages() -> None:
    from agentbus.guards.parse import pipeline_operators
    from agentbus.middleware.command_guard import check_command

    table = "cat <<'EOF' > table.md\n" + "| name | value |\n" * 3_000 + "EOF\n"
    assert pipeline_operators(table) == 0
    assert check_command(table) is None
    assert pipeline_operators("echo 'a|b' \"c|d\" e\\|f | wc -l || true") == 1
    assert pipeline_operators("cat <<-END | sort\n\t| x |\n\tEND\necho | y") == 2


@given(st.text(alphabet="ab |'\"\\<-\nE", max_size=200))
def test_counting_pipeline_stages_never_fails_and_never_overcounts(text: str) -> None:
    from agentbus.guards.parse import pipeline_operators

    assert 0 <= pipeline_operators(text) <= text.count("|")


def test_compiling_the_guards_patterns_is_not_the_decisions_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # A hook process's first long script compiles every pattern it reaches (each once a process):
    # that bounded cost does not count against the decision (fp24: run_tests.sh denied as undecided).
    clock = [100.0]
    compiled = [0.0]
    monkeypatch.setattr(budget.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(budget, "compiling_seconds", lambda: compiled[0])
    with budget.deadline(1.0):
        clock[0] += 1.5
        compiled[0] += 0.8  # 0.7 s judging, 0.8 s compiling patterns
        budget.spend()
        clock[0] += 0.5  # 1.2 s judging
        with pytest.raises(budget.BudgetExceeded):
            budget.spend()

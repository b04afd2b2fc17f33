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
from hypothesis import strategies as st

from agentbus.guards.parse import parse
from agentbus.guards.programs import walk

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


def judged_argvs(text: str) -> list[tuple[str, ...]]:
    """The argv of each ``ls`` / ``git`` the guard sees in ``text`` (values it cannot know: None)."""
    found = []
    for stages in walk(parse(text)):
        for invocation in stages:
            if invocation.name in ("ls", "git"):
                values = (invocation.command.static(arg) for arg in invocation.args)
                found.append((invocation.name, *("?" if value is None else value for value in values)))
    return found


_SLICES = ("${{x:$i}}", "${{x:$i:$n}}", '"${{x:${{i}}}}"', "${{x:i:n}}", "${{x: $i}}", "a${{x:$i}}b")


@settings(max_examples=60, database=None, derandomize=True, deadline=None)
@given(
    value=st.text(alphabet="abcXY-", min_size=1, max_size=8),
    offset=st.integers(-9, 9),
    length=st.integers(-9, 9),
    form=st.sampled_from(_SLICES),
)
def test_a_substring_with_a_variable_offset_is_the_word_bash_runs(
    bash: Bash, value: str, offset: int, length: int, form: str
) -> None:
    """``${x:$i}``: tree-sitter-bash ends the expansion at ``$i``; the guard reads what bash reads."""
    text = f"x={value}; i={offset}; n={length}; ls " + form.format()
    ran = [argv for argv in bash.run(text).argvs if argv[:1] == ("ls",)]
    if ran:  # bash refuses a negative length past the offset ("substring expression < 0"): nothing runs
        assert judged_argvs(text) == ran, text


@settings(max_examples=30, database=None, derandomize=True, deadline=None)
@given(
    before=st.lists(st.sampled_from(["-C", ".", "--", "-", "log"]), max_size=3),
    dashes=st.integers(1, 3),
    operator=st.sampled_from(["<<", "<<-", "<< ", "2>&1 <<", ">/dev/null - <<", "<<<x", "2>&1", ">x"]),
)
def test_a_dash_before_a_redirection_is_the_word_bash_runs(
    bash: Bash, before: list[str], dashes: int, operator: str
) -> None:
    """``cat - <<EOF``, ``git - 2>&1``: tree-sitter-bash drops the ``-``; bash passes it."""
    end = "EOF\nbody\nEOF\n" if operator.endswith(("<<", "<< ", "<<-")) else "\n"
    text = " ".join(["git", *before, *["-"] * dashes]) + f" {operator}{end}"
    ran = [argv for argv in bash.run(text).argvs if argv[:1] == ("git",)]
    assert ran
    assert judged_argvs(text) == ran, text

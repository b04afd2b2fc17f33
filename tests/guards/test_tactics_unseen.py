"""Tactic family ``unseen``: code run while the guard cannot see what it is (asked by default)."""

from __future__ import annotations

import pytest
from approvals import bus_with, run

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import UNJUDGED_SCRIPT

HOME = "/home/dev"


def test_the_policy_decides_what_unseen_code_does() -> None:
    command = "read x < payload.txt; $x"
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={UNJUDGED_SCRIPT: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    assert check_command(command, home=HOME, policy=Policy(verdicts={UNJUDGED_SCRIPT: "allow"})) is None


def test_unattended_a_run_time_value_run_as_a_command_is_blocked() -> None:
    verdict = check_command("enable -f ./x.so x", home=HOME, policy=Policy(profile="unattended"))
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (UNJUDGED_SCRIPT, "block")


def test_the_reason_names_the_variable_and_why() -> None:
    verdict = check_command("printf -v c '%s' \"$(cat f)\"; $c", home=HOME)
    assert verdict is not None
    assert "$c" in verdict.reason
    assert "run time" in verdict.reason


@pytest.mark.anyio
@pytest.mark.parametrize(("approve", "runs"), [(True, True), (False, False)])
async def test_a_person_decides_through_the_bus(approve: bool, runs: bool) -> None:
    command = "while read -r cmd; do $cmd; done < cmds.txt"
    result, ran = await run(bus_with(lambda call: approve), command)
    assert (ran == [command]) is runs
    if not runs:
        assert f"{UNJUDGED_SCRIPT}: $cmd" in (result.block_reason or "")


@pytest.mark.parametrize(
    "command",
    [
        "${CURL_CMD} -fsSL ${mainurl}/s/s.sh | bash",  # held-out sample 6: a renamed curl kept in a variable
        "$X | bash",
        "timeout 9 $DL -s $u | sh",
        "$(which python) gen.py | sh",
    ],
)
def test_a_program_named_only_at_run_time_piped_into_a_shell_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert (verdict.category, verdict.decision) == (UNJUDGED_SCRIPT, "ask")
    assert "a program named only at run time" in verdict.why


@pytest.mark.parametrize(
    "command",
    [
        "$PY gen.py | sh",
        "$X | grep foo",
        "echo hi | $PAGER",
        "CURL=echo; $CURL ls | sh",
        "$X | bash -c 'echo hi'",
    ],
)
def test_a_variable_wrapper_or_a_pipe_into_no_shell_runs(command: str) -> None:
    """``$PY gen.py``: a variable given no option is a wrapper (``$SUDO cmd``), and gen.py is what runs."""
    assert check_command(command, home=HOME) is None

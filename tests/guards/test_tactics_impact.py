"""Tactic family ``impact``: shutting the machine down, killing everything, destroying the user's data."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.tactics.impact import user_data
from agentbus.guards.verdict import DATA_DESTRUCTION, SHUTDOWN

HOME = "/home/dev"

STOPS = [
    "shutdown -h now",
    "sudo /sbin/reboot --force",
    "systemctl poweroff",
    "systemctl start reboot.target",
    "init 6",
    "echo b > /proc/sysrq-trigger",
    "printf o | sudo tee /proc/sysrq-trigger >/dev/null",
    "loginctl terminate-user dev",
    "osascript -e 'tell application \"System Events\" to restart'",
    "nohup sh -c 'sleep 60; reboot' &",
    "kill -9 -1",
    "kill -s KILL -1",
    "kill -TERM 1",
    "kill $(ps -eo pid=)",
    "ps aux | awk 'NR>1{print $2}' | xargs kill -9",
    "pkill -9 -u dev",
    "pkill -f .",
    "killall5 -9",
    "killall -9 Finder Dock",
    "sudo pkill -9 launchd",
]
DESTROYS = [
    "rm -rf ~/Documents ~/Pictures",
    "rm -rf /Users/dev/Desktop",
    "shred -u ~/Documents/*",
    "truncate -s 0 ~/Documents/*.docx",
    "find ~ -type f -exec gpg --batch -c --passphrase k {} \\; -delete",
    "find /home -name '*.docx' -delete",
    'for f in $(find ~ -type f -name \'*.doc*\'); do gpg -c "$f" && rm -f "$f"; done',
    "zip -r -e -P x -m ~/a.zip ~/Pictures",
    "7z a -pX -sdel ~/all.7z ~/Documents",
    "ccrypt -e -r -K key ~/Documents",
    "dd if=/dev/zero of=$HOME/fill bs=1M",
    "rm -rf /var/lib/postgresql",
    "redis-cli FLUSHALL",
    "aws s3 rm s3://company-backups --recursive",
    "git push --force origin :main",
]
ORDINARY = [
    "rm -rf build dist node_modules",
    "rm -rf ~/.cache/pip",
    "rm -rf ~/Downloads/tmp-extract",
    "rm ~/Desktop/screenshot.png",
    "find ~/Downloads -name '*.dmg' -mtime +30 -delete",
    "find . -name '*.pyc' -delete",
    "dd if=/dev/urandom of=random.bin bs=1k count=16",
    "redis-cli -n 15 FLUSHDB",
    "git push origin --delete feature/old",
    "shutdown -c",
    "shutdown --help",
    "systemctl --user restart myapp",
    "kill -9 %1",
    "kill -HUP 1234",
    "kill -l",
    "pkill -f 'npm run dev'",
    "pkill -u dev -f jest",
    "killall Dock",
    "ps aux | grep node | awk '{print $2}' | xargs kill",
    "cat /proc/sys/kernel/sysrq",
    "psql -c 'DROP DATABASE IF EXISTS app_test'",
]


@pytest.mark.parametrize("command", STOPS)
def test_stopping_the_machine_or_every_process_is_a_shutdown(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    assert verdict.category == SHUTDOWN
    assert verdict.decision == "block"


@pytest.mark.parametrize("command", DESTROYS)
def test_destroying_the_users_data_is_data_destruction(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None
    # rm -rf of a whole home folder may be seed 000's filesystem rule first; either blocks.
    assert verdict.category in (DATA_DESTRUCTION, "filesystem destruction")
    assert verdict.decision == "block"


@pytest.mark.parametrize("command", ORDINARY)
def test_cleaning_up_and_stopping_ones_own_processes_are_ordinary(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_policy_decides_what_a_reboot_and_a_wipe_do() -> None:
    ask = Policy(verdicts={SHUTDOWN: "ask", DATA_DESTRUCTION: "ask"})
    for command in ("reboot", "shred -u ~/Documents/*"):
        verdict = check_command(command, home=HOME, policy=ask)
        assert verdict is not None
        assert verdict.decision == "ask"
        unattended = check_command(
            command, home=HOME, policy=Policy(verdicts=dict(ask.verdicts), profile="unattended")
        )
        assert unattended is not None
        assert unattended.decision == "block"
    allow = Policy(verdicts={SHUTDOWN: "allow"})
    assert check_command("reboot", home=HOME, policy=allow) is None
    assert check_command("shred -u ~/Documents/*", home=HOME, policy=allow) is not None


FOLDERS = st.sampled_from(["Documents", "Desktop", "Pictures", "Music", "Movies", "Library", ".local/share"])
NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=12)


@given(
    FOLDERS, st.sampled_from(["", "/*", "/*.jpg", "/"]), st.sampled_from(["~", "$HOME", HOME, "/Users/dev"])
)
def test_a_whole_data_folder_or_every_file_in_it_is_the_users_data(folder: str, tail: str, home: str) -> None:
    assert user_data(f"{home}/{folder}{tail}", HOME) is not None


@given(FOLDERS, NAMES)
def test_one_named_file_or_folder_inside_is_not(folder: str, name: str) -> None:
    assert user_data(f"~/{folder}/{name}", HOME) is None


@given(st.sampled_from(["-9", "-KILL", "-s KILL", "-TERM", "-HUP", "-SIGKILL", ""]),
       st.integers(min_value=2, max_value=99999))  # fmt: skip
def test_killing_one_process_by_pid_is_ordinary_whatever_the_signal(signal: str, pid: int) -> None:
    assert check_command(f"kill {signal} {pid}", home=HOME) is None
    assert check_command(f"kill {signal} -- -1", home=HOME) is not None

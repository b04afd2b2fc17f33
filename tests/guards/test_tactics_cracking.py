"""Tactic family ``cracking``: passwords guessed against a login or cracked from hashes."""

from __future__ import annotations

import pytest
from approvals import bus_with, run
from hypothesis import given
from hypothesis import strategies as st

from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.verdict import CREDENTIALS

HOME = "/home/dev"

GUESSES_OR_CRACKS = [
    "hydra -l root -P /usr/share/wordlists/rockyou.txt ssh://10.0.0.5",
    "hydra -L users.txt -p Winter2024! 10.0.0.0/24 ssh -t 4",
    "medusa -h 10.0.0.5 -u admin -P pass.txt -M ssh",
    "ncrack -p 22 --user root -P pass.txt 10.0.0.5",
    "crackmapexec smb 10.0.0.0/24 -u users.txt -p pass.txt",
    "nxc ssh 10.0.0.5 -u root -p pass.txt",
    "./kerbrute passwordspray -d corp.local users.txt 'Spring2024!'",
    "john --wordlist=rockyou.txt hashes.txt",
    "john --format=sha512crypt /tmp/h",
    "hashcat -m 1800 -a 0 shadow.txt rockyou.txt",
    "ssh2john ~/.ssh/id_rsa > k.hash",
    "fcrackzip -u -D -p rockyou.txt secret.zip",
    "aircrack-ng -w rockyou.txt capture.cap",
    "dscl . -authonly admin Password1",
    'for p in $(cat pw.txt); do dscl /Local/Default -authonly "$USER" "$p" && echo "$p"; done',
]
ORDINARY = [
    "hashcat --help",
    "john --help",
    "hydra -h",
    "dscl . -read /Users/dev",
    "dscl . -list /Users",
    "sha256sum dist/app.tgz",
    "openssl passwd -6 -salt abc hunter2",
    "htpasswd -nbB admin secret",
]


@pytest.mark.parametrize("command", GUESSES_OR_CRACKS)
def test_guessing_or_cracking_passwords_is_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (CREDENTIALS, "block"), verdict


@pytest.mark.parametrize("command", ORDINARY)
def test_help_and_ordinary_hashing_run(command: str) -> None:
    assert check_command(command, home=HOME) is None


def test_the_policy_decides_what_cracking_does() -> None:
    asked = check_command("john hashes.txt", home=HOME, policy=Policy(verdicts={CREDENTIALS: "ask"}))
    assert asked is not None
    assert asked.decision == "ask"
    assert check_command("john hashes.txt", home=HOME, policy=Policy(verdicts={CREDENTIALS: "allow"})) is None


@pytest.mark.anyio
async def test_a_guesser_never_runs_through_the_bus() -> None:
    result, ran = await run(bus_with(lambda call: True), "hydra -l root -P p.txt ssh://10.0.0.5")
    assert ran == []
    assert (result.block_reason or "").startswith("credential hunting: ")


NMAP_GUESSES = [
    'nmap -p5432 --script pgsql-brute "$T"',
    "nmap -p 22 --script ssh-brute --script-args ssh-brute.timeout=4s 10.0.0.5",
    "nmap --script=brute 10.0.0.5",
    'nmap --script "auth or brute" 10.0.0.5',
    "nmap --script smb-enum-users,smb-brute.nse 10.0.0.5",
]
NMAP_ORDINARY = [
    "nmap -sV --script=http-title localhost",
    "nmap --script vuln scanme.nmap.org",
    "nmap --script-help ssh-brute",
    "nmap -p 5432 localhost",
]


@pytest.mark.parametrize("command", NMAP_GUESSES)
def test_nmap_guessing_scripts_are_blocked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (CREDENTIALS, "block"), verdict


@pytest.mark.parametrize("command", NMAP_ORDINARY)
def test_nmap_without_a_guessing_script_is_not_cracking(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is None or verdict.category != CREDENTIALS, verdict


@given(
    st.lists(st.sampled_from(["http-title", "ssh-hostkey", "vuln", "default", "safe", "banner"]), max_size=4),
    st.sampled_from(["ssh-brute", "brute", "ftp-brute.nse", "scripts/mysql-brute"]),
    st.sampled_from([",", " or ", " and "]),
)
def test_a_guessing_script_is_found_anywhere_in_the_list(others: list[str], brute: str, joiner: str) -> None:
    scripts = joiner.join([*others, brute])
    verdict = check_command(f"nmap --script '{scripts}' 10.0.0.5", home=HOME)
    assert verdict is not None, scripts
    assert verdict.category == CREDENTIALS, scripts

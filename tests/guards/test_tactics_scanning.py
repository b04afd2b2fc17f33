"""Tactic family ``network scanning``: address ranges swept for open ports (how worms find victims)."""

from __future__ import annotations

import ipaddress

import pytest
from approvals import bus_with, run
from hypothesis import given
from hypothesis import strategies as st

import agentbus
from agentbus.guards.danger import check_command
from agentbus.guards.policy import Policy
from agentbus.guards.tactics.scanning import _wide_range
from agentbus.guards.verdict import NETWORK_SCAN

HOME = "/home/dev"

SWEEPS = [
    # held-out sample 6 (Docker-Botnets): TeamTNT's Redis sweep and a Docker API sweep of the local ranges
    "masscan --max-rate 10000 -p6379 --shard $( seq 1 22000 | sort -R | head -n1 )/22000 "
    "--exclude 255.255.255.255 0.0.0.0/0 2>/dev/null | awk '{print $6}' | sort | uniq > .shard",
    "ip -o -f inet a show|awk '/scope global/ {print $4}'|xargs masscan \"$@\" --ports 2375 --rate=60000",
    "pnscan $LAN_RANGE 22",
    "pnscan 10.0.0.0/8 6379 >> .r.txt",
    "masscan 10.0.0.0/16 --top-ports 100 --rate 100000",
    "sudo masscan -p80,443 192.168.0.0/16 --banners",
    "sudo zmap -p 2375 -o out.csv",
    "zmap -p 6379 10.0.0.0/8 -B 10M",
    "cat ips.txt | zgrab --port 2375 --http=/v1.16/version",
    "zgrab2 http --port 8080 < targets.txt",
    "unicornscan -mT 10.0.0.0/8:a",
    "naabu -host 10.0.0.0/8 -top-ports 100",
    "nmap -iR 100000 -p 22 --open",
    "nmap -sS -p 2375 10.0.0.0/8",
    "nmap -Pn -p 6379 0.0.0.0/0",
    "nmap -p 22 10.*.*.1",
    "sudo nmap -sn 172.16-31.0-255.1",
    "nmap -p 80 2001:db8::/16",
    "rustscan -a 10.0.0.0/8 --ulimit 5000",
]
FINGERPRINTS = [
    # lead21 (HTB write-ups, session 19): the first line of every break-in; variants written for the test
    "nmap -sV -p 22 10.0.0.5",
    "nmap -sC -sV -oA initial 10.10.10.29",
    "sudo nmap -p- --min-rate 5000 -Pn -n 10.10.10.140 -oG allPorts",
    "nmap -p22,80 -sCV target.htb",
    "nmap -A 192.168.56.101",
    "nmap --script=default -p 445 10.0.0.7",
    "nmap --script smb-enum-shares 10.0.0.7",
    "sudo nmap -O 10.0.0.7",
    "nmap -p 0-65535 10.0.0.7",
    "nmap -sV -iL targets.txt",
    "rustscan -a 10.10.10.5 -- -sC -sV",
]
PORT_SCANS = [
    # lateral27: the ports of another machine scanned, beyond one service's (once discovery here)
    "nmap -p 22,443 build-server.internal",
    "nmap 192.168.0.0/16 --exclude 192.168.5.0/24",
    "nmap --exclude 10.0.0.0/8 192.168.1.1",
    "nmap -p 1-1000 192.168.1.1-50",
    "nmap --top-ports 20 10.0.0.5",
    "sudo nmap -p 80,443 --open -iL scope.txt",
]
DISCOVERY = [
    "nmap -p 8080 build-server.internal",
    "nmap -iL hosts.txt -sn",
    "nmap --script-help http-title",
    "nmap -sn 192.168.1.0/24",
    "sudo nmap -sS 192.168.1.0/24 -p 80",
    "nmap -Pn -sV -p 0-65535 127.0.0.1",
    "nmap -p 5432 localhost",
    "nmap -sV -p 22 localhost",
    "nmap -T5 -sn 192.168.0.0/24",
    "nmap -iL hosts.txt -p 443",
    "nmap --version",
    "naabu -host example.com -p 80,443",
    "rustscan -a 127.0.0.1 -- -sV",
    "naabu -host 203.0.113.0/24 -top-ports 100",
    "masscan --help",
    "masscan --readscan scan.bin -oX scan.xml",
    "masscan --echo",
    "zmap --version",
    "zmap -d -p 80 10.0.0.0/8",
    "zmap --list-probe-modules",
    "brew install masscan",
]


@pytest.mark.parametrize("command", SWEEPS)
def test_a_network_sweep_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (NETWORK_SCAN, "ask"), verdict


@pytest.mark.parametrize("command", FINGERPRINTS)
def test_fingerprinting_another_machine_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (NETWORK_SCAN, "ask"), verdict


@pytest.mark.parametrize("command", PORT_SCANS)
def test_a_port_scan_of_another_machine_is_asked(command: str) -> None:
    verdict = check_command(command, home=HOME)
    assert verdict is not None, command
    assert (verdict.category, verdict.decision) == (NETWORK_SCAN, "ask"), verdict


@pytest.mark.parametrize("command", DISCOVERY)
def test_scanning_a_host_or_a_lan_and_asking_for_help_run(command: str) -> None:
    assert check_command(command, home=HOME) is None


@pytest.mark.parametrize("command", ["pnscan 10.0.0.0/8 22", "nmap -iR 100 -p 22"])
def test_the_policy_decides_what_a_sweep_does(command: str) -> None:
    assert check_command(command, home=HOME, policy=Policy(verdicts={NETWORK_SCAN: "allow"})) is None
    blocked = check_command(command, home=HOME, policy=Policy(verdicts={NETWORK_SCAN: "block"}))
    assert blocked is not None
    assert blocked.decision == "block"
    unattended = check_command(command, home=HOME, policy=Policy(profile="unattended"))
    assert unattended is not None
    assert unattended.decision == "block"


@given(st.ip_addresses(v=4), st.integers(min_value=0, max_value=32))
def test_an_ipv4_range_is_wide_exactly_when_it_is_wider_than_a_slash_16(address: object, prefix: int) -> None:
    network = ipaddress.ip_network(f"{address}/{prefix}", strict=False)
    assert _wide_range(str(network)) == (prefix < 16)


@given(st.text(max_size=40))
def test_any_word_is_judged_without_error(word: str) -> None:
    _wide_range(word)


@pytest.mark.anyio
async def test_a_sweep_goes_to_the_approver_and_a_no_stops_it() -> None:
    asked: list[str] = []

    def approver(call: agentbus.ToolCall) -> bool:
        asked.append(call.block_reason or "")
        return False

    result, ran = await run(bus_with(approver), "pnscan 10.0.0.0/8 22")
    assert ran == []
    assert result.blocked
    assert asked == ["network scanning: pnscan 10.0.0.0/8 22 (pnscan sweeps network ranges for open ports)"]

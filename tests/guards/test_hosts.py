"""This machine by name: one definition for the tactics that leave one's own services alone."""

from __future__ import annotations

import pytest

from agentbus.guards.hosts import is_this_machine, named_hosts, only_this_machine


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "0.0.0.0", "localhost:8000",
     "127.0.0.1:5432", "127.0.0.1/8", "127.0.0.1/32"],
)  # fmt: skip
def test_the_names_of_this_machine(host: str) -> None:
    assert is_this_machine(host)


@pytest.mark.parametrize(
    "host",
    ["10.0.0.5", "example.com", "localhost.example.com", "127.0.0.1.example.com", "0.0.0.0/0", "127.0.0.1/4",
     "1.127.0.0.1", "", "::", "mylocalhost"],
)  # fmt: skip
def test_other_machines_and_wider_ranges(host: str) -> None:
    assert not is_this_machine(host)


def test_only_this_machine_needs_one_host_named_and_all_of_them_local() -> None:
    assert only_this_machine(["localhost", "127.0.0.1:80"])
    assert not only_this_machine([])
    assert not only_this_machine(["localhost", "10.0.0.5"])
    assert only_this_machine(iter(["::1"]))


def test_named_hosts_reads_addresses_urls_and_accounts_at_an_address() -> None:
    values = ["-t=10.0.0.5", "http://127.0.0.1:8000/x", "corp/admin:pw@10.0.0.6", "http://[::1]/", "-v", "db"]
    assert named_hosts(values) == ["10.0.0.5", "127.0.0.1", "10.0.0.6", "::1"]

"""Netcat's one table of options: the host and ports found past joined options, a listener told apart."""

from __future__ import annotations

import pytest

from agentbus.guards import transfers
from agentbus.guards.netcat import NETCATS, listens, operands
from agentbus.guards.parse import parse
from agentbus.guards.programs import walk
from agentbus.guards.tactics.exfiltration import sends_stdin


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["-zv", "10.0.0.5", "20-80"], ["10.0.0.5", "20-80"]),
        (["-nvw", "2", "10.0.0.5", "1-1024"], ["10.0.0.5", "1-1024"]),
        (["-w3", "db", "5432"], ["db", "5432"]),
        (["-x", "proxy:1080", "-X", "5", "host", "22"], ["host", "22"]),
        (["--source-port", "53", "host", "80"], ["host", "80"]),
        (["-v", "--", "-host", "80"], ["-host", "80"]),
    ],
)
def test_operands_skip_the_values_of_options(values: list[str], expected: list[str]) -> None:
    assert operands(values) == expected


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["-lvnp", "4444"], True),
        (["-nlvp", "9001"], True),
        (["--listen", "8080"], True),
        (["-w", "3", "-l", "-p", "4444"], True),
        (["-zv", "host", "80"], False),
        (["-x", "l", "host", "80"], False),
        (["--lua-exec", "x.lua", "host", "80"], False),
    ],
)
def test_a_listener_is_told_apart(values: list[str], expected: bool) -> None:
    assert listens(values) is expected


@pytest.mark.parametrize(
    ("command", "listener"),
    [
        ("nc -nlvp 9001", True),
        ("ncat --listen 8080", True),
        ("nc -l -p 4444", True),
        ("busybox-nc -lp 4444", True),
        ("nc -nv 10.0.0.5 4444", False),
        ("ncat --send-only 10.0.0.5 443", False),
        ("telnet 10.0.0.5 25", False),
    ],
)
def test_every_reader_of_a_socket_asks_the_one_table(command: str, listener: bool) -> None:
    """Whether a socket program sends its input away (exfiltration) or fetches a download (transfers) is
    decided by netcat's one reading of ``-l``: ``-nlvp`` and ``--listen`` listen too."""
    invocation = next(stage for stages in walk(parse(command)) for stage in stages)
    values = list(invocation.args)
    assert transfers.socket_listens(invocation.name, values) is listener
    assert sends_stdin(invocation) is not listener
    assert NETCATS <= transfers.SOCKETS

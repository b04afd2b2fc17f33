"""Netcat's one table of options: the host and ports found past joined options, a listener told apart."""

from __future__ import annotations

import pytest

from agentbus.guards.tactics.netcat import listens, operands


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

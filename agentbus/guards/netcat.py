"""Netcat's command line, read once for every rule that judges it.

Traditional netcat, OpenBSD's, Nmap's ``ncat`` and their renamed copies (``cryptcat``, ``pwncat``,
``busybox-nc``) share a syntax: options, then a host and its ports (``nc -nvw2 10.0.0.5 20-80``), or a
listener's port (``nc -lvnp 4444``). Port probes, uploads and served files all ask the same two
questions (which words are the host and ports, does it listen), so the table of options that take a
value lives here, and one walk answers both.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["NETCATS", "listens", "operands"]

NETCATS = frozenset({"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "busybox-nc", "cryptcat",
                     "pwncat"})  # fmt: skip
_VALUED = frozenset({"-w", "-p", "-s", "-i", "-q", "-x", "-X", "-e", "-c", "-I", "-O", "-T", "-V", "-W", "-M",
                     "-m", "-P", "-g", "-G", "-b", "-o", "-d", "--wait", "--source-port", "--source",
                     "--proxy", "--proxy-type", "--exec", "--sh-exec", "--lua-exec", "--idle-timeout",
                     "--output", "--delay"})  # fmt: skip
"""Options (traditional, OpenBSD, Nmap's) whose next word is a value, not a host or a port."""
_LISTENS = frozenset({"-l", "--listen"})


def _walk(values: list[str]) -> Iterator[tuple[bool, str]]:
    """Each word as (is it an operand, the word); the values of options are left out.
    Joined short options give the next word to their last letter (``-nvw 2``, ``-lvnp 4444``)."""
    skip = False
    for index, value in enumerate(values):
        if skip:
            skip = False
        elif value == "--":
            yield from ((True, rest) for rest in values[index + 1 :])
            return
        elif value.startswith("-") and value != "-":
            short = value[1:2] != "-"
            skip = value in _VALUED or (short and f"-{value[-1]}" in _VALUED)
            yield False, value
        else:
            yield True, value


def operands(values: list[str]) -> list[str]:
    """The host and port words (``nc -w 3 HOST PORT`` -> ``[HOST, PORT]``)."""
    return [value for operand, value in _walk(values) if operand]


def listens(values: list[str]) -> bool:
    """Whether netcat waits for a connection (``-l``, ``-lvnp``, ``--listen``) rather than makes one."""
    return any(
        not operand and (value in _LISTENS or (value[1:2] != "-" and "l" in value))
        for operand, value in _walk(values)
    )

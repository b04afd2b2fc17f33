"""This machine, by the names a command gives it: the hosts reached without leaving the machine.

A developer points a scanner, a web attack tool or a domain tool at their own service
(``nmap -sV localhost``, ``nikto -h localhost:8000``, ``sqlmap -u http://127.0.0.1/``,
``ldapdomaindump 127.0.0.1``): the tactics that ask about another machine leave those alone.
One definition, so that each of them means the same machine: ``localhost``, any ``127.x.x.x``
(with a loopback prefix, ``127.0.0.1/8``), ``::1`` with or without brackets, and ``0.0.0.0``,
which a client's connection reaches this machine through; in any case, with or without a port.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..lazy_regex import lazy_compile

__all__ = ["is_this_machine", "named_hosts", "only_this_machine"]

_THIS_MACHINE = lazy_compile(
    r"(?:localhost|127(?:\.\d{1,3}){3}(?:/(?:[89]|[12]\d|3[0-2]))?|::1|\[::1\]|0\.0\.0\.0)(?::\d{1,5})?",
    re.IGNORECASE,
)
"""A name or address of this machine; a prefix only on a 127 address, and only one inside 127.0.0.0/8
(``0.0.0.0/0`` is the whole internet)."""
_NAMED_HOST = lazy_compile(
    r"^(?:[\w.$\\/-]*(?::[^@\s]*)?@)?(\d{1,3}(?:\.\d{1,3}){3}|localhost|::1)(?=$|[:/])"
    r"|^\w+://(\[[0-9a-f:]+\]|[\w.-]+)",
    re.IGNORECASE,
)
"""A host an argument names by its address: ``10.0.0.5``, ``DOMAIN/user:pass@10.0.0.5``, a URL's host."""


def is_this_machine(host: str) -> bool:
    """Whether ``host`` (a name or address, perhaps with a port) is this machine."""
    return _THIS_MACHINE.fullmatch(host) is not None


def only_this_machine(hosts: Iterable[str]) -> bool:
    """Whether ``hosts`` names one host at least, and each is this machine."""
    named = False
    for host in hosts:
        if not is_this_machine(host):
            return False
        named = True
    return named


def named_hosts(values: Iterable[str]) -> list[str]:
    """The hosts arguments name by address or URL, an option's attached value included (``-t=10.0.0.5``,
    ``http://127.0.0.1:8000/x``, ``corp/admin:pw@10.0.0.5``); names without a scheme are not read."""
    hosts = []
    for value in values:
        match = _NAMED_HOST.match(value.partition("=")[2] if value.startswith("-") else value)
        if match:
            hosts.append((match.group(1) or match.group(2) or "").strip("[]"))
    return hosts

"""Tactic family ``network scanning`` by hand: ports of another machine probed through bash's ``/dev/tcp``.

``for p in {1..65535}; do (echo > /dev/tcp/10.0.0.5/$p) 2>/dev/null && echo "$p open"; done`` is a port
scanner with no scanner installed (the attacker's way on a host without nmap). The parser gives such a
loop's redirection every value its variable takes (``/dev/tcp/10.0.0.5/{1..65535}``, or one redirection
per listed port), so the sweep is seen as many ports, or a range of them, of one host. Asked, as
:mod:`.scanning` asks a scanner fingerprinting another machine; one port probed (``: > /dev/tcp/db/5432``,
a health check) and this machine's own ports stay ordinary.
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..hosts import is_this_machine
from ..programs import Invocation
from ..verdict import NETWORK_SCAN, Verdict

__all__ = ["judge"]

_PROBE = lazy_compile(r"^/dev/(?:tcp|udp)/([^/]+)/(.+)$")
_PORT_RANGE = lazy_compile(r"\{\d+\.\.\d+\}")
"""A range of ports in the target: a brace range the loop's values left (``{1..1024}``)."""
_MANY_PORTS = 4
"""Distinct ports of one host that make a sweep rather than a reachability check (``for p in 22 80 443``)."""


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """Several ports, or a range of them, of another machine probed through ``/dev/tcp``, or None."""
    command = invocation.command
    ports: dict[str, set[str]] = {}
    for redirect in command.redirects:
        target = command.static(redirect.target) or command.shape(redirect.target) or ""
        probe = _PROBE.match(target)
        if probe is None or is_this_machine(probe.group(1)):
            continue
        host, port = probe.groups()
        if _PORT_RANGE.search(port):
            return _sweep(invocation, host)
        ports.setdefault(host, set()).add(port)
    host = next((h for h, seen in ports.items() if len(seen) >= _MANY_PORTS), None)
    return None if host is None else _sweep(invocation, host)


def _sweep(invocation: Invocation, host: str) -> Verdict:
    why = f"probes many ports of {host} through /dev/tcp: a port scan of another machine"
    return _verdict(NETWORK_SCAN, invocation, why)

"""Tactic family ``network scanning`` by hand: ports of another machine probed through bash's ``/dev/tcp``
or netcat, or a connection to one opened by the shell and kept.

``for p in {1..65535}; do (echo > /dev/tcp/10.0.0.5/$p) 2>/dev/null && echo "$p open"; done`` is a port
scanner with no scanner installed (the attacker's way on a host without nmap). The parser gives such a
loop's redirection every value its variable takes (``/dev/tcp/10.0.0.5/{1..65535}``, or one redirection
per listed port), so the sweep is seen as many ports, or a range of them, of one host. Asked, as
:mod:`.scanning` asks a scanner fingerprinting another machine; one port probed (``: > /dev/tcp/db/5432``,
a health check) and this machine's own ports stay ordinary.

Netcat is the same scanner with its own syntax: ``nc -zv 10.0.0.5 20-80`` or ``echo | nc -nvw2 HOST 1-1024``
tries every port of the range (``nc -u -z`` the UDP ones); ``nc -z db 5432`` is a health check.

``exec 3<>/dev/tcp/203.0.113.9/443`` as a whole call opens a raw connection that stays open in the
agent's shell for later calls to feed, or to be fed from (a loader's ``cat <&3 | sh`` one call later, out
of this one's sight): asked as :data:`~agentbus.guards.verdict.REMOTE_ACCESS`. Opened and used in the same
call (``… >&3; head -n1 <&3``), in a subshell or with other commands (``(exec 3<>…) && echo up``), it
is a probe or a transfer, judged by what uses it (:mod:`..danger`).
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..hosts import is_this_machine
from ..netcat import NETCATS, listens, operands
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import NETWORK_SCAN, REMOTE_ACCESS, Verdict

__all__ = ["judge", "kept_connection"]

_PROBE = lazy_compile(r"^/dev/(?:tcp|udp)/([^/]+)/(.+)$")
_PORT_RANGE = lazy_compile(r"\{\d+\.\.\d+\}")
"""A range of ports in the target: a brace range the loop's values left (``{1..1024}``)."""
_MANY_PORTS = 4
"""Distinct ports of one host that make a sweep rather than a reachability check (``for p in 22 80 443``)."""


_NETCAT_RANGE = lazy_compile(r"(\d{1,5})-(\d{1,5})")


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """Several ports, or a range of them, of another machine probed by ``/dev/tcp`` or netcat, or None."""
    if invocation.name in NETCATS:
        return _netcat_sweep(invocation)
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


def _netcat_sweep(invocation: Invocation) -> Verdict | None:
    """``nc -zv HOST 20-80``, ``nc HOST 21 22 23 25``: a range or a list of another machine's ports tried."""
    values = _values(invocation)
    if listens(values):
        return None  # a listener: its port is its own
    words = operands(values)
    if len(words) < 2 or is_this_machine(words[0]):
        return None
    host, ports = words[0], words[1:]
    wide = any((m := _NETCAT_RANGE.fullmatch(port)) and int(m.group(2)) > int(m.group(1)) for port in ports)
    if not wide and len(set(ports)) < _MANY_PORTS:
        return None
    why = f"{invocation.name} tries many ports of {host}: a port scan of another machine"
    return _verdict(NETWORK_SCAN, invocation, why)


def kept_connection(script: Script) -> Verdict | None:
    """A whole call that only opens a descriptor to another machine (``exec 3<>/dev/tcp/h/p``), or None.
    Judged on the call itself, not on nested code: ``bash -c 'exec 3<>…'`` closes it when bash exits."""
    if len(script.pipelines) != 1 or len(script.pipelines[0]) != 1:
        return None
    command = script.pipelines[0][0]
    if command.words != ("exec",):
        return None
    for redirect in command.redirects:
        target = command.static(redirect.target) or ""
        probe = _PROBE.match(target)
        if probe is None or redirect.fd in ("", "0", "1", "2") or is_this_machine(probe.group(1)):
            continue
        host, fd = probe.group(1), redirect.fd
        why = f"opens a connection to {host} kept in the shell (descriptor {fd}) for later calls"
        stages = next(iter(walk(script)), [])
        return _verdict(REMOTE_ACCESS, stages[0], why) if stages else None
    return None

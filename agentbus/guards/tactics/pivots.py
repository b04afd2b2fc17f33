"""Tactic family ``pivots``: other machines reached from this one.

- :data:`~agentbus.guards.verdict.REMOTE_ACCESS` (asked): logins swept over a list of hosts
  (``for h in $(cat hosts); do sshpass -p PW ssh -o StrictHostKeyChecking=no admin@$h id; done``,
  ``while read ip; do ssh … root@$ip …; done < targets``): a host named at run time, from a list or a
  command's output, logged in to with a password on the command line or with host keys unchecked.
  That is a password sprayed or commands run across a network (lateral movement). One host named by a
  variable of the environment (``sshpass -p "$PASS" ssh deploy@$HOST``) is a deploy script: ordinary.
- :data:`~agentbus.guards.verdict.BACKDOOR`: SOCKS relays and port forwarders known by their mode or
  their options, whatever their name: EarthWorm's modes, Ligolo-ng's ``agent``/``proxy`` (``-ignore-cert``,
  ``-selfcert``), rpivot's ``server.py``/``client.py`` (``--server-port`` with ``--proxy-port`` or
  ``--server-ip``, not this machine's); and web-shell tunnels run from their scripts (Neo-reGeorg's
  ``neoreg.py``, reGeorg, ABPTTS, rdp2tcp's controller; dnscat2's ``dnscat2.rb`` and rpivot's and
  dnscat2's scripts renamed after their tool, ``rpivot_server.py``).
- :data:`~agentbus.guards.verdict.REMOTE_ACCESS` (asked): Ligolo-ng's proxy known by its flag set alone
  (``./proxy -certfile cert.pem -keyfile key.pem``: flags a project's own proxy may share), and an attack tool
  copied to another machine by name (``scp linpeas.sh user@10.0.0.5:/tmp``, ``scp pspy-master.zip …``).

EarthWorm (``ew``) and its forks (Termite, ``ew_for_linux64``, renamed copies) take the mode as
``-s MODE``: ``ssocksd`` (a SOCKS server here), ``rcsocks``/``rssocks`` (a reverse SOCKS tunnel
between this machine and the attacker's), ``lcx_listen``/``lcx_tran``/``lcx_slave`` (port relays).
No other program takes those words, and attackers rename the binary, so the mode is what is judged
(a backdoor: the attacker reaches this network through it), not the program's name.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..hosts import is_this_machine
from ..options import option_values
from ..programs import Invocation, walk
from ..verdict import BACKDOOR, REMOTE_ACCESS, Verdict
from .hidden_runs import launched_file

__all__ = ["judge"]

_MODES = frozenset({"ssocksd", "rcsocks", "rssocks", "lcx_listen", "lcx_tran", "lcx_slave"})


_COUNTERS = frozenset({"seq", "jot", "expr"})
"""What a sweep computes an address from: numbers."""
_LOGINS = frozenset({"ssh", "scp", "sftp", "slogin", "rsync", "ssh-copy-id"})
_SSH_VALUED = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
"""ssh's options that take a value (``-o OPTION``, ``-i KEY``, ``-p PORT`` ...)."""
_UNCHECKED_HOST_KEYS = frozenset(
    {"stricthostkeychecking=no", "stricthostkeychecking=off", "userknownhostsfile=/dev/null"}
)
_PASSWORD_WRAPPERS = frozenset({"sshpass"})


def _destinations(invocation: Invocation) -> list[str]:
    """The raw words naming the host(s) ``invocation`` logs in to."""
    args = invocation.args
    if invocation.name != "ssh" and invocation.name != "slogin":
        return [a for a in args if not a.startswith("-") and (":" in a or "@" in a)]
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            return list(args[index + 1 : index + 2])
        if word.startswith("-") and len(word) > 1:
            index += 2 if word[-1] in _SSH_VALUED and len(word) == 2 else 1
            continue
        return [word]
    return []


def _sweep(invocation: Invocation) -> Verdict | None:
    """A login to hosts named at run time, with a password given or the host keys unchecked."""
    if invocation.name not in _LOGINS:
        return None
    command = invocation.command
    listed = any(command.substitutions_in(word) for word in _destinations(invocation))
    if not listed:
        return None
    values = [v.lower() for v in _values(invocation)]
    password = bool(_PASSWORD_WRAPPERS & set(invocation.wrappers)) or any(
        e.startswith("SSHPASS=") for e in invocation.env
    )
    unchecked = any(option in v for v in values for option in _UNCHECKED_HOST_KEYS)
    if not (password or unchecked):
        return None
    how = "with a password on the command line" if password else "with host keys unchecked"
    why = f"logs in {how} to hosts named at run time (a list): a sweep across the network"
    return _verdict(REMOTE_ACCESS, invocation, why)


_OCTETS = r"(?:\d{1,3}|\{\d+\.\.\d+\})"
_RANGED_ADDRESS = lazy_compile(rf"(?:^|@)(?=[\d.]{{0,12}}\{{){_OCTETS}(?:\.{_OCTETS}){{3}}(?::|$)")
"""A host spelled over a range of numbers (``root@10.0.0.{1..254}``, ``192.168.1.$i`` with ``$i`` from
``{1..254}``): every address of a network, not a host."""
_ADDRESS = lazy_compile(r"^(?:[^@\s]+@)?\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?=:|$)")
_SPREAD = 3
"""Addresses named together (a brace range or a loop's list expanded) that make a sweep."""


def _ranged(invocation: Invocation) -> bool:
    """Whether the hosts ``invocation`` logs in to are the addresses of a range: a brace range or a
    counter (``$(seq 1 254)``) in an address, or a range's addresses given together."""
    command = invocation.command
    args = [a for a in invocation.args if not a.startswith("-")]
    for word in _destinations(invocation)[:1] or args[:1]:
        rendered = command.render(word)
        if _RANGED_ADDRESS.search(rendered):
            return True
        subs = command.substitutions_in(word)
        if (
            subs
            and _ADDRESS.match(rendered.rpartition("$(")[0] + "0")
            and all(
                {stage.name for stages in walk(sub.script) for stage in stages} <= _COUNTERS for sub in subs
            )
        ):
            return True
    addresses = {m.group(0) for m in map(_ADDRESS.match, (command.render(a) for a in args)) if m}
    return len(addresses) >= _SPREAD


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """Logins swept over a host list or an address range, EarthWorm's relay modes (``-s rssocks -d HOST
    -e PORT``), or None."""
    if not invocation.name:
        return None
    if invocation.name in _LOGINS and _ranged(invocation):
        why = "logs in to every address of a range (a brace range or a counter): a sweep across the network"
        return _verdict(REMOTE_ACCESS, invocation, why)
    sweep = _sweep(invocation)
    if sweep is not None:
        return sweep
    values = _values(invocation)
    for index, value in enumerate(values[:-1]):
        mode = values[index + 1] if value == "-s" else None
        if mode in _MODES:
            why = f"runs an EarthWorm-style relay (-s {mode}): a SOCKS tunnel or port relay into this network"
            return _verdict(BACKDOOR, invocation, why)
    agent = _pivot_agent(invocation, values)
    if agent is not None:
        return _verdict(BACKDOOR, invocation, agent)
    if _ligolo_proxy(invocation, values):
        why = "runs Ligolo-ng's proxy by its own flags: the server end of a tunnel into another network"
        return _verdict(REMOTE_ACCESS, invocation, why)
    if invocation.name in _COPIERS:
        return _carried_tool(invocation, values)
    return None


_COPIERS = frozenset({"scp", "rsync"})
"""Programs that copy files to another machine (``scp F user@host:/tmp``)."""
_CARRIED = lazy_compile(
    r"(?:lin|win)peas\w*|linenum|lse|les|linux-exploit-suggester[\w-]*|pspy\w*|deepce|kerbrute|sucrack|chisel"
    r"|ligolo[\w-]*|mimikatz|mimipenguin|lazagne|pypykatz|rubeus|sharphound|dnscat2?|socat_static|ncat_static"
)
"""Attack tools by the names they are published under, carried to a machine just broken into (privilege
escalation scanners, process snoopers, password sprayers and crackers, tunnels, credential dumpers)."""
_PACKED = lazy_compile(
    r"(?:[-_](?:master|main|linux|amd64|386|arm64|x64|x86|static|any|ofs|release|v?\d[\w.]*))*"
    r"(?:\.(?:sh|py|pl|exe|ps1|bin|zip|tar|gz|tgz|bz2|xz|7z))*$",
    re.IGNORECASE,
)
"""What a release adds to a tool's name: a branch, a platform, a version, a script's or archive's suffix."""


def _carried_tool(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``scp pspy-master.zip user@10.0.0.5:/tmp``, ``scp linpeas.sh root@host:``: an attack tool copied to
    another machine to be run there (ATT&CK's lateral tool transfer); copying from one, or to this machine,
    is not judged here."""
    words = [v for v in values if not v.startswith("-")]
    if len(words) < 2:
        return None
    destination = words[-1]
    user_host, colon, _ = destination.partition(":")
    host = user_host.rpartition("@")[2]
    if not colon or not host or "/" in user_host or is_this_machine(host):
        return None
    for source in words[:-1]:
        if ":" in source:
            continue
        name = source.rstrip("/").rpartition("/")[2]
        stem = _PACKED.sub("", name, count=1)
        if _CARRIED.fullmatch(stem.lower()):
            why = f"copies {name}, an attack tool, to {host}: to be run there (lateral tool transfer)"
            return _verdict(REMOTE_ACCESS, invocation, why)
    return None


_LIGOLO_OPTIONS = frozenset({"-selfcert", "-ignore-cert", "-autocert", "-accept-fingerprint"})
"""Options of Ligolo-ng's ``proxy`` and ``agent`` (released under those plain names: ``./agent -connect
HOST:11601 -ignore-cert``, ``./proxy -selfcert``), which no other program spells with one dash."""


_LIGOLO_PROXY_FLAGS = frozenset({"-certfile", "-keyfile", "-laddr", "-selfcert-domain", "-allow-domains",
                                  "-nobanner", "-daemon", "-api-laddr", "-config", "-v"})  # fmt: skip
"""Ligolo-ng's ``proxy`` flags that other programs spell too (Go's one dash): together, and with no flag
Ligolo lacks, they are its proxy; :data:`_LIGOLO_OPTIONS` are its own alone."""
_LIGOLO_PROXY_NAME = lazy_compile(
    r"^(?:ligolo[\w.-]*|proxy(?:[_.-](?:linux|windows|darwin|amd64|arm64)[\w.-]*)?)$"
)


def _ligolo_proxy(invocation: Invocation, values: list[str]) -> bool:
    """``./proxy -certfile cert.pem -keyfile key.pem``: Ligolo-ng's proxy, released as ``proxy``, told from
    a project's own ``./proxy`` by its flag set: two of Ligolo's flags (or its port, 11601), none it lacks.
    Asked: a person knows whether the project has a proxy of its own spelled so."""
    if not _LIGOLO_PROXY_NAME.match(invocation.name):
        return False
    flags = [value.partition("=")[0] for value in values if value.startswith("-")]
    if not flags or not set(flags) <= _LIGOLO_PROXY_FLAGS:
        return False
    return len(set(flags) - {"-v", "-nobanner", "-daemon"}) >= 2 or any(v.endswith(":11601") for v in values)


_TUNNEL_SCRIPTS = {
    "neoreg.py": "Neo-reGeorg tunnels a SOCKS proxy through a web shell into another network",
    "regeorgsocksproxy.py": "reGeorg tunnels a SOCKS proxy through a web shell into another network",
    "abpttsclient.py": "ABPTTS tunnels TCP through a web shell into another network",
    "abpttsfactory.py": "ABPTTS makes the web shells its tunnel runs through",
    "rdp2tcp.py": "rdp2tcp forwards ports through an RDP session into another network",
    "dnscat2.rb": "dnscat2's server: a command-and-control channel hidden in DNS queries",
}
"""Pivoting tools run as scripts from their clones (``python3 neoreg.py -k KEY -u URL``; ``neoreg.py
generate`` writes the web shells): whatever the arguments, a tunnel into a network through a breached host."""
_RENAMED_SCRIPT = lazy_compile(r"^(?:rpivot|dnscat2?)[\w.-]*\.(?:py|rb)$")
"""rpivot's and dnscat2's scripts kept under their tool's name (``rpivot_server.py``, ``dnscat2-cli.py``)."""


def _pivot_agent(invocation: Invocation, values: list[str]) -> str | None:
    """A pivoting agent known by its options or its script rather than its name (attackers rename it), or
    None."""
    launched = (launched_file(invocation) or invocation.name).rpartition("/")[2].lower()
    help_only = len(values) <= 2 and values[-1:] in (["-h"], ["--help"])
    if launched in _TUNNEL_SCRIPTS and not help_only:
        return _TUNNEL_SCRIPTS[launched]
    if _RENAMED_SCRIPT.match(launched) and not help_only:
        return f"{launched}: a pivoting tool's script (rpivot's SOCKS pivot, dnscat2's DNS channel)"
    options = {value.partition("=")[0] for value in values if value.startswith("-")}
    if options & _LIGOLO_OPTIONS:
        return "Ligolo-ng's agent or proxy opens a tunnel that pivots into this network"
    # rpivot's options: --server-port with --proxy-port (server) or --server-ip (client), --ntlm-proxy-ip
    both = {"--server-port", "--proxy-port"} <= options or {"--server-ip", "--server-port"} <= options
    if not (both or "--ntlm-proxy-ip" in options) or _only_loopback(values):
        return None
    script = (launched_file(invocation) or invocation.name).rpartition("/")[2]
    if script in ("server.py", "client.py"):
        return "rpivot's server or client: a SOCKS pivot dialled back into this network"
    return None


def _only_loopback(values: list[str]) -> bool:
    """Whether a ``--server-ip`` is given and is this machine (a developer's own client and server); a
    server bound to ``0.0.0.0`` listens on every network, not only this machine's."""
    addresses = option_values(values, frozenset({"--server-ip"}))
    return bool(addresses) and is_this_machine(addresses[0]) and not addresses[0].startswith("0.0.0.0")

"""Tactic family ``network scanning``: sweeping address ranges for the next machine to break into.

ATT&CK's network service discovery as worms do it: a miner's dropper runs ``masscan 0.0.0.0/0
-p6379`` or ``pnscan $RANGE 22`` to find exposed Redis, Docker or SSH servers and spreads to
them. A coding task does not sweep the network, but an administrator or a penetration tester
does on purpose, so each finding is :data:`~agentbus.guards.verdict.NETWORK_SCAN` (asked by
default; ``profile = "unattended"`` blocks it):

- the mass scanners by name (``masscan``, ``zmap``, ``pnscan``, ``zgrab``, ``unicornscan``),
  whatever they are pointed at: the whole internet at ten million packets a second is what they
  are built for, and their targets often come from a variable or a pipe;
- the port scanners of a host (``nmap``, ``naabu``, ``rustscan``) when they sweep beyond a site: random
  internet hosts (``-iR``), a range wider than a /16 (``10.0.0.0/8``, ``0.0.0.0/0``) or wildcards
  in two octets (``10.*.*.1``). Checking a port of a host or sweeping a LAN for live hosts (``nmap -sn
  192.168.1.0/24``, ``naabu -host example.com``, ``nmap -p 5432 db``) stays discovery;
- a host scanner told to fingerprint another machine: its services and versions, its operating system, the
  default or named scripts, every port, its UDP services (``nmap -sC -sV 10.10.10.29``, ``nmap -A -p- host``,
  ``nmap -sU --top-ports 100 host``): the first line
  of every break-in write-up, and not how a developer checks a port. The machine itself (``localhost``,
  ``127.0.0.1``) stays discovery;
- nmap told to slip past a firewall or an intrusion detector, whatever it scans: fragments (``-f``,
  ``--mtu``), decoys (``-D RND:10``), a spoofed source port or address (``--source-port 53``, ``-g``,
  ``--spoof-mac``, an idle ``-sI`` or FTP bounce ``-b`` scan through another host), padding and bad
  checksums, paranoid or sneaky timing (``-T1``, ``--scan-delay 2s``). Finding one's own service needs none;
- hping3 told to scan another host's ports (``--scan 1-1000``), or to forge its source or fragment its
  packets past a firewall (``-a``, ``--spoof``, ``-f``): asked; told to flood it or to forge random sources
  (``--flood``, ``--rand-source``), a denial of service spent from this machine's bandwidth:
  :data:`~agentbus.guards.verdict.RESOURCE_HIJACK`, blocked. Aimed at this machine it stays ordinary.

Asking a scanner for its help or version, reading an earlier scan (``masscan --readscan``, ``--read-scan``) or
a dry run (``zmap -d``) sends nothing and is ordinary.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import positionals
from ..findings import static_args as _values
from ..hosts import only_this_machine
from ..programs import Invocation
from ..verdict import NETWORK_SCAN, RESOURCE_HIJACK, Verdict

__all__ = ["judge"]

_MASS_SCANNERS = frozenset({"masscan", "zmap", "pnscan", "zgrab", "zgrab2", "unicornscan"})
"""Programs whose purpose is sweeping many addresses at a high rate."""
_HOST_SCANNERS = frozenset({"nmap", "naabu", "rustscan"})
"""Programs that scan the ports of a host or a LAN, and of the internet when given a wide range."""
_SENDS_NOTHING = frozenset({"-h", "--help", "-help", "--version", "-V", "-version", "--readscan", "--echo",
                            "-d", "--dryrun", "--list-probe-modules", "--list-output-modules",
                            "--list-output-fields", "--iflist", "--selftest", "--regress"})  # fmt: skip
"""Options that only print (help, version, configuration, an earlier scan) or rehearse a scan."""
_WIDEST_SITE = 16
"""An IPv4 prefix shorter than this spans more than one organisation's network (a /16: 65,536 hosts)."""
_WILD_OCTET = lazy_compile(r"\*|\d{0,3}-\d{0,3}")
"""nmap's octet ranges: ``*`` or ``0-255`` (``10.*.*.1``, ``192.168-170.0-255.1``)."""


def _masscan_spelling(option: str) -> str:
    """masscan's long option as its parser compares it: case, ``-``, ``_`` and ``.`` ignored (``--read-scan``
    is ``--readscan``)."""
    if not option.startswith("--"):
        return option
    return "--" + re.sub(r"[-_.]", "", option[2:]).lower()


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The network sweep in this command, or None."""
    name = invocation.name
    if name in _MASS_SCANNERS:
        values = _values(invocation)
        options = {value.partition("=")[0] for value in values}
        if name == "masscan":
            options |= {_masscan_spelling(option) for option in options}
        if _SENDS_NOTHING & options:
            return None
        return _verdict(NETWORK_SCAN, invocation, f"{name} sweeps network ranges for open ports")
    if name == "hping3":
        return _hping(invocation, _values(invocation))
    if name in _HOST_SCANNERS:
        values = _values(invocation)
        wide = _internet_wide(values)
        if wide is not None:
            return _verdict(NETWORK_SCAN, invocation, f"{name} sweeps {wide}")
        evasion = _evasion(values) if name == "nmap" else None
        if evasion is not None:
            why = f"nmap hides its scan from firewalls and intrusion detectors ({evasion})"
            return _verdict(NETWORK_SCAN, invocation, why)
        probe = _fingerprint(values)
        if probe is not None and not only_this_machine(_targets(values)):
            why = f"{name} fingerprints another machine's services ({probe})"
            return _verdict(NETWORK_SCAN, invocation, why)
        ports = _port_scan(values) if name == "nmap" else None
        if ports is not None:
            return _verdict(NETWORK_SCAN, invocation, f"nmap scans {ports} of another machine")
    return None


_HPING_VALUED = frozenset({"-c", "--count", "-i", "--interval", "-I", "--interface", "-a", "--spoof",
                           "-t", "--ttl", "-N", "--id", "-H", "--ipproto", "-W", "--winid", "-r", "--rel",
                           "-m", "--mtu", "-o", "--tos", "-g", "--fragoff", "-C", "--icmptype", "-K",
                           "--icmpcode", "-s", "--baseport", "-p", "--destport", "-k", "--keep", "-w",
                           "--win", "-O", "--tcpoff", "-Q", "--seqnum", "-M", "--setseq", "-L", "--setack",
                           "-d", "--data", "-E", "--file", "-e", "--sign", "--scan", "--tcp-mss",
                           "--icmp-ipver", "--icmp-iphlen", "--icmp-iplen", "--icmp-ipid", "--icmp-ipproto",
                           "--icmp-cksum", "--icmp-ts", "--icmp-addr", "--lsrr", "--ssrr",
                           "--rand-dest"})  # fmt: skip
"""hping3's options whose next word is a value (a count, a port, a file), not the target host."""
_HPING_FLOODS = frozenset({"--flood", "--rand-source"})
_HPING_SCANS = frozenset({"--scan", "-8", "-a", "--spoof", "-f", "--frag", "-x", "--morefrag"})
"""hping3's options that scan a range of ports or forge the source or fragment packets past a firewall."""
_HPING_INFO = frozenset({"-h", "--help", "-v", "--version"})
"""hping3's options that send as fast as it can or from forged random addresses: a flood, not a probe."""


def _hping(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``hping3 -S -p 80 --flood HOST``: a flood (blocked); ``hping3 --scan 1-1000 -S HOST``, ``-a SPOOF``:
    another host scanned or fooled (asked); a ping, one port, help or this machine: ordinary."""
    if _HPING_INFO & set(values):
        return None
    hosts = [v for v in positionals(values, _HPING_VALUED) if v != "-"]
    if not hosts or only_this_machine(hosts):
        return None
    flood = next((v for v in values if v in _HPING_FLOODS), None)
    if flood is not None:
        why = f"hping3 floods {hosts[0]} ({flood}): a denial of service spent from this machine"
        return _verdict(RESOURCE_HIJACK, invocation, why)
    scan = next((v for v in values if v in _HPING_SCANS or v.startswith("--scan=")), None)
    if scan is None:
        return None  # a ping or one port's SYN (hping3 -S -p 443 -c 3 HOST), as nmap -sn or -p PORT is
    return _verdict(NETWORK_SCAN, invocation, f"hping3 scans or spoofs at {hosts[0]} ({scan})")


_NO_PORT_SCAN = frozenset({"-sn", "-sP", "-sL", "-sO", "-sR"})
"""nmap's scans that send no port probe: host discovery (a ping sweep), the targets listed, IP protocols."""


def _port_scan(values: list[str]) -> str | None:
    """What ports of another machine nmap scans (``nmap 10.0.0.5`` its top thousand, ``-p22,3306``,
    ``-p 1-1024``, ``--top-ports 100``), or None: a ping sweep (``-sn``), one port of a named service
    (``nmap -p 5432 db``, as ``nc -z`` checks it), this machine, or nothing named to scan."""
    if _NO_PORT_SCAN & set(values) or _SENDS_NOTHING & set(values) or "--script-help" in values:
        return None
    targets = _targets(values)
    listed = "-iL" in values or any(v.startswith("-iL") and len(v) > 3 for v in values)
    if not listed and (not targets or only_this_machine(targets)):
        return None
    spec = next(
        (values[i + 1] for i, v in enumerate(values[:-1]) if v in ("-p", "--top-ports", "--port-ratio")),
        None,
    )
    spec = spec or next((v[2:] for v in values if v.startswith("-p") and v[2:3].isalnum()), None)
    if spec is None:
        return "the thousand most common ports"
    if "--top-ports" in values or "--port-ratio" in values:
        return f"the {spec} most common ports"
    return None if _ONE_PORT.fullmatch(spec) else f"the ports {spec}"


_ONE_PORT = lazy_compile(r"(?:[TU]:)?(?:\d+|[a-zA-Z][\w-]*)")
"""A port spec naming one port or service (``5432``, ``T:443``, ``http``), not a list (``22,80``) or a
range (``1-1024``, ``-``)."""


_FINGERPRINTS = frozenset({"-A", "-sC", "-sV", "-sCV", "-sVC", "-O", "-p-", "-p0-65535", "-p1-65535",
                           "--osscan-guess", "--version-all"})  # fmt: skip
"""A host scanner's options that probe what runs on a machine: versions, scripts, the system, every port."""
_PROBING_SCAN_TYPE = lazy_compile(r"-s[A-Z]*[UVC][A-Z]*")
"""An nmap scan type that probes services (``-sU``, ``-sSU``, ``-sUV``): UDP ports answer only to a probe of
their service (SNMP, DNS, NTP, TFTP), a version (``V``) or the default scripts (``C``)."""
_VALUED = frozenset({"-p", "--script", "-oN", "-oG", "-oX", "-oA", "-oS", "-iL", "--exclude",
                     "--excludefile", "-e", "--script-args", "--top-ports", "--min-rate", "--max-rate",
                     "--max-retries", "-port", "-top-ports", "-tp", "-ports", "-r", "--range", "-b",
                     "--batch-size", "-t", "--timeout", "--ulimit", "-il", "-interface-list",
                     "--host-timeout", "--stats-every", "-S", "--datadir", "--dns-servers", "--resume",
                     "--port-ratio", "--version-intensity", "--ttl", "--max-rtt-timeout", "--min-rtt-timeout",
                     "--initial-rtt-timeout", "--min-hostgroup", "--max-hostgroup", "--min-parallelism",
                     "--max-parallelism", "--max-scan-delay", "--script-timeout",
                     "--script-args-file"})  # fmt: skip
"""Options whose next word is a value (ports, files, rates), not a target."""


_ATTACKING_SCRIPTS = lazy_compile(
    r"vuln|exploit|brute|intrusive|\bdos\b|malware|default|-enum-|\bauth\b|showmount|\*|\ball\b"
    r"|\b(?:safe|discovery|version|external|fuzzer|broadcast)\b(?!-)"
)
"""nmap's script categories and names that probe for a way in (``vuln``, ``smb-enum-shares``, ``ftp-brute``,
``nfs-showmount``), and wildcards or ``all`` (``--script "http-*"`` runs every HTTP script, its brute and vuln
ones among them); ``http-title`` or ``ssl-cert`` read what any client sees."""


def _fingerprint(values: list[str]) -> str | None:
    """The first option in ``values`` that fingerprints a machine (``-sV``, ``--script=vuln``, ``-p-``)."""
    for index, value in enumerate(values):
        option, equals, attached = value.partition("=")
        following = values[index + 1] if index + 1 < len(values) else ""
        if option in _FINGERPRINTS or _PROBING_SCAN_TYPE.fullmatch(option):
            return value
        if option == "--script" and _ATTACKING_SCRIPTS.search(attached if equals else following):
            return f"--script {attached if equals else following}"
        if option in ("-p", "-port", "--ports") and following in ("-", "0-65535", "1-65535"):
            return f"{value} {following}"
    return None


def _targets(values: list[str]) -> list[str]:
    """The targets named in ``values``: none when they come from a list file (``-iL``), not known here."""
    targets: list[str] = []
    skip = False
    for value in values:
        if skip:
            skip = False
            continue
        if value in _VALUED or value in ("-host", "-a", "--addresses"):
            skip = value in _VALUED
            if value == "-iL":
                return []
            continue
        if value.startswith("-"):
            continue
        targets.extend(part for part in value.split(",") if part)
    return targets


_EVASIONS = frozenset({"--mtu", "-D", "--source-port", "-g", "--spoof-mac", "--data-length", "--data",
                       "--data-string", "--badsum", "--ip-options", "--scan-delay",
                       "-sI", "-b", "--proxies", "--proxy"})  # fmt: skip
"""nmap's options for slipping past a firewall or an intrusion detector (its manual's "Firewall/IDS Evasion
and Spoofing" and the timing that stays under a detector's threshold)."""
_SNEAKY_TIMING = frozenset({"-T0", "-T1", "-Tparanoid", "-Tsneaky", "paranoid", "sneaky"})


def _evasion(values: list[str]) -> str | None:
    """The first of nmap's evasion options in ``values`` (``-f``, ``-ff``, ``-D RND:10``, ``-T1``)."""
    for value in values:
        option = value.partition("=")[0]
        if option in _EVASIONS or value in _SNEAKY_TIMING or value in ("-f", "-ff"):
            return value
        if value.startswith(("-D", "-g")) and len(value) > 2 and value[2] not in "-":
            return value  # -DRND:10, -g53: the value joined to the option
    return None


def _internet_wide(values: list[str]) -> str | None:
    """What a host scanner's command line sweeps beyond one site (random hosts, a wide range), if any."""
    skip = False
    for value in values:
        if skip:  # --exclude 10.0.0.0/8 spares a range; -oG FILE, -p PORTS name no target
            skip = False
            continue
        if value in (
            "--exclude",
            "--excludefile",
            "-exclude-hosts",
            "-eh",
            "-iL",
            "-oG",
            "-oN",
            "-oX",
            "-oA",
            "-oS",
            "-p",
        ):
            skip = True
            continue
        if value == "-iR" or value.startswith("-iR"):
            return "random internet hosts (-iR)"
        if not value.startswith("-") and _wide_range(value):
            return f"the range {value}"
    return None


def _wide_range(target: str) -> bool:
    """Whether ``target`` spans more than a site: ``10.0.0.0/8``, ``::/0``, ``10.*.*.1``."""
    address, slash, _ = target.partition("/")
    if slash:
        import ipaddress  # only for a range given to a scanner: the hook's start-up does not pay for it

        try:
            network = ipaddress.ip_network(target, strict=False)
        except ValueError:
            return False
        if network.version == 4:
            return network.prefixlen < _WIDEST_SITE
        return network.prefixlen < 32  # an IPv6 sweep wider than an ISP's allocation
    octets = address.split(".")
    if len(octets) != 4 or not all(octet.isdigit() or _WILD_OCTET.fullmatch(octet) for octet in octets):
        return False
    return sum(1 for octet in octets if not octet.isdigit()) >= 2

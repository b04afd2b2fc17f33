"""Tactic family ``remote access``: tunnels, proxies and shared terminals that open the machine.

ATT&CK's command and control (protocol tunnelling, proxies, remote access software): the
attacker's way back in once a prompt injection has run one command. Judged by program and
by what it publishes:

- :data:`~agentbus.guards.verdict.REMOTE_ACCESS` (asked by default): a tunnel that publishes
  a local port on the internet (``ngrok http 3000``, ``cloudflared tunnel --url …``,
  ``bore local``, ``lt --port``, ``tailscale funnel``, ``zrok share``, frp), a proxy or an
  anonymiser (``ssh -D``, ``ssh -w``, gost, sshuttle, tor, a command run through
  ``torsocks``/``proxychains``, ``ssh`` among them; a request sent through a SOCKS proxy, ``curl
  --socks5 HOST:PORT``, ``-x socks5h://``: a pivot's tunnel or Tor), rathole and nps' ``npc``, a
  remote desktop server (x11vnc, vncserver …) and remote support tools (AnyDesk, TeamViewer,
  RustDesk, MeshCentral's ``meshagent``) started. Developers do some of these on purpose, so a
  person decides.
- :data:`~agentbus.guards.verdict.BACKDOOR` (blocked): the same when it publishes a login
  or a shell: a tunnel to an SSH, telnet, VNC, RDP or SMB port (``ngrok tcp 22``,
  ``--url ssh://…``), a terminal shared on the network (tmate, ttyd, gotty, shellinabox,
  upterm, sshx), a remote-access password set (``anydesk --set-password``, ``teamviewer
  passwd``, ``x11vnc -nopw``), a ``meshagent`` installed as a service (``-install``,
  ``--meshServiceName``), ``tailscale up --ssh``, and the covert channels and pivoting
  tools no development task uses (iodine, dnscat2, dns2tcp, ptunnel, icmpsh, ligolo, chisel's
  reverse tunnels).
- Weave Scope connected to Weave Cloud (``scope launch --service-token=…``): a console on the internet
  with a shell into the host and every container, a backdoor (TeamTNT's); ``scope launch`` alone
  serves the local view only.
- The Global Socket tools (``gs-netcat``, ``gs-sftp``, ``gs-mount``, ``gsocket``) reach through any
  firewall by a public relay and a shared secret: a listening end (``gs-netcat -l``) is remote access,
  one that serves a shell (``-i``) or runs a command (``-e``) a backdoor; the end that logs in to such a
  shell (``gs-netcat -s SECRET -i``) is remote access too (a backdoor's other end).

Asking a tool for its version, help or a list, and client-side use (``cloudflared access``,
``ssh -L 5432:db:5432 bastion``) stay ordinary. A forward that pivots is remote access: ``ssh -L``
published on the network (a bind address that is not loopback: ``0.0.0.0:4455:10.0.0.8:445``,
``*:``, ``-g``, ``GatewayPorts=yes``) and ``ssh -R`` to a third host (``-R 2345:10.10.100.20:5432``:
the remote end reaches a machine of this network). ``ssh -R`` of a port of this machine bound to every
address of the remote host (``-R 0.0.0.0:8080:localhost:8080 vps``, ``*:``) publishes it on that host's
network, as ngrok does: remote access too. Without a bind address (``-R 8080:127.0.0.1:80 attacker``)
sshd's default (``GatewayPorts no``) binds it to the remote host's loopback, yet whoever is on that host
reaches this machine's service past any firewall, and an attacker's own box is not told apart from a
staging server: asked as remote access as well (``ssh -R ... localhost`` stays ordinary, as does its
mirror, a loopback ``ssh -L``, which brings the remote service here). ``ssh -R`` to a login port or as a
SOCKS proxy is the command guard's (a reverse tunnel, blocked). A developer's database tunnel (``ssh -L
5432:localhost:5432 db``: one port, to one named service, bound to loopback, reached from this machine
only) stays ordinary: the remote service comes to the developer, nothing here is opened to anyone.

A container engine driven on another machine (``docker -H tcp://HOST run|cp|exec``,
``DOCKER_HOST=…``, ``podman --url ssh://…``, or its HTTP API by hand: ``curl -X POST
http://HOST:2375/containers/create``) is lateral movement: botnets spread through exposed
Docker APIs that way. Changing what runs there is asked as remote access (a deploy is a
developer's too); reading it (``ps``, ``info``, ``logs``, ``inspect``) and the local socket stay ordinary.
Impacket's ``psexec.py``/``wmiexec.py`` ... (commands run on a Windows host) are :mod:`.domain_attacks`'.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import positionals as _positionals
from ..findings import static_args as _values
from ..findings import without_values
from ..options import option_values as _option_values
from ..programs import SSH_OPTIONS_WITH_VALUES, Invocation
from ..verdict import BACKDOOR, EXFILTRATION, REMOTE_ACCESS, Verdict

__all__ = ["judge"]


# -- what a tunnel publishes --------------------------------------------------------------

_LOGIN_PORTS = frozenset({22, 23, 139, 445, 2222, 3389, 5985, 5986, *range(5900, 5910)})
"""SSH, telnet, SMB, RDP, WinRM and VNC: a port that gives whoever reaches it a login."""
_LOGIN_SCHEMES = frozenset({"ssh", "rdp", "vnc", "smb", "telnet", "winrm"})
_ENDPOINT = lazy_compile(
    r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?:\[[^\]]*\]|[^/:\s]*)?(?::(?P<port>[0-9]{1,5}))?/?"
)


def _publishes_login(values: list[str]) -> str | None:
    """The first value naming a login service (``22``, ``localhost:22``, ``ssh://host``), if any."""
    for value in values:
        if value.isascii() and value.isdigit():
            if int(value) in _LOGIN_PORTS:
                return value
            continue
        match = _ENDPOINT.fullmatch(value.lower())
        if match is None:
            continue
        scheme, port = match["scheme"], match["port"]
        if scheme in _LOGIN_SCHEMES or (port is not None and int(port) in _LOGIN_PORTS):
            return value
    return None


# -- the programs ---------------------------------------------------------------------------

_INFO = frozenset({"-h", "--help", "help", "-v", "-V", "--version", "version", "-version"})

_SHARED_TERMINALS = frozenset({"tmate", "ttyd", "gotty", "shellinaboxd", "shellinabox", "wetty", "upterm",
                               "sshx", "tty-share", "teleconsole"})  # fmt: skip
"""Programs whose every run puts a terminal on the network."""
_COVERT_CHANNELS = frozenset({"iodine", "iodined", "dnscat", "dnscat2", "dnscat2-server", "dns2tcpc",
                              "dns2tcpd", "ptunnel", "ptunnel-ng", "icmpsh", "icmpsh_m.py", "hans", "ligolo",
                              "ligolo-ng", "ligolo-agent", "ligolo-proxy", "revsocks", "rpivot", "udp2raw",
                              "iox", "resocks", "rsockstun", "rdp2tcp", "suo5", "rsocx"})  # fmt: skip
"""Tunnels through DNS or ICMP and pivoting agents: an attacker's tools, not a developer's (reverse SOCKS
relays dialled back from a breached host: resocks, rsockstun, rsocx; suo5 through a web shell; rdp2tcp
through an RDP session's virtual channel)."""
_TUNNELS = frozenset({"ngrok", "cloudflared", "bore", "lt", "localtunnel", "tailscale", "zrok", "frpc",
                      "frps", "pagekite", "pagekite.py", "loclx", "telebit", "chisel",
                      "localtonet", "rathole", "npc", "nps", "devtunnel", "tmole", "tunnelmole"})  # fmt: skip
_PROXIES = frozenset({"gost", "sshuttle", "tor", "microsocks", "3proxy", "redsocks", "tinyproxy", "danted",
                      "sockd", "privoxy", "v2ray", "xray", "shadowsocks", "ss-local", "ss-server",
                      "trojan", "hysteria", "wstunnel"})  # fmt: skip
_REMOTE_DESKTOPS = frozenset({"x11vnc", "vncserver", "tightvncserver", "tigervncserver", "Xvnc",
                              "x0vncserver", "krfb", "wayvnc", "vino-server", "xrdp"})  # fmt: skip
_REMOTE_SUPPORT = frozenset({"anydesk", "teamviewer", "rustdesk"})
_MANAGEMENT_AGENTS = frozenset({"amazon-ssm-agent", "ssm-agent-worker", "azcmagent"})
"""Cloud management agents: enrolled with an activation code, they run whatever the account's owner sends."""
_REGISTERS = frozenset({"-register", "--register", "register", "connect"})
_MESH_AGENTS = frozenset({"meshagent", "meshagent_osx64", "meshagent64", "meshagent32", "meshagent_arm64"})
"""MeshCentral's agent: once it runs it dials its server, whose owner gets a desktop, files and a shell."""
_GLOBAL_SOCKET = frozenset({"gs-netcat", "gs-sftp", "gs-mount", "gsocket", "gs-full-link", "blitz"})
"""THC's Global Socket tools: two ends meet at a public relay by a secret, whatever the firewalls."""
_PROXY_WRAPPERS = frozenset({"torsocks", "torify", "proxychains", "proxychains4", "tsocks"})
_PACKAGE_RUNNERS = frozenset({"npx", "bunx", "pnpx"})

_NO_PASSWORD = frozenset({"-nopw", "--nopw", "-SecurityTypes=None", "-securitytypes=none"})
_SET_PASSWORD = frozenset({"--set-password", "--password", "passwd", "setup", "assign"})


_PACKET_CRAFTERS = frozenset({"hping3"})
"""Programs that craft packets: judged by whether the packets carry data of one's own."""
_HPING_PAYLOAD = frozenset({"-E", "--file", "-e", "--sign"})


def _packet_payload(values: list[str]) -> bool:
    """``hping3 -E FILE`` (``--file``) or ``-e TEXT`` (``--sign``): the packets' data is chosen, not
    padding (a probe's ``-S -p 80`` or ``--flood`` sends none of one's own)."""
    return any(v in _HPING_PAYLOAD or v.startswith(("--file=", "--sign=")) for v in values)


_PAYLOAD_PROBES = frozenset({"nping"})
"""Probers whose packets may carry data given on the command line (``--data``, ``--data-string``)."""
_NPING_PAYLOAD = frozenset({"--data", "--data-string"})


def _run_time_payload(invocation: Invocation) -> bool:
    """``nping --icmp --data-string "$(cat f)" HOST``, ``--data $(xxd -p f)``: the probes' data made when the
    line runs (a substitution, a variable of a loop over a file), where a probe sends padding or a literal
    marker (``--data-string hello``)."""
    command = invocation.command
    args = invocation.args
    for index, word in enumerate(args):
        option, equals, _ = word.partition("=")
        if option not in _NPING_PAYLOAD:
            continue
        value = word if equals else (args[index + 1] if index + 1 < len(args) else "")
        shown = command.static(value)
        if shown is None or "$" in shown or "`" in shown:
            return True
    return False


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A tunnel, proxy, shared terminal or remote desktop this command starts, or None."""
    name, values = _program(invocation)
    wrapper = next((w for w in invocation.wrappers if w in _PROXY_WRAPPERS), None)
    if name == "plink":
        name, values = "ssh", _plink_as_ssh(values)
    if name in ("ssh", "autossh"):
        if name == "autossh":  # autossh -M PORT (its monitoring port), then ssh's own options
            values = [v for i, v in enumerate(values) if v != "-M" and (i == 0 or values[i - 1] != "-M")]
        found = _judge_ssh(invocation, values)
        if found is None and wrapper is not None:  # torsocks ssh HOST: the login's way hidden
            return _verdict(
                REMOTE_ACCESS, invocation, f"runs ssh through {wrapper}, hiding where its traffic goes"
            )
        return found
    if name in _ENGINES:
        return _judge_remote_engine(invocation, name, values)
    engine_api = _judge_engine_api(invocation, values) if name in _HTTP_CLIENTS else None
    if engine_api is not None:
        return engine_api
    socks = _socks_proxy(values) if name in ("curl", "wget") else None
    if socks is not None and not _own_socks(socks):
        why = f"{name} goes through the SOCKS proxy {socks}: a pivot or Tor, hiding where its traffic goes"
        return _verdict(REMOTE_ACCESS, invocation, why)
    if _asks_for_info(values):
        return None
    if name in _SHARED_TERMINALS:
        return _verdict(
            BACKDOOR, invocation, f"{name} shares a terminal on the network: a shell for whoever joins"
        )
    if name in _PACKET_CRAFTERS and _packet_payload(values):
        return _verdict(
            BACKDOOR,
            invocation,
            "hping3 sends packets carrying a file or text of one's own: a covert channel out, or a "
            "backdoor's wake-up packet",
        )
    if name in _PAYLOAD_PROBES and _run_time_payload(invocation):
        why = "nping's probes carry data made at run time (a file's bytes): a covert channel out"
        return _verdict(EXFILTRATION, invocation, why)
    if name in _COVERT_CHANNELS:
        return _verdict(
            BACKDOOR,
            invocation,
            f"{name} tunnels traffic through a covert channel or pivots into this network",
        )
    if name in _TUNNELS:
        return _judge_tunnel(invocation, name, values)
    if name in _GLOBAL_SOCKET:
        return _judge_global_socket(invocation, name, values)
    if name == "scope" and values[:1] == ["launch"] and any(v.startswith("--service-token") for v in values):
        why = "Weave Scope joins Weave Cloud: an internet console with shells into host and containers"
        return _verdict(BACKDOOR, invocation, why)
    if name in _REMOTE_DESKTOPS:
        return _judge_desktop(invocation, name, values)
    if name in _REMOTE_SUPPORT:
        return _judge_support(invocation, name, values)
    if name in _MANAGEMENT_AGENTS and _REGISTERS & set(values):
        why = f"{name} enrols this machine with someone's activation: their commands run here as root"
        return _verdict(BACKDOOR, invocation, why)
    if name in _MESH_AGENTS:
        installs = any(v.startswith(("--meshServiceName", "-install", "-fullinstall")) for v in values)
        why = f"{name} connects this machine to a MeshCentral server: its owner gets a desktop and a shell"
        return _verdict(BACKDOOR if installs else REMOTE_ACCESS, invocation, why)
    if name in _PROXIES:
        return _verdict(
            REMOTE_ACCESS, invocation, f"{name} runs a proxy or tunnel that routes traffic in or out"
        )
    if wrapper is not None:
        return _verdict(
            REMOTE_ACCESS,
            invocation,
            f"runs {name or 'a command'} through {wrapper}, hiding where its traffic goes",
        )
    return None


def _asks_for_info(values: list[str]) -> bool:
    """Help or version asked for: ``ngrok help``, ``chisel --version``, ``tmate -V``. ``-v`` and ``-h`` count
    only as the one argument: through a wrapper (``proxychains nmap -v -sT HOST``, ``proxychains psql -h
    10.10.10.5``) they are the wrapped program's (verbose, a host)."""
    if not values:
        return False
    if values[0] in _INFO and (len(values) == 1 or values[0] not in ("-v", "-V", "-h")):
        return True
    return values[-1] in ("--help", "--version")


_SOCKS_OPTIONS = frozenset({"--socks4", "--socks4a", "--socks5", "--socks5-hostname"})
_PROXY_OPTIONS = frozenset({"-x", "--proxy", "--preproxy", "-e"})


def _socks_proxy(values: list[str]) -> str | None:
    """The SOCKS proxy a request is sent through (``curl --socks5 HOST:PORT``, ``-x socks5h://…``, wget's
    ``-e http_proxy=socks5://…``): how a pivot's tunnel (ssh -D, EarthWorm) or Tor is used; one on this
    machine is the developer's own tunnel but for Tor's ports."""
    for index, value in enumerate(values):
        option, equals, given = value.partition("=")
        if not (equals and option.startswith("--")):
            option, given = value, values[index + 1] if index + 1 < len(values) else ""
        if option.startswith("-x") and len(option) > 2:  # -xsocks5://host:port
            option, given = "-x", option[2:]
        if option in _SOCKS_OPTIONS and given:
            return given
        if option in _PROXY_OPTIONS and _SOCKS_URL.search(given):
            return given.rpartition("=")[2]
    return None


def _own_socks(proxy: str) -> bool:
    """A SOCKS proxy on this machine (``localhost:1080``: the developer's own ``ssh -D`` tunnel), not Tor's
    ports (9050, 9150) there."""
    address = proxy.partition("://")[2] or proxy
    host, _, port = address.rstrip("/").rpartition(":")
    return bool(_LOOPBACK.match(host.strip("[]") or address)) and port not in ("9050", "9150")


_SOCKS_URL = lazy_compile(r"(?:^|=)socks[45]?[ah]?://", re.IGNORECASE)


_RELEASE_NAME = lazy_compile(
    r"^(chisel|ligolo-ng|ligolo|frpc|frps|gost|ngrok|rathole|revsocks|rpivot|resocks|rsockstun|suo5)"
    r"(?:[0-9]+|[-_.][A-Za-z0-9_.-]*)$"
)
"""A tunnel's binary under its release or a renamed copy's name (``chisel_1.9.1_linux_amd64``, ``chisel2``,
``ligolo-ng_agent``): the same program."""


def _program(invocation: Invocation) -> tuple[str, list[str]]:
    """The program and its static arguments, looking through ``npx PKG`` and ``pnpm dlx PKG`` and
    release names (:data:`_RELEASE_NAME`)."""
    name, values = invocation.name, _values(invocation)
    release = _RELEASE_NAME.match(name)
    if release:
        name = release.group(1)
    if name in ("pnpm", "yarn") and values[:1] == ["dlx"]:
        name, values = "npx", values[1:]
    if name in _PACKAGE_RUNNERS:
        for index, value in enumerate(values):
            if not value.startswith("-"):
                package = value.rsplit("/", 1)[-1]
                return re.sub(r"(?<=.)@.*$", "", package), values[index + 1 :]
        return name, values
    return name, values


def _judge_tunnel(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    words = _positionals(values, frozenset({"--url", "--port", "-p", "--to", "--local-host", "-c", "--config",
                                            "--authkey", "--auth-key", "--subdomain", "-s"}))  # fmt: skip
    command = words[0] if words else ""
    published = _publishes_login(words[1:] + _option_values(values, frozenset({"--url", "--port", "-p"})))
    if name == "cloudflared" and command not in ("tunnel", "service"):
        return None  # `cloudflared access ssh`, `cloudflared update`: the client side
    if name == "cloudflared" and command == "tunnel" and words[1:2] and words[1] in (
        "login", "list", "info", "delete", "cleanup", "create", "route", "token", "ingress",
    ):  # fmt: skip
        return None
    if name == "ngrok" and command not in ("http", "tcp", "tls", "start", "tunnel", "service"):
        return None  # `ngrok config add-authtoken`, `ngrok diagnose`
    if name == "localtonet" and command not in ("tcp", "udp", "tcpudp", "http", "https", "start", "run"):
        return None  # `localtonet authtoken TOKEN`: the client's login
    if name == "bore" and command not in ("local", "server"):
        return None
    if name in ("frpc", "frps") and command in ("verify", "completion"):
        return None
    if name == "lt" and not _option_values(values, frozenset({"--port", "-p"})):
        return None  # `lt` is localtunnel only with a port to publish
    if name == "tailscale":
        if "--ssh" in values or "--ssh=true" in values:
            return _verdict(BACKDOOR, invocation, "tailscale serves SSH logins to the tailnet (--ssh)")
        joins = command in ("up", "login") and bool(
            _option_values(values, frozenset({"--authkey", "--auth-key"}))
        )
        if command not in ("funnel", "serve") and not joins:
            return None
    if name == "zrok" and command != "share":
        return None
    if name in ("tmole", "tunnelmole") and not command.isdigit():
        return None  # `tmole 8080` publishes the port; `tmole --help`, `tmole login`
    if name == "devtunnel":
        anonymous = bool({"--allow-anonymous", "--anonymous", "-a"} & set(values))
        if anonymous and command != "host":
            why = "devtunnel lets anyone reach the tunnel without a login (anonymous access)"
            return _verdict(REMOTE_ACCESS, invocation, why)
        if command != "host":
            return None  # `devtunnel user login`, `devtunnel list`, `devtunnel create`: no port published yet
    if name == "chisel" and command == "client" and any(word.startswith("R:") for word in words):
        return _verdict(BACKDOOR, invocation, "chisel opens a reverse tunnel into this machine (R:)")
    if published is not None:
        return _verdict(
            BACKDOOR, invocation, f"{name} publishes a login service ({published}) on the network"
        )
    return _verdict(
        REMOTE_ACCESS, invocation, f"{name} publishes a local service on the internet through a tunnel"
    )


def _judge_global_socket(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    """``gs-netcat -l -i`` (a shell for whoever knows the secret), ``gs-netcat -l <FILE`` (serves a file),
    ``gsocket sshd``; the connecting end (``gs-netcat -s SECRET``, ``gs-sftp -s SECRET``) is a client."""
    flags = "".join(v[1:] for v in values if v.startswith("-") and not v.startswith("--"))
    if name == "gs-netcat" and "l" in flags and ("i" in flags or "e" in flags):
        return _verdict(
            BACKDOOR, invocation, "gs-netcat serves a shell or a command through the Global Socket relay"
        )
    if name == "gsocket" or "l" in flags:
        return _verdict(
            REMOTE_ACCESS, invocation, f"{name} listens through the Global Socket relay, past any firewall"
        )
    if name == "gs-netcat" and "i" in flags:
        why = "gs-netcat logs in to a shell served through the Global Socket relay (-i): another machine's"
        return _verdict(REMOTE_ACCESS, invocation, why)
    return None


def _judge_desktop(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    if {"-kill", "--kill", "-list", "--list", "-clean", "--clean"} & set(values):
        return None
    if _NO_PASSWORD & set(values):
        return _verdict(BACKDOOR, invocation, f"{name} shares the desktop with no password")
    return _verdict(REMOTE_ACCESS, invocation, f"{name} shares the desktop over the network")


def _judge_support(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    if {"--get-id", "--get-status", "info", "--info"} & set(values):
        return None
    if _SET_PASSWORD & set(values):
        return _verdict(
            BACKDOOR, invocation, f"sets a password for {name}: unattended remote control of this machine"
        )
    return _verdict(REMOTE_ACCESS, invocation, f"starts {name}, remote control of this machine")


_PLINK_ONLY = frozenset({"-ssh", "-telnet", "-rlogin", "-raw", "-serial", "-batch", "-agent", "-noagent",
                         "-no-antispoof", "-share", "-noshare", "-shareexists", "-sanitise-stderr",
                         "-no-sanitise-stderr"})  # fmt: skip
_PLINK_VALUED = frozenset({"-pw", "-pwfile", "-hostkey", "-load", "-sercfg", "-proxycmd", "-sshlog",
                           "-sshrawlog", "-loghost", "-P"})  # fmt: skip


def _plink_as_ssh(values: list[str]) -> list[str]:
    """PuTTY's ``plink`` read as ssh: its forwards (``-D``, ``-L``, ``-R``), login (``-l``) and destination
    are ssh's; its own options (``-ssh``, ``-batch``, ``-pw PASS``, ``-P PORT``) are left out."""
    return [value for value in without_values(values, _PLINK_VALUED) if value not in _PLINK_ONLY]


def _judge_ssh(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``ssh -D`` (a SOCKS proxy into the remote network) and ``ssh -w`` (a tunnel device); ``ssh HOST
    "bash -i"``: an interactive shell as the remote command gets no terminal (no ``-t``), so no login
    record (utmp: ``who``, ``w``) shows it; ``ssh HOST`` (a login) and ``ssh -t HOST bash -i`` do."""
    if any(
        _opens_proxy_or_tunnel(value, values[index + 1 : index + 2]) for index, value in enumerate(values)
    ):
        return _verdict(
            REMOTE_ACCESS, invocation, "ssh opens a proxy or tunnel device through the remote host"
        )
    for letter, spec, gateway in _forwards(values):
        parts = _BRACKETED.sub("host", spec).split(":")
        published = gateway or (len(parts) == 4 and not _LOOPBACK.match(parts[0]))
        if letter == "L" and len(parts) >= 3 and published:
            why = f"-L {spec} publishes a port of another host on this machine's network (a pivot)"
            return _verdict(REMOTE_ACCESS, invocation, why)
        if letter == "R" and len(parts) >= 3 and not _LOOPBACK.match(parts[-2]):
            reached = ":".join(parts[-2:])
            why = f"-R {spec} lets the remote host reach {reached} through this machine (a pivot)"
            return _verdict(REMOTE_ACCESS, invocation, why)
        if letter == "R" and len(parts) == 4 and not _LOOPBACK.match(parts[0]):
            # ssh -R 0.0.0.0:8080:localhost:8080 vps: this machine's port published on every address of
            # the remote host (ngrok's job, done by ssh), reached from its network past any firewall
            why = f"-R {spec} publishes port {parts[-1]} of this machine on the remote host's network"
            return _verdict(REMOTE_ACCESS, invocation, why)
        destination = _destination(values)
        if letter == "R" and len(parts) >= 3 and destination and not _LOOPBACK_HOST.match(destination):
            # ssh -R 8080:127.0.0.1:80 attacker: this machine's port opened to another host, whose users
            # (or an attacker's box) reach it past any firewall: ngrok's job, to one host
            why = f"-R {spec} opens port {parts[-1]} of this machine to {destination}"
            return _verdict(REMOTE_ACCESS, invocation, why)
    remote = _remote_command(values)
    if not {"-t", "-tt"} & set(values) and _INTERACTIVE_SHELL.match(" ".join(remote)):
        why = "ssh opens an interactive shell on another host without a terminal: no login record shows it"
        return _verdict(REMOTE_ACCESS, invocation, why)
    return None


_LOOPBACK = lazy_compile(r"^(?:localhost|127(?:\.\d+){0,3}|::1|host)$", re.IGNORECASE)
"""A forward's address that stays on one machine (``host`` stands for a bracketed IPv6 one)."""
_LOOPBACK_HOST = lazy_compile(r"^(?:localhost|127(?:\.\d+){0,3}|::1|\[::1\])$", re.IGNORECASE)
"""A destination that is this machine (a host named ``host`` is another)."""
_BRACKETED = lazy_compile(r"\[(?:::1|[^\]]*)\]")
_FORWARD_SETTINGS = {"localforward": "L", "remoteforward": "R"}


def _forwards(values: list[str]) -> list[tuple[str, str, bool]]:
    """``(L or R, spec, -g given)`` for each ``-L``/``-R`` forward (``-fNL spec``, ``-o LocalForward=...``),
    up to the destination: ``ssh -N -L 0.0.0.0:4455:172.16.50.10:445 host`` publishes an SMB port."""
    found: list[tuple[str, str]] = []
    gateway = False
    for index, value in enumerate(values):
        following = values[index + 1] if index + 1 < len(values) else ""
        if value.startswith("-o"):
            setting = value[2:].lstrip() or following
            key, _, spec = re.sub(r"[=\s]+", "=", setting.strip(), count=1).partition("=")
            key = key.lower()
            if key in _FORWARD_SETTINGS:
                found.append((_FORWARD_SETTINGS[key], re.sub(r"\s+", ":", spec.strip())))
            elif key == "gatewayports" and spec.lower().startswith("yes"):
                gateway = True
            continue
        if not value.startswith("-") or value.startswith("--"):
            if index and not _takes_value(values[index - 1]):
                break  # the destination: what follows is the remote command
            continue
        for at, letter in enumerate(value[1:], start=1):
            if letter == "g":
                gateway = True
            elif letter in "LR":
                found.append((letter, value[at + 1 :] or following))
                break
            elif letter in SSH_OPTIONS_WITH_VALUES:
                break
    return [(letter, spec.lower(), gateway) for letter, spec in found if spec]


def _takes_value(option: str) -> bool:
    return option.startswith("-") and not option.startswith("--") and option[-1] in SSH_OPTIONS_WITH_VALUES


_INTERACTIVE_SHELL = lazy_compile(r"^(?:exec\s+)?(?:/usr)?(?:/bin/)?(?:ba|z|k|da|)sh\s+-\w*i")
"""``bash -i``, ``exec /bin/sh -li``: an interactive shell asked for as the remote command."""


def _destination_index(values: list[str]) -> int:
    """Where the destination is among ssh's words (options and their values skipped)."""
    index = 0
    while index < len(values):
        value = values[index]
        if value == "--":
            return index + 1
        if not value.startswith("-") or value == "-":
            break
        last = value[-1] if len(value) == 2 else ""
        index += 2 if last and last in SSH_OPTIONS_WITH_VALUES else 1
    return index


def _destination(values: list[str]) -> str:
    """The host ssh logs in to (``user@host`` -> ``host``), or ``""``."""
    index = _destination_index(values)
    if index >= len(values):
        return ""
    host = values[index].removeprefix("ssh://").rpartition("@")[2]
    return host if host.startswith("[") else host.partition(":")[0].lower()


def _remote_command(values: list[str]) -> list[str]:
    """What ssh runs on the remote host: the words after the destination (options and values skipped)."""
    return values[_destination_index(values) + 1 :]


def _opens_proxy_or_tunnel(value: str, following: list[str]) -> bool:
    """``-D``/``-w`` in an option cluster (``-fND 1080``), or ``-o DynamicForward=``/``Tunnel=``."""
    if value.startswith("-o"):
        setting = (value[2:].lstrip() or (following[0] if following else "")).lower()
        return setting.startswith(("dynamicforward", "tunnel="))
    if not value.startswith("-") or value.startswith("--"):
        return False
    for letter in value[1:]:
        if letter in "Dw":
            return True
        if letter in SSH_OPTIONS_WITH_VALUES:
            return False  # the rest of the cluster is that option's value
    return False


# -- container engines on other machines ----------------------------------------------------

_ENGINES = frozenset({"docker", "podman", "nerdctl"})
_ENGINE_HOST_OPTIONS = frozenset({"-H", "--host", "--url"})
_ENGINE_GLOBAL_VALUES = frozenset({"-H", "--host", "--url", "-c", "--context", "--connection", "--config",
                                   "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey",
                                   "--identity", "--namespace", "-n", "--address", "-a"})  # fmt: skip
_ENGINE_GROUPS = frozenset({"container", "image", "network", "volume", "node", "service", "swarm",
                            "system", "stack", "secret", "config", "plugin", "context", "manifest",
                            "buildx"})  # fmt: skip
_ENGINE_READS = frozenset({"ps", "info", "version", "images", "inspect", "logs", "stats", "top", "events",
                           "port", "diff", "history", "search", "ls", "list", "df", "help"})  # fmt: skip
_LOCAL_ENGINE = lazy_compile(
    r"^(?:unix|npipe|fd)://|^(?:tcp://|https?://)?(?:localhost|127(?:\.\d+){3}|\[::1\])(?::\d+)?/?$",
    re.IGNORECASE,
)


def _engine_host(invocation: Invocation, values: list[str]) -> str | None:
    """The daemon ``-H``/``--host``/``--url`` or ``DOCKER_HOST``/``CONTAINER_HOST`` names, if any."""
    hosts = _option_values(values, _ENGINE_HOST_OPTIONS)
    hosts += [
        assignment.partition("=")[2]
        for assignment in invocation.env
        if assignment.partition("=")[0] in ("DOCKER_HOST", "CONTAINER_HOST")
    ]
    return hosts[0] if hosts else None


def _judge_remote_engine(invocation: Invocation, name: str, values: list[str]) -> Verdict | None:
    """``docker -H tcp://HOST run|cp|exec|swarm leave``: a change made by another machine's daemon."""
    host = _engine_host(invocation, values)
    if host is None or _LOCAL_ENGINE.match(host):
        return None
    words: list[str] = []
    index = 0
    while index < len(values) and len(words) < 2:
        value = values[index]
        if value in _ENGINE_GLOBAL_VALUES and not words:
            index += 2
            continue
        if not value.startswith("-"):
            words.append(value)
            if value not in _ENGINE_GROUPS:
                break
        index += 1
    action = words[-1] if words else ""
    if not action or action in _ENGINE_READS or _INFO & set(words):
        return None
    return _verdict(
        REMOTE_ACCESS,
        invocation,
        f"{name} {' '.join(words)} acts through the container engine of another machine ({host})",
    )


_HTTP_CLIENTS = frozenset({"curl", "wget", "http", "https", "xh", "xhs", "httpie"})
_ENGINE_API = lazy_compile(
    r"(?:https?://)?(?P<host>\[[^\]]*\]|[^/:?#\s@]+)(?::\d+)?/(?:v\d+\.\d+/)?"
    r"(?P<action>containers/create|containers/[^/?#]+/(?:start|exec|attach|restart|archive|update)"
    r"|exec/[^/?#]+/start|images/create|swarm/join|plugins/pull)(?:[/?#]|$)",
    re.IGNORECASE,
)
"""The Docker Engine API's calls that create or run something (each a POST or PUT)."""


def _judge_engine_api(invocation: Invocation, values: list[str]) -> Verdict | None:
    """``curl -X POST http://HOST:2375/containers/create -d '{"Binds": ["/:/host"] …}'``, then
    ``…/containers/NAME/start``: ``docker -H tcp://HOST run`` spelled as HTTP (how botnets drive the
    exposed Docker APIs they find). Through the local socket (``--unix-socket``) it is this machine's."""
    if any(v == "--unix-socket" or v.startswith("--unix-socket=") for v in values):
        return None
    for value in values:
        match = _ENGINE_API.match(value)
        if match is None or _LOCAL_ENGINE.match(match["host"]):
            continue
        action = match["action"].split("/")[-1]
        why = f"calls the container engine API of another machine ({match['host']}): {action}"
        return _verdict(REMOTE_ACCESS, invocation, why)
    return None

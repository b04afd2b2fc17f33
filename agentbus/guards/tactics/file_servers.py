"""File servers that open a directory of this machine to the network for others to take from or put into.

An SMB share (impacket's ``smbserver.py``: ``impacket-smbserver share . -smb2support``), an FTP server
that takes uploads (``python3 -m pyftpdlib -w``), an upload server (``python3 -m uploadserver``,
``updog``), an anonymous WebDAV root (``wsgidav --auth=anonymous``), a TFTP daemon (``atftpd``,
``in.tftpd``), ``rclone serve smb|ftp|sftp|webdav --addr :PORT``: the attacker's staging post, where a
victim fetches tools from and pushes loot to. None of it is how a project is built or tried out (a
project's own dev server is HTTP, and :mod:`.exfiltration` judges what an HTTP server serves), and anyone
who reaches the port can read the directory or drop files in it, unauthenticated:

- :data:`~agentbus.guards.verdict.EXFILTRATION` (blocked): the directory served is the home, ``/``, a
  secret or a system directory (``impacket-smbserver share /root``, ``updog -d /``): its files handed to
  whoever asks;
- :data:`~agentbus.guards.verdict.REMOTE_ACCESS` (asked): any other directory, when the server lets
  others write into it (SMB shares, uploads, TFTP, WebDAV, ``pyftpdlib -w``). A read-only FTP server of
  the project (``python -m pyftpdlib -p 2121``) is an HTTP server's equal: ordinary.

A server bound to loopback (``-ip 127.0.0.1``, ``--bind 127.0.0.1``) serves nobody else: ordinary.
"""

from __future__ import annotations

import posixpath

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import positionals as _positionals
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS
from ..options import option_values
from ..paths import normalize_path
from ..programs import Invocation
from ..verdict import EXFILTRATION, REMOTE_ACCESS, Verdict
from .exfiltration import SYSTEM_DIRECTORY, sensitive_source

__all__ = ["judge"]

_SMB = frozenset({"impacket-smbserver", "smbserver.py", "smbserver"})
_MODULES = frozenset({"pyftpdlib", "uploadserver", "updog", "wsgidav"})
"""Servers run as ``python -m NAME``."""
_PROGRAMS = frozenset({"updog", "wsgidav", "atftpd", "in.tftpd", "tftpd", "ptftpd", "rclone"})
_PROTOCOLS = {"impacket-smbserver": "SMB", "pyftpdlib": "FTP", "uploadserver": "HTTP uploads",
              "updog": "HTTP uploads", "wsgidav": "WebDAV", "atftpd": "TFTP", "in.tftpd": "TFTP",
              "tftpd": "TFTP", "ptftpd": "TFTP", "rclone": "rclone serve"}  # fmt: skip

_DIRECTORY_OPTIONS = frozenset({"-d", "--directory", "--root", "-r"})
_BIND_OPTIONS = frozenset({"-ip", "-i", "--interface", "--bind", "-b", "--host", "-H", "--addr",
                           "--address", "-a", "--bind-address", "--listen"})  # fmt: skip
_SMB_VALUED = frozenset({"-comment", "-username", "-password", "-hashes", "-ip", "-interface-address",
                         "-port", "-outputfile"})  # fmt: skip
_LOOPBACK = lazy_compile(r"^(?:localhost|127(?:\.\d+){0,3}|::1|\[::1\])(?::\d+)?$")
_RCLONE_SERVED = frozenset({"smb", "ftp", "sftp", "webdav", "http", "nfs", "dlna", "s3"})


def _server(invocation: Invocation) -> tuple[str, list[str]] | None:
    """The server ``invocation`` starts (its :data:`_PROTOCOLS` key) and the arguments it is given."""
    name, values = invocation.name, _values(invocation)
    lowered = name.lower()
    if lowered in _SMB or lowered.removesuffix(".py") in _SMB:  # impacket-smbserver.py
        return "impacket-smbserver", values
    if lowered in _PROGRAMS:
        return lowered, values
    if not INTERPRETERS.match(name) or not values:
        return None
    if values[0] == "-m" and len(values) > 1 and values[1] in _MODULES:
        return values[1], values[2:]
    script = next((v for v in values if not v.startswith("-")), "")
    if posixpath.basename(script).lower() in _SMB:  # python3 /usr/share/doc/python3-impacket/.../smbserver.py
        return "impacket-smbserver", values[values.index(script) + 1 :]
    return None


def _directory(kind: str, values: list[str], cwd: str | None) -> str | None:
    """The directory served (the working directory when none is named), or None when unknown."""
    named = option_values(values, _DIRECTORY_OPTIONS if kind != "impacket-smbserver" else frozenset())
    if named:
        return named[-1]
    if kind == "impacket-smbserver":
        words = _positionals(values, _SMB_VALUED)
        return words[1] if len(words) > 1 else None
    if kind in ("atftpd", "in.tftpd", "tftpd", "ptftpd"):
        words = [
            w for w in _positionals(values, _BIND_OPTIONS | frozenset({"--port", "-p"})) if not w.isdigit()
        ]
        return words[-1] if words else "/srv/tftp"
    if kind == "rclone":
        words = _positionals(values, _BIND_OPTIONS)
        return words[2] if len(words) > 2 else None
    return cwd


def _writable(kind: str, values: list[str]) -> bool:
    if kind == "pyftpdlib":
        return "-w" in values or "--write" in values
    if kind in ("rclone", "wsgidav"):
        return "--read-only" not in values and "--readonly" not in values
    return True


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A file server started over a secret or system directory (exfiltration), or one others may write
    into (remote access); None for anything else."""
    found = _server(invocation)
    if found is None:
        return None
    kind, values = found
    bound = option_values(values, _BIND_OPTIONS)
    if any(_LOOPBACK.match(v) for v in bound):
        return None
    served = values[:1] == ["serve"] and bool(_RCLONE_SERVED.intersection(values[1:2]))
    if kind == "rclone" and not (served and bound):
        return None  # rclone serve listens on localhost unless --addr says otherwise
    if {"-h", "--help", "--version", "-V"} & set(values):
        return None
    protocol = _PROTOCOLS[kind]
    directory = _directory(kind, values, invocation.cwd)
    if directory is not None:
        relative_to = None if directory.startswith(("/", "~", "$")) else invocation.cwd
        what = sensitive_source(directory, home, relative_to)
        path = normalize_path(directory, home=home, cwd=relative_to)
        if what is None and SYSTEM_DIRECTORY.match(path) and not path.startswith(("/tmp", "/srv")):
            what = f"{path}, a system directory"
        if what:
            return _verdict(EXFILTRATION, invocation, f"serves {what} over {protocol} to the network")
    if _writable(kind, values):
        where = directory or "a directory"
        why = f"opens {where} over {protocol}: anyone on the network takes files from it or drops files in"
        return _verdict(REMOTE_ACCESS, invocation, why)
    return None

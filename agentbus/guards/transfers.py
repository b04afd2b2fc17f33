"""The programs that bring a file from another machine, and where what they fetch goes.

One table for every judge: :data:`DOWNLOADERS` names the downloaders, file-transfer clients and copies
from hosts, and :func:`download` reads where each one's fetched file goes (the files it writes, or its
standard output). The command guard's judges read them from here: a download run in the same command or
a later call (:mod:`.tactics.exfiltration`, :mod:`.session_downloads`), a download saved where payloads
hide (:mod:`.tactics.hidden_runs`), an exploit fetched (:mod:`.tactics.privilege`), a download piped into
a shell or written over a system file (:mod:`.danger`). A transfer program added to :data:`DOWNLOADERS`
is seen by all of them; one that names its output file by an option the generic ones
(:data:`OUTPUT_OPTIONS`) do not cover needs a branch in :func:`download`. A file can also arrive through
the command line itself, as escaped bytes a shell builtin writes (:func:`printed_binary`).
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, NamedTuple

from ..lazy_regex import lazy_compile
from .netcat import NETCATS, listens
from .options import option_values
from .request_bodies import CURL_VALUES

if TYPE_CHECKING:
    from .programs import Invocation

__all__ = [
    "DOWNLOADERS",
    "OUTPUT_OPTIONS",
    "REMOTE_PATH",
    "SOCKETS",
    "URL",
    "Download",
    "copied_into",
    "download",
    "option_cluster",
    "printed_binary",
    "socket_listens",
    "socket_source",
    "url_name",
]

DOWNLOADERS = frozenset({"curl", "wget", "wget2", "fetch", "http", "https", "xh", "lwp-request",
                         "lwp-download", "get", "aria2c", "axel", "iwr", "irm", "invoke-webrequest", "scp",
                         "rsync", "sftp", "psftp", "ftp", "lftp", "ncftp", "ncftpget", "ftpget", "tftp",
                         "atftp", "smbclient", "nscurl", "certutil"})  # fmt: skip
"""Programs that bring a file from another machine (the downloaders, file-transfer clients, copies from
hosts): the one table of them; what they fetch may be a payload (:func:`download` reads where it goes).
Names as commands are read: in lower case (libwww-perl's ``GET`` is ``get``)."""
SOCKETS = NETCATS | {"socat", "telnet", "sbd"}
"""Programs that open a raw network connection: what they read from a peer (``nc h 80 > f``) is a download."""


def socket_listens(name: str, values: list[str]) -> bool:
    """Whether a socket program waits for a connection: netcat by its own reading (``-nlvp``), another
    by a ``-l`` option."""
    if name in NETCATS:
        return listens(values)
    return "-l" in values or any(v.startswith("-l") for v in values)


OUTPUT_OPTIONS = frozenset({"-o", "-O", "--output", "--output-document", "--out", "-OutFile", "-outfile"})
"""The options naming the output file of a transfer program :func:`download` has no branch for."""
URL = lazy_compile(r"^(?:https?|ftp|tftp)://", re.IGNORECASE)
REMOTE_PATH = lazy_compile(r"^(?:[\w.+-]+@)?[\w.-]+:(?!//)|^[\w+.-]+://")
"""A path on another machine (``host:x``, ``user@host:/x``) or a URL."""


class Download(NamedTuple):
    """What a downloader writes."""

    files: tuple[str, ...]
    """The files it writes (as written: relative to the command's directory)."""
    stdout: bool
    """Whether the payload goes to standard output (``curl URL``, ``wget -O-``)."""


_WGET_VALUES = frozenset("aBeiotTwQUPlARDIXO")


def option_cluster(value: str, takes_value: frozenset[str]) -> tuple[str, str]:
    """The value-taking option in a cluster of short options (``-sLo``, ``-qO-``) and its attached value."""
    for index, char in enumerate(value[1:], start=1):
        if char in takes_value:
            return char, value[index + 1 :]
    return "", ""


def url_name(values: list[str]) -> list[str]:
    """The file names the URLs among ``values`` name (what ``curl -O``, ``wget`` save them as)."""
    names = []
    for value in values:
        if URL.match(value) or ("://" not in value and "." in value.split("/", 1)[0] and "/" in value):
            tail = value.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if tail and "://" not in value.rsplit("/", 1)[-1]:
                names.append(tail)
    return names


def download(invocation: Invocation) -> Download | None:
    """What ``invocation`` fetches from another machine and where it goes, or None if it fetches nothing."""
    from .findings import static_args as _values  # here: the hook imports this module for its tables alone

    name = invocation.name
    values = _values(invocation)
    if name == "curl":
        files: list[str] = []
        remote_name = False
        directory = ""
        for index, value in enumerate(values):
            following = values[index + 1] if index + 1 < len(values) else ""
            if value in ("-o", "--output"):
                files.append(following)
            elif value.startswith("--output="):
                files.append(value.partition("=")[2])
            elif value in ("-O", "--remote-name", "--remote-name-all"):
                remote_name = True
            elif value == "--output-dir":
                directory = following
            elif value.startswith("-") and not value.startswith("--") and len(value) > 2:
                option, attached = option_cluster(value, CURL_VALUES)
                if option == "o":
                    files.append(attached or following)
                before = value[1:].split(option, 1)[0] if option else value[1:]
                remote_name = remote_name or "O" in before
        if remote_name:
            files += url_name(values)
        files = [
            f"{directory.rstrip('/')}/{f}" if directory and not f.startswith("/") else f for f in files if f
        ]
        stdout = not files or "-" in files
        return Download(tuple(f for f in files if f != "-"), stdout)
    if name in ("wget", "wget2"):
        files, prefix, stdout = [], "", False
        for index, value in enumerate(values):
            following = values[index + 1] if index + 1 < len(values) else ""
            if value == "--output-document":
                files.append(following)
            elif value.startswith("--output-document="):
                files.append(value.partition("=")[2])
            elif value.startswith("-") and not value.startswith("--") and len(value) > 1:
                option, attached = option_cluster(value, _WGET_VALUES)
                if option == "O":
                    files.append(attached or following)
                elif option == "P":
                    prefix = attached or following
            elif value == "--directory-prefix":
                prefix = following
            elif value.startswith("--directory-prefix="):
                prefix = value.partition("=")[2]
        if "-" in files:
            stdout = True
        files = [f for f in files if f and f != "-"]
        if not files and not stdout:
            files = [n for n in url_name(values)] or ["index.html"]
            if prefix:
                files = [f"{prefix.rstrip('/')}/{f}" for f in files]
        return Download(tuple(files), stdout)
    if name in ("aria2c", "fetch", "axel", "lwp-download", "http", "https", "xh"):
        files, directory = [], ""
        for index, value in enumerate(values):
            following = values[index + 1] if index + 1 < len(values) else ""
            if value in ("-o", "--out", "--output"):
                files.append(following)
            elif value in ("-d", "--dir") and name == "aria2c":
                directory = following
        if name in ("http", "https", "xh") and not files:
            return Download((), True)
        if name == "lwp-download":
            positionals = [v for v in values if not v.startswith("-")]
            files = positionals[1:2] or url_name(values)
        files = files or url_name(values)
        files = [f"{directory.rstrip('/')}/{f}" if directory and not f.startswith("/") else f for f in files]
        return Download(tuple(f for f in files if f and f != "-"), "-" in files)
    fetched = _file_fetch(invocation, values) if name in _FILE_FETCHERS else None
    if fetched is not None:
        return fetched
    if name == "certutil" and any(v.lower() in ("-urlcache", "/urlcache") for v in values):
        positionals = [v for v in values if not v.startswith(("-", "/"))]
        return Download(tuple(positionals[-1:]), False)
    if name in ("scp", "sftp", "rsync"):  # scp host:x ./y, sftp user@host:/x.sh ., rsync -a host:x .
        positionals = [v for v in values if not v.startswith("-")]
        remote = [p for p in positionals[:-1] if REMOTE_PATH.match(p) and not URL.match(p)]
        if remote and len(positionals) >= 2 and not REMOTE_PATH.match(positionals[-1]):
            return Download(copied_into(positionals[-1], remote), False)
    if name in SOCKETS and not socket_listens(name, values):
        positionals = [v for v in values if not v.startswith("-")]
        if len(positionals) >= 2:
            return Download((), True)
    if (name == "openssl" and "s_client" in values) or _socket_input(invocation):
        return Download((), True)  # openssl s_client -connect h:443 > f, cat < /dev/tcp/h/80 > f
    if name in DOWNLOADERS and name not in _OWN_BRANCH:
        return _named_output(values)
    return None


_FILE_FETCHERS = frozenset({"tftp", "atftp", "ftp", "lftp", "sftp", "smbclient", "ftpget", "ncftpget",
                            "ncftp", "psftp"})  # fmt: skip
"""File-transfer clients that fetch a file by a ``get`` command or their own options (:func:`_file_fetch`)."""
_GET = lazy_compile(
    r"(?:^|[\s;'\"])(?:get|mget|recv|reget|pget)\s+(-\w+\s+)*([^\s;'\"]+)(?:[ \t]+([^\s;'\"]+))?"
)
_FTPGET_VALUES = frozenset({"-u", "-p", "-P", "--username", "--password", "--port"})
_NCFTPGET_VALUES = frozenset({"-u", "-p", "-P", "-j", "-t", "-f", "-d", "-W", "-X", "-Y"})


def _file_fetch(invocation: Invocation, values: list[str]) -> Download | None:
    """What a file-transfer client fetches: busybox/atftp ``tftp -g -r R [-l L] HOST``, busybox
    ``ftpget [-u U -p P -P N] HOST LOCAL [REMOTE]``, ``ncftpget HOST DIR REMOTE...``, or a ``get R [L]``
    command given on the line (``tftp h -c get x``, ``lftp -c 'open h; get x'``, ``smbclient -c 'get x'``)
    or fed in (``ftp h <<< 'get x'``)."""
    from .findings import positionals as _positionals
    from .interpreters import fed_code

    name = invocation.name
    if name in ("tftp", "atftp") and any(v in ("-g", "--get") or v.startswith("-g") for v in values):
        remote = option_values(values, frozenset({"-r", "--remote-file"}))
        local = option_values(values, frozenset({"-l", "--local-file"}))
        files = local or [posixpath.basename(r) for r in remote]
        return Download(tuple(files), False) if files else None
    if name == "ftpget":
        positionals = _positionals(values, _FTPGET_VALUES)
        return Download((positionals[1],), False) if len(positionals) >= 2 else None
    if name == "ncftpget":
        positionals = _positionals(values, _NCFTPGET_VALUES)
        if len(positionals) >= 3:
            return Download(copied_into(positionals[1], positionals[2:]), False)
        return None
    texts = [" ".join(values), *fed_code(invocation)]
    files = []
    for text in texts:
        for match in _GET.finditer(text.replace("\\n", "\n")):
            files.append(match.group(3) or posixpath.basename(match.group(2)))
    return Download(tuple(files), False) if files else None


def copied_into(destination: str, remote: list[str]) -> tuple[str, ...]:
    """The files a copy (from a host) writes: ``destination`` itself, and, as it may be a directory
    (``.``, ``/tmp/``), each remote file's name in it."""
    names = [posixpath.basename(r.split(":", 1)[-1].rstrip("/")) for r in remote]
    folder = "" if destination in (".", "./") else destination.rstrip("/") + "/"
    inside = [f"{folder}{name}" for name in names if name]
    return tuple(dict.fromkeys([destination, *inside]))


def _socket_input(invocation: Invocation) -> bool:
    """``cat < /dev/tcp/HOST/PORT``: a command reading from a network connection bash opens; or
    ``cat <&3`` after ``exec 3<>/dev/tcp/HOST/PORT``: from a descriptor above 2, which only the shell
    line itself opens (``exec N<>``), read as the connection it mostly is."""
    command = invocation.command
    return any(
        (r.op in ("<", "<>") and (command.static(r.target) or "").startswith(("/dev/tcp/", "/dev/udp/")))
        or (r.op == "<&" and r.fd in ("", "0") and r.target.isdigit() and int(r.target) > 2)
        for r in command.redirects
    )


_SOCKET_DEVICE = lazy_compile(r"^/dev/(?:tcp|udp)/([^/]+)/[^/]+$")


def socket_source(invocation: Invocation) -> str | None:
    """The other machine a command reads its input from through bash's ``/dev/tcp`` (``cat <
    /dev/tcp/HOST/PORT``): a download with no client. This machine's ports (a health check) give None."""
    from .hosts import is_this_machine

    command = invocation.command
    for redirect in command.redirects:
        if redirect.op not in ("<", "<>") or redirect.fd not in ("", "0"):
            continue
        device = _SOCKET_DEVICE.match(command.static(redirect.target) or "")
        if device is not None and not is_this_machine(device.group(1)):
            return device.group(1)
    return None


_OWN_BRANCH = frozenset({"curl", "wget", "wget2", "aria2c", "fetch", "axel", "lwp-download", "http", "https",
                         "xh", "certutil", "scp", "sftp", "rsync"}) | _FILE_FETCHERS  # fmt: skip
"""The transfer programs :func:`download` reads by a branch of their own (an upload or a local copy by
``scp``/``rsync``, a ``tftp put``, fetches nothing)."""


def _named_output(values: list[str]) -> Download:
    """A transfer program without a branch of its own: the file an output option names, else the URL's
    name when it saves one (``axel URL``), else its standard output."""
    files = option_values(values, OUTPUT_OPTIONS)
    return Download(tuple(f for f in files if f and f != "-"), not files or "-" in files)


_ESCAPE = lazy_compile(r"\\(?:x([0-9a-fA-F]{1,2})|0?([0-7]{1,3}))")
_TEXT_BYTES = frozenset({0x09, 0x0A, 0x0D, 0x1B}) | frozenset(range(0x20, 0x7F))
"""Bytes of text (and the terminal's escape): an escaped byte outside them is a binary's."""


def printed_binary(invocation: Invocation) -> tuple[str, ...]:
    """The files ``invocation`` writes binary bytes into from escapes it is given: ``echo -ne '\\x7f\\x45
    \\x4c\\x46...' > f``, ``printf '\\177ELF' >> f``: a program brought in through the command line itself
    (Mirai's echo loader, where no downloader is installed), unreadable as a download is."""
    from .findings import static_args as _values

    name = invocation.name
    values = _values(invocation)
    if name == "echo":
        flags = "".join(v[1:] for v in values if v.startswith("-") and v[1:].isalpha())
        if "e" not in flags:
            return ()
    elif name != "printf":
        return ()
    escaped = (
        int(match.group(1), 16) if match.group(1) else int(match.group(2), 8)
        for match in _ESCAPE.finditer(" ".join(values))
    )
    if all(byte in _TEXT_BYTES for byte in escaped):
        return ()
    command = invocation.command
    return tuple(
        target
        for redirect in command.redirects
        if redirect.op in (">", ">>", ">|") and (target := command.static(redirect.target) or "")
    )

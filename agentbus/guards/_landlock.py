"""Landlock, Linux's unprivileged access control, through its three system calls.

A process builds a ruleset (what it may still do beneath which paths, on which TCP
ports), then restricts itself and every process it starts; nothing undoes it, root
included. Landlock has existed since Linux 5.13; each kernel release adds rights
(its ABI version): 2 moving files between directories, 3 truncating, 4 TCP bind
and connect, 5 device ioctls, 6 scoping abstract unix sockets and signals to the
sandbox. Rights the running kernel does not know are left out, so a ruleset
never asks for more than the kernel can enforce. Standard library only: the
launcher imports this before it runs a command.
"""

from __future__ import annotations

import ctypes
import os
import stat
import struct

__all__ = [
    "FILE_READ",
    "FILE_WRITE",
    "Ruleset",
    "abi_version",
]

# The system call numbers are the same on every 64-bit architecture Linux has added
# since (the generic table); x86_64 shares them.
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1

_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1}
FILE_READ = EXECUTE | READ_FILE
"""What a rule on a file may grant for reading (directory rights are refused on files)."""
FILE_WRITE = WRITE_FILE | TRUNCATE
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE

_libc: ctypes.CDLL | None = None


def _syscall(*args: object) -> int:
    """``syscall(2)`` with every integer passed as a C long, as the kernel reads them."""
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.syscall.restype = ctypes.c_long
    converted = [ctypes.c_long(arg) if isinstance(arg, int) else arg for arg in args]
    return int(_libc.syscall(*converted))


def _check(result: int, what: str) -> int:
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"landlock {what}: {os.strerror(errno)}")
    return result


def abi_version() -> int:
    """The kernel's Landlock ABI version; 0 where Landlock is missing or disabled."""
    system = os.uname()
    if system.sysname != "Linux" or system.machine not in ("x86_64", "aarch64", "riscv64"):
        return 0
    version = _syscall(_CREATE_RULESET, None, 0, _CREATE_RULESET_VERSION)
    return max(version, 0)


class Ruleset:
    """What the process may still do after :meth:`restrict_self`: everything not handled,
    and of what is handled only what a rule allows.

    ``network`` handles TCP bind and connect (ABI 4; rules then allow ports);
    ``scope`` confines abstract unix sockets and signals to the sandbox (ABI 6).
    """

    def __init__(self, abi: int, *, network: bool, scope: bool) -> None:
        if abi < 1:
            raise OSError("Landlock is not available in this kernel")
        self.abi = abi
        self.handled_fs = _FS_BY_ABI.get(abi, _FS_BY_ABI[3])
        self.handled_net = NET_BIND_TCP | NET_CONNECT_TCP if network and abi >= 4 else 0
        self.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if scope and abi >= 6 else 0
        if abi >= 6:
            attr = struct.pack("QQQ", self.handled_fs, self.handled_net, self.scoped)
        elif abi >= 4:
            attr = struct.pack("QQ", self.handled_fs, self.handled_net)
        else:
            attr = struct.pack("Q", self.handled_fs)
        buffer = ctypes.create_string_buffer(attr, len(attr))
        self.fd = _check(
            _syscall(_CREATE_RULESET, buffer, len(attr), 0),
            "create_ruleset",
        )

    def allow_path(self, path: str, access: int) -> None:
        """Allow ``access`` beneath ``path`` (a directory) or on it (a file); rights a
        file cannot have are dropped for files, rights the kernel lacks are dropped always."""
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        try:
            mode = os.fstat(fd).st_mode
            allowed = access & self.handled_fs
            if not stat.S_ISDIR(mode):
                allowed &= _FILE_RIGHTS
            if not allowed:
                return
            attr = struct.pack("=Qi", allowed, fd)
            buffer = ctypes.create_string_buffer(attr, len(attr))
            _check(
                _syscall(_ADD_RULE, self.fd, _RULE_PATH_BENEATH, buffer, 0),
                f"add_rule {path}",
            )
        finally:
            os.close(fd)

    def allow_port(self, port: int, access: int = NET_CONNECT_TCP) -> None:
        """Allow TCP ``access`` (connect by default) to or on ``port``."""
        if not self.handled_net:
            raise OSError("this ruleset does not handle the network (Landlock ABI 4 needed)")
        attr = struct.pack("QQ", access & self.handled_net, port)
        buffer = ctypes.create_string_buffer(attr, len(attr))
        _check(
            _syscall(_ADD_RULE, self.fd, _RULE_NET_PORT, buffer, 0),
            f"add_rule port {port}",
        )

    def restrict_self(self) -> None:
        """Enforce the ruleset on this process and its future children (needs no_new_privs)."""
        try:
            _check(_syscall(_RESTRICT_SELF, self.fd, 0), "restrict_self")
        finally:
            os.close(self.fd)

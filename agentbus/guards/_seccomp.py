"""A small seccomp filter: the system calls Landlock does not cover.

Landlock decides which files a process may open; it does not stop ``chmod u+s``
on a file the process may write, ``setcap`` (an extended attribute), keystrokes
pushed into the terminal (``TIOCSTI``), io_uring (which opens files and
sockets without the system calls a filter sees), the session keyring the
command inherits, ``bpf`` and ``userfaultfd``, or sockets of families the
sandbox keeps off. This module assembles a classic BPF program for x86_64 and
aarch64 that answers those calls with an error and lets every other call
through, and installs it (which needs no_new_privs). Standard library only.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = ["SUPPORTED", "Filter", "supported"]

# (audit architecture, system call numbers) per machine; None: no such call there.
_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_NR: dict[str, dict[str, int | None]] = {
    "x86_64": {
        "chmod": 90, "fchmod": 91, "fchmodat": 268, "fchmodat2": 452, "open": 2, "creat": 85,
        "openat": 257, "openat2": 437, "mknod": 133, "mknodat": 259, "setxattr": 188,
        "lsetxattr": 189, "fsetxattr": 190, "setxattrat": 463, "io_uring_setup": 425,
        "socket": 41, "ioctl": 16, "add_key": 248, "request_key": 249, "keyctl": 250,
        "bpf": 321, "userfaultfd": 323,
    },
    "aarch64": {
        "chmod": None, "fchmod": 52, "fchmodat": 53, "fchmodat2": 452, "open": None, "creat": None,
        "openat": 56, "openat2": 437, "mknod": None, "mknodat": 33, "setxattr": 5,
        "lsetxattr": 6, "fsetxattr": 7, "setxattrat": 463, "io_uring_setup": 425,
        "socket": 198, "ioctl": 29, "add_key": 217, "request_key": 218, "keyctl": 219,
        "bpf": 280, "userfaultfd": 282,
    },
}  # fmt: skip
SUPPORTED = frozenset(_ARCH)

_LD_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
_X32_BIT = 0x40000000
_SETUID_BITS = 0o6000
_TIOCSTI, _TIOCLINUX = 0x5412, 0x541C
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2

if TYPE_CHECKING:
    Instruction = tuple[int, int, int, int]


def supported() -> bool:
    """True on the machines this filter knows the system call numbers of."""
    system = os.uname()
    return system.sysname == "Linux" and system.machine in _ARCH


def _arg(index: int) -> Instruction:
    """Load the low 32 bits of argument ``index`` (little-endian machines)."""
    return (_LD_ABS, 0, 0, 16 + 8 * index)


def _deny(code: int) -> Instruction:
    return (_RET, 0, 0, _ERRNO | code)


class Filter:
    """Rules per system call, each ending in allow or an error number."""

    def __init__(self, machine: str | None = None) -> None:
        self.machine = machine or os.uname().machine
        if self.machine not in _ARCH:
            raise OSError(f"no seccomp filter for {self.machine}")
        self.numbers = _NR[self.machine]
        self.blocks: list[tuple[int, list[Instruction]]] = []
        self.rules: list[str] = []

    def _add(self, name: str, body: list[Instruction]) -> None:
        number = self.numbers[name]
        if number is not None:
            self.blocks.append((number, body))

    def deny_setuid_bits(self) -> None:
        """chmod and file creation with a setuid or setgid bit fail with EPERM."""
        for name, index in (
            ("chmod", 1), ("fchmod", 1), ("fchmodat", 2), ("fchmodat2", 2), ("open", 2),
            ("creat", 1), ("openat", 3), ("mknod", 1), ("mknodat", 2),
        ):  # fmt: skip
            self._add(
                name, [_arg(index), (_JSET, 0, 1, _SETUID_BITS), _deny(errno.EPERM), (_RET, 0, 0, _ALLOW)]
            )
        # openat2 takes its mode in a struct the filter cannot read: callers fall back to openat.
        self._add("openat2", [_deny(errno.ENOSYS)])
        self.rules.append("setuid/setgid bits cannot be set")

    def deny_file_capabilities(self) -> None:
        """Setting extended attributes (``setcap``'s security.capability) is not supported."""
        for name in ("setxattr", "lsetxattr", "fsetxattr", "setxattrat"):
            self._add(name, [_deny(errno.EOPNOTSUPP)])
        self.rules.append("extended attributes (file capabilities) cannot be set")

    def deny_terminal_injection(self) -> None:
        """``TIOCSTI`` and ``TIOCLINUX`` (typing into the user's terminal) fail with EPERM."""
        self._add(
            "ioctl",
            [
                _arg(1),
                (_JEQ, 1, 0, _TIOCSTI),
                (_JEQ, 0, 1, _TIOCLINUX),
                _deny(errno.EPERM),
                (_RET, 0, 0, _ALLOW),
            ],
        )
        self.rules.append("no typing into the terminal (TIOCSTI)")

    def deny_io_uring(self) -> None:
        """io_uring would open files and sockets past this filter: ENOSYS, as on kernels without it."""
        self._add("io_uring_setup", [_deny(errno.ENOSYS)])
        self.rules.append("no io_uring")

    def deny_keyrings(self) -> None:
        """The kernel keyrings are not namespaced by Landlock: the session keyring the
        command inherits holds what the user's tools stored there (Kerberos tickets,
        tokens), readable by id. ``keyctl``, ``add_key`` and ``request_key`` fail with ENOSYS."""
        for name in ("keyctl", "add_key", "request_key"):
            self._add(name, [_deny(errno.ENOSYS)])
        self.rules.append("no kernel keyrings")

    def deny_kernel_attack_surface(self) -> None:
        """``bpf`` and ``userfaultfd`` serve no build or test, and are how kernel exploits
        load code and win races: ENOSYS, as on kernels without them."""
        for name in ("bpf", "userfaultfd"):
            self._add(name, [_deny(errno.ENOSYS)])
        self.rules.append("no bpf, no userfaultfd")

    def allow_socket_families(self, families: Iterable[int], label: str) -> None:
        """``socket()`` of any other address family fails with EACCES."""
        allowed = sorted(set(families))
        count = len(allowed)
        body: list[Instruction] = [_arg(0)]
        body += [(_JEQ, count - index, 0, family) for index, family in enumerate(allowed)]
        body += [_deny(errno.EACCES), (_RET, 0, 0, _ALLOW)]
        self._add("socket", body)
        self.rules.append(label)

    def program(self) -> list[Instruction]:
        """The BPF program: foreign architectures and x32 calls denied, then the rules."""
        program: list[Instruction] = [
            (_LD_ABS, 0, 0, 4),
            (_JEQ, 1, 0, _ARCH[self.machine]),
            _deny(errno.ENOSYS),
        ]
        program.append((_LD_ABS, 0, 0, 0))
        if self.machine == "x86_64":
            program += [(_JGE, 0, 1, _X32_BIT), _deny(errno.ENOSYS)]
        for number, body in self.blocks:
            if len(body) > 255:
                raise ValueError("a seccomp rule is too long to jump over")
            program.append((_JEQ, 0, len(body), number))
            program += body
        program.append((_RET, 0, 0, _ALLOW))
        return program

    def install(self) -> None:
        """Apply the filter to this process and its children (no_new_privs must be set)."""
        install(self.program())


def encode(program: Sequence[Instruction]) -> bytes:
    """The program as ``struct sock_filter`` array bytes (bubblewrap's ``--seccomp`` takes these)."""
    return b"".join(struct.pack("HBBI", *instruction) for instruction in program)


def install(program: Sequence[Instruction]) -> None:
    code = encode(program)
    buffer = ctypes.create_string_buffer(code, len(code))
    fprog = struct.pack("HxxxxxxP", len(program), ctypes.addressof(buffer))
    fprog_buffer = ctypes.create_string_buffer(fprog, len(fprog))
    libc = ctypes.CDLL(None, use_errno=True)
    result = libc.prctl(
        ctypes.c_int(_PR_SET_SECCOMP),
        ctypes.c_ulong(_SECCOMP_MODE_FILTER),
        fprog_buffer,
        ctypes.c_ulong(0),
        ctypes.c_ulong(0),
    )
    if result != 0:
        code_ = ctypes.get_errno()
        raise OSError(code_, f"seccomp: {errno.errorcode.get(code_, code_)}")

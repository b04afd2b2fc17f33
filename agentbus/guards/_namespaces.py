"""User and network namespaces, and dropping root's powers, for the sandbox launcher.

A new user namespace makes the process's capabilities count only inside it: root
in the sandbox cannot load kernel modules, reboot, or change the host's network.
A new network namespace (created inside it, so no privilege is needed) has only
its own loopback interface, which the launcher brings up: servers a test suite
starts on 127.0.0.1 work, the host's network and its local services do not.
Standard library only.
"""

from __future__ import annotations

import ctypes
import os
import struct

__all__ = ["drop_capability_bounding_set", "enter_namespaces", "namespaces_available"]

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS = 0x8913, 0x8914
_IFF_UP = 0x1
_AF_INET, _SOCK_DGRAM, _SOCK_CLOEXEC = 2, 2, 0o2000000
_PR_CAPBSET_DROP = 24


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _unshare(flags: int) -> None:
    if _libc().unshare(ctypes.c_int(flags)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"unshare: {os.strerror(code)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


def enter_namespaces(*, network: bool) -> None:
    """Move this (single-threaded) process into a new user namespace, where it keeps
    its uid and gid, and with ``network`` into a new network namespace with loopback up."""
    uid, gid = os.geteuid(), os.getegid()
    _unshare(_CLONE_NEWUSER | (_CLONE_NEWNET if network else 0))
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    if network:
        _loopback_up()


def _loopback_up() -> None:
    """``ip link set lo up``, in the new network namespace."""
    libc = _libc()
    sock = libc.socket(_AF_INET, _SOCK_DGRAM | _SOCK_CLOEXEC, 0)
    if sock < 0:
        raise OSError(ctypes.get_errno(), "socket for the loopback interface")
    try:
        request = ctypes.create_string_buffer(struct.pack("16sH22x", b"lo", 0), 40)
        if libc.ioctl(sock, ctypes.c_ulong(_SIOCGIFFLAGS), request) != 0:
            raise OSError(ctypes.get_errno(), "reading the loopback interface's flags")
        flags = struct.unpack_from("H", request.raw, 16)[0] | _IFF_UP
        struct.pack_into("H", request, 16, flags)
        if libc.ioctl(sock, ctypes.c_ulong(_SIOCSIFFLAGS), request) != 0:
            raise OSError(ctypes.get_errno(), "bringing the loopback interface up")
    finally:
        os.close(sock)


def namespaces_available() -> bool:
    """Whether this process could enter new user and network namespaces (tried in a child)."""
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:  # pragma: no cover - the child
        try:
            enter_namespaces(network=True)
        except BaseException:
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def drop_capability_bounding_set() -> None:
    """Remove every capability from the bounding set, so that a program root runs next
    starts without any (no_new_privs keeps setuid programs from regaining them)."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as file:
            last = int(file.read())
    except (OSError, ValueError):
        last = 63
    libc = _libc()
    for capability in range(last + 1):
        if libc.prctl(_PR_CAPBSET_DROP, ctypes.c_ulong(capability), 0, 0, 0) != 0:
            code = ctypes.get_errno()
            raise OSError(code, f"dropping capability {capability}: {os.strerror(code)}")

"""User and network namespaces, and dropping root's powers, for the sandbox launcher.

A new user namespace makes the process's capabilities count only inside it: root
in the sandbox cannot load kernel modules, reboot, or change the host's network.
A new network namespace (created inside it, so no privilege is needed) has only
its own loopback interface, which the launcher brings up: servers a test suite
starts on 127.0.0.1 work, the host's network and its local services do not.
A new mount namespace (owned by the new user namespace, so mounts in it stay
in it, and the host never sees them) lets the launcher show the command a
private directory in place of the host's /tmp and /dev/shm, and make the
project's auto-run files (``.git``, ``.envrc``, editor tasks) read-only. The
command itself cannot undo either: Landlock forbids every mount change, and
mounts inherited into a nested user namespace are locked.
Standard library only.
"""

from __future__ import annotations

import ctypes
import os
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["drop_capability_bounding_set", "enter_namespaces", "namespaces_available"]

_CLONE_NEWNS = 0x00020000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS = 0x8913, 0x8914
_IFF_UP = 0x1
_AF_INET, _SOCK_DGRAM, _SOCK_CLOEXEC = 2, 2, 0o2000000
_PR_CAPBSET_DROP = 24
_MS_NOSUID, _MS_NODEV = 2, 4
_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE, _MS_RELATIME = 1, 32, 4096, 16384, 1 << 18, 1 << 21
# statvfs flags a read-only remount must keep (the kernel locks them in a user namespace):
# nosuid, nodev, noexec, noatime, nodiratime share their MS_ values; ST_RELATIME (4096) does not.
_ST_KEPT, _ST_RELATIME = 2 | 4 | 8 | 1024 | 2048, 4096


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _unshare(flags: int) -> None:
    if _libc().unshare(ctypes.c_int(flags)) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"unshare: {os.strerror(code)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as file:
        file.write(text)


class MountsRefused(OSError):
    """The namespaces exist but this kernel or its security module refuses mounts in them
    (Ubuntu 24.04's AppArmor does for unprivileged user namespaces): nothing was mounted."""


class MountFailed(OSError):
    """A mount failed after others succeeded: the process is half set up and must not run."""


def enter_namespaces(
    *,
    network: bool,
    binds: Sequence[tuple[str, str]] = (),
    read_only: Sequence[str] = (),
    hidden: Sequence[str] = (),
) -> None:
    """Move this (single-threaded) process into a new user namespace, where it keeps
    its uid and gid; with ``network`` into a new network namespace with loopback up;
    with ``binds`` (source, target) or ``read_only`` paths into a new mount namespace
    where each source is mounted over its target, each read-only path over itself, and
    each ``hidden`` path covered (a directory by an empty read-only tmpfs, a socket or
    file by /dev/null).

    Raises :class:`MountsRefused` when the first mount is refused (then nothing is
    mounted, and the caller decides), OSError for anything else.
    """
    uid, gid = os.geteuid(), os.getegid()
    mounts = bool(binds or read_only or hidden)
    _unshare(_CLONE_NEWUSER | (_CLONE_NEWNET if network else 0) | (_CLONE_NEWNS if mounts else 0))
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    if network:
        _loopback_up()
    if not mounts:
        return
    try:
        _mount(None, "/", _MS_REC | _MS_PRIVATE)
    except OSError as exc:
        raise MountsRefused(exc.errno, f"mounts refused in the new namespace: {exc.strerror}") from None
    try:
        _mount_all(binds, read_only, hidden)
    except OSError as exc:
        raise MountFailed(exc.errno, str(exc)) from None
    # The working directory still names the directory as it was found before the mounts
    # (from where ".." would lead into the host's /tmp): find it again through them.
    try:
        os.chdir(os.getcwd())
    except OSError:
        os.chdir("/")


def _mount_all(binds: Sequence[tuple[str, str]], read_only: Sequence[str], hidden: Sequence[str]) -> None:
    # Each source is opened before any mount: a later mount may cover the path to it
    # (the private /dev/shm lives in the host's /tmp, which the private /tmp covers).
    opened = [(os.open(source, os.O_PATH | os.O_CLOEXEC), target) for source, target in binds]
    for fd, target in opened:
        try:
            _mount(f"/proc/self/fd/{fd}", target, _MS_BIND | _MS_REC)
        finally:
            os.close(fd)
    for path in read_only:
        _mount(path, path, _MS_BIND | _MS_REC)
        _mount(None, path, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _kept_flags(path))
    for path in hidden:
        if os.path.isdir(path):
            _mount("tmpfs", path, _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "tmpfs")
        else:
            _mount("/dev/null", path, _MS_BIND)


def _kept_flags(path: str) -> int:
    flags = os.statvfs(path).f_flag
    return (flags & _ST_KEPT) | (_MS_RELATIME if flags & _ST_RELATIME else 0)


def _mount(source: str | None, target: str, flags: int, kind: str | None = None) -> None:
    libc = _libc()
    encoded = None if source is None else os.fsencode(source)
    fstype = None if kind is None else kind.encode()
    if libc.mount(encoded, os.fsencode(target), fstype, ctypes.c_ulong(flags), None) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"mount {source or ''} on {target}: {os.strerror(code)}")


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
    """Whether this process could enter new user, network and mount namespaces and mount
    in them (tried in a child)."""
    try:
        pid = os.fork()
    except OSError:
        return False
    if pid == 0:  # pragma: no cover - the child
        try:
            enter_namespaces(network=True, read_only=["/"])
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

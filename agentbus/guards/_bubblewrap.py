"""The bubblewrap command line for a policy: the fallback where Landlock is missing.

bubblewrap (``bwrap``, Debian's package ``bubblewrap``) builds the sandbox from
namespaces and mounts: the whole file system read-only, the writable directories
bound read-write over it, each sensitive directory hidden under an empty
read-only tmpfs and each sensitive file under ``/dev/null``, a private
directory over the host's temporary ones, the project's auto-run files
bound read-only, new user, pid, ipc
and uts namespaces, a network namespace (with its own loopback) unless the
network is on, every capability dropped, no_new_privs, and the same seccomp
filter as the Landlock sandbox. It cannot allow single TCP ports.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .sandbox import Policy

__all__ = ["command", "find"]


def find() -> str | None:
    """The ``bwrap`` executable on PATH, or None."""
    for directory in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep):
        candidate = os.path.join(directory or ".", "bwrap")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def command(
    policy: Policy, bwrap: str, *, seccomp_fd: int | None, binds: Sequence[tuple[str, str]] = ()
) -> list[str]:
    """``bwrap`` and its options, up to and including ``--``: ``binds`` (source, target)
    are the private directories that stand in for the host's temporary ones."""
    argv = [bwrap, "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    argv += ["--unshare-user-try", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if policy.network != "on":
        argv.append("--unshare-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for source, target in binds:  # the private temporary directories first: a project in /tmp
        argv += ["--bind", source, target]  # is bound again over the private /tmp
    bound = {target for _, target in binds}
    for path in policy.writable:
        if path not in bound and (path not in policy.temporary or not policy.private_tmp):
            argv += ["--bind", path, path]
    for path in policy.protect:
        argv += ["--ro-bind", path, path]
    for path in policy.hidden:
        if os.path.isdir(path):
            argv += ["--tmpfs", path, "--remount-ro", path]
        else:
            argv += ["--ro-bind", "/dev/null", path]
    hidden_dirs = [path for path in policy.deny_read if os.path.isdir(path)]
    for path in policy.deny_read:
        if any(path.startswith(directory.rstrip("/") + "/") for directory in hidden_dirs):
            continue  # already hidden with its directory
        if os.path.isdir(path):
            argv += ["--tmpfs", path, "--remount-ro", path]
        elif os.path.lexists(path):
            argv += ["--ro-bind", "/dev/null", path]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--chdir", os.getcwd()]
    return [*argv, "--"]

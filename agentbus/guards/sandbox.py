"""``agentbus sandbox``: run a command confined, for what no judge of its text can see.

The guards judge a command's text; ``python -c "$(echo … | base64 -d)"`` hides
its intent from any parser. The sandbox holds whatever the command turns out to
do: it writes only inside the project and the temporary directories, cannot read
the files the guards call sensitive (the one classifier in
:mod:`agentbus.middleware.paths`), has no network or only allowed TCP ports, and
gains no privileges (setuid bits do nothing and cannot be set).

How, by platform (the launcher picks the strongest mechanism and says which):

- Linux with Landlock (5.13+): Landlock for files (and TCP ports from ABI 4,
  signals and abstract sockets scoped from ABI 6), a user namespace (root keeps
  no power over the host), a network namespace for a private loopback
  (``--network loopback``), a seccomp filter (no setuid bits, no file
  capabilities, no terminal injection, no io_uring, only the socket families the
  network mode allows), no_new_privs. Nothing to install.
- Linux without Landlock, with bubblewrap installed (Debian's ``bubblewrap``):
  ``bwrap`` with the file system read-only but for the writable directories,
  the sensitive paths hidden, namespaces, the same seccomp filter. No single
  TCP ports.
- macOS: ``sandbox-exec`` with a generated profile (Seatbelt).
- Anything else: nothing confines; the launcher refuses to run the command
  (exit 125) unless ``--best-effort`` says running unconfined is acceptable,
  and then it says so on stderr.

The launcher imports only the standard library, so that it starts in a few
milliseconds: ``agentbus.middleware.sandbox`` runs it by file path (see
:data:`LAUNCHER`) and hands it the sensitive paths it found, so the launcher
need not import the classifier.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Sequence
    from typing import Any

    from ._seccomp import Filter

__all__ = [
    "CONFINED_BY",
    "EXAMPLES",
    "GIT_RUNS",
    "LAUNCHER",
    "NETWORK_MODES",
    "OPTIONS",
    "PROTECTED",
    "REFUSED",
    "Capabilities",
    "Policy",
    "SandboxUnavailable",
    "UsageError",
    "add_arguments",
    "credential_variables",
    "daemon_sockets",
    "default_writable",
    "main",
    "parse",
    "pinned_directories",
    "plan",
    "policy_from_options",
    "private_tmp",
    "probe",
    "protected_paths",
    "read_grants",
    "run",
    "sensitive_paths",
    "temporary_dirs",
]

LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_launch.py")
"""The launcher as a file: ``python -I LAUNCHER [options] -- CMD`` skips the package's imports."""

CONFINED_BY = "AGENTBUS_SANDBOX"
"""The environment variable a confined command finds what confines it in (informative:
a command can set it too, so nothing should trust it)."""

NETWORK_MODES = ("off", "loopback", "ports", "on")
"""``off``: no sockets but unix ones (if allowed); ``loopback``: a private loopback only
(test servers work; costs a network namespace, up to ~15 ms on a busy machine);
``ports``: TCP connect to the allowed ports (and UDP, which Landlock cannot filter); ``on``."""
REFUSED = 125
"""The exit status when the launcher refuses to run (cannot confine, bad options)."""

EXAMPLES = """\
examples:
  agentbus sandbox -- make test                      # the current directory is the project
  agentbus sandbox --project ~/src/app -- bash -c 'npm ci && npm test'
  agentbus sandbox --network ports --allow-port 443 -- pip install -r requirements.txt
  agentbus sandbox --probe                           # what this machine can confine with
  agentbus sandbox --dry-run -- ls                   # the rules, as JSON, without running
"""

# Name-service files the classifier lists but every program needs to map ids to names;
# they hold no secrets on a shadow-password system (the hashes are in /etc/shadow).
_READABLE_ANYWAY = frozenset({"/etc/passwd", "/etc/group"})
_DEVICES_WRITABLE = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts")
_SANDBOX_EXEC = "/usr/bin/sandbox-exec"

PROTECTED = (".git", ".envrc", ".vscode", ".idea", ".claude", ".mcp.json")
"""Files and directories in the project that run code on the host with no one choosing
to run the project's code, made read-only in the sandbox by default: in ``.git`` the
parts of :data:`GIT_RUNS` (the next ``git status``, which shell prompts run on every
line, runs them unconfined; the rest of ``.git`` stays writable, so that ``git commit``
works), ``.envrc`` (direnv), ``.vscode`` and ``.idea`` (tasks that run when the folder
opens), ``.claude`` and ``.mcp.json`` (Claude Code's hooks and MCP servers, which it
runs unconfined)."""

GIT_RUNS = ("config", "config.worktree", "hooks", "commondir")
"""What in a git directory makes a later ``git`` start a program: ``config``
(``core.fsmonitor``, ``core.hooksPath``, ``core.pager``, aliases, filter and diff drivers,
includes), ``config.worktree`` (the same, with ``extensions.worktreeConfig``), ``hooks``,
and ``commondir`` (which moves the whole repository, its config included, elsewhere).
The same parts of the git directories of linked worktrees (``.git/worktrees/*``) and
submodules (``.git/modules/**``) are protected with them. ``info/attributes`` only picks
drivers the read-only config defines (as a ``.gitattributes`` in the project can)."""
_GIT_DIRS_MAX = 256  # git directories looked at in one .git: past that, all of .git is read-only

# Names of environment variables that hold credentials, by their words (split on "_"):
# AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, OPENAI_API_KEY, SSH_AUTH_SOCK, ...
_CREDENTIAL_WORDS = frozenset(
    {
        "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASSPHRASE", "KEY", "KEYS",
        "APIKEY", "CREDENTIAL", "CREDENTIALS", "AUTH", "COOKIE", "COOKIES",
    }
)  # fmt: skip
_CREDENTIAL_NAMES = frozenset({"PGPASSWORD", "MYSQL_PWD", "KRB5CCNAME"})
_AF_UNIX, _AF_INET, _AF_INET6, _AF_NETLINK = 1, 2, 10, 16


class SandboxUnavailable(Exception):
    """This platform cannot confine the command as the policy requires."""


class Policy:
    """What a confined command may do (paths resolved and absolute)."""

    __slots__ = (
        "deny_read",
        "hidden",
        "keep_env",
        "network",
        "pinned",
        "ports",
        "private_tmp",
        "project",
        "protect",
        "temporary",
        "unix_sockets",
        "writable",
    )

    def __init__(
        self,
        project: str,
        writable: Iterable[str],
        deny_read: Iterable[str],
        *,
        network: str = "off",
        ports: Iterable[int] = (),
        unix_sockets: bool = False,
        temporary: Iterable[str] = (),
        private_tmp: str | None = None,
        protect: Iterable[str] = (),
        keep_env: Iterable[str] = (),
        hidden: Iterable[str] = (),
    ) -> None:
        if network not in NETWORK_MODES:
            raise ValueError(f"network must be one of {', '.join(NETWORK_MODES)}, got {network!r}")
        self.project = project
        self.temporary = tuple(temporary)
        """The host's temporary directories the command sees (and may write)."""
        self.private_tmp = private_tmp
        """Where those are backed, private to the project's commands (None: the host's own,
        shared with every other process of the user)."""
        self.writable = (*writable, *(path for path in self.temporary if path not in writable))
        """Directories it may write beneath: the project, the temporary directories, extras."""
        self.protect = tuple(protect)
        """Paths in the project it may not change (:data:`PROTECTED` that exist)."""
        self.pinned = pinned_directories(project, self.protect)
        """Directories that hold a protected path: it may change what is in them, not move them."""
        self.keep_env = tuple(keep_env)
        """Credential variables it keeps (the others are removed from its environment)."""
        self.hidden = tuple(hidden)
        """The host daemons' unix sockets (and their directories) it cannot see, with unix
        sockets allowed (:func:`daemon_sockets`)."""
        self.deny_read = tuple(deny_read)
        """Files and directories it may not read."""
        self.network = network
        """One of :data:`NETWORK_MODES`."""
        self.ports = tuple(ports)
        self.unix_sockets = unix_sockets
        """Whether it may create unix sockets (docker's, systemd's and ssh-agent's are unix sockets)."""

    def summary(self) -> dict[str, Any]:
        """The policy as JSON-ready data (what ``--dry-run`` prints and records cite)."""
        return {
            name: getattr(self, name)
            for name in (
                "project",
                "writable",
                "temporary",
                "private_tmp",
                "protect",
                "pinned",
                "deny_read",
                "network",
                "ports",
                "unix_sockets",
                "hidden",
                "keep_env",
            )
        }


class Capabilities:
    """What this machine offers for confinement."""

    __slots__ = ("bubblewrap", "landlock_abi", "namespaces", "platform", "sandbox_exec", "seccomp")

    def __init__(
        self,
        platform: str,
        *,
        landlock_abi: int = 0,
        namespaces: bool = False,
        seccomp: bool = False,
        sandbox_exec: bool = False,
        bubblewrap: str | None = None,
    ) -> None:
        self.platform = platform
        self.landlock_abi = landlock_abi
        self.namespaces = namespaces
        self.seccomp = seccomp
        self.sandbox_exec = sandbox_exec
        self.bubblewrap = bubblewrap
        """The ``bwrap`` executable, if installed."""

    def summary(self) -> dict[str, Any]:
        names = ("platform", "landlock_abi", "namespaces", "seccomp", "sandbox_exec", "bubblewrap")
        return {**{name: getattr(self, name) for name in names}, "mechanism": self.mechanism()}

    def mechanisms(self) -> list[str]:
        """The mechanisms available here, strongest first."""
        found = []
        if self.landlock_abi >= 1:
            found.append("landlock")
        if self.bubblewrap:
            found.append("bubblewrap")
        if self.sandbox_exec:
            found.append("seatbelt")
        return found

    def mechanism(self) -> str | None:
        """The strongest mechanism here, or None."""
        return next(iter(self.mechanisms()), None)

    def describe(self, policy: Policy | None = None, mechanism: str | None = None) -> list[str]:
        """The parts that confine, in words (what the records cite)."""
        mechanism = mechanism or self.mechanism()
        if mechanism == "seatbelt":
            return ["seatbelt (sandbox-exec)"]
        if mechanism == "bubblewrap":
            private = policy is None or policy.network != "on"
            parts = [
                "bubblewrap",
                "user, pid and network namespaces" if private else "user and pid namespaces",
            ]
            return [*parts, *(["seccomp"] if self.seccomp else []), "no_new_privs"]
        if mechanism is None:
            return []
        parts = [f"landlock ABI {self.landlock_abi}"]
        if self.namespaces:
            parts.append("user namespace")
            if policy is not None and (
                policy.network == "loopback" or (policy.network == "off" and not self.seccomp)
            ):
                parts.append("network namespace")
            if policy is not None and (policy.private_tmp or policy.protect or policy.hidden):
                parts.append("mount namespace")
        if self.seccomp:
            parts.append("seccomp")
        parts.append("no_new_privs")
        return parts


def _host_tmp() -> str:
    return next((os.environ[name] for name in ("TMPDIR", "TEMP", "TMP") if os.environ.get(name)), "/tmp")


def default_writable() -> tuple[str, ...]:
    """The temporary directories: ``$TMPDIR`` (or /tmp) and /dev/shm."""
    found = [_host_tmp()]
    if os.path.isdir("/dev/shm"):
        found.append("/dev/shm")
    return tuple(found)


def temporary_dirs() -> tuple[str, ...]:
    """The host's temporary directories, resolved: ``$TMPDIR``, /tmp, /dev/shm (those that exist)."""
    found = (_host_tmp(), "/tmp", "/dev/shm")
    return tuple(dict.fromkeys(os.path.realpath(path) for path in found if os.path.isdir(path)))


def private_tmp(project: str) -> str:
    """Where the temporary directories of a project's commands are kept: beneath the host's
    temporary directory, per user and per project, so that commands of one project see
    each other's files and no other process's (the launcher creates it, mode 0700)."""
    import zlib

    name = f"{os.path.basename(project) or 'root'}-{zlib.crc32(os.fsencode(project)):08x}"
    return os.path.join(os.path.realpath(_host_tmp()), f"agentbus-sandbox-{os.geteuid()}", name)


def protected_paths(project: str, names: Iterable[str], whole: Iterable[str] = ()) -> tuple[str, ...]:
    """The ``names`` (relative to the project, or absolute) that exist inside the project,
    resolved: what the sandbox makes read-only. A git directory named (``.git``) stands
    for its parts of :data:`GIT_RUNS`, unless it is among ``whole`` (``--protect .git``: all
    of it, which holds what git would read but does not exist yet, ``commondir``, a staged
    submodule, and stops commits). Missing ones cannot be protected (nothing can be
    mounted over a name that does not exist)."""
    entire = {os.path.realpath(os.path.join(project, os.path.expanduser(name))) for name in whole}
    found: list[str] = []
    for name in [*names, *whole]:
        path = os.path.join(project, os.path.expanduser(name))
        if os.path.lexists(path):
            real = os.path.realpath(path)
            if _inside(real, project) and real != project and os.path.exists(real):
                git = os.path.basename(real) == ".git" and os.path.isdir(real) and real not in entire
                parts = _git_parts(real) if git else None
                found.extend(parts if parts is not None else [real])
    kept = [path for path in found if not any(path != other and _inside(path, other) for other in entire)]
    return tuple(dict.fromkeys(kept))


def _git_parts(git_dir: str) -> list[str] | None:
    """The parts of :data:`GIT_RUNS` in ``git_dir`` and in the git directories of its linked
    worktrees and submodules; None (protect it whole) past :data:`_GIT_DIRS_MAX` of them.
    A repository's or submodule's git directory without ``config`` or ``hooks`` is protected
    whole: a command could create the missing one (a worktree's uses the main one's)."""
    found: list[str] = []
    pending, seen = [(git_dir, False)], 0
    while pending:
        directory, worktree = pending.pop()
        seen += 1
        if seen > _GIT_DIRS_MAX:
            return None
        if directory != git_dir and not os.path.lexists(os.path.join(directory, "HEAD")):
            pending += [(path, worktree) for path in _subdirectories(directory)]  # modules/a of a/b
            continue
        parts = [os.path.join(directory, n) for n in GIT_RUNS if os.path.lexists(os.path.join(directory, n))]
        if not worktree and not all(os.path.lexists(os.path.join(directory, n)) for n in ("config", "hooks")):
            if directory == git_dir:
                return None
            found.append(directory)
            continue
        found += parts
        pending += [(path, True) for path in _subdirectories(os.path.join(directory, "worktrees"))]
        pending += [(path, False) for path in _subdirectories(os.path.join(directory, "modules"))]
    return found


def _subdirectories(path: str) -> list[str]:
    if not os.path.isdir(path) or os.path.islink(path):
        return []
    with os.scandir(path) as entries:
        return [entry.path for entry in entries if entry.is_dir(follow_symlinks=False)]


def pinned_directories(project: str, protected: Iterable[str]) -> tuple[str, ...]:
    """The directories between the project and each protected path (``.git`` for
    ``.git/config``), outermost first: the sandbox mounts each over itself, writable, so
    that it is a mount point, which cannot be renamed or removed. Otherwise a command could
    move ``.git`` aside (renaming a directory that only contains mount points is allowed)
    and make a new one with a ``core.fsmonitor``."""
    protected = tuple(protected)
    found: dict[str, None] = {}
    for path in protected:
        parent = os.path.dirname(path)
        chain = []
        while parent != project and _inside(parent, project):
            chain.append(parent)
            parent = os.path.dirname(parent)
        for directory in reversed(chain):
            if not any(_inside(directory, other) for other in protected):
                found[directory] = None
    return tuple(sorted(found, key=lambda path: path.count("/")))


def daemon_sockets(writable: Iterable[str] = ()) -> tuple[str, ...]:
    """The unix sockets of the host's daemons, and the directories that hold the user's,
    that exist and are not in ``writable``: hidden from a command allowed unix sockets.
    Each hands out more than any sandbox rule: docker's is root on the host, the
    systemd user bus starts unconfined commands, ssh-agent signs with the user's keys,
    the session bus drives the desktop. Sockets in /tmp need no hiding (it is private)."""
    uid = os.geteuid()
    candidates = [
        os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{uid}",
        os.environ.get("SSH_AUTH_SOCK") or "",
        os.path.expanduser("~/.docker/run"),
        "/run/docker.sock", "/var/run/docker.sock", "/run/containerd", "/run/podman",
        "/run/dbus/system_bus_socket", "/run/snapd.socket", "/run/snapd-snap.socket",
        "/var/run/libvirt", "/run/libvirt",
    ]  # fmt: skip
    found = []
    for path in candidates:
        if path and os.path.exists(path):
            real = os.path.realpath(path)
            if not any(_inside(real, directory) or _inside(directory, real) for directory in writable):
                found.append(real)
    return tuple(dict.fromkeys(found))


def credential_variables(environ: Iterable[str], keep: Iterable[str] = ()) -> list[str]:
    """The names in ``environ`` that hold credentials (by their words, see
    :data:`_CREDENTIAL_WORDS`), less those in ``keep``: removed before the command runs."""
    kept = set(keep)
    return [
        name
        for name in environ
        if name not in kept
        and (name.upper() in _CREDENTIAL_NAMES or not _CREDENTIAL_WORDS.isdisjoint(name.upper().split("_")))
    ]


def _homes() -> list[str]:
    homes = [os.environ.get("HOME", "")]
    try:
        import pwd

        homes.append(pwd.getpwuid(os.getuid()).pw_dir)
        if os.geteuid() == 0 and os.path.isdir("/home"):
            homes += [entry.path for entry in os.scandir("/home") if entry.is_dir(follow_symlinks=False)]
    except (ImportError, KeyError, OSError):
        pass
    return list(dict.fromkeys(home for home in homes if home and os.path.isdir(home)))


def _entries(directory: str) -> list[os.DirEntry[str]]:
    try:
        return list(os.scandir(directory))
    except OSError:
        return []


def _classifier() -> Any:
    """The guards' ``check_path`` (one list of secrets for judging and confining), from
    wherever the guards keep it (``agentbus.guards.paths``, formerly in ``agentbus.middleware``)."""
    import importlib

    problems = []
    for name in ("agentbus.guards.paths", "agentbus.middleware.paths"):
        try:
            return importlib.import_module(name).check_path
        except ImportError as exc:  # python -S: no site-packages, or not there
            problems.append(str(exc))
    raise UsageError(
        f"cannot load the guards' list of sensitive paths ({'; '.join(problems)}): run with "
        "site-packages, or pass --no-scan and the paths with --deny-read"
    )


# Whether the classifier flags a path (path, home): names recur on every call, the
# regular expressions are the cost. Bounded, since home directories come and go.
_flagged: dict[tuple[str, str], bool] = {}
_FLAGGED_LIMIT = 100_000


def sensitive_paths(homes: Iterable[str] | None = None) -> tuple[str, ...]:
    """The sensitive files and directories that exist, resolved: what the guards'
    classifier flags among the entries of each home directory, of its dot-directories
    (two levels, three under ``~/.config``) and of /etc.

    Imports the classifier, so it costs what importing the guards costs: the bus
    calls it in process and passes the result to the launcher.
    """
    check_path = _classifier()

    def flagged(path: str, home: str) -> bool:
        key = (path, home)
        verdict = _flagged.get(key)
        if verdict is None:
            if len(_flagged) >= _FLAGGED_LIMIT:
                _flagged.clear()
            verdict = _flagged[key] = path not in _READABLE_ANYWAY and check_path(path, home=home) is not None
        return verdict

    found: set[str] = set()
    for home in _homes() if homes is None else homes:
        candidates = _entries(home)
        for entry in list(candidates):
            if entry.name.startswith(".") and entry.is_dir():
                candidates += _entries(entry.path)
        for entry in _entries(os.path.join(home, ".config")):
            if entry.is_dir():
                candidates += _entries(entry.path)
        found.update(os.path.realpath(entry.path) for entry in candidates if flagged(entry.path, home))
    home = os.environ.get("HOME", "/")
    found.update(os.path.realpath(entry.path) for entry in _entries("/etc") if flagged(entry.path, home))
    return tuple(sorted(found - _READABLE_ANYWAY))


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def read_grants(deny: Iterable[str]) -> list[str]:
    """The paths to grant reading beneath so that all of ``/`` is readable except ``deny``.

    Landlock only allows: so the tree is split along the way to each denied path,
    granting every sibling whole. Symbolic links need no grant (the kernel checks
    the path they resolve to); directories this process cannot list stay unreadable.
    """
    denied = {os.path.realpath(path) for path in deny}
    ancestors = {"/"}
    for path in denied:
        parent = os.path.dirname(path)
        while parent not in ancestors:
            ancestors.add(parent)
            parent = os.path.dirname(parent)
    if "/" in denied:
        return []
    grants: list[str] = []
    pending = ["/"]
    while pending:
        directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.path in denied or entry.is_symlink():
                continue
            if entry.path in ancestors:
                pending.append(entry.path)
            else:
                grants.append(entry.path)
    return sorted(grants)


def probe(*, try_namespaces: bool = True) -> Capabilities:
    """What this machine can confine with. ``try_namespaces`` forks a child to try them;
    without it they count as available, and the launcher falls back if they are not."""
    if sys.platform == "darwin":
        return Capabilities("macos", sandbox_exec=os.path.exists(_SANDBOX_EXEC))
    if not sys.platform.startswith("linux"):
        return Capabilities(sys.platform)
    from . import _bubblewrap, _landlock, _namespaces, _seccomp

    return Capabilities(
        "linux",
        landlock_abi=_landlock.abi_version(),
        namespaces=_namespaces.namespaces_available() if try_namespaces else True,
        seccomp=_seccomp.supported(),
        bubblewrap=_bubblewrap.find(),
    )


def plan(
    policy: Policy, capabilities: Capabilities, mechanism: str | None = None, *, python: str | None = None
) -> list[str]:
    """The parts that will confine the command with ``mechanism`` (default: the strongest
    here), or SandboxUnavailable saying why they cannot. ``python`` is the interpreter
    that runs the launcher (default: this one)."""
    if mechanism is None:
        mechanism = capabilities.mechanism()
    if mechanism is None:
        raise SandboxUnavailable(
            f"nothing on this platform ({capabilities.platform}) can confine a command: agentbus "
            "needs Linux 5.13+ with Landlock enabled, bubblewrap, or macOS sandbox-exec"
        )
    if mechanism not in capabilities.mechanisms():
        raise SandboxUnavailable(
            f"{mechanism} is not available here; available: {', '.join(capabilities.mechanisms()) or 'none'}"
        )
    if mechanism == "bubblewrap" and policy.network == "ports":
        raise SandboxUnavailable(
            "bubblewrap cannot allow single TCP ports: use --network off, loopback or on"
        )
    if mechanism == "landlock":
        abi = capabilities.landlock_abi
        if policy.network == "ports" and abi < 4:
            raise SandboxUnavailable(
                f"allowing TCP ports needs Landlock ABI 4 (Linux 6.7+); this kernel has ABI {abi}"
            )
        if policy.network == "loopback" and not capabilities.namespaces:
            raise SandboxUnavailable("a private loopback needs user and network namespaces, unavailable here")
        if policy.network == "off" and not capabilities.seccomp and not capabilities.namespaces:
            raise SandboxUnavailable("nothing here can turn the network off (no seccomp, no namespaces)")
    if mechanism == "seatbelt" and policy.network == "loopback":
        raise SandboxUnavailable("macOS has no private loopback: use --network off, ports or on")
    # What the command can write on the host: the private directory, not the temporary
    # directories it stands in for.
    host_writable = [
        path for path in policy.writable if not policy.private_tmp or path not in policy.temporary
    ] + ([policy.private_tmp] if policy.private_tmp else [])
    for writable in host_writable:
        for denied in policy.deny_read:
            if _inside(denied, writable) or _inside(writable, denied):
                raise SandboxUnavailable(
                    f"{writable} would be writable but holds or is the sensitive path {denied}: "
                    "run the sandbox on a project directory, not on a home directory"
                )
    for home in _homes():
        for writable in host_writable:
            if _inside(os.path.realpath(home), writable):
                raise SandboxUnavailable(
                    f"{writable} would be writable and holds the home directory {home}, "
                    "where a command could plant a shell profile: choose a project directory inside it"
                )
    _check_launcher_outside(python or sys.executable, host_writable)
    return capabilities.describe(policy, mechanism)


def _check_launcher_outside(python: str, host_writable: Iterable[str]) -> None:
    """The launcher and the Python that runs it must be out of the command's reach: a
    command that rewrote them (a virtual environment in the project) would run its
    code before the next command is confined."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    environment = os.path.dirname(os.path.dirname(os.path.abspath(python)))  # .venv for .venv/bin/python
    for what, path in (("agentbus", package), ("the Python that runs the sandbox", environment)):
        for writable in host_writable:
            if _inside(path, writable) or _inside(os.path.realpath(path), writable):
                raise SandboxUnavailable(
                    f"{what} ({path}) is inside {writable}, which a confined command may write: it "
                    "could rewrite it and escape the next sandbox. Install agentbus outside the "
                    "project and the temporary directories (pipx, or a virtual environment elsewhere)"
                )


def _bubblewrap_argv(policy: Policy, capabilities: Capabilities, command: list[str]) -> list[str]:
    """bwrap's command line; the seccomp filter goes to it through an inherited memfd."""
    from . import _bubblewrap, _seccomp

    assert capabilities.bubblewrap is not None
    private = _private_dirs(policy) if policy.private_tmp else {}
    fd = None
    if capabilities.seccomp:
        rules = _seccomp_rules(policy, private_network=policy.network != "on")
        fd = os.memfd_create("agentbus-seccomp", 0)
        os.write(fd, _seccomp.encode(rules.program()))
        os.lseek(fd, 0, os.SEEK_SET)
    binds = _binds(policy, private)
    return [*_bubblewrap.command(policy, capabilities.bubblewrap, seccomp_fd=fd, binds=binds), *command]


def _seccomp_rules(policy: Policy, *, private_network: bool) -> Filter:
    """The filter for a policy: setuid bits, file capabilities, TIOCSTI, io_uring, keyrings,
    bpf and userfaultfd, socket families."""
    from . import _seccomp

    rules = _seccomp.Filter()
    rules.deny_setuid_bits()
    rules.deny_file_capabilities()
    rules.deny_terminal_injection()
    rules.deny_io_uring()
    rules.deny_keyrings()
    rules.deny_kernel_attack_surface()
    families = {_AF_UNIX} if policy.unix_sockets else set()
    if policy.network != "off" or private_network:
        families |= {_AF_INET, _AF_INET6, _AF_NETLINK}
    names = {_AF_UNIX: "unix", _AF_INET: "inet", _AF_INET6: "inet6", _AF_NETLINK: "netlink"}
    allowed = ", ".join(names[family] for family in sorted(families)) or "none"
    rules.allow_socket_families(families, f"sockets: {allowed}")
    return rules


def _private_dirs(policy: Policy) -> dict[str, str]:
    """Each host temporary directory and the private directory that stands in for it,
    created (mode 0700, checked to be this user's own: another local user could have
    made the per-user directory first, in a directory everyone may write)."""
    assert policy.private_tmp is not None
    owner = os.path.dirname(policy.private_tmp)
    try:
        os.mkdir(owner, 0o700)
    except FileExistsError:
        pass
    status = os.lstat(owner)
    import stat

    if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.geteuid() or status.st_mode & 0o077:
        raise OSError(f"{owner} is not a directory of this user's alone (mode 0700): remove it")
    found: dict[str, str] = {}
    for path in sorted(policy.temporary, key=len):
        parent = next((done for done in found if _inside(path, done)), None)
        if parent is None:
            found[path] = os.path.join(policy.private_tmp, path.strip("/").replace("/", "-") or "root")
        else:
            found[path] = os.path.join(found[parent], os.path.relpath(path, parent))
        os.makedirs(found[path], 0o700, exist_ok=True)
    return found


def _outermost(private: dict[str, str]) -> dict[str, str]:
    """The private directories to mount: one nested in another ($TMPDIR in /tmp) comes with it."""
    return {
        path: source
        for path, source in private.items()
        if not any(other != path and _inside(path, other) for other in private)
    }


def _binds(policy: Policy, private: dict[str, str]) -> list[tuple[str, str]]:
    """(source, target) mounts: each private directory over its temporary one, then each
    writable directory that was inside one (a project in /tmp) over its own path again,
    where the private directory now has an empty directory for it."""
    outermost = _outermost(private)
    binds = [(source, path) for path, source in outermost.items()]
    for path in policy.writable:
        if path in policy.temporary:
            continue
        for temporary, source in outermost.items():
            if _inside(path, temporary):
                os.makedirs(os.path.join(source, os.path.relpath(path, temporary)), 0o700, exist_ok=True)
                binds.append((path, path))
    return binds


def _confine_linux(policy: Policy, capabilities: Capabilities) -> list[str]:
    """Confine this process (single-threaded, about to exec); returns what was applied.

    Raises OSError where a part the policy needs fails: the caller refuses to run.
    """
    import ctypes

    from . import _landlock, _namespaces

    applied: list[str] = []
    network = policy.network
    # "off" without seccomp falls back on a network namespace too.
    private_network = network == "loopback" or (network == "off" and not capabilities.seccomp)
    private = _private_dirs(policy) if policy.private_tmp else {}
    binds = _binds(policy, private)
    writable = list(policy.writable)
    mounted = False
    if capabilities.namespaces:
        try:
            _namespaces.enter_namespaces(
                network=private_network,
                binds=binds,
                pinned=policy.pinned,
                read_only=policy.protect,
                hidden=policy.hidden,
            )
            applied.append("user namespace")
            mounted = bool(binds or policy.protect or policy.hidden)
        except _namespaces.MountsRefused:
            applied.append("user namespace")
        except _namespaces.MountFailed:
            raise
        except OSError:
            if private_network:
                raise
        if private_network and applied:
            applied.append("network namespace")
    if mounted:
        applied.append("mount namespace")
    elif private:
        # No mount namespace: the command gets the private directory as $TMPDIR, and the
        # host's temporary directories stay read-only to it.
        host_tmp = os.path.realpath(_host_tmp())
        writable = [path for path in writable if path not in private]
        writable.append(private.get(host_tmp) or next(iter(private.values())))
        os.environ["TMPDIR"] = writable[-1]
    if policy.protect and not mounted:
        applied.append("auto-run files NOT read-only (no mount namespace)")
    if policy.hidden and not mounted:
        applied.append("daemon sockets NOT hidden (no mount namespace)")
    if applied or os.geteuid() == 0:
        _namespaces.drop_capability_bounding_set()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")

    abi = capabilities.landlock_abi
    ruleset = _landlock.Ruleset(abi, network=network in ("off", "ports"), scope=True)
    ruleset.allow_path("/", _landlock.READ_DIR)
    for path in read_grants(policy.deny_read):
        try:
            ruleset.allow_path(path, _landlock.READ_DIR | _landlock.FILE_READ)
        except OSError:
            pass  # vanished, or a kind of file Landlock refuses: it stays unreadable
    everything = ruleset.handled_fs & ~(_landlock.MAKE_CHAR | _landlock.MAKE_BLOCK)
    for path in writable:
        ruleset.allow_path(path, everything)
    for device in _DEVICES_WRITABLE:
        if os.path.exists(device):
            ruleset.allow_path(device, _landlock.FILE_READ | _landlock.FILE_WRITE | _landlock.READ_DIR)
    if network == "ports":
        for port in policy.ports:
            ruleset.allow_port(port)
    ruleset.restrict_self()
    applied.insert(0, f"landlock ABI {abi}")

    if capabilities.seccomp:
        _seccomp_rules(policy, private_network=network == "loopback").install()
        applied.append("seccomp")
    applied.append("no_new_privs")
    return applied


def _exec(command: Sequence[str], *, pass_fds: bool = False) -> int:
    if pass_fds and "--seccomp" in command:
        os.set_inheritable(int(command[command.index("--seccomp") + 1]), True)
    try:
        os.execvp(command[0], list(command))
    except OSError as exc:
        print(f"agentbus sandbox: cannot run {command[0]!r}: {exc.strerror}", file=sys.stderr)
        return 127 if isinstance(exc, FileNotFoundError) else 126


# The options, once: argparse builds ``agentbus sandbox --help`` from them, and the
# launcher parses them by hand (importing argparse costs more than the rest of it).
# (flag, kind, help): kind is "flag" (store_true), "value" or "list" (repeatable).
OPTIONS: tuple[tuple[str, str, str], ...] = (
    ("--project", "value", "the directory the command may write (default: the current directory)"),
    ("--write", "list", "another directory it may write"),
    ("--no-tmp", "flag", "do not let it write the temporary directories ($TMPDIR or /tmp, /dev/shm)"),
    (
        "--shared-tmp",
        "flag",
        "let it write the host's own temporary directories, which every other process of the user "
        "uses too (default: a private directory per project stands in for them)",
    ),
    (
        "--protect",
        "list",
        "another path in the project it may not change (--protect .git: all of .git, not only what makes "
        "git run a program: no commits, and nothing git would read can be created there)",
    ),
    (
        "--no-protect",
        "flag",
        f"let it change the project's auto-run files ({', '.join(PROTECTED)}) but those given with --protect",
    ),
    (
        "--keep-env",
        "list",
        "a credential variable to keep in its environment (by default variables named like "
        "*_TOKEN, *_SECRET*, *_KEY, *PASSWORD*, *_AUTH_* are removed)",
    ),
    ("--deny-read", "list", "another path it may not read"),
    (
        "--no-scan",
        "flag",
        "do not look for sensitive paths: deny only --deny-read (the bus passes what it found)",
    ),
    ("--network", "value", "off (default), loopback (a private one), ports (TCP to --allow-port) or on"),
    ("--allow-port", "list", "a TCP port it may connect to, with --network ports"),
    ("--unix-sockets", "flag", "allow creating unix sockets (docker, systemd and ssh-agent listen on them)"),
    (
        "--mechanism",
        "value",
        "confine with this (landlock, bubblewrap, seatbelt) or refuse; default: the strongest",
    ),
    ("--best-effort", "flag", "where nothing can confine, run unconfined with a warning instead of refusing"),
    ("--probe", "flag", "print what this machine can confine with, as JSON"),
    ("--dry-run", "flag", "print the policy and the confinement as JSON; run nothing"),
)


def _dest(flag: str) -> str:
    return flag[2:].replace("-", "_")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for flag, kind, help_ in OPTIONS:
        if kind == "flag":
            parser.add_argument(flag, action="store_true", help=help_)
        elif kind == "list":
            parser.add_argument(flag, action="append", default=[], help=help_)
        else:
            parser.add_argument(flag, default=None, help=help_)
    parser.add_argument("command", nargs="...", help="-- CMD [ARGS...]")  # argparse.REMAINDER


class _Arguments:
    """What :func:`parse` returns: the options as attributes, like argparse's Namespace."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


class UsageError(Exception):
    """Options the launcher cannot parse."""


def parse(argv: Sequence[str]) -> _Arguments:
    """The options and the command (everything after ``--`` or the first non-option)."""
    kinds = {flag: kind for flag, kind, _ in OPTIONS}
    values: dict[str, Any] = {_dest(flag): [] if kind == "list" else None for flag, kind, _ in OPTIONS}
    values.update({_dest(flag): False for flag, kind, _ in OPTIONS if kind == "flag"})
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--" or not word.startswith("-"):
            index += word == "--"
            break
        flag, has_value, value = word.partition("=")
        kind = kinds.get(flag)
        if kind is None:
            raise UsageError(f"unknown option {flag} (see agentbus sandbox --help)")
        if kind == "flag":
            values[_dest(flag)] = True
        else:
            if not has_value:
                index += 1
                if index >= len(argv):
                    raise UsageError(f"{flag} needs a value")
                value = argv[index]
            if kind == "list":
                values[_dest(flag)].append(value)
            else:
                values[_dest(flag)] = value
        index += 1
    values["command"] = list(argv[index:])
    return _Arguments(**values)


def policy_from_options(args: Any) -> Policy:
    """The policy the options describe (what :func:`parse` or argparse returned)."""
    project = os.path.realpath(args.project or os.getcwd())
    if not os.path.isdir(project):
        raise UsageError(f"the project directory {project} does not exist")
    writable = [project, *args.write]
    deny = list(args.deny_read)
    if not args.no_scan:
        deny += sensitive_paths()
    network = args.network or "off"
    if network not in NETWORK_MODES:
        raise UsageError(f"--network takes {', '.join(NETWORK_MODES)}, not {network!r}")
    try:
        ports = tuple(int(port) for port in args.allow_port)
    except ValueError:
        raise UsageError(f"--allow-port takes port numbers, got {args.allow_port}") from None
    if any(not 0 < port < 65536 for port in ports):
        raise UsageError(f"--allow-port takes port numbers from 1 to 65535, got {list(ports)}")
    if ports and network != "ports":
        raise UsageError("--allow-port needs --network ports")
    resolved = tuple(dict.fromkeys(os.path.realpath(os.path.expanduser(path)) for path in writable))
    return Policy(
        project,
        resolved,
        tuple(sorted({os.path.realpath(os.path.expanduser(path)) for path in deny})),
        network=network,
        ports=ports,
        unix_sockets=args.unix_sockets,
        temporary=() if args.no_tmp else temporary_dirs(),
        private_tmp=None if args.no_tmp or args.shared_tmp else private_tmp(project),
        protect=protected_paths(project, () if args.no_protect else PROTECTED, whole=args.protect),
        keep_env=args.keep_env,
        hidden=daemon_sockets(resolved) if args.unix_sockets else (),
    )


def run(args: Any) -> int:
    """Confine this process and exec the command (returns only on refusal or failure)."""
    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if args.probe:
        capabilities = probe()
        import json

        print(json.dumps(capabilities.summary()))
        return 0
    if not command and not args.dry_run:
        print("agentbus sandbox: no command given (agentbus sandbox [options] -- CMD)", file=sys.stderr)
        return REFUSED
    # Descriptors inherited from whatever started the launcher (a file opened for writing
    # outside the project, a socket to a daemon) would let the command past every rule:
    # it gets stdin, stdout and stderr only.
    os.closerange(3, 1 << 20)
    capabilities = probe(try_namespaces=args.dry_run)
    try:
        policy = policy_from_options(args)
    except UsageError as exc:
        print(f"agentbus sandbox: {exc}", file=sys.stderr)
        return REFUSED
    try:
        parts = plan(policy, capabilities, args.mechanism)
    except SandboxUnavailable as exc:
        if (
            args.best_effort
            and args.mechanism is None
            and not args.dry_run
            and capabilities.mechanism() is None
        ):
            print(f"agentbus sandbox: WARNING: running UNCONFINED (--best-effort): {exc}", file=sys.stderr)
            for name in credential_variables(os.environ, policy.keep_env):
                del os.environ[name]
            return _exec(command)
        print(f"agentbus sandbox: refusing to run unconfined: {exc}", file=sys.stderr)
        return REFUSED
    if args.dry_run:
        import json

        print(json.dumps({"confined_by": parts, "policy": policy.summary()}, indent=2))
        return 0
    for name in credential_variables(os.environ, policy.keep_env):
        del os.environ[name]
    mechanism = args.mechanism or capabilities.mechanism()
    if mechanism == "seatbelt":
        from ._seatbelt import profile

        if policy.private_tmp:
            try:
                private = _private_dirs(policy)
            except OSError as exc:
                print(f"agentbus sandbox: refusing to run: {exc}", file=sys.stderr)
                return REFUSED
            os.environ["TMPDIR"] = private.get(os.path.realpath(_host_tmp()), policy.private_tmp)
        os.environ[CONFINED_BY] = " + ".join(parts)
        return _exec([_SANDBOX_EXEC, "-p", profile(policy), *command])
    if mechanism == "bubblewrap":
        os.environ[CONFINED_BY] = " + ".join(parts)
        try:
            argv = _bubblewrap_argv(policy, capabilities, command)
        except OSError as exc:
            print(f"agentbus sandbox: refusing to run: {exc}", file=sys.stderr)
            return REFUSED
        return _exec(argv, pass_fds=True)
    try:
        applied = _confine_linux(policy, capabilities)
    except OSError as exc:
        print(f"agentbus sandbox: refusing to run unconfined: confinement failed: {exc}", file=sys.stderr)
        return REFUSED
    os.environ[CONFINED_BY] = " + ".join(applied)
    return _exec(command)


def main(argv: Sequence[str] | None = None) -> int:
    """``agentbus sandbox`` without the rest of the CLI (what :data:`LAUNCHER` calls)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["-h"], ["--help"]):
        from ..cli import main as cli_main

        return cli_main(["sandbox", *argv])
    try:
        args = parse(argv)
    except UsageError as exc:
        print(f"agentbus sandbox: {exc}", file=sys.stderr)
        return REFUSED
    return run(args)

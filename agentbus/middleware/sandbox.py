"""Run every exec call confined: its command is rewritten through the sandbox launcher.

The guards judge a command's text; this layer holds what the text hides. Each
exec call's ``command`` becomes ``python -I -S …/_launch.py [rules] -- bash -c
'<command>'`` (quoted with :func:`shlex.join`), so the confinement holds in every
runtime that runs the command, Claude Code's Bash included, and it only ever
narrows what the command may do. The rules (writable directories, the sensitive
paths found now, the network mode, the mechanism) are in the rewritten command,
so the record of the call's ``args.command`` change says it ran confined and
under which rules; a note tells the agent.

Where the platform cannot confine and ``required`` (the default) is set, the
call is blocked and says why. With ``required=False`` it runs unconfined, and the
note and the record (``decision`` none, a note added) say so.

The layer runs last on tool.before (priority -1000), after the guards have
judged the command as the agent wrote it. A command that calls the launcher
itself is wrapped again: sandboxes nest, and the inner one can only narrow.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from typing import Any

import anyio

from ..events import ToolCall
from ..guards.sandbox import (
    LAUNCHER,
    NETWORK_MODES,
    PROTECTED,
    Capabilities,
    Policy,
    SandboxUnavailable,
    daemon_sockets,
    plan,
    private_tmp,
    probe,
    protected_paths,
    sensitive_paths,
    temporary_dirs,
)
from ..kinds import READABLE_KEYS
from ..registry import Registry

__all__ = ["LAYER_ID", "Sandbox", "capabilities_for", "install", "probe_launcher"]

LAYER_ID = "sandbox"
_COMMAND_KEYS = READABLE_KEYS["exec"]  # where an exec call's command is, as the guards read it
_ENV_KEYS = ("env", "environment", "env_vars")
_probed: dict[tuple[str, ...], Capabilities | str] = {}


def capabilities_for(python: str, *, namespaces: bool) -> Capabilities | str:
    """What the launcher run by ``python`` can confine with here; a string says why nothing.

    Landlock's ABI and the machine are asked in process (one system call, no side
    effects). Namespaces can only be tried in a new process: that is asked of the
    launcher itself (``--probe``), once per process, and only where the policy needs
    them (a private loopback). Elsewhere the launcher uses them where permitted, and
    the records do not count on them.
    """
    if not os.access(python, os.X_OK):
        return f"the sandbox launcher cannot run: no Python at {python}"
    if not os.path.isfile(LAUNCHER):
        return f"the sandbox launcher is missing: {LAUNCHER}"
    if namespaces:
        return probe_launcher(python)
    found = probe(try_namespaces=False)
    return Capabilities(
        found.platform,
        landlock_abi=found.landlock_abi,
        seccomp=found.seccomp,
        sandbox_exec=found.sandbox_exec,
    )


def probe_launcher(python: str = sys.executable) -> Capabilities | str:
    """What the launcher finds when it probes (forking to try namespaces), once per process."""
    argv = (python, "-I", "-S", LAUNCHER, "--probe")
    if argv not in _probed:
        _probed[argv] = _probe(argv)
    return _probed[argv]


def _probe(argv: tuple[str, ...]) -> Capabilities | str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the sandbox launcher did not run ({exc})"
    try:
        found = json.loads(done.stdout)
        found.pop("mechanism", None)
        return Capabilities(found.pop("platform"), **found)
    except (ValueError, TypeError, AttributeError, KeyError):
        return f"the sandbox launcher failed (exit {done.returncode}): {done.stderr.strip()[-300:]}"


def _loader_variables(args: Mapping[str, Any]) -> list[str]:
    """Environment variables in the call's arguments that load code into the launcher
    itself (``LD_PRELOAD``, ``DYLD_INSERT_LIBRARIES`` ...), before it confines anything."""
    found: list[str] = []
    for key in _ENV_KEYS:
        env = args.get(key)
        if isinstance(env, Mapping):
            found += [str(name) for name in env if str(name).startswith(("LD_", "DYLD_"))]
    return sorted(found)


class Sandbox:
    """A tool.before handler: rewrite an exec call's command to run confined.

    ``project``: the directory commands may write (default: ``$CLAUDE_PROJECT_DIR``
    or the current directory when the call is judged; never the call's own
    arguments, which the model writes). ``write``: more writable directories;
    ``tmp``: whether the temporary directories are writable. ``deny_read``: more
    paths to keep unreadable, besides the sensitive paths the guards know.
    ``network``: one of ``off``, ``loopback``, ``ports``, ``on``; ``allow_ports``
    with ``ports``. ``required``: block when nothing can confine (default) rather
    than run unconfined. ``shared_tmp``: let commands write the host's own temporary
    directories (default: a private directory per project stands in for them).
    ``protect``: names in the project commands may not change (default
    :data:`~agentbus.guards.sandbox.PROTECTED`; ``()`` lets them commit with git).
    ``keep_env``: credential variables to keep (the others are removed).
    """

    def __init__(
        self,
        *,
        project: str | None = None,
        write: Iterable[str] = (),
        tmp: bool = True,
        deny_read: Iterable[str] = (),
        network: str = "off",
        allow_ports: Iterable[int] = (),
        unix_sockets: bool = False,
        required: bool = True,
        shell: str | None = None,
        python: str = sys.executable,
        shared_tmp: bool = False,
        protect: Iterable[str] = PROTECTED,
        keep_env: Iterable[str] = (),
    ) -> None:
        if network not in NETWORK_MODES:
            raise ValueError(f"network must be one of {', '.join(NETWORK_MODES)}, got {network!r}")
        ports = tuple(allow_ports)
        if any(isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536 for port in ports):
            raise ValueError(f"allow_ports takes TCP port numbers (1-65535), got {list(ports)!r}")
        if ports and network != "ports":
            raise ValueError("allow_ports needs network='ports'")
        lists = {"write": write, "deny_read": deny_read, "protect": protect, "keep_env": keep_env}
        for name, value in lists.items():
            if isinstance(value, str):
                raise TypeError(f"{name} takes lists of paths or names, not one string")
        self.project = project
        self.write = tuple(write)
        self.tmp = tmp
        self.deny_read = tuple(deny_read)
        self.network = network
        self.ports = ports
        self.unix_sockets = unix_sockets
        self.required = required
        self.shell = shell or ("bash" if shutil.which("bash") else "sh")
        self.python = python
        self.shared_tmp = shared_tmp
        self.protect = tuple(protect)
        self.keep_env = tuple(keep_env)

    def policy(self) -> Policy:
        """The policy for a call judged now (the sensitive paths as they are now)."""
        project = os.path.realpath(self.project or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
        writable = tuple(
            dict.fromkeys(os.path.realpath(os.path.expanduser(path)) for path in [project, *self.write])
        )
        deny = [*self.deny_read, *sensitive_paths()]
        return Policy(
            project,
            writable,
            tuple(sorted({os.path.realpath(os.path.expanduser(path)) for path in deny})),
            network=self.network,
            ports=self.ports,
            unix_sockets=self.unix_sockets,
            temporary=temporary_dirs() if self.tmp else (),
            private_tmp=private_tmp(project) if self.tmp and not self.shared_tmp else None,
            protect=protected_paths(project, self.protect),
            keep_env=self.keep_env,
            hidden=daemon_sockets(writable) if self.unix_sockets else (),
        )

    def launcher_argv(self, policy: Policy, mechanism: str) -> list[str]:
        """The launcher and its options, up to and including ``--``."""
        argv = [self.python, "-I", "-S", LAUNCHER, "--no-scan", "--mechanism", mechanism]
        argv += ["--project", policy.project]
        if not self.tmp:
            argv.append("--no-tmp")
        elif self.shared_tmp:
            argv.append("--shared-tmp")
        for path in policy.writable[1:]:
            if path not in policy.temporary:
                argv += ["--write", path]
        if self.protect != PROTECTED:
            argv.append("--no-protect")
            for name in self.protect:
                argv += ["--protect", name]
        for name in self.keep_env:
            argv += ["--keep-env", name]
        argv += ["--network", policy.network]
        for port in policy.ports:
            argv += ["--allow-port", str(port)]
        if policy.unix_sockets:
            argv.append("--unix-sockets")
        for path in policy.deny_read:
            argv += ["--deny-read", path]
        return [*argv, "--"]

    async def __call__(self, call: ToolCall) -> None:
        key = next((key for key in _COMMAND_KEYS if key in call.args), None)
        if key is None:
            call.block(
                f"sandbox: no command in this exec call's arguments ({', '.join(_COMMAND_KEYS)}), so "
                "it cannot be confined and did not run"
            )
            return
        loader = _loader_variables(call.args)
        if loader:
            call.block(
                f"sandbox: the call sets {', '.join(loader)} for the process that starts the sandbox, "
                "which would run code before it confines anything; it did not run"
            )
            return
        command = call.args[key]
        if not isinstance(command, str) and not (
            isinstance(command, (list, tuple)) and command and all(isinstance(word, str) for word in command)
        ):
            call.block(f"sandbox: the exec call's {key!r} is neither a command line nor a list of words")
            return
        # A private loopback, a private /tmp and read-only auto-run files need namespaces:
        # whether they work is asked of the launcher once, so that the record is right.
        namespaces = self.network == "loopback" or (self.tmp and not self.shared_tmp) or bool(self.protect)
        if namespaces and (self.python, "-I", "-S", LAUNCHER, "--probe") not in _probed:
            capabilities = await anyio.to_thread.run_sync(
                functools.partial(capabilities_for, self.python, namespaces=True)
            )
        else:
            capabilities = capabilities_for(self.python, namespaces=namespaces)
        try:
            if isinstance(capabilities, str):
                raise SandboxUnavailable(capabilities)
            policy = self.policy()
            parts = plan(policy, capabilities, python=self.python)
            mechanism = capabilities.mechanism()
            assert mechanism is not None  # plan() raised otherwise
        except SandboxUnavailable as exc:
            if self.required:
                call.block(f"sandbox: cannot confine this command, so it did not run: {exc}")
            else:
                call.notes.append(f"agentbus sandbox: this command ran UNCONFINED: {exc}")
            return
        launcher = self.launcher_argv(policy, mechanism)
        if isinstance(command, str):
            call.args[key] = shlex.join([*launcher, self.shell, "-c", command])
        else:
            call.args[key] = [*launcher, *command]
        network = {"off": "no network", "loopback": "a private loopback only", "on": "the network"}.get(
            policy.network, f"TCP to ports {', '.join(map(str, policy.ports))}"
        )
        temporary = ""
        if policy.private_tmp:
            temporary = f" ({', '.join(policy.temporary)} are a private directory of this project's)"
        protected = ""
        if policy.protect:
            names = [path[len(policy.project) :].lstrip("/") for path in policy.protect]
            protected = f" It cannot change {', '.join(names)}."
        call.notes.append(
            f"agentbus sandbox: this command runs confined ({' + '.join(parts)}): it may write only "
            f"in {', '.join(policy.writable)}{temporary}, cannot read {len(policy.deny_read)} sensitive "
            f"paths, and has {network}.{protected} Credential variables (*_TOKEN, *_KEY, *SECRET*, "
            "*PASSWORD* ...) are removed from its environment."
        )


def install(
    registry: Registry,
    *,
    tool: Any = r"^exec$",
    priority: int = -1000,
    **options: Any,
) -> None:
    """Installer (the ``sandbox`` entry point): confine every exec call.

    ``options`` are :class:`Sandbox`'s (``project``, ``write``, ``tmp``,
    ``shared_tmp``, ``protect``, ``keep_env``, ``deny_read``, ``network``,
    ``allow_ports``, ``unix_sockets``, ``required``, ``shell``). ``priority`` -1000
    runs it after the guards and other layers.
    """
    unknown = set(options) - _OPTIONS
    if unknown:
        raise TypeError(f"sandbox takes no option {sorted(unknown)}; options: {', '.join(sorted(_OPTIONS))}")
    registry.remove(LAYER_ID)
    registry.add("tool.before", Sandbox(**options), id=LAYER_ID, priority=priority, tool=tool)


_OPTIONS = frozenset(
    {
        "project",
        "write",
        "tmp",
        "deny_read",
        "network",
        "allow_ports",
        "unix_sockets",
        "required",
        "shell",
        "python",
        "shared_tmp",
        "protect",
        "keep_env",
    }
)

"""What the built-in guards share: a verdict, and a guard as a registration spec.

A guard is a tool.before handler with a fixed id, so users can find it in the
records, disable it, re-prioritise it, or run it in shadow mode by that id.
The judging itself lives in pure functions (``check_command``,
``check_path`` ...) that return a :class:`Verdict`, so that other code (the
``eval`` command, the Claude Code hook) can ask the same question without a bus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..frozen import Frozen
from ..registry import Registry

if TYPE_CHECKING:
    from .policy import Policy

__all__ = [
    "ARGUMENT_COMMAND",
    "CATEGORIES",
    "DEBUG_CONTAINER",
    "DEFAULT_VERDICTS",
    "ENGINE_SOCKET",
    "EXPLOIT_SOURCE",
    "PROCESS_HUNT",
    "SERVICE_ATTACK",
    "TACTICS",
    "UNDECIDED",
    "UNGUARDED_AGENT",
    "UNJUDGED_SCRIPT",
    "VERDICTS",
    "Guard",
    "Verdict",
    "install_guards",
    "undecided",
]

FILESYSTEM = "filesystem destruction"
DISK = "direct disk operation"
PERMISSIONS = "permission disaster"
SYSTEM_FILES = "system file corruption"
REMOTE_CODE = "remote code execution"
BACKDOOR = "network backdoor"
FORK_BOMB = "fork bomb"
GIT_HOOKS = "git hook bypass"
DOCKER = "docker data wipe"
OBFUSCATED = "obfuscated code execution"
CATEGORIES = (FILESYSTEM, DISK, PERMISSIONS, SYSTEM_FILES, REMOTE_CODE, BACKDOOR, FORK_BOMB, GIT_HOOKS,
              DOCKER, OBFUSCATED)  # fmt: skip
"""Seed 000's categories (plus one): what no coding task needs, blocked by default."""

# The attacker's tactics beyond seed 000 (MITRE ATT&CK's names where one fits). The
# first group is blocked by default: no coding task needs it. The second is dual-use:
# a developer does it now and then, so by default a person is asked.
EVIDENCE = "evidence destruction"
"""Deleting, truncating or nulling logs and shell history."""
IMPAIR = "defense impairment"
"""Firewall flushes, ``setenforce 0``, stopping audit/syslog/security agents, Gatekeeper, a new root CA."""
PRIVILEGE = "privilege escalation"
"""setuid/setgid bits, file capabilities, sudoers and PAM edits, container escapes."""
CREDENTIALS = "credential hunting"
"""Searching disks for keys and passwords, process memory, cloud metadata credentials, browser stores."""
SHUTDOWN = "system shutdown"
"""shutdown, reboot, halt, sysrq, killing every process."""
DATA_DESTRUCTION = "data destruction"
"""Mass deletion, overwriting or encryption of the user's own data (ransomware's tactic)."""
DOWNLOAD_RUN = "download and run"
"""A payload downloaded, then made executable or run in a later statement."""
EXFILTRATION = "exfiltration"
"""Archives of home, keys or ``/etc`` sent to a file drop, a chat webhook or a remote host."""
STEALTH_PERSISTENCE = "hidden persistence"
"""Code that runs on its own later and is hard to see: ``ld.so.preload``, kernel modules,
Python ``usercustomize``/``.pth`` start-up code, ``authorized_keys``, git hooks outside the project."""
SCHEDULED = "scheduled task"
"""cron, ``at``, systemd timers, launchd agents: code that runs later on its own."""
SERVICE = "service change"
"""Creating, enabling, starting or stopping system services and rc/init scripts."""
ACCOUNT = "account change"
"""Creating, changing or deleting user accounts and groups, setting passwords."""
PROFILE = "shell profile"
"""Writing a shell start-up file (``~/.bashrc``, ``~/.zshrc``, ``/etc/profile.d/`` ...)."""
SUDO_INSTALL = "privileged install"
"""Installing packages as root (``sudo apt install``, ``sudo pip install``)."""
COLLECTION = "data collection"
"""Capturing what the user sees, hears or copies: screen, microphone, camera, clipboard, packets."""
CLOUD_CONTROL = "cloud control"
"""Changing who may do what in a cloud account: keys, users, roles, policies (``aws iam`` ...)."""
RESOURCE_HIJACK = "resource hijacking"
"""Running a cryptocurrency miner (xmrig, a ``stratum+tcp://`` pool), or flooding another host (``hping3
--flood``): the machine or its bandwidth spent for someone else."""
REMOTE_ACCESS = "remote access"
"""Opening the machine to the network: a tunnel publishing a local port, a proxy, a remote desktop."""
UPLOAD = "file upload"
"""A file the guard cannot vouch for sent to another machine: named only at run time
(``curl -F f=@$FILE``, ``find -exec curl -T {}``) or from where no project lives (``/tmp``, ``/var``)."""
SHARED_WIPE = "shared directory wipe"
"""Everything in a directory every user and program shares deleted (``rm -rf /tmp/*``, ``/var/tmp``,
``/dev/shm``): other sessions' sockets, locks and work go with it; cleaning up now and then is dual-use."""

NETWORK_SCAN = "network scanning"
"""Sweeping address ranges for open ports (``masscan``, ``zmap``, ``pnscan``; ``nmap`` of a range wider
than a site): how worms find the next machine to break into."""
VOLUMES = "volume administration"
"""Mounting, attaching and changing disks and volumes without destroying them: ``mount``, ``losetup``,
swap, LVM, LUKS ``open``/``addKey``, iSCSI logins, growing a file system, ``diskutil`` changes. Listing
them is discovery; destroying them is :data:`DISK`."""
SYSTEM_CONFIG = "system configuration"
"""Changing how the whole machine behaves: files under ``/etc`` no narrower row covers, ``git config
--system``, ``update-alternatives``, locale, host name, time zone, kernel settings, routes, firewall
rules, file capabilities short of root (``setcap cap_net_raw+ep``), and macOS's
``systemsetup``/``scutil``/``pmset``/``nvram``."""
ENV_SECRETS = "environment secrets"
"""The session's own secrets picked out of its environment (``env | grep TOKEN``): shown to the agent,
as ``echo $TOKEN`` would; a developer checks a variable is set this way, so a person is asked."""

DEBUG_CONTAINER = "debugging container"
"""A container given ``SYS_PTRACE`` or run with seccomp/AppArmor/SELinux confinement off
(``--security-opt seccomp=unconfined``), without host namespaces (``--pid``/``--net``/``--ipc=host``),
host system mounts or ``--privileged`` (those are :data:`PRIVILEGE`): how debuggers, profilers and
sanitizers run in Docker, and a step towards a break-out, so a person is asked."""
PROCESS_HUNT = "process hunt"
"""Processes searched for and killed by what marks them as another program's: run from ``/tmp``, named
like a kernel thread or a hidden file, talking to a given peer, holding a connection ``netstat`` lists
(``ps aux | grep /tmp/.x | awk '{print $2}' | xargs kill -9``): a dropper clearing out the malware
before it; as the developer's own user it reaches only their processes, so a person is asked."""

SERVICE_ATTACK = "service attack"
"""Another machine's service probed for weaknesses or broken into: web paths guessed from word lists
(``gobuster``, ``ffuf``), injection and vulnerability scanners (``sqlmap``, ``nikto``, ``nuclei``), another
host's users and shares listed (``enum4linux``, ``smtp-user-enum``), a URL climbing out of a web root
(``curl --path-as-is http://h/../../etc/passwd``); a developer testing their own site does it on
purpose, so a person is asked."""

EXPLOIT_SOURCE = "exploit source"
"""A published exploit's, rootkit's or attack tool's source fetched by its name (``git clone
…/CVE-2021-4034``, a ``logrotten`` tree, ``Diamorphine``'s archive, ``ropnop/kerbrute``), or built where
only the session's directory names one:
break-in code on its way in; the fetch runs nothing, and people who patch machines or write detections
study these trees, so a person is asked. Building one by its name is blocked (``privilege escalation``,
``hidden persistence``)."""

ENGINE_SOCKET = "container engine socket"
"""A container given the container engine's socket (``-v /var/run/docker.sock:/var/run/docker.sock``,
``containerd.sock``, ``podman.sock``): whatever runs in it can start a container with the host's root
mounted, out of the guard's sight; Testcontainers, CI runners and image tools (``dive``) need it, so a
person is asked."""

ARGUMENT_COMMAND = "command in an argument"
"""A dangerous command line given as an argument to a program or a script that may run it or only show
it (``gum confirm 'rm -rf ~'``, ``sh ok.sh 'curl … | sh'``, ``python3 tool.py 'rm -rf ~'``): nothing in
the line says which, so a person is asked (:class:`~.carriers.Perhaps`); the reason names the danger."""

UNJUDGED_SCRIPT = "unjudged script"
"""A script run from disk that the guard could not judge: too large, unreadable, not a regular
file, compiled (AppleScript, Python bytecode), nested too deep (:mod:`.script_files`); or code
made at run time from what it cannot see, then run (``read x; $x``, ``enable -f``: :mod:`.tactics.unseen`)."""

UNGUARDED_AGENT = "unguarded agent"
"""Another AI coding agent let loose out of the guard's sight: started with its approvals off
(``claude --dangerously-skip-permissions -p``, ``gemini --yolo``, ``q chat --trust-all-tools``), its
approval settings written off (``"chat.tools.autoApprove": true``), an MCP server added to its config
(``claude mcp add``, ``~/.cursor/mcp.json`` written): how the Nx s1ngularity and Amazon Q attacks used the
victims' own agents; developers run agents so in a sandbox of their own, so a person is asked."""

TACTICS = (EVIDENCE, IMPAIR, PRIVILEGE, CREDENTIALS, SHUTDOWN, DATA_DESTRUCTION, DOWNLOAD_RUN, EXFILTRATION,
           STEALTH_PERSISTENCE, SCHEDULED, SERVICE, ACCOUNT, PROFILE, SUDO_INSTALL, COLLECTION,
           CLOUD_CONTROL, RESOURCE_HIJACK, REMOTE_ACCESS, UPLOAD, SHARED_WIPE, NETWORK_SCAN, VOLUMES,
           SYSTEM_CONFIG, ENV_SECRETS, DEBUG_CONTAINER, ENGINE_SOCKET, PROCESS_HUNT,
           SERVICE_ATTACK, UNGUARDED_AGENT, EXPLOIT_SOURCE)  # fmt: skip
"""The tactic categories, each with a default verdict in :data:`DEFAULT_VERDICTS`."""

SECRETS = "secret access"
"""Reading, copying or sending a sensitive file (keys, tokens, ``.env``); the path guards' category."""

BLOCK, ASK, ALLOW = "block", "ask", "allow"
VERDICTS = (BLOCK, ASK, ALLOW)
"""What a category can be set to: block the call, ask a person, or let it run."""

_BLOCKED_TACTICS = (EVIDENCE, IMPAIR, PRIVILEGE, CREDENTIALS, SHUTDOWN, DATA_DESTRUCTION, DOWNLOAD_RUN,
                    EXFILTRATION, STEALTH_PERSISTENCE, RESOURCE_HIJACK)  # fmt: skip
DEFAULT_VERDICTS: dict[str, str] = {
    **dict.fromkeys((*CATEGORIES, SECRETS, *_BLOCKED_TACTICS), BLOCK),
    **dict.fromkeys(
        (
            SCHEDULED,
            SERVICE,
            ACCOUNT,
            PROFILE,
            SUDO_INSTALL,
            COLLECTION,
            CLOUD_CONTROL,
            REMOTE_ACCESS,
            UPLOAD,
            SHARED_WIPE,
            NETWORK_SCAN,
            VOLUMES,
            SYSTEM_CONFIG,
            ENV_SECRETS,
            DEBUG_CONTAINER,
            ENGINE_SOCKET,
            PROCESS_HUNT,
            SERVICE_ATTACK,
            UNGUARDED_AGENT,
            EXPLOIT_SOURCE,
        ),
        ASK,
    ),
    UNJUDGED_SCRIPT: ASK,
    ARGUMENT_COMMAND: ASK,
}
"""Every category a guard can judge, and what it does by default."""

UNDECIDED = "undecided"
"""The category of a deny given because the guard could not decide (budget, bad input)."""


class Verdict(Frozen):
    """Why something is held back: a category, the offending piece, and why it is dangerous.

    ``reason`` is the text the agent receives, e.g. ``filesystem destruction:
    rm -rf / (recursive force delete of the root directory)``; by default
    ``"{category}: {piece} ({why})"``.
    """

    __slots__ = ("category", "decision", "piece", "reason", "rule", "why")
    _not_compared = frozenset({"rule", "decision"})

    category: str
    piece: str
    why: str
    reason: str

    rule: str
    """Which rule decided (``agentbus explain`` shows it): ``rm rule``, ``operand rule`` ..."""

    decision: str
    """``"block"`` or ``"ask"``: what the policy (:mod:`.policy`) made of this finding."""

    def __init__(
        self,
        category: str,
        piece: str,
        why: str,
        reason: str | None = None,
        *,
        rule: str = "",
        decision: str = BLOCK,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "category", category)
        set_field(self, "piece", piece)
        set_field(self, "why", why)
        set_field(self, "reason", f"{category}: {piece} ({why})" if reason is None else reason)
        set_field(self, "rule", rule)
        set_field(self, "decision", decision)

    def by(self, rule: str) -> Verdict:
        """This verdict, naming the rule that gave it (kept if one is named already)."""
        return self if self.rule else self.replace(rule=rule)


def undecided(piece: str, why: str) -> Verdict:
    """A deny for a call the guard could not judge: agentbus denies what it cannot decide."""
    piece = piece if len(piece) <= 80 else piece[:79] + "…"
    return Verdict(UNDECIDED, piece, f"{why}; denied, since it could not be judged", rule="decision budget")


class Guard(Frozen):
    """A guard as a registration: id, handler, tool matcher, default priority."""

    __slots__ = ("declare", "handler", "id", "priority", "tool")

    id: str
    handler: Callable[..., Any]
    tool: Any
    priority: int
    declare: tuple[str, ...]
    """Tool names outside agentbus.tools that the matcher names (declared on install)."""

    def __init__(
        self, id: str, handler: Callable[..., Any], tool: Any, priority: int, declare: tuple[str, ...] = ()
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "id", id)
        set_field(self, "handler", handler)
        set_field(self, "tool", tool)
        set_field(self, "priority", priority)
        set_field(self, "declare", declare)

    def add_to(self, registry: Registry, *, priority: int | None = None, shadow: bool = False) -> None:
        """Register this guard, replacing an earlier registration with its id."""
        if self.declare:
            registry.declare_tools(*self.declare)
        registry.remove(self.id)
        registry.add(
            "tool.before",
            self.handler,
            id=self.id,
            priority=self.priority if priority is None else priority,
            tool=self.tool,
            shadow=shadow,
        )


def install_guards(
    registry: Registry,
    guards: Iterable[Guard],
    *,
    shadow: bool | Iterable[str] = False,
    disable: Iterable[str] = (),
    priorities: Mapping[str, int] | None = None,
    policy: Policy | None = None,
) -> None:
    """Add ``guards`` to ``registry``; options name guards by id.

    ``policy`` (:class:`.policy.Policy`) decides what each category of danger
    does: block, ask or allow (default: block what no coding task needs, ask
    about the dual-use).

    ``shadow`` is True (every guard records but does not block) or the ids to
    run in shadow mode; ``disable`` the ids to leave out (removed if present);
    ``priorities`` maps ids to new priorities. An id that names no guard is an
    error, so a typo does not silently leave a guard on.
    """
    from .policy import Policy, bind  # policy.py builds on this module

    if policy is not None and not isinstance(policy, Policy):
        raise TypeError(f"policy must be an agentbus.guards.policy.Policy, got {policy!r}")
    guards = list(guards)
    known = {guard.id for guard in guards}
    shadowed = known if shadow is True else set() if shadow is False else _ids(shadow, "shadow")
    disabled = _ids(disable, "disable")
    if priorities is not None and not isinstance(priorities, Mapping):
        raise TypeError(f"priorities must map guard ids to priorities, got {type(priorities).__name__}")
    priorities = dict(priorities or {})
    for guard_id, priority in priorities.items():
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f"priorities[{guard_id!r}] must be an int, got {priority!r}")
    for what, ids in (("shadow", shadowed), ("disable", disabled), ("priorities", set(priorities))):
        unknown = ids - known
        if unknown:
            raise ValueError(
                f"{what} names unknown guard ids {sorted(unknown)}; valid ids: {', '.join(sorted(known))}"
            )
    for guard in guards:
        if guard.id in disabled:
            registry.remove(guard.id)
            continue
        if policy is not None:
            guard = bind(guard, policy)
        guard.add_to(registry, priority=priorities.get(guard.id), shadow=guard.id in shadowed)


def _ids(value: object, what: str) -> set[str]:
    """Guard ids from one id or an iterable of them (a string is one id, not its letters)."""
    if isinstance(value, str):
        return {value}
    if not isinstance(value, Iterable) or not all(isinstance(item, str) for item in value):
        raise TypeError(f"{what} takes a guard id or a list of guard ids, got {value!r}")
    return set(value)

"""Tactic family ``disguised runs``: a program kept out of sight where a project lives, or posing as a daemon.

Bots that brute-force SSH drop their payload right where the login lands, not only in ``/tmp``: a
hidden file (``cat redtail.$ARCH >.redtail; chmod +x .redtail; ./.redtail ssh``: RedTail's miner), or a
daemon's name in a hidden folder of random digits (``chmod +x ./.1455647341291108698/sshd; nohup
./.1455647341291108698/sshd &``: a fake SSH server that logs passwords), or a program in ``/tmp`` whose
name the script draws at run time (``nohup /tmp/$BOT &``). A developer runs what they built from
``./bin``, ``./target`` or a toolchain's dot folder (``.venv/bin``, ``.build/release``, ``.stack-work``),
never a program whose own name is hidden, and none of them calls its program ``sshd`` or ``crond``
inside a dot folder. What such a program does cannot be seen (a binary is not read), so the finding
is :data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT`: a person is asked (blocked unattended).
:mod:`.hidden_runs` judges the same hiding in ``/tmp``, ``/dev/shm``, the system's folders and the home.
"""

from __future__ import annotations

import posixpath

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..paths import normalize_path
from ..programs import Invocation, program_name
from ..verdict import UNJUDGED_SCRIPT, Verdict

__all__ = ["judge"]

_DAEMONS = frozenset({"sshd", "crond", "cron", "atd", "anacron", "systemd", "init", "udevd", "systemd-udevd",
                      "rsyslogd", "syslogd", "journald", "systemd-journald", "dbus-daemon", "polkitd",
                      "agetty", "getty", "auditd", "acpid", "irqbalance", "ntpd", "chronyd", "cupsd",
                      "networkd", "systemd-networkd", "containerd", "dockerd", "kubelet"})  # fmt: skip
"""The system's daemons: the names a payload takes so that ``ps`` lists it among them."""
_TOOL_DOTS = frozenset({
    ".venv", ".git", ".bin", ".build", ".stack-work", ".lake", ".pio", ".zig-cache", ".cabal-sandbox",
    ".dart_tool", ".next", ".nuxt", ".output", ".svelte-kit", ".serverless", ".aws-sam", ".terraform", ".tox",
    ".nox", ".direnv", ".devbox", ".pixi", ".conda", ".husky", ".github", ".gitlab", ".circleci",
    ".devcontainer", ".vscode", ".idea", ".turbo", ".expo", ".mvn", ".gradle", ".yarn", ".pnpm", ".npm",
    ".local", ".cache", ".config", ".cargo", ".rustup", ".nvm", ".pyenv", ".sdkman", ".asdf", ".deno", ".bun",
})  # fmt: skip
"""Dot folders that toolchains and build systems lay out and run programs from (SwiftPM's ``.build``,
Stack's ``.stack-work``, Lake's ``.lake``, PlatformIO's ``.pio``, a ``.venv``)."""
_SHARED_TEMP = lazy_compile(r"^(?:/private)?/(?:tmp|var/tmp|dev/shm)/")
_EXECUTABLE = lazy_compile(r"^(?:[ugoa]*\+[rwxXst]*x|[0-7]?[0-7]*[1357][0-7]{0,2}|[0-7]*[1357][0-7])$")
"""``chmod`` modes that make a file runnable: ``+x``, ``u+x``, ``a+rx``, ``755``, ``0700``, ``777``."""
_DETACHERS = frozenset({"nohup", "setsid", "disown", "daemonize", "start-stop-daemon"})
_NIX_WRAPPED = lazy_compile(r"-wrapped$")
"""Nix's ``makeWrapper`` keeps the real program as ``.NAME-wrapped`` beside its wrapper
(``~/.nix-profile/bin/.hello-wrapped``): a package's own program, not a hidden one."""


def _hidden_folder(path: str) -> str | None:
    """The first hidden folder of ``path`` no toolchain lays out (``.1455647341291108698``), or None."""
    for part in path.split("/")[:-1]:
        if part.startswith(".") and part not in (".", "..") and part not in _TOOL_DOTS:
            return part
    return None


def _posing_daemon(path: str) -> str | None:
    """Why ``path`` is a daemon's name kept in a hidden folder (``./.123/sshd``), or None."""
    name = posixpath.basename(path)
    folder = _hidden_folder(path)
    if name in _DAEMONS and folder is not None:
        return f"a program named as the system's {name} in the hidden folder {folder}"
    return None


def _made_runnable(invocation: Invocation, home: str) -> Verdict | None:
    """``chmod +x ./.123/sshd``: a daemon's name in a hidden folder made runnable, the masquerade readied."""
    values = _values(invocation)
    modes = [v for v in values if _EXECUTABLE.match(v)]
    if not modes:
        return None
    for value in values:
        if value in modes or value.startswith("-"):
            continue
        why = _posing_daemon(normalize_path(value, home=home, cwd=invocation.cwd))
        if why is not None:
            return _verdict(UNJUDGED_SCRIPT, invocation, f"makes runnable {why}: a payload passing for it")
    return None


def _named_at_run_time(invocation: Invocation) -> Verdict | None:
    """``nohup /tmp/$BOT &``: a program in a shared temporary place whose name is drawn at run time and
    left running: which file runs cannot be known before it does."""
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    if not 0 <= at < len(command.words):
        return None
    word = command.words[at]
    static = command.static(word)
    shown = (static or command.render(word)).strip("\"'")
    if static is not None and "$" not in static:
        return None  # (a variable is kept as written: /tmp/$BOT)
    detached = command.background or not _DETACHERS.isdisjoint(invocation.wrappers)
    if detached and _SHARED_TEMP.match(shown):
        why = f"runs {shown} from a shared temporary place, its name drawn at run time, and leaves it running"
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A program run under a hidden name of its own, or posing as a daemon in a hidden folder, a daemon's
    name in a hidden folder made runnable, or a program in ``/tmp`` named at run time left running."""
    if invocation.name == "chmod":
        return _made_runnable(invocation, home)
    found = _named_at_run_time(invocation)
    if found is not None:
        return found
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if not head or "/" not in head or program_name(head) != invocation.name.lower():
        return None
    path = normalize_path(head, home=home, cwd=invocation.cwd)
    name = posixpath.basename(path)
    if name.startswith(".") and name not in (".", "..") and not _NIX_WRAPPED.search(name):
        why = f"runs {head}, a program under a hidden file name ({name}): what it does cannot be seen"
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    posing = _posing_daemon(path)
    if posing is not None:
        return _verdict(UNJUDGED_SCRIPT, invocation, f"runs {head}, {posing}: what it does cannot be seen")
    return None

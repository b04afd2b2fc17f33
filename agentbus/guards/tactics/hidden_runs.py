"""Tactic family ``hidden runs``: a program run from where no installed program lives, and payloads hide.

Malware drops its payload in shared memory (``/dev/shm``, a file system in RAM that
leaves nothing on disk) or under a dot name in a shared temporary directory
(``/tmp/.x``, ``/tmp/.ICE-unix/.x``, ``/var/tmp/.cache/sshd``, macOS's ``/Users/Shared/.agent``), then
runs it: ``cd /dev/shm && ./x``, or hands it to an interpreter (``node /tmp/.x.js``,
``osascript -l JavaScript /tmp/.p.js``).
A developer runs builds from ``/tmp/build`` or ``./bin``, not from there. A download saved into
such a directory (``wget -O /var/tmp/.X11/agent URL``) is the same payload a step earlier, a program
named like a kernel thread (``./kworker``) a masquerade, and a library that
a program is told to load (``ssh-keygen -D /tmp/x.so``, ``ssh -I``: a PKCS#11 provider's code runs
in it) is a program run by another name. What such a program does cannot be seen (a binary is not
read; a script is judged by :mod:`..script_files` too), so the finding is
:data:`~agentbus.guards.verdict.UNJUDGED_SCRIPT`: a person is asked (blocked unattended). A program
of another name given a mass scanner's packet rate and ports (``./firewire --rate 50000 -p2375``:
Kinsing's masscan, renamed) is a masquerade too, found as the scan it is
(:data:`~agentbus.guards.verdict.NETWORK_SCAN`, asked).
"""

from __future__ import annotations

import itertools
import posixpath

from ...lazy_regex import lazy_compile
from ..carriers import unknown_program
from ..findings import finding as _verdict
from ..findings import static_args as _values
from ..interpreters import INTERPRETERS, inline_code
from ..options import option_values
from ..paths import normalize_path
from ..programs import SHELLS, Invocation, shell_mode
from ..verdict import NETWORK_SCAN, UNJUDGED_SCRIPT, Verdict

__all__ = ["hiding_place", "judge"]

_SHARED = ("/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/tmp/", "/Users/Shared/")


def hiding_place(path: str) -> str | None:
    """Why ``path`` (absolute, normalised) is where payloads hide, or None."""
    if path.startswith("/dev/shm/"):
        return "shared memory (/dev/shm), where nothing stays on disk"
    for shared in _SHARED:
        if path.startswith(shared):
            parts = path[len(shared) :].split("/")
            # /tmp/.x, /tmp/.ICE-unix/.x/kworker: hidden where anyone looks first; not a project's
            # own dot directory further down (/tmp/work/app/.venv/bin/python).
            hidden = parts[0] if parts[0].startswith(".") else parts[-1] if parts[-1].startswith(".") else ""
            if hidden:
                return f"a hidden name ({hidden}) in the shared {shared.rstrip('/')}"
    return None


_VALUED = frozenset({"-l", "-m", "-W", "-X", "-r", "--require", "-I", "--import", "--loader", "-s"})
"""Interpreter options whose value is not the script (osascript's ``-l JavaScript``, node's ``-r MOD``)."""


def _script_operand(values: list[str]) -> str | None:
    """The script file an interpreter runs: its first operand that is no option's value."""
    skip = False
    for value in values:
        if skip:
            skip = False
        elif value in _VALUED:
            skip = True
        elif not value.startswith("-"):
            return value
    return None


_DOWNLOAD_OUTPUTS = {"curl": frozenset({"-o", "--output"}), "wget": frozenset({"-O", "--output-document"})}
_PROVIDER_OPTIONS = {
    "ssh-keygen": frozenset({"-D"}),
    "ssh": frozenset({"-I"}),
    "ssh-add": frozenset({"-s", "-e"}),
}
_SYSTEM_LIBRARIES = ("/usr/lib/", "/usr/lib64/", "/lib/", "/lib64/", "/usr/local/lib/", "/opt/homebrew/lib/",
                     "/usr/local/opt/", "/opt/homebrew/opt/", "/Library/")  # fmt: skip


_KERNEL_THREAD = lazy_compile(
    r"^\[.*\]$|^(?:kworker|ksoftirqd|kswapd\d*|kthreadd|kdevtmpfs|kauditd|khugepaged|ksmd|kcompactd\d*"
    r"|rcu_(?:sched|bh|preempt)|watchdogd|kblockd|kintegrityd|kthrotld)(?:/[\w:.+-]*)?$"
    r"|^(?:migration|irq|jbd2|cpuhp)/[\w:.+-]+$"
)
"""A kernel thread's name (``kworker/0:1``, ``[kthreadd]``): no program on disk is called that."""


def _saved_or_loaded(invocation: Invocation, home: str) -> Verdict | None:
    """A download written into a hiding place; a PKCS#11 provider loaded from outside the system's
    libraries."""
    name = invocation.name
    values = _values(invocation)
    for path in option_values(values, _DOWNLOAD_OUTPUTS.get(name, frozenset())):
        # the directory: /var/tmp/.X11/agent, /dev/shm/.x/a (a hidden file right in /tmp is a download's)
        folder = posixpath.dirname(normalize_path(path, home=home, cwd=invocation.cwd))
        where = hiding_place(folder) if folder.startswith("/") else None
        if where is not None:
            return _verdict(UNJUDGED_SCRIPT, invocation, f"downloads into {where}, where payloads hide")
    providers = option_values(values, _PROVIDER_OPTIONS.get(name, frozenset()))
    if name in ("ssh", "scp", "sftp"):
        providers += [v.split("=", 1)[-1].strip() for v in values if v.lower().startswith("pkcs11provider")]
    for path in providers:
        full = normalize_path(path, home=home, cwd=invocation.cwd)
        if "/" in path and not full.startswith(_SYSTEM_LIBRARIES):
            why = f"loads {full} into {name} as a PKCS#11 provider: code whose doings cannot be seen"
            return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return None


_SCANNERS = frozenset({"masscan", "zmap", "pnscan", "zgrab", "zgrab2", "unicornscan", "nmap", "naabu",
                       "rustscan"})  # fmt: skip
_RATE = lazy_compile(r"^--(?:rate|max-rate|packets-per-second|pps)(?:=\d+)?$")
_PORTS = lazy_compile(r"^(?:-p|--ports?=|--target-ports?=)\d+(?:[,-]\d+)*$")
_PORT_OPTIONS = frozenset({"-p", "--port", "--ports", "--target-port", "--target-ports"})
_PORT_LIST = lazy_compile(r"^\d+(?:[,-]\d+)*$")


def _renamed_scanner(invocation: Invocation) -> Verdict | None:
    """``./firewire -iL ranges --rate 50000 -p2375``: a packet rate and the ports to probe (masscan's
    and zmap's options) given to a program of another name: droppers ship the scanner renamed, and the
    scanners' own names are :mod:`.scanning`'s."""
    name = invocation.name
    if name in _SCANNERS or not unknown_program(name):
        return None
    values = _values(invocation)
    ports = any(_PORTS.match(v) for v in values) or any(
        v in _PORT_OPTIONS and _PORT_LIST.match(after) for v, after in itertools.pairwise(values)
    )
    if ports and any(_RATE.match(v) for v in values):
        why = f"{name} is given a network scanner's packet rate and ports"
        return _verdict(NETWORK_SCAN, invocation, why)
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A program (or a shell script: ``sh /dev/shm/x``) this command runs by a path into such a
    place, a download saved there, a library loaded from outside the system's, or None."""
    found = _saved_or_loaded(invocation, home) or _renamed_scanner(invocation)
    if found is not None:
        return found
    command = invocation.command
    at = len(command.words) - len(invocation.args) - 1
    head = command.static(command.words[at]) if 0 <= at < len(command.words) else None
    if invocation.name in SHELLS:
        mode = shell_mode(invocation)
        head = command.static(mode.file) if mode.file is not None else None
    elif INTERPRETERS.match(invocation.name) and inline_code(invocation) is None:
        head = _script_operand(_values(invocation))
    elif not head or posixpath.basename(head).lower() != invocation.name.lower():
        return None  # (names are read without case: /tmp/.X-AbC runs as `.x-abc`)
    if not head or "/" not in head:
        return None
    path = normalize_path(head, home=home, cwd=invocation.cwd)
    where = hiding_place(path) if path.startswith("/") else None
    if where is None:
        # /usr/bin/[kworker/0:1]: the name shown is what follows the last "/["
        shown = path[path.rfind("/[") + 1 :] if "/[" in path else posixpath.basename(path)
        if not _KERNEL_THREAD.match(shown):
            return None
        why = (
            f"runs {path}, named like a kernel thread so that ps lists it as one: what it does cannot be seen"
        )
        return _verdict(UNJUDGED_SCRIPT, invocation, why)
    return _verdict(UNJUDGED_SCRIPT, invocation, f"runs {path} from {where}: what it does cannot be seen")

"""Tactic family ``rootkits``: a loaded kernel rootkit given its orders.

A rootkit loaded into the kernel (``insmod``, judged by :mod:`.persistence`) is driven afterwards by
commands nobody else sends. Diamorphine and the kits built on it (the cryptominer-hiding LKM, the
miner installers that load both) hook ``kill`` and read its signal as an order: 31 (``SIGSYS``) hides
a process, 63 (``SIGRTMAX-1``) hides or shows the module, 64 (``SIGRTMAX``) makes the caller root
(``kill -31 $PID``, ``kill -64 0``). No program a developer writes listens for those numbers from a
shell, so the signal alone is the finding. Reptile and boopkit come with their own control programs
(``/reptile/reptile_cmd hide``, ``reptile_cmd root``, ``boopkit-boop -rhost ...``): whatever their
arguments, they hide files, processes and connections, or hand out root. The eBPF kits (ebpfkit, bad-bpf's
``pidhide``/``sudoadd``, ``pamspy``) need no module: run, they are the rootkit. BDS's LKM makes whoever
types ``kill 000`` root (a process id written as zeros: ``kill 0`` would be the caller's own group).
All are :data:`~agentbus.guards.verdict.STEALTH_PERSISTENCE` (blocked): no coding task needs them
(their sources fetched or built: :mod:`.rootkit_sources`).
"""

from __future__ import annotations

from ...lazy_regex import lazy_compile
from ..findings import finding as _verdict
from ..findings import static_args
from ..programs import Invocation
from ..verdict import STEALTH_PERSISTENCE, Verdict

__all__ = ["judge"]

_ORDERS = {
    "31": "hide a process",
    "sys": "hide a process",
    "sigsys": "hide a process",
    "63": "hide or show the rootkit's module",
    "rtmax-1": "hide or show the rootkit's module",
    "sigrtmax-1": "hide or show the rootkit's module",
    "64": "make the caller root",
    "rtmax": "make the caller root",
    "sigrtmax": "make the caller root",
}
"""The signals Diamorphine-style rootkits take as orders, by number and name (lower case), and the order."""

CONTROL_PROGRAMS = frozenset({"reptile_cmd", "boopkit", "boopkit-boop"})
"""Rootkits' own control programs: Reptile's ``reptile_cmd``, boopkit's listener and its trigger."""

EBPF_ROOTKITS = {
    "ebpfkit": "ebpfkit, an eBPF rootkit (hides itself, intercepts traffic, gives a remote shell)",
    "ebpfkit-client": "ebpfkit's client, which gives the eBPF rootkit its orders",
    "pamspy": "pamspy, which reads every password typed into PAM (sudo, sshd, login) through eBPF",
    "pidhide": "bad-bpf's pidhide, which hides a process from every listing through eBPF",
    "sudoadd": "bad-bpf's sudoadd, which makes sudo read a forged sudoers line through eBPF",
    "exechijack": "bad-bpf's exechijack, which swaps the program every exec runs through eBPF",
    "textreplace2": "bad-bpf's textreplace2, which rewrites what programs read from files through eBPF",
    "writeblocker": "bad-bpf's writeblocker, which silently drops a process's writes through eBPF",
    "bpfdos": "bad-bpf's bpfdos, which kills every process that uses eBPF (the sensors)",
    "nysm": "nysm, which hides a container's processes, files and connections through eBPF",
}
"""eBPF rootkits and their parts run: offensive tools with no other use (an eBPF object loaded by bpftool
is :mod:`.impairment`'s)."""

_ZEROS = lazy_compile(r"^00+$")
"""``kill 000``: BDS's order to make the caller root (a process id nobody writes so)."""


def _signal(invocation: Invocation) -> str | None:
    """The signal ``kill`` sends as written (``-31``, ``-s 64``, ``--signal=SIGSYS``), else None."""
    command = invocation.command
    words = [command.render(raw) for raw in invocation.args]
    for index, word in enumerate(words):
        if word == "--":
            return None
        if word in ("-s", "-n", "--signal"):
            return words[index + 1] if index + 1 < len(words) else None
        if word.startswith("--signal="):
            return word.partition("=")[2]
        if word.startswith("-") and len(word) > 1:
            return word[1:]
        return None  # the first target: no signal was given (TERM)
    return None


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A rootkit's order: ``kill`` with a rootkit's signal or BDS's zeros, or its control program."""
    name = invocation.name
    if name in CONTROL_PROGRAMS:
        return _verdict(
            STEALTH_PERSISTENCE, invocation, f"{name} controls a kernel rootkit (hides, gives root)"
        )
    if name in EBPF_ROOTKITS:
        return _verdict(STEALTH_PERSISTENCE, invocation, f"runs {EBPF_ROOTKITS[name]}")
    if name != "kill":
        return None
    if any(_ZEROS.match(word) for word in static_args(invocation)):
        return _verdict(
            STEALTH_PERSISTENCE, invocation, "kill 000 is how BDS's kernel rootkit makes the caller root"
        )
    signal = _signal(invocation)
    order = _ORDERS.get(signal.lower()) if signal else None
    if order is None:
        return None
    why = f"kill -{signal} is how a kernel rootkit (Diamorphine's kin) is told to {order}"
    return _verdict(STEALTH_PERSISTENCE, invocation, why)

"""What a command run inside a container changes: the container, not this machine.

``docker run --rm ubuntu sh -c 'apt-get install -y make'`` installs a package in a
throwaway container; the same line on the host is a privileged install. The walk
(:func:`.programs.walk`) marks the programs a container runs with the container runner as
their wrapper (``docker``, ``podman``, ``nerdctl``, ``kubectl exec``), but only when the
container holds what they do (:func:`.carriers.confines`): no ``--privileged``, no
``--cap-add``/``--device``, no host namespace, and no host directory mounted but the
working directory's. A container that shares the host (``-v /:/host``, ``--privileged``)
is judged as the host, and its mount or privilege is itself held (privilege escalation).

For the programs so marked, findings about this machine's own set-up are dropped
(:data:`HOST_ONLY`): package installs, system configuration, accounts, services,
scheduled jobs, shell profiles, system files, boot and shutdown, persistence spots,
volumes. What reaches beyond the container keeps its verdict: privilege escalation and
impaired defences (``chroot /host``), downloads run, exfiltration, credentials,
deletions (the working directory may be mounted), scanning, mining, tunnels, code the
guard cannot see.

``docker exec``, ``docker compose run|exec`` and ``kubectl exec`` run in a container
made earlier, whose mounts and privileges the line does not show (a pod may hold the
node's ``/``): only a package install there is the container's (:data:`IN_EXISTING`).
"""

from __future__ import annotations

from .programs import CONTAINER_RUNNERS, SYSTEM_CONTAINER_RUNNERS, Invocation
from .verdict import (
    ACCOUNT,
    PROFILE,
    SCHEDULED,
    SERVICE,
    SHUTDOWN,
    STEALTH_PERSISTENCE,
    SUDO_INSTALL,
    SYSTEM_CONFIG,
    SYSTEM_FILES,
    VOLUMES,
    Verdict,
)

__all__ = [
    "BREAKOUT_CAPABILITIES",
    "DEBUGGING_CAPABILITIES",
    "HOST_ONLY",
    "IN_EXISTING",
    "contained",
    "in_place",
]

BREAKOUT_CAPABILITIES = frozenset(
    {"SYS_ADMIN", "ALL", "SYS_MODULE", "DAC_READ_SEARCH", "DAC_OVERRIDE", "SYS_RAWIO", "BPF"}
)
"""Capabilities that reach past a container (mounts, kernel modules, any file, raw I/O, kernel-wide
eBPF): privilege escalation, given with ``docker run --cap-add`` or in a pod's ``capabilities.add``."""
DEBUGGING_CAPABILITIES = frozenset({"SYS_PTRACE"})
"""Capabilities a debugger or profiler needs and that reach the container's own processes only: the
``debugging container`` category (asked), unless a host namespace is shared beside them. The one
list for ``docker run``, compose services and Kubernetes manifests. ``NET_ADMIN`` is in neither:
it changes the container's own network namespace (``--network host`` and ``hostNetwork`` are
judged on their own)."""

HOST_ONLY = frozenset({
    SUDO_INSTALL, SYSTEM_CONFIG, ACCOUNT, SERVICE, SCHEDULED, PROFILE, SYSTEM_FILES, SHUTDOWN,
    STEALTH_PERSISTENCE, VOLUMES,
})  # fmt: skip
"""Categories whose findings are about the set-up of the machine a command changes: inside a container
that keeps to itself (``docker run`` without host-sharing options), that container's. Privilege
escalation, defense impairment and evidence destruction are not among them: ``chroot /host``,
``nsenter -t 1`` and a kernel setting reach out of a container that was given the host."""
IN_EXISTING = frozenset({SUDO_INSTALL})
"""Inside a container made earlier (``docker exec``, ``docker compose run``, ``kubectl exec``), whose
mounts and privileges the line does not show: only a package install is the container's own."""


def contained(invocation: Invocation) -> frozenset[str]:
    """The categories of findings that are the container's, not this machine's, for ``invocation``."""
    runners = CONTAINER_RUNNERS | SYSTEM_CONTAINER_RUNNERS
    levels = [w for w in invocation.wrappers if w.partition(" ")[0] in runners]
    if not levels:
        return frozenset()
    return IN_EXISTING if any(" " in w for w in levels) else HOST_ONLY


def in_place(invocation: Invocation, verdict: Verdict | None) -> Verdict | None:
    """``verdict`` on ``invocation``, unless it is about a machine's set-up and the container's is changed."""
    if verdict is not None and verdict.category in contained(invocation):
        return None
    return verdict

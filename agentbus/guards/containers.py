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
logs and local defences, volumes. What reaches beyond the container keeps its verdict:
downloads run, exfiltration, credentials, deletions (the working directory may be
mounted), scanning, mining, tunnels, code the guard cannot see.

``docker exec``, ``docker compose run|exec`` and ``kubectl exec`` run in a container
made earlier, whose mounts the line does not show (a service's compose file may mount
the project): the same categories are dropped, the rest judged.
"""

from __future__ import annotations

from .programs import CONTAINER_RUNNERS, Invocation
from .verdict import (
    ACCOUNT,
    EVIDENCE,
    IMPAIR,
    PRIVILEGE,
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

__all__ = ["HOST_ONLY", "contained", "in_place"]

HOST_ONLY = frozenset({
    SUDO_INSTALL, SYSTEM_CONFIG, ACCOUNT, SERVICE, SCHEDULED, PROFILE, SYSTEM_FILES, SHUTDOWN,
    STEALTH_PERSISTENCE, EVIDENCE, IMPAIR, PRIVILEGE, VOLUMES,
})  # fmt: skip
"""Categories whose findings are about the machine a command changes: inside a container, that one."""


def contained(invocation: Invocation) -> bool:
    """Whether ``invocation`` runs inside a container that holds what it does."""
    return not CONTAINER_RUNNERS.isdisjoint(invocation.wrappers)


def in_place(invocation: Invocation, verdict: Verdict | None) -> Verdict | None:
    """``verdict`` on ``invocation``, unless it is about a machine's set-up and the container's is changed."""
    if verdict is not None and verdict.category in HOST_ONLY and contained(invocation):
        return None
    return verdict

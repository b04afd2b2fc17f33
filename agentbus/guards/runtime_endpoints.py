"""Where containers and cluster nodes are driven from: the operand class "a runtime endpoint".

An escape or a lateral move often names no telling program, only what it reaches:

- a container engine's socket (``docker.sock``, ``containerd.sock``, ``crio.sock``, ``podman.sock`` ...),
  as a path or a ``unix://`` URL. Under another root's top (``/host/run/docker.sock``, ``/hostfs/...``,
  ``/proc/1/root/...``) it is the host's engine reached from inside a container: whatever it is told to
  start runs on the host. At a place no engine keeps its socket (``/custom/docker/docker.sock``) it is
  one mounted in from somewhere else;
- a kubelet's API (port 10250, 10255 read-only; or the API server's ``/api/v1/nodes/N/proxy/``): its
  ``/run``, ``/exec``, ``/attach``, ``/portForward`` and ``/cri`` calls run commands in the node's other
  pods, its ``/pods``, ``/runningpods``, ``/logs`` and ``/containerLogs`` calls read their specs (with
  the secrets in their environment), logs and the node's files; ``/healthz``, ``/metrics``, ``/stats``,
  ``/spec`` and ``/configz`` are what monitoring and the platform's own runbooks read.
"""

from __future__ import annotations

import re

from ..lazy_regex import lazy_compile

SOCKET_NAMES = (
    "docker",
    "containerd",
    "crio",
    "podman",
    "cri-dockerd",
    "dockershim",
    "buildkitd",
    "frakti",
    "rktlet",
)
"""The file names (``NAME.sock``) container engines and runtimes listen on."""

_WORD = lazy_compile(r"[^\s'\"=,;|&()<>:]+")
"""A path-like piece of a word: ``-v /var/run/docker.sock:/x``, ``UNIX-CONNECT:/run/crio/crio.sock``."""
_URL_SCHEME = lazy_compile(r"unix://", re.IGNORECASE)
_SOCKET_FILE = lazy_compile(
    r"(?:^|/)(?:" + "|".join(re.escape(name) for name in SOCKET_NAMES) + r")\.sock$", re.IGNORECASE
)
_HOST_TOP = lazy_compile(
    r"^/(?:host|hostfs|host[-_][^/]+|rootfs|node[-_]?root|noderoot|mnt/host[^/]*|mnt/root"
    r"|proc/(?:[0-9]+|\$\{?\w+\}?)/root)/|^\$\{?(?:HOST|NODE)[-_]?(?:ROOT|FS|DIR)\w*\}?/",
    re.IGNORECASE,
)
"""A top under which a container is given the host's root file system (``/host``, ``/hostfs``,
``/host-run``, ``/rootfs``, ``/proc/1/root``, ``$NODE_ROOT``)."""
_STANDARD_PLACE = lazy_compile(
    r"^/(?:var/)?run/|^/(?:home|Users)/[^/]+/|^~/|^\$\{?(?:HOME|XDG_RUNTIME_DIR)\}?/|^/tmp/[^/]*\.sock$"
    r"|^/var/lib/(?:docker|containerd|kubelet)/|^/private/var/run/",
    re.IGNORECASE,
)
"""Where engines keep their sockets: ``/var/run``, ``/run`` (``/run/user/UID`` of a rootless one), a home's
``.docker``/``.colima``/``.rd``/``.lima``; a test's own socket in ``/tmp``."""


def engine_sockets(text: str) -> list[str]:
    """The container engine socket paths ``text`` names (``unix:///var/run/docker.sock`` -> its path)."""
    if ".sock" not in text.lower():
        return []
    pieces = (match.group(0) for match in _WORD.finditer(_URL_SCHEME.sub(" ", text)))
    # "//host/run/podman.sock" is the rest of ssh://host/...: another machine's socket, the tunnels' concern
    return [
        piece
        for piece in pieces
        if piece.startswith(("/", "$")) and not piece.startswith("//") and _SOCKET_FILE.search(piece)
    ]


def host_socket(path: str) -> bool:
    """``path`` lies in the host's root as a container was given it (``/host/run/docker.sock``)."""
    return bool(_HOST_TOP.match(path))


def unusual_socket(path: str) -> bool:
    """``path`` is where no engine keeps its socket (``/custom/docker/docker.sock``): mounted in."""
    return not host_socket(path) and not _STANDARD_PLACE.match(path)


_KUBELET = lazy_compile(
    r"^(?:https?://)?(?:\[[^\]\s]*\]|[^/\s:@]+):(?:10250|10255)(?P<path>/[^\s?#]*)?"
    r"|/api/v1/nodes/[^/\s]+/proxy(?P<proxied>/[^\s?#]*)?",
    re.IGNORECASE,
)
_KUBELET_RUNS = lazy_compile(r"^/(?:run|exec|attach|portforward|cri)(?:/|$)", re.IGNORECASE)
_KUBELET_READS = lazy_compile(r"^/(?:pods|runningpods|logs|containerlogs|checkpoint)(?:/|$)", re.IGNORECASE)

RUNS, READS = "runs", "reads"


def kubelet_call(value: str) -> str | None:
    """:data:`RUNS` if ``value`` is a kubelet URL that runs a command in a pod, :data:`READS` if one that
    reads pods' specs, logs or the node's files; None for its health and metrics, or no kubelet URL."""
    if "1025" not in value and "/proxy" not in value:
        return None
    match = _KUBELET.search(value)
    if match is None:
        return None
    path = match["path"] or match["proxied"] or ""
    if _KUBELET_RUNS.match(path):
        return RUNS
    if _KUBELET_READS.match(path):
        return READS
    return None

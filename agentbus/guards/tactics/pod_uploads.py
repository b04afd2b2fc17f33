"""A program carried into a running pod and run there: asked.

``kubectl cp ./xmrig web-0:/tmp/x`` then ``kubectl exec web-0 -- /tmp/x``: a binary the image never had,
run beside the application with its service account, its network and its secrets (the miners and
implants of cluster attack notes; a container's image is what a deploy changes). Asked
(:data:`~agentbus.guards.verdict.REMOTE_ACCESS`): a developer copies a debugging tool in the same way.
A copy of a known miner is asked alone. Copies out of a pod, and a file copied in and not run (a
configuration, a fixture), stay allowed.
"""

from __future__ import annotations

import posixpath

from ..findings import finding, piece
from ..parse import Script
from ..programs import walk
from ..verdict import REMOTE_ACCESS, Verdict
from .impact import is_miner

__all__ = ["judge_script", "placed_in_pod"]

_RUNNERS = frozenset({"sh", "bash", "ash", "dash", "busybox", "chmod", "nohup", "setsid", "env", "python",
                      "python3", "perl", "exec", "timeout"})  # fmt: skip
"""What runs a file named after it: ``sh /tmp/x``, ``chmod +x /tmp/x``, ``nohup /tmp/x &``."""


def placed_in_pod(path: tuple[str, ...]) -> tuple[str, str, str] | None:
    """``("cp", "./xmrig", "web-0:/tmp/x")``: (the local file, the pod, the path in it), or None for a
    copy out of a pod (its source is ``POD:PATH``) or not a copy."""
    if path[:1] != ("cp",) or len(path) < 3:
        return None
    source, destination = path[1], path[2]
    if ":" in source or ":" not in destination:
        return None
    pod, _, inside = destination.partition(":")
    if not pod or not inside.startswith("/"):
        return None
    pod = pod.rsplit("/", 1)[-1]  # NAMESPACE/POD
    if inside.endswith("/"):
        inside += posixpath.basename(source.rstrip("/"))
    return source, pod, inside


def _runs(after: tuple[str, ...], inside: str) -> bool:
    """Whether the command ``kubectl exec`` runs (its words after ``--``) runs the file ``inside``."""
    if not after:
        return False
    first = posixpath.basename(after[0])
    if after[0] == inside:
        return True
    return first in _RUNNERS and any(inside in word.split() for word in after[1:])


def judge_script(script: Script, home: str) -> Verdict | None:
    """A file copied into a pod with ``kubectl cp`` and run there by ``kubectl exec``; a miner copied in."""
    del home
    from .cloud import read_call  # cloud imports this module

    placed: dict[str, str] = {}
    for stages in walk(script):
        for stage in stages:
            if stage.name not in ("kubectl", "oc"):
                continue
            call = read_call(stage)
            copy = placed_in_pod(call.path)
            if copy is not None:
                source, pod, inside = copy
                if is_miner(posixpath.basename(source.rstrip("/"))):
                    why = f"copies a cryptocurrency miner ({source}) into the pod {pod}"
                    return finding(REMOTE_ACCESS, stage, why)
                placed[inside] = pod
                continue
            if call.path[:1] == ("exec",) and placed:
                for inside, pod in placed.items():
                    if _runs(call.after, inside):
                        text = f"kubectl cp ... {pod}:{inside}; {stage.text}"
                        why = f"runs {inside} in the pod {pod}: a program copied into it, not in its image"
                        return Verdict(REMOTE_ACCESS, piece(text), why)
    return None

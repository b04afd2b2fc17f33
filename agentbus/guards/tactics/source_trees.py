"""Builds in a source tree named on the line: shared by the exploits' and the rootkits' sources.

A published exploit or rootkit is built where it was fetched: ``make -C Diamorphine``, ``cmake -S
CVE-2021-4034``, or ``cd CVE-2021-4034 && make`` (a relative ``cd`` leaves the invocation's directory
unknown when the line's starting one is, so the directories entered are carried along as written).
"""

from __future__ import annotations

from collections.abc import Callable

from ..findings import static_args
from ..parse import Script
from ..programs import Invocation, walk
from ..verdict import Verdict

__all__ = ["after_cd", "option_trees"]

_TREE_OPTIONS = ("-C", "--directory", "-S", "-B")


def option_trees(invocation: Invocation) -> list[str]:
    """The trees a build is told to work in: ``make -C DIR``, ``--directory=DIR``, ``cmake -S/-B DIR``."""
    values = static_args(invocation)
    trees = [values[i + 1] for i, v in enumerate(values[:-1]) if v in _TREE_OPTIONS]
    return trees + [v.partition("=")[2] for v in values if v.startswith("--directory=")]


BuildJudge = Callable[[Invocation, tuple[str, ...]], "Verdict | None"]
"""A judge of one build stage, given the directories ``cd`` entered before it on the line."""


def after_cd(script: Script, built: BuildJudge) -> Verdict | None:
    """The first finding of ``built`` on a stage run after a ``cd``/``pushd`` of the line, given the
    directories entered so far."""
    entered: list[str] = []
    for stages in walk(script):
        if len(stages) == 1 and stages[0].name in ("cd", "pushd"):
            entered += [v for v in static_args(stages[0]) if not v.startswith("-")][:1]
            continue
        for stage in stages:
            found = built(stage, tuple(entered)) if entered else None
            if found is not None:
                return found
    return None

"""A published rootkit's source fetched or built under its own name.

Before a rootkit is loaded (``insmod``, judged by :mod:`.persistence`; then driven, :mod:`.rootkits`),
it is fetched and built from its published source, under its own name (``git clone
https://github.com/m0nad/Diamorphine``, ``wget …/Reptile/archive/master.zip``, then ``cd Diamorphine &&
make``). The fetch alone runs nothing, and people who write detections study these trees, so a person
is asked (:data:`~agentbus.guards.verdict.EXPLOIT_SOURCE`: kernel code on its way in); the build in a
directory named after one (``make -C Reptile``) makes the module or library ``insmod``/``ld.so.preload``
loads next, and is blocked
(:data:`~agentbus.guards.verdict.STEALTH_PERSISTENCE`); a build whose only sign is the session's
directory (a project of one's own may be named ``umbreon``) is asked. Escape and escalation kits'
downloads (deepce, CDK) are :mod:`.privilege`'s.
"""

from __future__ import annotations

import re

from ...lazy_regex import lazy_compile
from ..clones import cloned
from ..findings import finding as _verdict
from ..findings import static_args
from ..parse import Script
from ..programs import Invocation
from ..transfers import DOWNLOADERS
from ..verdict import EXPLOIT_SOURCE, STEALTH_PERSISTENCE, Verdict
from .source_trees import after_cd, option_trees

__all__ = ["judge", "judge_script", "known_source"]

SOURCES = frozenset({
    "diamorphine", "reptile", "triplecross", "boopkit", "umbreon", "azazel", "jynx2", "jynxkit", "beurk",
    "vlany", "bdvl", "bedevil", "bds_lkm", "bds_lkm_ftrace", "bds_userland", "kovid", "suterusu",
    "adore-ng", "brokepkg", "reveng_rtkit", "nuk3gh0st", "rkduck", "puszek-rootkit", "ebpfkit",
    "libprocesshider", "caraxes", "bpfdoor",
})  # fmt: skip
"""Published Linux rootkits (LKM, eBPF and LD_PRELOAD ones, and the process hider miners load) by
the names their repositories and archives go by, in lower case."""
_OWNED_SOURCES = frozenset({("matheuzsecurity", "singularity"), ("mav8557", "father")})
"""Rootkits whose names are also ordinary projects' (Singularity the container runtime): with
their publisher."""
_ARCHIVE_SUFFIX = lazy_compile(r"(?:\.git|\.zip|\.tar(?:\.\w+)?|\.tgz)$|-(?:master|main)$")
_BUILDERS = frozenset({"make", "gmake", "cmake", "gcc", "cc", "clang"})


def _source_name(segment: str) -> str:
    """A URL's or directory's segment as a rootkit's name would be (``Diamorphine-master.zip``)."""
    lowered = segment.lower()
    for _ in range(2):
        lowered = _ARCHIVE_SUFFIX.sub("", lowered)
    return lowered


def known_source(location: str) -> str | None:
    """The rootkit a URL, ``OWNER/REPO`` or directory names (``…/m0nad/Diamorphine.git``), else None."""
    segments = [_source_name(s) for s in re.split(r"[/:]", location.split("?", 1)[0]) if s]
    for index, segment in enumerate(segments):
        if segment in SOURCES:
            return segment
        if index and (segments[index - 1], segment) in _OWNED_SOURCES:
            return segment
    return None


def _fetched_source(invocation: Invocation) -> Verdict | None:
    """``git clone``/``gh repo clone``/``wget``/``curl`` of a known rootkit's source."""
    clone = cloned(invocation)
    if clone is not None:
        fetched = [clone[0]]
    elif invocation.name in DOWNLOADERS:
        fetched = [v for v in static_args(invocation) if "://" in v]
    else:
        return None
    kit = next((k for k in map(known_source, fetched) if k is not None), None)
    if kit is None:
        return None
    why = f"fetches {kit}'s source, a published rootkit: built and loaded, it hides itself and gives root"
    return _verdict(EXPLOIT_SOURCE, invocation, why)


def _built_source(invocation: Invocation, entered: tuple[str, ...] = ()) -> Verdict | None:
    """``make`` in a known rootkit's tree (``make -C Diamorphine``; ``cd /tmp/Reptile && make``, or
    after ``entered``: the directories ``cd`` went into earlier in the line, as written)."""
    if invocation.name not in _BUILDERS:
        return None
    trees = option_trees(invocation)
    trees += entered
    kit = next((k for k in map(known_source, trees) if k is not None), None)
    if kit is not None:
        why = f"builds {kit}, a published rootkit: what it makes is loaded next, to hide and give root"
        return _verdict(STEALTH_PERSISTENCE, invocation, why)
    kit = known_source(invocation.cwd or "")
    if kit is None:
        return None
    # the session's directory alone: a project of one's own may bear the name (umbreon, reptile): asked
    why = f"builds in a directory named like {kit}, a published rootkit: what it makes may be loaded next"
    return _verdict(EXPLOIT_SOURCE, invocation, why)


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """A known rootkit's source fetched (asked) or built (blocked); else None."""
    return _fetched_source(invocation) or _built_source(invocation)


def judge_script(script: Script, home: str) -> Verdict | None:
    """``cd Diamorphine && make``: a build in a rootkit's tree entered by a relative ``cd``, which
    leaves the invocation's directory unknown when the line's starting one is."""
    return after_cd(script, _built_source)

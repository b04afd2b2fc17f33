"""Tactic family ``exfiltration``: see the package docstring. Being written (issue 18)."""

from __future__ import annotations

from ..parse import Script
from ..programs import Invocation
from ..verdict import Verdict

__all__ = ["judge", "judge_script"]


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of this family in ``invocation``, or None."""
    return None


def judge_script(script: Script, home: str) -> Verdict | None:
    """A finding that spans statements (downloaded, then run), or None."""
    return None

"""Tactic family ``persistence``: see the package docstring. Being written (issue 18)."""

from __future__ import annotations

from ..programs import Invocation
from ..verdict import Verdict

__all__ = ["judge"]


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """The first finding of this family in ``invocation``, or None."""
    return None

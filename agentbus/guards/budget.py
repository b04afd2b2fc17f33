"""The decision budget: deciding has a hard time limit, and past it the call is denied.

Claude Code lets a call through when a hook outlives its timeout, so a slow
decision is a decision to allow. Every guard is linear in its input, and on top
of that a deadline holds: the parser and the rules call :func:`spend` as they
work, and once the budget is used up :class:`BudgetExceeded` ends the decision,
which the guard turns into a deny that says why.

The budget is per decision, :data:`DEFAULT_BUDGET` seconds unless configured
with :func:`configure` (or ``AGENTBUS_DECISION_BUDGET`` in the environment, which
is the user's, never the project's). The time spent compiling the guards' patterns
(:mod:`agentbus.lazy_regex`: each once a process, bounded by their number) is not the
decision's: a hook process's first long script pays for every rule it reaches, and
that cost, up to half a second on a busy machine, denied ordinary scripts.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import time
from collections.abc import Callable, Iterator

from ..lazy_regex import compiling_seconds
from .verdict import Verdict, undecided

__all__ = [
    "DEFAULT_BUDGET",
    "BudgetExceeded",
    "TooComplex",
    "configure",
    "current",
    "deadline",
    "decide",
    "spend",
]

DEFAULT_BUDGET = 1.0
"""Seconds a decision may take before the call is denied."""

_configured: float | None = None
_deadline: contextvars.ContextVar[tuple[float, float, float] | None] = contextvars.ContextVar(
    "agentbus_guard_deadline", default=None
)
"""(monotonic deadline, budget in seconds, :func:`compiling_seconds` at its start) of the decision."""


class BudgetExceeded(Exception):
    """Deciding took longer than the budget; the guard denies the call."""

    def __init__(self, budget: float) -> None:
        super().__init__(f"deciding took longer than the {budget:g} s budget")
        self.budget = budget


class TooComplex(BudgetExceeded):
    """The input has a shape the parser cannot judge within any budget (its time would grow
    with the square of it): denied at once, with a reason that says which shape."""

    def __init__(self, why: str) -> None:
        Exception.__init__(self, why)
        self.budget = current()


def configure(seconds: float | None) -> None:
    """Set the decision budget in seconds (None: back to the default or the environment)."""
    global _configured
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0
    ):
        raise ValueError(f"the decision budget must be a positive number of seconds, got {seconds!r}")
    _configured = None if seconds is None else float(seconds)


def current() -> float:
    """The budget a new decision gets, in seconds."""
    if _configured is not None:
        return _configured
    value = os.environ.get("AGENTBUS_DECISION_BUDGET", "")
    try:
        seconds = float(value)
    except ValueError:
        return DEFAULT_BUDGET
    return seconds if seconds > 0 else DEFAULT_BUDGET


@contextlib.contextmanager
def deadline(seconds: float | None = None) -> Iterator[float]:
    """Run a decision under a deadline; nested decisions keep the outer one."""
    outer = _deadline.get()
    if outer is not None:
        yield outer[1]
        return
    budget = current() if seconds is None else seconds
    token = _deadline.set((time.monotonic() + budget, budget, compiling_seconds()))
    try:
        yield budget
    finally:
        _deadline.reset(token)


def spend() -> None:
    """Raise :class:`BudgetExceeded` if the current decision is past its deadline."""
    limit = _deadline.get()
    if limit is not None and time.monotonic() - (compiling_seconds() - limit[2]) > limit[0]:
        raise BudgetExceeded(limit[1])


def decide(piece: str, judge: Callable[[], Verdict | None], seconds: float | None = None) -> Verdict | None:
    """Run ``judge`` under the decision budget; deny when it runs out or fails.

    A guard that raises (a bug, a recursion limit, input it did not expect)
    denies the call with a reason: agentbus never passes what it could not judge.
    """
    try:
        with deadline(seconds):
            return judge()
    except BudgetExceeded as exc:
        return undecided(piece, str(exc))
    except Exception as exc:
        return undecided(piece, f"the guard failed to judge it ({type(exc).__name__})")

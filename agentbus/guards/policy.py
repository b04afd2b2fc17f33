"""What each category of danger does: block the call, ask a person, or let it run.

The judges find dangers and name their category (:mod:`.verdict`); a
:class:`Policy` turns each finding into a decision. The defaults block what no
coding task needs and ask about the dual-use (:data:`~.verdict.DEFAULT_VERDICTS`);
the user changes a category in code or in config::

    [tool.agentbus.builtins]        # or builtins = { ... } in agentbus.toml
    profile = "unattended"          # nobody answers: every "ask" is a block
    verdicts = { "scheduled task" = "allow", "shell profile" = "block" }

An "ask" reaches the bus's approver in process and Claude Code's own
permission prompt through the hook; with nobody to answer it is a denial that
says a person was needed. A project's config (untrusted until ``agentbus
trust``) may make a category stricter, never looser: see :func:`stricter`.

The policy of the decision under way lives in a context variable, like the
decision budget, so that code judged inside code (``bash -c '…'``, decoded
payloads) is judged by the same policy without threading it through every rule.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..frozen import Frozen
from .verdict import ALLOW, ARGUMENT_COMMAND, ASK, BLOCK, DEFAULT_VERDICTS, VERDICTS, Guard, Verdict

if TYPE_CHECKING:
    from ..events import ToolCall

__all__ = ["DEFAULT_POLICY", "PROFILES", "Policy", "bind", "current_policy", "hold", "stricter", "using"]

PROFILES = ("attended", "unattended")
"""``attended``: a person may answer an ask. ``unattended``: nobody will; every ask is a block."""

STRENGTH = {ALLOW: 0, ASK: 1, BLOCK: 2}
"""How strict each verdict is: a stricter setting may come from a less trusted source."""


_Frozen = tuple[tuple[str, str], ...]


def _frozen_verdicts(value: Mapping[str, str] | _Frozen | None) -> _Frozen:
    """The user's overrides, checked and in a hashable form (a policy is a cache key)."""
    if value is None:
        return ()
    if isinstance(value, tuple):  # the frozen form: a replace() or a copy
        value = dict(value)
    if not isinstance(value, Mapping):
        raise TypeError(f"verdicts must map categories to 'block', 'ask' or 'allow', got {value!r}")
    checked = []
    for category, verdict in value.items():
        if category not in DEFAULT_VERDICTS:
            valid = ", ".join(repr(name) for name in DEFAULT_VERDICTS)
            raise ValueError(f"verdicts names an unknown category {category!r}; valid categories: {valid}")
        if verdict not in VERDICTS:
            raise ValueError(f"verdicts[{category!r}] must be 'block', 'ask' or 'allow', got {verdict!r}")
        checked.append((category, verdict))
    return tuple(sorted(checked))


def _checked_profile(value: str) -> str:
    if value not in PROFILES:
        raise ValueError(f"profile must be 'attended' or 'unattended', got {value!r}")
    return value


class Policy(Frozen):
    """Per category, what a finding does; and whether anybody is there to answer an ask.

    ``verdicts`` overrides :data:`~.verdict.DEFAULT_VERDICTS` for the categories
    it names (an unknown category or verdict is an error that lists the valid
    ones). Findings the guards could not judge (``undecided``) are always blocked.
    """

    __slots__ = ("_table", "profile", "verdicts")

    verdicts: _Frozen
    profile: str
    _table: Mapping[str, str]

    def __init__(self, verdicts: Mapping[str, str] | _Frozen | None = (), profile: str = "attended") -> None:
        set_field = object.__setattr__
        set_field(self, "verdicts", _frozen_verdicts(verdicts))
        set_field(self, "profile", _checked_profile(profile))
        set_field(self, "_table", {**DEFAULT_VERDICTS, **dict(self.verdicts)})

    def decision(self, category: str) -> str:
        """``"block"``, ``"ask"`` or ``"allow"`` for a finding of ``category``."""
        decision = self._table.get(category, BLOCK)
        if decision == ASK and self.profile == "unattended":
            return BLOCK
        return decision

    def apply(self, verdict: Verdict | None) -> Verdict | None:
        """``verdict`` carrying this policy's decision, or None when its category is allowed."""
        if verdict is None:
            return None
        decision = self.decision(verdict.category)
        if decision == ALLOW:
            return None
        return verdict if verdict.decision == decision else verdict.replace(decision=decision)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Policy:
        """A policy from config keys ``verdicts`` and ``profile`` (absent: the defaults)."""
        return cls(verdicts=options.get("verdicts"), profile=options.get("profile", "attended"))


DEFAULT_POLICY = Policy()
"""Block what no coding task needs, ask about the dual-use, allow the rest; a person may answer."""


def stricter(policy: Policy, than: Policy) -> bool:
    """True when ``policy`` decides every category at least as strictly as ``than``.

    How an untrusted project's settings are checked: it may turn an ask into a
    block or choose the unattended profile, never the other way.
    """
    if than.profile == "unattended" and policy.profile != "unattended":
        return False
    strength = STRENGTH
    return all(strength[policy.decision(name)] >= strength[than.decision(name)] for name in DEFAULT_VERDICTS)


_current: contextvars.ContextVar[Policy] = contextvars.ContextVar(
    "agentbus_guard_policy", default=DEFAULT_POLICY
)


def current_policy() -> Policy:
    """The policy of the decision under way (the default outside one)."""
    return _current.get()


@contextlib.contextmanager
def using(policy: Policy) -> Iterator[Policy]:
    """Judge with ``policy`` inside the block (code judged within code inherits it)."""
    token = _current.set(policy)
    try:
        yield policy
    finally:
        _current.reset(token)


def in_argument(verdict: Verdict | None, policy: Policy) -> Verdict | None:
    """``verdict``, about a command line a program was given as an argument and may run or only show
    (:class:`~.carriers.Perhaps`), decided by ``policy``: a block becomes a finding of
    :data:`~.verdict.ARGUMENT_COMMAND` (asked by default) that names the danger it would be."""
    decided = policy.apply(verdict)
    if decided is None or decided.decision != BLOCK:
        return decided
    why = f"{decided.category} if the program runs it: {decided.why}"
    return policy.apply(Verdict(ARGUMENT_COMMAND, decided.piece, why, rule=decided.rule))


def hold(call: ToolCall, verdict: Verdict | None) -> bool:
    """Block ``call`` or ask about it, as the current policy decides ``verdict``; True if held."""
    decided = current_policy().apply(verdict)
    if decided is None:
        return False
    if decided.decision == ASK:
        call.ask(decided.reason)
    else:
        call.block(decided.reason)
    return True


def bind(guard: Guard, policy: Policy) -> Guard:
    """``guard`` deciding by ``policy``: its handler judges inside :func:`using`."""
    if policy == DEFAULT_POLICY:
        return guard  # the context's default: no wrapper, no cost
    handler = guard.handler

    @functools.wraps(handler)
    def judged_by_policy(call: ToolCall) -> None:
        with using(policy):
            handler(call)

    return guard.replace(handler=judged_by_policy)

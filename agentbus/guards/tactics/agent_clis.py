"""Another coding agent started with its own permission checks turned off.

The Nx "s1ngularity" packages (August 2025) ran the AI CLIs they found on the machine with the flags
that skip every confirmation (``claude --dangerously-skip-permissions``, ``gemini --yolo``, ``q chat
--trust-all-tools``) and a prompt asking them to hunt for wallets and keys. Started by a guarded
agent, such an agent runs whatever it decides out of the guard's sight: the guard turned off,
:data:`~..verdict.IMPAIR`. The same CLIs with their checks on (``claude -p "..."``, ``gemini -p``,
``q chat``) pass: they ask before they act.
"""

from __future__ import annotations

import itertools

from ..findings import finding
from ..findings import static_args as _values
from ..programs import Invocation
from ..verdict import IMPAIR, Verdict

__all__ = ["judge"]

_UNCHECKED: dict[str, frozenset[str]] = {
    "claude": frozenset({"--dangerously-skip-permissions", "--permission-mode=bypassPermissions"}),
    "gemini": frozenset({"--yolo", "-y", "--approval-mode=yolo"}),
    "qwen": frozenset({"--yolo", "-y", "--approval-mode=yolo"}),
    "codex": frozenset({"--dangerously-bypass-approvals-and-sandbox", "--yolo"}),
    "amp": frozenset({"--dangerously-allow-all"}),
    "q": frozenset({"--trust-all-tools"}),
}
"""Per agent CLI, the flags that let it run tools and commands without asking anyone."""
_VALUE_FLAGS = {"--permission-mode": "bypassPermissions", "--approval-mode": "yolo"}


def judge(invocation: Invocation, home: str) -> Verdict | None:
    """An agent CLI given a flag of :data:`_UNCHECKED`."""
    flags = _UNCHECKED.get(invocation.name)
    if flags is None:
        return None
    values = _values(invocation)
    if invocation.name == "q" and "chat" not in values:
        return None  # q (harelba's SQL over text files) has no such flag: only Amazon Q's chat
    given = set(values)
    given.update(f"{a}={b}" for a, b in itertools.pairwise(values) if _VALUE_FLAGS.get(a) == b)
    unchecked = sorted(flags & given)
    if not unchecked:
        return None
    return finding(
        IMPAIR,
        invocation,
        f"starts {invocation.name} with {unchecked[0]}: another agent acting without asking",
    )

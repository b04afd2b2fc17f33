"""What :func:`agentbus.init_registry` installs into the process-wide registry.

Seed 000 registers its two guards when the global registry is initialised;
agentbus installs four, each with its own id:

======================================  ===========  =====================================
id                                      priority     judges
======================================  ===========  =====================================
``builtin:command-safety-guard``        100          ``exec`` commands (seed 000)
``builtin:security-audit``              99           paths of the file tools (seed 000)
``builtin:shell-file-guard``            99           file arguments of ``exec`` commands
``builtin:search-path-guard``           99           paths and globs of search tools
======================================  ===========  =====================================

Call :func:`install` again to change how they run: it replaces the guards'
registrations, so ``install(agentbus.init_registry(), shadow=True)`` puts every
guard in shadow mode and ``install(registry, disable=["builtin:shell-file-guard"])``
removes one.

Each guard's module is imported when the first call it judges comes, not when
it is installed: a Claude Code hook process answers one call, and a ``Read``
needs neither the shell parser nor the tactic tables (the handlers below are
the guards of :mod:`agentbus.guards.danger` and :mod:`agentbus.guards.files`,
each loaded on its first call; a module that cannot be imported makes that
call fail, which a tool.before guard turns into a block).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..guards.policy import Policy
from ..guards.tool_matchers import (
    COMMAND_SAFETY_GUARD_ID,
    EXEC_TOOL,
    FILE_TOOLS,
    SEARCH_PATH_GUARD_ID,
    SEARCH_TOOL_NAMES,
    SEARCH_TOOLS,
    SECURITY_AUDIT_ID,
    SHELL_FILE_GUARD_ID,
)
from ..guards.verdict import Guard, install_guards
from ..registry import Registry, add_builtin_installer

if TYPE_CHECKING:
    from ..events import ToolCall

__all__ = ["GUARDS", "GUARD_IDS", "install", "load"]


# One function each: the stack credits a decision to the registration whose code made it.
def command_safety_guard(call: ToolCall) -> None:
    """:func:`agentbus.guards.danger.command_safety_guard`, imported at its first call."""
    from ..guards.danger import command_safety_guard as guard

    guard(call)


def security_audit(call: ToolCall) -> None:
    """:func:`agentbus.guards.files.security_audit`, imported at its first call."""
    from ..guards.files import security_audit as guard

    guard(call)


def shell_file_guard(call: ToolCall) -> None:
    """:func:`agentbus.guards.files.shell_file_guard`, imported at its first call."""
    from ..guards.files import shell_file_guard as guard

    guard(call)


def search_path_guard(call: ToolCall) -> None:
    """:func:`agentbus.guards.files.search_path_guard`, imported at its first call."""
    from ..guards.files import search_path_guard as guard

    guard(call)


GUARDS: tuple[Guard, ...] = (
    Guard(id=COMMAND_SAFETY_GUARD_ID, handler=command_safety_guard, tool=EXEC_TOOL, priority=100),
    Guard(id=SECURITY_AUDIT_ID, handler=security_audit, tool=FILE_TOOLS, priority=99),
    Guard(id=SHELL_FILE_GUARD_ID, handler=shell_file_guard, tool=EXEC_TOOL, priority=99),
    Guard(
        id=SEARCH_PATH_GUARD_ID,
        handler=search_path_guard,
        tool=SEARCH_TOOLS,
        priority=99,
        declare=SEARCH_TOOL_NAMES,
    ),
)
"""Every built-in guard, in installation order: :data:`agentbus.guards.danger.GUARD` and
:data:`agentbus.guards.files.GUARDS`, each judging through its module once a call comes."""
GUARD_IDS: tuple[str, ...] = tuple(guard.id for guard in GUARDS)

_MODULES = {
    COMMAND_SAFETY_GUARD_ID: "agentbus.guards.danger",
    SECURITY_AUDIT_ID: "agentbus.guards.files",
    SHELL_FILE_GUARD_ID: "agentbus.guards.files",
    SEARCH_PATH_GUARD_ID: "agentbus.guards.files",
}
"""Where each guard's judge lives."""


def load(ids: Iterable[str]) -> None:
    """Import now the modules of the built-in guards among ``ids`` (other ids are skipped).

    The hook imports the guards of its one call before it lets the garbage
    collector run (see :func:`agentbus.hook.run`); otherwise the first call loads them.
    """
    for guard_id in ids:
        module = _MODULES.get(guard_id)
        if module is not None:
            importlib.import_module(module)


def install(
    registry: Registry,
    *,
    shadow: bool | Iterable[str] = False,
    disable: Iterable[str] = (),
    priorities: Mapping[str, int] | None = None,
    verdicts: Mapping[str, str] | None = None,
    profile: str = "attended",
    policy: Policy | None = None,
) -> None:
    """Add the built-in guards to ``registry`` (replacing earlier registrations of them).

    ``shadow``: True runs every guard in shadow mode (its decision is recorded,
    not applied), or pass the ids to shadow. ``disable``: ids to leave out.
    ``priorities``: ``{id: priority}`` overrides. Unknown ids raise ValueError
    with the list of valid ones.

    ``verdicts``: ``{category: "block" | "ask" | "allow"}`` overrides of what a
    category of danger does (:data:`agentbus.guards.verdict.DEFAULT_VERDICTS`);
    ``profile="unattended"`` turns every ask into a block. Or pass a ready
    ``policy`` (:class:`agentbus.guards.policy.Policy`) instead of both.
    """
    if policy is None:
        policy = Policy(verdicts=verdicts, profile=profile)
    elif verdicts is not None or profile != "attended":
        raise TypeError("pass either policy or verdicts/profile, not both")
    install_guards(registry, GUARDS, shadow=shadow, disable=disable, priorities=priorities, policy=policy)


add_builtin_installer(install)

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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..guards import danger as command_guard
from ..guards import files as path_guard
from ..guards.policy import Policy
from ..guards.verdict import Guard, install_guards
from ..registry import Registry, add_builtin_installer

__all__ = ["GUARDS", "GUARD_IDS", "install"]

GUARDS: tuple[Guard, ...] = (command_guard.GUARD, *path_guard.GUARDS)
"""Every built-in guard, in installation order."""
GUARD_IDS: tuple[str, ...] = tuple(guard.id for guard in GUARDS)


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

"""What :func:`agentbus.init_registry` installs into the process-wide registry.

The built-in guards of seed 000 (command safety, security audit) register
themselves here; ``install`` is called once, when the default registry is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..registry import Registry, add_builtin_installer

__all__ = ["install"]


def install(
    registry: Registry,
    *,
    shadow: bool = False,
    disable: Iterable[str] = (),
    priorities: Mapping[str, int] | None = None,
) -> None:
    """Add the built-in registrations to ``registry``.

    ``shadow`` runs them in shadow mode, ``disable`` leaves out the ids named,
    ``priorities`` overrides priorities by id.
    """
    # The guards issue adds builtin:command-safety-guard and builtin:security-audit here.


add_builtin_installer(install)

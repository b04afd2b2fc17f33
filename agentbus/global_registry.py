"""The process-wide default registry (the seed's init / get / reset).

A module of its own, apart from :mod:`agentbus.registry`, because it installs
the built-in guards: the registry module then never imports the middleware
that imports it.
"""

from __future__ import annotations

import threading

from . import registry as _registry
from .registry import Registry

__all__ = ["get_registry", "init_registry", "reset_registry"]

_default: Registry | None = None
_default_lock = threading.Lock()


def init_registry() -> Registry:
    """Create the process-wide registry with the built-in guards; idempotent."""
    global _default
    with _default_lock:
        if _default is None:
            registry = Registry()
            from .middleware import builtin  # noqa: F401 - registers its installer on import

            for install in _registry._builtin_installers:
                install(registry)
            _default = registry
        return _default


def get_registry() -> Registry | None:
    """The process-wide registry, or None before :func:`init_registry`."""
    return _default


def reset_registry() -> None:
    """Forget the process-wide registry (for tests)."""
    global _default
    with _default_lock:
        _default = None

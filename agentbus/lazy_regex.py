"""Regular expressions compiled on first use, not at import.

The guards hold about sixty patterns at module level, and Claude Code starts a
hook process for every tool call: compiling them all was about a tenth of that
process, while a call like ``git status`` uses a handful. :func:`lazy_compile`
returns a stand-in that compiles its pattern the first time a method is looked
up, then keeps the compiled pattern's methods, so later calls cost what they
cost on a compiled pattern.

Use it for module-level patterns that are only called (``.search``,
``.match``, ``.sub`` ...). Where a real :class:`re.Pattern` is needed (an
``isinstance`` check, a registry matcher, an argument to ``re.search``),
compile with :func:`re.compile`. A pattern that does not compile raises
:class:`re.error` at its first use, not at import: tests that exercise each
pattern catch it.
"""

from __future__ import annotations

import re
import time
from typing import Any, AnyStr, cast

__all__ = ["compiling_seconds", "lazy_compile"]

_compiling = 0.0
"""Seconds this process has spent compiling lazy patterns (each once): a decision's budget leaves them out."""


def compiling_seconds() -> float:
    """Seconds spent so far compiling the patterns of :func:`lazy_compile` in this process."""
    return _compiling


_KEPT = (
    *("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer", "scanner"),
    *("flags", "groups", "groupindex"),
)
"""What a compiled pattern offers, copied into the stand-in when it compiles."""


def lazy_compile(pattern: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, deferred until the pattern is first used."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(pattern, flags))


class _LazyPattern:
    """Stands for a compiled pattern; compiles it when an attribute it lacks is looked up."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        """Reached only before compiling (and for names a pattern lacks): compile, then
        keep the compiled pattern's methods in this instance, where lookups find them first."""
        if name.startswith("__"):  # copy, pickle, introspection: no reason to compile
            raise AttributeError(name)
        global _compiling
        started = time.monotonic()
        compiled = re.compile(self.pattern, self._flags)
        _compiling += time.monotonic() - started
        for kept in _KEPT:
            setattr(self, kept, getattr(compiled, kept))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags!r})"

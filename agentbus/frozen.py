"""Small immutable classes that cost nothing to define.

Claude Code starts a hook process for every tool call, and attrs builds each of
its classes when the module is imported (it generates the methods' source and
compiles it, then makes the class again with slots): about 3 million
instructions a class, which for the guards' internal classes was about a tenth
of that process. Those classes derive from :class:`Frozen` instead and write
their ``__init__`` by hand; this base gives them what attrs gave them:

- immutability: assigning an attribute raises :class:`AttributeError`, so
  ``__init__`` sets fields with ``object.__setattr__``;
- equality and a hash over the fields (those in ``_not_compared`` left
  out), a ``repr`` of them in the order annotated (``_not_shown`` left out);
- :meth:`replace`, a copy with some fields changed (``attrs.evolve``).

A subclass annotates its fields in the class body and lists them in
``__slots__``; a field whose name starts with ``_`` is derived in ``__init__``
from the others, and is never passed to it, compared or shown. Public classes, which users construct,
stay attrs classes.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

__all__ = ["Frozen"]

F = TypeVar("F", bound="Frozen")


class Frozen:
    """An immutable value: fields in ``__slots__``, set by a hand-written ``__init__``."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    """The fields ``__init__`` takes, as annotated in the class (without the derived ones)."""
    _eq_fields: ClassVar[tuple[str, ...]] = ()
    _repr_fields: ClassVar[tuple[str, ...]] = ()
    _not_compared: ClassVar[frozenset[str]] = frozenset()
    """Fields left out of ``==`` and the hash (attrs' ``eq=False``)."""
    _not_shown: ClassVar[frozenset[str]] = frozenset()
    """Fields left out of the ``repr`` (attrs' ``repr=False``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__annotations__  # this class's own, in the order written
        cls._fields = tuple(name for name in declared if not name.startswith("_"))
        cls._eq_fields = tuple(name for name in cls._fields if name not in cls._not_compared)
        cls._repr_fields = tuple(name for name in cls._fields if name not in cls._not_shown)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: use .replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._eq_fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *self._key()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._repr_fields)
        return f"{type(self).__name__}({fields})"

    def replace(self: F, **changes: Any) -> F:
        """A copy with ``changes`` (field names as keywords), made by ``__init__``."""
        values = {name: getattr(self, name) for name in self._fields}
        unknown = changes.keys() - values.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values.update(changes)
        return type(self)(**values)

    def __reduce__(self) -> tuple[Any, ...]:  # copy, deepcopy and pickle
        return (_rebuild, (type(self), {name: getattr(self, name) for name in self._fields}))


def _rebuild(cls: type[F], values: dict[str, Any]) -> F:
    """Unpickle: ``__init__`` again, so derived fields are derived again."""
    return cls(**values)

"""The values a command's arguments give an option, spelled as most programs take them."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["option_values"]


def option_values(values: Sequence[str], options: frozenset[str]) -> list[str]:
    """The values given to ``options``: ``--opt VALUE``, ``--opt=VALUE``, ``-oVALUE`` (a short one)."""
    found: list[str] = []
    for index, value in enumerate(values):
        if value in options:
            if index + 1 < len(values):
                found.append(values[index + 1])
            continue
        key, equals, rest = value.partition("=")
        if equals and key in options:
            found.append(rest)
        elif not value.startswith("--") and value[:2] in options and len(value) > 2:
            found.append(value[2:])
    return found

"""Sizes as the command-line tools write them (``100G``, ``1MiB``, ``512k``, ``1Mx2``), in bytes.

The disk-fill rule (:mod:`.tactics.impact`) reads how much ``dd``, ``head -c``, ``fallocate`` and
``mkfile`` are told to write, and holds back what is more than :data:`DISK_FILL_LIMIT`.
"""

from __future__ import annotations

from ..lazy_regex import lazy_compile

__all__ = ["DISK_FILL_LIMIT", "size_in_bytes"]

DISK_FILL_LIMIT = 10 * 2**30
"""10 GiB: more than a coding task makes out of nothing (test fixtures, a scratch image, a swap file
for a build are megabytes to a few gigabytes), and enough to fill a laptop's or a CI runner's free
space. A file this large made from ``/dev/zero`` (or allocated) is judged as filling the disk."""

_SIZE = lazy_compile(r"^(\d+(?:\.\d+)?)([a-zA-Z]{0,3})$")
_POWERS = "KMGTPEZY"


def _scale(suffix: str) -> int | None:
    """What one unit of ``suffix`` is in bytes, as GNU coreutils and BSD read it.

    ``K``, ``M``, ``G`` … (either case, with or without ``iB``) are powers of 1024; ``KB``, ``MB``
    … powers of 1000; dd's ``c`` (1), ``w`` (2) and ``b`` (512 bytes, a block). None: not a size.
    """
    if not suffix:
        return 1
    lowered = suffix.lower()
    if lowered in ("c", "w", "b"):
        return {"c": 1, "w": 2, "b": 512}[lowered]
    power = _POWERS.find(suffix[0].upper()) + 1
    if power == 0 or lowered[1:] not in ("", "b", "ib"):
        return None
    base = 1000 if lowered[1:] == "b" and suffix[1:] != "b" else 1024  # 1MB is 10**6; BSD's 1mb, 1m: 2**20
    return int(base**power)


def size_in_bytes(text: str) -> int | None:
    """``text`` as a number of bytes (``100G``, ``1.5GiB``, ``4kB``; dd's products ``1Mx2``);
    None when it is not a size (a variable, a word)."""
    total = 1
    for factor in text.split("x") if text else [""]:
        match = _SIZE.match(factor)
        if match is None:
            return None
        scale = _scale(match.group(2))
        if scale is None:
            return None
        total *= int(float(match.group(1)) * scale)
    return total

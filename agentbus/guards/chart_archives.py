"""A packaged Helm chart (``helm install x ./chart.tgz``): its values and templates, read from the archive.

``helm package`` makes a gzip-compressed tar whose one top directory is the chart
(``mychart/values.yaml``, ``mychart/templates/…``, ``mychart/charts/…``); helm reads it
as it reads a chart directory. The project is not trusted, so the archive is hostile
input, and reading it must not cost more than reading a script:

- the file is read like a script (a regular file only, non-blocking, at most
  :data:`MAX_ARCHIVE` bytes), and inflated in memory, nothing written to disk;
- inflating stops at :data:`MAX_UNPACKED` bytes (a gzip bomb ends there, not in memory);
- the tar is walked by its 512-byte headers, in one pass: only regular files are taken,
  names from the header, a GNU long name or a pax ``path`` record (each bounded), and
  only what helm reads (``values.yaml``, templates, subcharts); nested subchart archives
  (``charts/x.tgz``) are read the same way, to :data:`MAX_NESTING`.

The tar headers are read here rather than with :mod:`tarfile`: the module of the Python
versions agentbus supports parses pax headers with a regular expression that a crafted
archive makes backtrack for minutes (CVE-2024-6232), and only names and sizes are needed.
What cannot be read is a :attr:`PackagedChart.problem`, which the guard asks a person about.
"""

from __future__ import annotations

import os
import posixpath
import stat
import zlib
from dataclasses import dataclass, field

from .bounded_read import Unreadable, opened, read_at_most
from .budget import spend

__all__ = [
    "MAX_ARCHIVE",
    "MAX_NESTING",
    "MAX_UNPACKED",
    "PackagedChart",
    "read_chart_archive",
    "unpack_chart",
]

MAX_ARCHIVE = 4 * 1024 * 1024
"""The largest chart archive read; a larger one is asked about."""
MAX_UNPACKED = 16 * 1024 * 1024
"""How much an archive (with its nested subcharts) may inflate to before it is given up."""
MAX_MEMBERS = 2048
"""How many tar entries are walked."""
MAX_NESTING = 3
"""How deep subchart archives inside archives are read."""
_MAX_FILE = 512 * 1024
"""The largest template or values file kept (as for a script)."""
_MAX_NAME_RECORD = 64 * 1024
"""The largest GNU long-name or pax header read for a name."""
_TEMPLATE_SUFFIXES = (".yaml", ".yml", ".tpl", ".json")
_BLOCK = 512


@dataclass
class PackagedChart:
    """What helm would read of one packaged chart: its values, templates and subcharts, or a problem."""

    values: str | None = None
    templates: list[tuple[str, str]] = field(default_factory=list)
    """(name inside the chart, text), in the archive's order."""
    subcharts: list[tuple[str, PackagedChart]] = field(default_factory=list)
    problem: str = ""
    """Why the chart cannot be judged (empty: it was read)."""


class _Unreadable(Exception):
    """The archive is not a chart helm could read, or it is past a bound."""


def read_chart_archive(path: str) -> PackagedChart:
    """The packaged chart at ``path`` (a ``.tgz``), read as hostile input."""
    try:
        data = _read_file(path)
    except _Unreadable as exc:
        return PackagedChart(problem=str(exc))
    return unpack_chart(data)


def unpack_chart(data: bytes, depth: int = 0) -> PackagedChart:
    """The chart a gzip tar's bytes hold (``depth``: how deep in other archives it is)."""
    budget = [MAX_UNPACKED]
    try:
        return _chart(_members(data, budget), depth, budget)
    except _Unreadable as exc:
        return PackagedChart(problem=str(exc))


def _read_file(path: str) -> bytes:
    try:
        before = os.stat(path)
    except OSError as exc:
        raise _Unreadable(f"it cannot be read ({exc.strerror or type(exc).__name__})") from None
    if not stat.S_ISREG(before.st_mode):
        raise _Unreadable("it is not a regular file")
    if before.st_size > MAX_ARCHIVE:
        raise _Unreadable(f"it is larger than the {MAX_ARCHIVE // 1024 // 1024} MiB the guard reads")
    try:
        with opened(path, before) as (descriptor, _):
            data = read_at_most(descriptor, MAX_ARCHIVE)
    except Unreadable as exc:
        raise _Unreadable(str(exc)) from None
    if len(data) > MAX_ARCHIVE:
        raise _Unreadable(f"it is larger than the {MAX_ARCHIVE // 1024 // 1024} MiB the guard reads")
    return data


def _inflate(data: bytes, budget: list[int]) -> bytes:
    """The gzip stream ``data`` inflated, at most the bytes left in ``budget``."""
    parts: list[bytes] = []
    rest = data
    while rest:  # gzip members one after another are one stream to helm (Go's reader is multistream)
        spend()
        inflater = zlib.decompressobj(wbits=31)  # gzip only, as helm reads
        try:
            out = inflater.decompress(rest, budget[0] + 1)
        except zlib.error:
            raise _Unreadable("it is not a gzip-compressed chart archive") from None
        if len(out) > budget[0] or inflater.unconsumed_tail:
            raise _Unreadable(f"it inflates past the {MAX_UNPACKED // 1024 // 1024} MiB the guard reads")
        if not inflater.eof:
            raise _Unreadable("its gzip data is cut short")
        budget[0] -= len(out)
        parts.append(out)
        rest = inflater.unused_data
    if not parts:
        raise _Unreadable("it is empty")
    return b"".join(parts)


def _members(data: bytes, budget: list[int]) -> dict[str, bytes | None]:
    """The regular files of a gzip tar, by name (leading ``./`` removed), each at most ``_MAX_FILE``
    bytes (a larger one is None: helm would read it, so it makes the chart unjudged). Names and
    sizes are read as Go's tar reader (helm's) reads them: a GNU long name, a pax ``path`` and a
    pax ``size`` override the header's; an entry of a kind no chart holds (sparse files, volume
    labels) makes the archive unreadable rather than skipped."""
    tar = _inflate(data, budget)
    files: dict[str, bytes | None] = {}
    offset = 0
    long_name: str | None = None
    pax: dict[bytes, bytes] = {}
    for _ in range(MAX_MEMBERS):
        spend()
        header = tar[offset : offset + _BLOCK]
        if len(header) < _BLOCK or header == bytes(_BLOCK):
            return files  # the end (two zero blocks, or the data ends)
        kind = header[156:157]
        size = _octal(header[124:136])
        if b"size" in pax and kind not in _NAMING:
            size = int(pax[b"size"]) if pax[b"size"].isdigit() and len(pax[b"size"]) < 19 else -1
        start = offset + _BLOCK
        if size < 0 or start + size > len(tar):
            raise _Unreadable("its tar headers are damaged")
        body = tar[start : start + size]
        offset = start + (size + _BLOCK - 1) // _BLOCK * _BLOCK
        if kind in _NAMING:
            if size > _MAX_NAME_RECORD:
                raise _Unreadable("a tar header of it is too large")
            if kind == b"L":
                long_name = body.split(b"\0", 1)[0].decode("utf-8", "replace")
            elif kind == b"x":
                pax = _pax_records(body)
            continue
        name = long_name or _ustar_name(header)
        if b"path" in pax:
            name = pax[b"path"].decode("utf-8", "replace")
        long_name, pax = None, {}
        if kind in _SKIPPED:
            continue  # directories, links, devices, global headers: no chart file
        if kind not in _REGULAR:
            raise _Unreadable(f"it holds a tar entry of a kind the guard does not read ({kind!r})")
        while name.startswith("./"):
            name = name[2:]
        files[name] = body if size <= _MAX_FILE else None
    raise _Unreadable(f"it has more than {MAX_MEMBERS} entries")


_REGULAR = frozenset({b"0", b"\0", b"7"})
_SKIPPED = frozenset({b"1", b"2", b"3", b"4", b"5", b"6", b"g"})
_NAMING = frozenset({b"L", b"K", b"x"})
"""GNU long name and long link name, pax extended header: they describe the entry that follows."""


def _pax_records(body: bytes) -> dict[bytes, bytes]:
    """A pax header's records, ``LENGTH key=value\\n`` each, read by their lengths (a value may hold
    a newline: splitting at newlines would read other records than tar does)."""
    records: dict[bytes, bytes] = {}
    position = 0
    while position < len(body):
        space = body.find(b" ", position, position + 20)
        digits = body[position:space] if space > 0 else b""
        if not digits.isdigit():
            raise _Unreadable("its tar headers are damaged")
        end = position + int(digits)
        if end <= space or end > len(body) or body[end - 1 : end] != b"\n":
            raise _Unreadable("its tar headers are damaged")
        key, equals, value = body[space + 1 : end - 1].partition(b"=")
        if not equals:
            raise _Unreadable("its tar headers are damaged")
        records[key] = value
        position = end
    return records


def _octal(field: bytes) -> int:
    text = field.rstrip(b"\0 ").lstrip(b" ")
    if not text:
        return 0
    if text[0] & 0x80:
        return -1  # base-256 sizes: larger than any chart the guard reads
    try:
        return int(text, 8)
    except ValueError:
        return -1


def _ustar_name(header: bytes) -> str:
    name = header[0:100].split(b"\0", 1)[0]
    if header[257:262] == b"ustar":
        prefix = header[345:500].split(b"\0", 1)[0]
        if prefix:
            name = prefix + b"/" + name
    return name.decode("utf-8", "replace")


def _chart(files: dict[str, bytes | None], depth: int, budget: list[int]) -> PackagedChart:
    """Files of one archive -> the chart in its top directory (helm takes the first part of each name)."""
    tops = {name.split("/", 1)[0] for name in files if "/" in name}
    if len(tops) != 1:
        raise _Unreadable("it does not hold one chart directory")
    top = tops.pop() + "/"
    inside: dict[str, bytes | None] = {}
    for name, body in files.items():
        if not name.startswith(top):
            continue
        relative = name[len(top) :]
        cleaned = posixpath.normpath(relative) if relative else ""
        if relative.startswith("/") or cleaned == ".." or cleaned.startswith("../"):
            raise _Unreadable("it names files outside its chart directory")  # helm refuses it
        inside[cleaned] = body  # web/x/../templates/a.yaml is templates/a.yaml to helm
    return _tree(inside, depth, budget)


def _tree(files: dict[str, bytes | None], depth: int, budget: list[int]) -> PackagedChart:
    chart = PackagedChart()
    nested: dict[str, dict[str, bytes | None]] = {}
    for name, body in files.items():
        spend()
        if name == "values.yaml":
            chart.values = _text(name, body)
        elif name.startswith("templates/") and name.endswith(_TEMPLATE_SUFFIXES):
            chart.templates.append((name, _text(name, body)))
        elif name.startswith("charts/"):
            inner = name[len("charts/") :]
            if "/" in inner:
                folder, _, rest = inner.partition("/")
                nested.setdefault(folder, {})[rest] = body
            elif inner.endswith((".tgz", ".tar.gz")):
                if depth >= MAX_NESTING:
                    raise _Unreadable(f"its subcharts nest more than {MAX_NESTING} archives deep")
                try:
                    sub = _chart(_members(_bytes(name, body), budget), depth + 1, budget)
                except _Unreadable as exc:
                    raise _Unreadable(f"its subchart charts/{inner}: {exc}") from None
                chart.subcharts.append((inner, sub))
    for folder, inner_files in nested.items():
        chart.subcharts.append((folder, _tree(inner_files, depth, budget)))
    return chart


def _bytes(name: str, body: bytes | None) -> bytes:
    if body is None:
        raise _Unreadable(f"{name} is larger than the {_MAX_FILE // 1024} KiB the guard reads")
    return body


def _text(name: str, body: bytes | None) -> str:
    data = _bytes(name, body)
    if b"\0" in data:
        raise _Unreadable(f"{name} is not text")
    return data.decode("utf-8", "replace")

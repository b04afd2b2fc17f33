"""What unpacking, decompressing and decoding a file produces: where a download's payload goes next.

A payload rarely runs under the name it was downloaded as: ``wget kit.tgz; tar xf
kit.tgz; ./kit/install``, ``curl -o p.gz URL; gunzip p.gz; ./p``, ``base64 -d p.b64
> p; ./p``. :mod:`.exfiltration` follows a download through these steps with what
this module says each one makes of its input:

- :func:`unpacking`: an archive extracted (``tar x``, ``unzip``, ``7z x``, ``unrar x``,
  ``ditto -x``, ``cpio -i``), into a directory (``-C``, ``-d``, ``-o``) or, without
  one, where the command runs;
- :func:`derived`: a file made from another's bytes (``gunzip``, ``xz -d``, ``base64
  -d``, ``xxd -r``, ``openssl enc -d``, ``gpg -d``, ``dd``, ``cat > f``), with the
  files it writes;
- :func:`archive_stem` and :func:`named_after`: an archive unpacked where it was puts
  its files in a directory named after it (``xmrig-6.11.2-linux-x64.tar.gz`` holds
  ``xmrig-6.11.2/``), which is how a later ``./xmrig-6.11.2/xmrig`` is known to be
  its content without reading the archive.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from ...lazy_regex import lazy_compile
from ..findings import static_args as _values
from ..operands import operands
from ..parse import WRITE_OPERATORS
from ..programs import Invocation

__all__ = [
    "Derived",
    "Unpacking",
    "archive_stem",
    "derived",
    "name_keys",
    "named_after",
    "stem_keys",
    "unpacking",
]


class Unpacking(NamedTuple):
    """An archive extraction: the archives read (none: standard input) and the directory written."""

    archives: tuple[str, ...]
    directory: str | None
    """Where the files go (``-C DIR``); None: the directory the command runs in."""


class Derived(NamedTuple):
    """A file made from other files' bytes: what it read, what it wrote, and whether it decodes."""

    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    decodes: bool
    """base64, hex or uuencoded text turned into bytes: the output is a payload whatever the input."""


_TARS = frozenset({"tar", "gtar", "bsdtar"})
_SEVEN_ZIPS = frozenset({"7z", "7za", "7zz", "7zr"})
_UNZIP_LISTS = frozenset({"-l", "-t", "-v", "-Z", "-p", "-c", "-z", "-zv", "-lv"})
"""unzip options that list, test or print an archive rather than extract it."""


def unpacking(invocation: Invocation) -> Unpacking | None:
    """The archives ``invocation`` extracts and where, or None if it extracts nothing."""
    name = invocation.name
    values = _values(invocation)
    if name in _TARS:
        return _tar(values)
    if name == "unzip":
        if _UNZIP_LISTS & set(values):
            return None
        archives: list[str] = []
        directory = None
        skip = False
        for index, value in enumerate(values):
            if skip:
                skip = False
            elif value == "-d":
                directory, skip = _following(values, index), True
            elif value.startswith("-d") and len(value) > 2:
                directory = value[2:]
            elif value in ("-P", "-x"):
                skip = value == "-P"
                if value == "-x":
                    break
            elif not value.startswith("-") and not archives:
                archives.append(value)
        return Unpacking(tuple(archives), directory)
    if name in _SEVEN_ZIPS or name == "unrar":
        if values[:1] not in (["x"], ["e"]):
            return None
        plain = [v for v in values[1:] if not v.startswith("-")]
        directory = next((v[2:] for v in values if v.startswith("-o") and len(v) > 2), None)
        if name == "unrar" and len(plain) > 1 and plain[1].endswith("/"):
            directory = plain[1]
        return Unpacking(tuple(plain[:1]), directory)
    if name == "ditto" and any(v.startswith("-x") for v in values):
        plain = [v for v in values if not v.startswith("-")]
        return Unpacking(tuple(plain[:1]), plain[1] if len(plain) > 1 else None) if plain else None
    extracts = any(v in ("-i", "--extract") or (v[:2] == "-i" and v[1:].isalpha()) for v in values)
    if name == "cpio" and extracts:
        directory = next((_following(values, i) for i, v in enumerate(values) if v == "-D"), None)
        command = invocation.command
        inputs = [command.static(r.target) for r in command.redirects if r.op == "<"]
        return Unpacking(tuple(i for i in inputs if i), directory)
    return None


def _tar(values: list[str]) -> Unpacking | None:
    first = values[0] if values else ""
    mode = first.lstrip("-") if first and not first.startswith("--") else ""
    extracts = "x" in mode or any(
        v in ("--extract", "--get") or (v.startswith("-") and not v.startswith("--") and "x" in v[1:])
        for v in values
    )
    if not extracts:
        return None
    archives: list[str] = []
    directory = None
    for index, value in enumerate(values):
        following = _following(values, index)
        if value in ("-C", "--directory"):
            directory = following
        elif value.startswith("--directory="):
            directory = value.partition("=")[2]
        elif value in ("-f", "--file"):
            archives.append(following)
        elif value.startswith("--file="):
            archives.append(value.partition("=")[2])
        elif (index == 0 or value.startswith("-")) and not value.startswith("--") and value.endswith("f"):
            archives.append(following)  # tar xzf A, tar -xvf A
    return Unpacking(tuple(a for a in archives if a and a != "-"), directory)


_DECOMPRESSORS = {"gunzip": ".gz", "unxz": ".xz", "unzstd": ".zst", "bunzip2": ".bz2", "uncompress": ".Z",
                  "unlzma": ".lzma", "unlz4": ".lz4"}  # fmt: skip
_COMPRESSORS = {"gzip": ".gz", "xz": ".xz", "zstd": ".zst", "bzip2": ".bz2", "lzma": ".lzma", "lz4": ".lz4",
                "pigz": ".gz", "pbzip2": ".bz2"}  # fmt: skip
_SUFFIXES = lazy_compile(r"\.(?:t?gz|xz|zst|bz2|Z|lzma|lz4|tbz2?|txz)$")
_DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gpg"})
_COPIERS = frozenset({"cat", "tac", "dd", "tee", "head", "tail"})
BUILDERS = frozenset({"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "musl-gcc", "rustc", "gccgo"})
"""Compilers that build a program from the sources they are given: the program is what its sources are
(an exploit's source fetched, then ``gcc -o poc poc.c``: the fetched code, now a program)."""
_SOURCES = lazy_compile(r"\.(?:c|cc|cpp|cxx|c\+\+|C|s|S|rs|go)$")


def derived(invocation: Invocation) -> Derived | None:
    """The files ``invocation`` makes from other files' bytes, or None if it makes none."""
    name = invocation.name
    values = _values(invocation)
    flags = "".join(v[1:] for v in values if v.startswith("-") and not v.startswith("--"))
    plain = [v for v in values if not v.startswith("-")]
    redirected = _redirected(invocation)
    if name in _DECOMPRESSORS or (name in _COMPRESSORS and ("d" in flags or "--decompress" in values)):
        if "c" in flags or "--stdout" in values or "--to-stdout" in values:
            return Derived(tuple(plain), tuple(redirected), False)
        if name == "zstd" and "-o" in values:
            return Derived(tuple(plain), (_following(values, values.index("-o")),), False)
        return Derived(tuple(plain), tuple(_decompressed(p) for p in plain), False)
    if name in _DECODERS:
        decodes = _decodes(name, values, flags)
        if not decodes:
            return None
        outputs = list(redirected)
        for index, value in enumerate(values):
            if value in ("-out", "-o", "--output", "-output"):
                outputs.append(_following(values, index))
        inputs = [_following(values, i) for i, v in enumerate(values) if v in ("-in", "-input", "-i")]
        inputs += [v for v in plain if v not in outputs and v not in inputs]
        if name == "xxd" and len(plain) > 1:
            inputs, outputs = [plain[0]], [*outputs, plain[1]]
        return Derived(tuple(inputs), tuple(o for o in outputs if o), True)
    if name in BUILDERS:
        sources = [v for v in plain if _SOURCES.search(v)]
        outputs = [_following(values, i) for i, v in enumerate(values) if v == "-o"]
        outputs += [v[2:] for v in values if v.startswith("-o") and len(v) > 2]
        if not sources or "-c" in values or "-S" in values or "-E" in values:
            return None  # an object file, assembly or preprocessed text: not yet a program
        return Derived(tuple(sources), tuple(outputs or ["a.out"]), False)
    if name in _COPIERS:
        if name == "dd":
            inputs = [v[3:] for v in values if v.startswith("if=")]
            outputs = [v[3:] for v in values if v.startswith("of=")] + redirected
            return Derived(tuple(inputs), tuple(outputs), False)
        outputs = plain if name == "tee" else redirected
        inputs = [o.value for o in operands(invocation) if o.role == "input"] if name == "tee" else plain
        return Derived(tuple(inputs), tuple(outputs), False) if outputs else None
    return None


def _decodes(name: str, values: list[str], flags: str) -> bool:
    if name in ("base64", "base32", "basenc"):
        return "d" in flags or "D" in flags or "--decode" in values
    if name == "xxd":
        return "r" in flags
    if name == "uudecode":
        return True
    if name == "openssl":
        return values[:1] in (["enc"], ["base64"], ["aes-256-cbc"]) and "-d" in values
    return name == "gpg" and ("-d" in values or "--decrypt" in values)


def _redirected(invocation: Invocation) -> list[str]:
    command = invocation.command
    return [
        target
        for redirect in command.redirects
        if redirect.op in WRITE_OPERATORS and redirect.fd in ("", "1")
        if (target := command.static(redirect.target)) and not target.startswith("/dev/")
    ]


def _decompressed(path: str) -> str:
    """``p.gz`` -> ``p``, ``x.tgz`` -> ``x.tar``."""
    if path.endswith((".tgz", ".tbz", ".tbz2", ".txz")):
        return path.rsplit(".", 1)[0] + ".tar"
    return _SUFFIXES.sub("", path)


def _following(values: list[str], index: int) -> str:
    return values[index + 1] if index + 1 < len(values) else ""


_ARCHIVE_SUFFIX = lazy_compile(
    r"(?:\.tar)?\.(?:gz|bz2|xz|zst|lz4|lzma|Z)$|\.(?:tgz|tbz2?|txz|tar|zip|7z|rar|jar|cpio|xip)$",
    re.IGNORECASE,
)


def archive_stem(path: str) -> str:
    """An archive's name without its suffixes: ``/tmp/kit-1.2-linux.tar.gz`` -> ``kit-1.2-linux``."""
    return _ARCHIVE_SUFFIX.sub("", posixpath.basename(path))


def stem_keys(stem: str) -> set[tuple[str, str]]:
    """The look-up keys of an archive's stem: the whole (``full``) and its heads at ``-_.`` (``head``).

    With :func:`name_keys`, a dictionary finds in time linear in a name's length
    whether it is :func:`named_after` any of many archives.
    """
    stem = stem.lower()
    keys = {("full", stem)} if stem else set()
    keys.update(("head", stem[:i]) for i, char in enumerate(stem) if char in "-_." and i >= 3)
    return keys


def name_keys(component: str) -> set[tuple[str, str]]:
    """The keys under which a directory or file name finds the archive stems it is named after."""
    name = component.lower()
    if not name or name in (".", ".."):
        return set()
    keys = {("full", name), ("head", name)}
    keys.update(("full", name[:i]) for i, char in enumerate(name) if char in "-_." and i)
    return keys


def named_after(component: str, stem: str) -> bool:
    """Whether a directory or file name is one an archive called ``stem`` would unpack.

    The same name (``kit`` from ``kit.tgz``), the name without a platform tail
    (``xmrig-6.11.2`` from ``xmrig-6.11.2-linux-x64``), or the name with one
    (``tool.app``, ``tool-1.2`` from ``tool.zip``).
    """
    return bool(name_keys(component) & stem_keys(stem))

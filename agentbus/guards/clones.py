"""Repositories a command fetches from the network: ``git clone URL [DIR]``, ``gh repo clone OWNER/REPO``.

A clone alone runs nothing of what it fetched, and stays allowed. But the line that
clones and then runs what it cloned (``git clone URL && cd repo && ./install.sh``,
``git clone URL && make -C repo``) runs code that came from the network in the same
call, before anyone saw it: a download and run (:mod:`.tactics.exfiltration` tracks the
directory as it tracks an unpacked download). A clone of a local path (``git clone
../lib``) fetches nothing.
"""

from __future__ import annotations

import posixpath

from .findings import static_args
from .programs import Invocation
from .project_commands import remote

__all__ = ["cloned"]

_GIT_GLOBAL_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                                "--exec-path", "--super-prefix"})  # fmt: skip
"""git's own options that take a value (before the subcommand)."""
_CLONE_VALUES = frozenset({"-b", "--branch", "--depth", "-o", "--origin", "--reference",
                           "--reference-if-able", "-c", "--config", "--template", "--separate-git-dir",
                           "-j", "--jobs", "--filter", "--shallow-since", "--shallow-exclude", "-u",
                           "--upload-pack", "--server-option", "--bundle-uri", "--revision"})  # fmt: skip
"""``git clone``'s options that take a value (``--depth 1``)."""
_GH_VALUES = frozenset({"-u", "--upstream-remote-name", "-R", "--repo"})


def cloned(invocation: Invocation) -> tuple[str, str] | None:
    """(what is cloned, the directory it lands in, as written) when ``invocation`` clones from the
    network; None otherwise."""
    values = static_args(invocation)
    if invocation.name == "git":
        rest, directory = _after_global(values)
        if rest[:1] != ["clone"]:
            return None
        operands = _operands(rest[1:], _CLONE_VALUES)
        if not operands or not _fetched(operands[0]):
            return None
        target = operands[1] if len(operands) > 1 else _default_directory(operands[0])
        return operands[0], posixpath.join(directory, target) if directory else target
    if invocation.name == "gh" and values[:2] == ["repo", "clone"]:
        operands = _operands(values[2:], _GH_VALUES)
        if not operands:
            return None
        target = operands[1] if len(operands) > 1 else _default_directory(operands[0])
        return operands[0], target
    return None


def _after_global(values: list[str]) -> tuple[list[str], str]:
    """git's subcommand and its arguments, and the directory ``-C DIR`` moves to (``""``: none)."""
    directory = ""
    index = 0
    while index < len(values) and values[index].startswith("-"):
        if values[index] == "-C" and index + 1 < len(values):
            directory = posixpath.join(directory, values[index + 1]) if directory else values[index + 1]
        index += 2 if values[index] in _GIT_GLOBAL_VALUES else 1
    return values[index:], directory


def _operands(values: list[str], takes_value: frozenset[str]) -> list[str]:
    found: list[str] = []
    index = 0
    while index < len(values):
        value = values[index]
        if value == "--":
            found += values[index + 1 :]
            break
        if value.startswith("-"):
            index += 2 if value in takes_value else 1
            continue
        found.append(value)
        index += 1
    return found


def _fetched(source: str) -> bool:
    """A URL or ``host:path`` (scp-like), not a local directory."""
    if remote(source):
        return True
    host, colon, _ = source.partition(":")
    return bool(colon) and "/" not in host and bool(host)


def _default_directory(source: str) -> str:
    """Where git puts a clone when no directory is named: the last part of the URL, less ``.git``."""
    tail = source.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return tail[:-4] if tail.endswith(".git") and len(tail) > 4 else tail

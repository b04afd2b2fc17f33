"""A repository's own git machinery written with the file tools: ``.git/hooks/*``, ``.git/config``.

git runs what these files say with no one choosing to run it: a hook at the next commit or
checkout, a ``core.fsmonitor``, ``core.sshCommand``, pager, filter or diff driver, or a ``!``
alias of the configuration at the next ``git status``, ``fetch`` or ``diff`` (a ``.gitattributes``
only picks drivers the configuration defines). The command guard judges the shell's ways of
writing them (``printf … > .git/hooks/pre-commit``: a hook authored on the command line, blocked as
hidden persistence; ``git config core.fsmonitor CMD``: the command judged). A file tool's Write or
Edit of the same files is judged the same way (:func:`check_git_file_write`):

- a hook (``.git/hooks/NAME``, not a ``.sample``; those of linked worktrees and submodules too):
  hidden persistence, as the shell's is;
- a configuration file (``config``, ``config.worktree``): each setting the write adds is judged
  as the ``git config KEY VALUE`` that would add it (:func:`.danger.check_command`, and the scripts
  it names by :mod:`.script_files`): ``core.hooksPath /dev/null`` is a hook bypass, a download and
  run in a driver is blocked, ``./fsm.sh`` is judged by its content. A remote the write points at
  another repository is the clone tracker's (:func:`.clones.remember_config_written`): what is
  checked out from it and built later is asked about.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

from ..lazy_regex import lazy_compile
from .verdict import STEALTH_PERSISTENCE, Verdict

__all__ = ["check_git_file_write", "config_settings", "git_file"]

_GIT_FILE = lazy_compile(
    r"^(?:worktrees/[^/]+/|modules/(?:.*/)?)?(?:(?P<hook>hooks/[^/]+)|(?P<config>config(?:\.worktree)?))$"
)
"""A hook or configuration file of a git directory, from its ``.git/`` on (the git directories of
linked worktrees, ``worktrees/NAME/``, and of submodules, ``modules/NAME/``: a name may hold ``/``)."""
_MAX_SETTINGS = 64
"""The settings of one written configuration judged (each is a command line judged)."""


def git_file(path: str) -> tuple[str, str] | None:
    """(``"hook"`` or ``"config"``, the work tree) for a hook or configuration file of a git
    directory (``path`` absolute, normalised); None for any other file (a hook's ``.sample``)."""
    repository, dot_git, inside = path.partition("/.git/")
    found = _GIT_FILE.match(inside) if dot_git else None
    if found is None or (found.group("hook") and found.group("hook").endswith(".sample")):
        return None
    return ("hook" if found.group("hook") else "config"), repository or "/"


_SECTION = lazy_compile(r'^[ \t]*\[[ \t]*([\w.-]+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?[ \t]*\](.*)$')
_KEY = lazy_compile(r"^[ \t]*([A-Za-z][\w-]*)[ \t]*(?:=(.*))?$")


def config_settings(text: str) -> Iterator[tuple[str, str]]:
    """(``section[.subsection].name``, value) of each setting of a git configuration file's text,
    in order (git's format: ``[remote "origin"]``, ``[branch.main]``, ``name = value``, quotes,
    ``;``/``#`` comments)."""
    section = ""
    for line in text.splitlines():
        found = _SECTION.match(line)
        if found is not None:
            name, subsection, line = found.group(1), found.group(2), found.group(3)
            section = f"{name}.{subsection}" if subsection is not None else name
        found = _KEY.match(line)
        if found is None or not section:
            continue
        yield f"{section}.{found.group(1)}", _value(found.group(2) or "")


def _value(raw: str) -> str:
    """A configuration value as git reads it: quotes removed, a comment outside them dropped."""
    out: list[str] = []
    quoted = False
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            following = raw[index + 1]
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(following, following))
            index += 2
            continue
        if char == '"':
            quoted = not quoted
        elif char in ";#" and not quoted:
            break
        else:
            out.append(char)
        index += 1
    return "".join(out).strip()


def check_git_file_write(
    path: str, old: str, text: str | None, *, session: str | None = None
) -> Verdict | None:
    """The verdict on a file tool writing ``path`` (absolute, normalised; ``old``: its text now,
    ``text``: after the write, None if the call does not say), when it is a hook or the
    configuration of a git directory; None otherwise (or when the write is harmless)."""
    found = git_file(path)
    if found is None:
        return None
    kind, repository = found
    if kind == "hook":
        name = path.rsplit("/", 1)[-1]
        why = f"writes the git hook {name}: git runs it with no one choosing to run it"
        return Verdict(STEALTH_PERSISTENCE, path, why, rule="git files rule")
    if text is None:
        return None
    before = set(config_settings(old))
    added = [setting for setting in config_settings(text) if setting not in before]
    from . import clones

    if any(re.match(r"(?i)^(?:remote\..+\.url|url\..+\.insteadof)$", key) for key, _ in added):
        clones.remember_config_written(session, path)
    return _judge_settings(added[:_MAX_SETTINGS], repository)


def _judge_settings(added: list[tuple[str, str]], repository: str) -> Verdict | None:
    """Each added setting judged as the ``git config KEY VALUE`` that adds it, strictest first."""
    from .danger import check_command
    from .script_files import check_script_files, stricter

    verdict: Verdict | None = None
    for key, value in added:
        command = shlex.join(["git", "config", key, value])
        found = check_command(command)
        if found is None or found.decision != "block":
            found = stricter(found, check_script_files(command, cwd=repository))
        verdict = stricter(verdict, found)
        if verdict is not None and verdict.decision == "block":
            break
    return verdict

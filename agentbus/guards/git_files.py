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

A configuration file may pull in others: ``[include] path = FILE`` and ``[includeIf "COND"] path =
FILE`` (any condition: it may hold), read as if their settings stood there, relative to the file
that names them; ``GIT_CONFIG_GLOBAL``/``GIT_CONFIG_SYSTEM`` name a whole configuration file.
:func:`configuration_files` gives the files a command makes git read that way (``git config
include.path ../team.cfg``, ``git -c include.path=/abs/x.cfg``, ``GIT_CONFIG_COUNT`` pairs,
``export GIT_CONFIG_GLOBAL=./ci.gitconfig``) as runs :mod:`.script_files` judges: each setting of
the file (and of the files it includes, :data:`MAX_INCLUDE_DEPTH` deep as git reads them) is
judged as the ``git config KEY VALUE`` that would add it.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..lazy_regex import lazy_compile
from .project_commands import FileRun
from .verdict import STEALTH_PERSISTENCE, Verdict

if TYPE_CHECKING:
    from .programs import Invocation

__all__ = [
    "GIT_CONFIG",
    "MAX_INCLUDE_DEPTH",
    "check_git_file_write",
    "config_settings",
    "configuration_files",
    "git_file",
    "include_key",
    "with_included",
]

GIT_CONFIG = "gitconfig"
"""The language of a :class:`.project_commands.FileRun` that is a git configuration file."""
MAX_INCLUDE_DEPTH = 10
"""How deep git follows ``include.path`` (its own limit: ``exceeded maximum include depth``)."""
_INCLUDE_KEY = lazy_compile(r"(?i)^(?:include|includeif\..+)\.path$")
_CONFIG_FILE_VARIABLES = frozenset({"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"})
_CONFIG_OPTION_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value"})
_NOT_FILES = frozenset({"", "/dev/null"})
_CONFIG_READERS = frozenset({"git", "export", "declare", "typeset", "env", "readonly"})


def include_key(key: str) -> bool:
    """``include.path`` or ``includeIf.COND.path``: a key whose value is a configuration file read."""
    return _INCLUDE_KEY.match(key) is not None


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
        return _hook_written(path, repository, text)
    if text is None:
        return None
    before = set(config_settings(old))
    added = [setting for setting in config_settings(text) if setting not in before]
    from . import clones

    settings = with_included(added, posixpath.dirname(path))
    if any(re.match(r"(?i)^(?:remote\..+\.url|url\..+\.insteadof)$", key) for key, _ in settings):
        clones.remember_config_written(session, path)
    return _judge_settings(added[:_MAX_SETTINGS], repository)


def _hook_written(path: str, repository: str, text: str | None) -> Verdict:
    """A hook of the repository worked in (``.git/hooks/pre-commit`` under the call's directory): a
    development task that runs later, on the user's next commit, unseen: a scheduled task, asked, unless
    a command of it is itself held back. Another repository's, a worktree's or a submodule's: blocked."""
    from .danger import check_command
    from .verdict import SCHEDULED
    from .workdir import call_directory

    name = path.rsplit("/", 1)[-1]
    base = call_directory()
    own = (
        base is not None
        and path == f"{repository}/.git/hooks/{name}"
        and (base.rstrip("/") == repository or base.startswith(repository + "/"))
    )
    if not own:
        why = f"writes the git hook {name}: git runs it with no one choosing to run it"
        return Verdict(STEALTH_PERSISTENCE, path, why, rule="git files rule")
    found = check_command(text[:_MAX_HOOK_TEXT]) if text else None
    if found is not None:  # a held command put off until the next commit, unseen: worse than now
        why = f"writes the git hook {name}, which runs {found.category}: {found.piece[:80]}"
        return Verdict(STEALTH_PERSISTENCE, path, why, rule="git files rule")
    why = f"writes the git hook {name}: it runs on the next commit or checkout, unseen"
    return Verdict(SCHEDULED, path, why, rule="git files rule")


_MAX_HOOK_TEXT = 20_000
"""How much of a written hook is judged, as one script (a hook is a short script)."""


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


def configuration_files(invocation: Invocation) -> Iterator[FileRun]:
    """The configuration files ``invocation`` makes git read (module docstring): ``git config
    [--local|--global|--file F] include.path FILE`` (relative to the configuration file written),
    ``include.path`` given on git's command line or in its environment (an absolute path: git
    refuses a relative one there), ``GIT_CONFIG_GLOBAL=FILE`` (also exported)."""
    name = invocation.name
    if name not in _CONFIG_READERS and not invocation.env:
        return
    from .clones import _after_global
    from .findings import static_args
    from .git_settings import environment_settings
    from .git_settings import settings as git_settings

    cwd = invocation.cwd
    values = static_args(invocation)
    assignments = list(invocation.env)
    if name in _CONFIG_READERS and name != "git":
        assignments += [value for value in values if "=" in value]
        given = environment_settings(values)
    elif name == "git":
        rest, directory = _after_global(values)
        given = git_settings(values[: len(values) - len(rest)], invocation.env)
        if directory:
            cwd = posixpath.join(cwd, directory) if cwd else directory
        yield from _config_includes(rest, cwd)
    else:
        given = []
    for key, value in given:
        value = _expanded(value, cwd)
        if include_key(key) and value.startswith(("/", "~")):
            yield FileRun(value, GIT_CONFIG, cwd)
    for assignment in assignments:
        variable, _, value = assignment.partition("=")
        value = _expanded(invocation.command.static(value) or value, cwd)
        if variable in _CONFIG_FILE_VARIABLES and value not in _NOT_FILES:
            yield FileRun(value, GIT_CONFIG, cwd)


def _config_includes(rest: list[str], cwd: str | None) -> Iterator[FileRun]:
    """``git config [OPTIONS] [set|--add] include.path FILE``: FILE, relative to the file written."""
    if not rest or rest[0] != "config":
        return
    where = posixpath.join(cwd, ".git") if cwd else ".git"
    words: list[str] = []
    index = 1
    while index < len(rest):
        word = rest[index]
        if word in _CONFIG_OPTION_VALUES and index + 1 < len(rest):
            if word in ("-f", "--file"):
                where = posixpath.dirname(posixpath.join(cwd or "", rest[index + 1])) or "."
            index += 2
            continue
        if word in ("--global",):
            where = "~"
        elif word.startswith("--file="):
            where = posixpath.dirname(posixpath.join(cwd or "", word[len("--file=") :])) or "."
        elif not word.startswith("-"):
            words.append(word)
        index += 1
    if words[:1] in (["set"], ["add"]):
        words = words[1:]
    if len(words) >= 2 and include_key(words[0]):
        value = _expanded(words[1], cwd)
        path = value if value.startswith(("/", "~")) else posixpath.normpath(posixpath.join(where, value))
        yield FileRun(path, GIT_CONFIG, cwd)


def _expanded(value: str, cwd: str | None) -> str:
    """``$PWD/x.cfg`` (``${PWD}``) as the directory the command runs in."""
    for variable in ("$PWD", "${PWD}"):
        if cwd and value.startswith(variable):
            return cwd + value[len(variable) :]
    return value


def included_files(text: str, path: str) -> list[str]:
    """The files a configuration file's text (at ``path``) includes, where git finds them."""
    here = posixpath.dirname(path)
    found = []
    for key, value in config_settings(text):
        if include_key(key) and value:
            found.append(
                value if value.startswith(("/", "~")) else posixpath.normpath(posixpath.join(here, value))
            )
    return found


def with_included(settings: list[tuple[str, str]], here: str, depth: int = 0) -> list[tuple[str, str]]:
    """``settings``, each ``include.path`` followed by the settings of the file it names (read from
    disk, relative to ``here``, the folder of the file that holds them), as git reads them."""
    from .paths import normalize_path
    from .script_files import read_script

    found: list[tuple[str, str]] = []
    for key, value in settings:
        found.append((key, value))
        if not include_key(key) or not value or depth >= MAX_INCLUDE_DEPTH:
            continue
        path = normalize_path(value, cwd=here)
        text = read_script(path).text if path.startswith("/") else None
        if text:
            inner = list(config_settings(text))[:_MAX_SETTINGS]
            found.extend(with_included(inner, posixpath.dirname(path), depth + 1))
    return found[: _MAX_SETTINGS * 4]

"""Repositories a command fetches from the network: ``git clone URL [DIR]``, ``gh repo clone OWNER/REPO``.

A clone alone runs nothing of what it fetched, and stays allowed. But the line that
clones and then runs a file of what it cloned (``git clone URL && cd repo && ./install.sh``)
runs code that came from the network in the same call, before anyone saw it: a download
and run (:mod:`.tactics.exfiltration` tracks the directory as it tracks an unpacked
download). The line that clones and builds it (``git clone URL && make -C repo``, ``cd repo
&& ./configure``, ``pip install .``) is asked, as the same build in a later call is, and as
a source tarball built is: source is how software gets installed. A clone of a local path
(``git clone ../lib``) fetches nothing.

An agent clones in one tool call and builds in the next. So the command guard
remembers, per session, the directories its calls cloned from the network
(:func:`remember_clones`, kept beside the session's downloads by
:mod:`.session_downloads`), and a later call of the session that runs their code
(``cd y && make``, ``npm install``, ``pip install .``, ``./install.sh``, ``cargo
build``, ``pytest``: :func:`.build_files.runs_code_in`) is asked about
(:func:`check_clone_runs`, category ``unjudged script``): the files the guard can
read are judged as they are for any project (the Makefile's recipes, the
``package.json`` scripts, the ``conftest.py`` and ``build.rs`` the build runs:
a download and run in them is blocked), but a build runs more of the clone than
those (compiled code, tests), which nobody has seen. In one call the files are not
there yet when the line is judged: the build is asked all the same, and a file of the
clone run directly (``./install.sh``, ``make && ./tool``) is blocked as a download and run.
"""

from __future__ import annotations

import os
import posixpath

from .findings import static_args
from .programs import Invocation
from .project_commands import remote
from .verdict import UNJUDGED_SCRIPT, Verdict

__all__ = ["check_clone_runs", "cloned", "remember_clones"]

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


# -- across the calls of a session ---------------------------------------------------------------


def _clones_in(command: str, cwd: str | None) -> list[tuple[str, str]]:
    """(directory, what was cloned) of each network clone in ``command``, the directory absolute
    (relative to ``cwd``, the call's directory): none when it cannot be placed."""
    if "clone" not in command:
        return []
    from .parse import ShellSyntaxError, parsed
    from .paths import normalize_path
    from .programs import walk

    try:
        script = parsed(command)
    except ShellSyntaxError:
        return []
    found = []
    for stages in walk(script, cwd=cwd):
        for invocation in stages:
            clone = cloned(invocation)
            if clone is None:
                continue
            if invocation.cwd is None and not clone[1].startswith(("/", "~")):
                continue  # a directory the guard cannot place (after a cd it cannot follow)
            found.append((normalize_path(clone[1], cwd=invocation.cwd), clone[0]))
    return found


def remember_clones(session: str | None, command: str, cwd: str | None) -> None:
    """Keep the directories ``command`` (a call of ``session`` that was not blocked) clones into.

    A directory that is there now with files in it is not kept: git refuses to clone into it,
    and it is somebody's own."""
    from .session_downloads import CLONES, keep

    try:
        clones = _clones_in(command, cwd)
    except Exception:  # the call was let through: a parse that fails here must not fail it
        return
    entries = []
    for directory, source in clones:
        try:
            occupied = os.path.isdir(directory) and bool(os.listdir(directory))
        except OSError:
            occupied = True
        if not occupied and "\t" not in directory:
            entries.append(f"{directory}\t{source}")
    keep(session, CLONES, entries)


def _trees(session: str | None) -> dict[str, str]:
    from .session_downloads import CLONES, kept

    trees = {}
    for entry in kept(session, CLONES):
        directory, tab, source = entry.partition("\t")
        if tab and directory.startswith("/"):
            trees[directory.rstrip("/") or "/"] = source
    return trees


def _tree_of(path: str, trees: dict[str, str]) -> str | None:
    """The cloned directory ``path`` is in, if any."""
    for directory in trees:
        if path == directory or path.startswith(directory + "/"):
            return directory
    return None


def _tree_beneath(path: str, trees: dict[str, str]) -> str | None:
    """A cloned directory inside ``path`` (``pytest`` in the project collects ``vendor/y``'s tests)."""
    prefix = path.rstrip("/") + "/"
    return next((directory for directory in trees if directory.startswith(prefix)), None)


def check_clone_runs(session: str | None, command: str, cwd: str | None) -> Verdict | None:
    """An ask (category ``unjudged script``, as the policy decides) when ``command`` runs the code of
    a directory this session cloned from the network, or a block when the files the build runs
    show a danger (:mod:`.script_files` judges them); None otherwise (and when nothing was cloned)."""
    trees = _trees(session)
    if not trees:
        return None
    from . import build_files, script_files
    from .parse import ShellSyntaxError, parsed
    from .paths import normalize_path
    from .policy import current_policy
    from .programs import walk

    try:
        script = parsed(command)
    except ShellSyntaxError:
        return None  # the command guard asks about what does not parse
    for stages in walk(script, cwd=cwd):
        for invocation in stages:
            if invocation.cwd is None:
                continue
            places = [*build_files.runs_code_in(invocation)]
            script_word = script_files.script_run(invocation)  # ./install.sh, bash y/setup.sh
            if script_word is not None:
                places.append(script_word)
            collected = {  # pytest, go generate ./...: the code of every folder beneath
                normalize_path(word, cwd=run.cwd)
                for run in build_files.builds(invocation)
                if run.language == build_files.PYTEST or "recursive" in run.entries
                for word in (run.word, *run.fallbacks)
            }
            for word in [*places, *collected]:
                path = normalize_path(word, cwd=invocation.cwd)
                tree = _tree_of(path, trees) or (_tree_beneath(path, trees) if path in collected else None)
                if tree is None:
                    continue
                builds = [b for b in build_files.builds(invocation) if b.cwd is not None]
                judged = script_files.check_runs(builds) if builds else None
                if judged is not None and judged.decision == "block":
                    return judged
                name = posixpath.basename(tree)
                why = (
                    f"runs the code of {name}, cloned from {trees[tree]} in this session: the guard judges "
                    "its build and script files, not the rest of what runs (compiled code, tests), so a "
                    "person is asked"
                )
                piece = " ".join(invocation.command.text.split())
                piece = piece if len(piece) <= 80 else piece[:79] + "…"
                found = Verdict(UNJUDGED_SCRIPT, piece, why, rule="clone rule")
                return script_files.stricter(current_policy().apply(found), judged)
    return None
